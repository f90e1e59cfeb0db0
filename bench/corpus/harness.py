"""Run error snippets and record what the runtime reports about each error.

Executed by the evaluation venv's python (see make_corpus.py). Reads a JSON list of
``{"id", "library", "snippet"}`` objects on stdin and writes one JSON object per snippet on
stdout: either the recorded error or ``{"id", "dropped": <reason>}``.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.metadata
import io
import json
import linecache
import platform
import socket
import sys
import sysconfig
import traceback
import warnings
from pathlib import Path
from types import TracebackType
from typing import Any

SITE_PACKAGES = Path(sysconfig.get_paths()["purelib"]).resolve()
STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()


class NetworkBlockedError(Exception):
    """Raised when a snippet tries to reach the network (such snippets are dropped)."""


def _refuse_network(*args: object, **kwargs: object) -> None:
    raise NetworkBlockedError("network access is disabled while building the corpus")


def block_network() -> None:
    """Make every attempt to resolve a host or open a connection fail loudly."""
    socket.socket.connect = _refuse_network  # type: ignore[method-assign]
    socket.socket.connect_ex = _refuse_network  # type: ignore[method-assign,assignment]
    socket.create_connection = _refuse_network  # type: ignore[assignment]
    socket.getaddrinfo = _refuse_network  # type: ignore[assignment]


def error_class(exc: BaseException) -> str:
    """The exception class as a traceback prints it."""
    cls = type(exc)
    if cls.__module__ in ("builtins", "__main__"):
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def locate(filename: str) -> tuple[str, Path, Path] | None:
    """Root name, root directory and source file of a library frame, if it is one.

    Absolute paths must lie in ``site-packages`` or the standard library. A relative path
    is what Cython records for code compiled from a library's ``.py`` file (for example
    ``lib/sqlalchemy/engine/_result_cy.py``): it is matched to the installed copy of that
    file by dropping leading directories.
    """
    path = Path(filename)
    if path.is_absolute():
        path = path.resolve()
        if path.is_relative_to(SITE_PACKAGES):
            return "site-packages", SITE_PACKAGES, path
        if path.is_relative_to(STDLIB) and not path.is_relative_to(STDLIB / "site-packages"):
            return "stdlib", STDLIB, path
        return None
    for start in range(len(path.parts)):
        candidate = SITE_PACKAGES.joinpath(*path.parts[start:])
        if candidate.is_file():
            return "site-packages", SITE_PACKAGES, candidate
    return None


def owner(root: str, relative: Path) -> str:
    """The distribution that installed a file (``stdlib`` for the standard library)."""
    if root == "stdlib":
        return "stdlib"
    top = relative.parts[0].removesuffix(".py")
    return importlib.metadata.packages_distributions().get(top, [top])[0]


def statement_at(path: Path, line: int) -> ast.stmt | None:
    """The innermost statement of a source file that spans ``line``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    best: ast.stmt | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        # Nested statements start on or after the line of the statements holding them.
        if best is None or node.lineno >= best.lineno:
            best = node
    return best


def site_kind(statement: ast.stmt | None) -> str:
    """``raise`` or ``assert`` when the error came out of such a statement, else ``other``.

    ``other`` means the error came out of an operation or a call into compiled code (a
    subscript, ``int()``, an attribute lookup ...), not out of a raise statement that a
    source miner could see.
    """
    if isinstance(statement, ast.Raise):
        return "raise"
    if isinstance(statement, ast.Assert):
        return "assert"
    return "other"


def truth_frame(tb: TracebackType | None, snippet_file: str) -> dict[str, Any] | str:
    """The frame that raised (the innermost one), described if it is library source.

    Returns the reason to drop the error when that frame is the snippet's own or has no
    Python source file (C or Cython code, a frozen module, generated code).
    """
    frame = traceback.extract_tb(tb)[-1]
    if frame.filename == snippet_file:
        return "raised by the snippet itself"
    found = locate(frame.filename)
    if found is None or found[2].suffix != ".py":
        return f"raised outside library Python source ({frame.filename})"
    root, base, path = found
    relative = path.relative_to(base)
    line = frame.lineno or 0
    statement = statement_at(path, line)
    return {
        "path": relative.as_posix(),
        "line": line,
        "function": frame.name,
        "root": root,
        "owner": owner(root, relative),
        "kind": site_kind(statement),
        "statement_line": statement.lineno if statement else line,
    }


def chain(exc: BaseException) -> list[BaseException]:
    """The exception and every exception it was chained from."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def library_version(library: str) -> str:
    """The installed version of a distribution, or the Python version for ``stdlib``."""
    if library == "stdlib":
        return platform.python_version()
    return importlib.metadata.version(library)


def run_snippet(item: dict[str, str]) -> dict[str, Any]:
    """Execute one snippet in a fresh namespace and describe the error it raises."""
    source = item["snippet"]
    filename = f"<{item['id']}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    code = compile(source, filename, "exec")
    try:
        exec(code, {"__name__": "__main__"})
    except SystemExit:
        return {"id": item["id"], "dropped": "exited instead of raising"}
    except Exception as exc:
        error = exc
    else:
        return {"id": item["id"], "dropped": "raised no error"}
    if any(isinstance(link, NetworkBlockedError) for link in chain(error)):
        return {"id": item["id"], "dropped": "tried to use the network"}
    # Start the traceback at the snippet, as if it were the user's script.
    assert error.__traceback__ is not None
    error.__traceback__ = error.__traceback__.tb_next
    truth = truth_frame(error.__traceback__, filename)
    if isinstance(truth, str):
        return {"id": item["id"], "dropped": f"{error_class(error)}: {truth}"}
    return {
        "id": item["id"],
        "library": item["library"],
        "version": library_version(item["library"]),
        "snippet": source,
        "error_class": error_class(error),
        "message": str(error),
        "last_line": "".join(traceback.format_exception_only(error)).rstrip("\n"),
        "traceback": "".join(traceback.format_exception(error)),
        "truth": truth,
    }


def main() -> None:
    """Run every snippet from stdin, one JSON line out per snippet."""
    items = json.load(sys.stdin)
    block_network()
    warnings.simplefilter("ignore")
    out = sys.stdout
    for item in items:
        # Whatever a snippet prints must not mix with the JSON lines.
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            record = run_snippet(item)
        print(json.dumps(record, ensure_ascii=False), file=out, flush=True)


if __name__ == "__main__":
    main()
