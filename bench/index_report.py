"""What an index's explanations are worth, counted over every record, with readings of our own.

    .venv/bin/python bench/index_report.py --db STORE

For an index of a real environment (``errdex index --python PYTHON --db STORE``), per package
and in total:

* ``solution``: share of records with at least one solution;
* ``leaks``: solutions that still hold one of the template's own ``{placeholder}``s (a set
  literal such as ``{None, True}`` is no leak);
* ``private try``: code fields whose ``try`` body calls a name with a private segment
  (``_helper``, ``obj._x``), read with ``ast`` from the code itself;
* ``warn except``: code fields catching a ``Warning`` class with ``except`` (right only where a
  ``warnings.simplefilter("error", ...)`` turns the warning into an error first: counted apart);
* ``no compile``: code fields that do not compile;
* ``orm outside``: records tagged with an ORM family whose package is no ORM library;
* ``unguarded``: records whose prose says the raise is unguarded although the raising line, read
  here from the source with ``ast``, sits in an ``except`` handler, a loop, an ``else`` branch, a
  ``match`` case, under an ``if``, or after an early exit in its block.

The source is read from the environment the index describes (its ``site-packages`` and standard
library, as the store's environment setting names them), never from errdex's facts.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from errdex.record import Record
from errdex.store import open_store

ORM_PACKAGES = {"SQLAlchemy", "Django", "peewee", "tortoise-orm", "pony", "sqlmodel"}
UNGUARDED = re.compile(r"whenever that line is reached|no `if` guards it")
CODE_FIELDS = ("example_fix", "validation_code", "type_guard", "try_catch_pattern")


def private_calls(tree: ast.AST) -> bool:
    """Whether a ``try`` body calls a name with a segment that starts with ``_`` (not dunder)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            for call in (n for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Call)):
                name = ast.unparse(call.func)
                if any(p.startswith("_") and not p.startswith("__") for p in name.split(".")):
                    return True
    return False


def catches_warning(tree: ast.AST) -> bool:
    return any(
        isinstance(node, ast.ExceptHandler) and node.type is not None and "Warning" in ast.unparse(node.type)
        for node in ast.walk(tree)
    )


def guarded(tree: ast.Module, line: int) -> bool:
    """Whether the statement at ``line`` is reached only under some guard (our own reading)."""

    def visit(body: list[ast.stmt], under: bool) -> bool | None:
        exited = False
        for stmt in body:
            start, end = stmt.lineno, stmt.end_lineno or stmt.lineno
            if start <= line <= end:
                if start == line and not isinstance(stmt, ast.If | ast.For | ast.While | ast.Try | ast.With):
                    return under or exited
                return inner(stmt, under or exited)
            if isinstance(stmt, ast.If) and stmt.body and _exits(stmt.body[-1]):
                exited = True
        return None

    def inner(stmt: ast.stmt, under: bool) -> bool | None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return visit(stmt.body, False)
        if isinstance(stmt, ast.If):
            return visit(stmt.body, True) if _within(stmt.body) else visit(stmt.orelse, True)
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            return visit(stmt.body, True) if _within(stmt.body) else visit(stmt.orelse, True)
        if isinstance(stmt, ast.Try | ast.TryStar):
            for handler in stmt.handlers:
                if _within(handler.body):
                    return visit(handler.body, True)
            if _within(stmt.orelse):
                return visit(stmt.orelse, True)
            return visit(stmt.body if _within(stmt.body) else stmt.finalbody, under)
        if isinstance(stmt, ast.With | ast.AsyncWith):
            return visit(stmt.body, under)
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                if _within(case.body):
                    return visit(case.body, True)
        return under

    def _within(body: list[ast.stmt]) -> bool:
        return bool(body) and body[0].lineno <= line <= (body[-1].end_lineno or body[-1].lineno)

    return bool(visit(tree.body, False))


def _exits(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Return | ast.Raise | ast.Continue | ast.Break)


def source_roots(store_path: str) -> list[Path]:
    with open_store(store_path, readonly=True) as store:
        env = json.loads(store.meta_get("environment") or "{}")
    return [Path(p) for p in [*env.get("site", []), env.get("stdlib", "")] if p]


def read_source(roots: list[Path], record: Record, cache: dict[str, ast.Module | None]) -> ast.Module | None:
    path = record.file_path.removeprefix("Lib/") if record.repo == "python/cpython" else record.file_path
    if path not in cache:
        cache[path] = None
        for root in roots:
            if (root / path).is_file():
                with contextlib.suppress(SyntaxError, ValueError, RecursionError):
                    cache[path] = ast.parse((root / path).read_bytes())
                break
    return cache[path]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", required=True)
    args = parser.parse_args()
    roots = source_roots(args.db)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    trees: dict[str, ast.Module | None] = {}
    with open_store(args.db, readonly=True) as store:
        for record in store.records():
            for key in (record.package or record.repo, "total"):
                c = counts[key]
                c["records"] += 1
                c["solution"] += bool(record.solutions)
                marks = [f"{{{name}}}" for name in record.placeholders]
                c["leaks"] += sum(any(m in s for m in marks) for s in record.solutions)
                for name in CODE_FIELDS:
                    code = getattr(record, name)
                    if not code:
                        continue
                    c["code"] += 1
                    try:
                        tree = ast.parse(code)
                    except SyntaxError:
                        c["no compile"] += 1
                        continue
                    c["private try"] += private_calls(tree)
                    if catches_warning(tree):
                        c["warn except" if "simplefilter" not in code else "warn as error"] += 1
                tag = record.background_tag or ""
                c["orm outside"] += "orm" in tag.split("-") and (record.package or "") not in ORM_PACKAGES
                prose = " ".join([record.trigger_scenarios or "", record.documentation or ""])
                if UNGUARDED.search(prose):
                    c["says unguarded"] += 1
                    module = read_source(roots, record, trees)
                    if module is not None and guarded(module, record.line_number):
                        c["unguarded"] += 1
    columns = (
        "records", "solution", "leaks", "code", "no compile", "private try", "warn except", "warn as error",
        "orm outside", "says unguarded", "unguarded",
    )  # fmt: skip
    print(f"{'package':<14}" + "".join(f"{c:>15}" for c in columns))
    for key, c in sorted(counts.items(), key=lambda kv: (kv[0] == "total", kv[0])):
        cells = [str(c["records"]), f"{c['solution'] / c['records']:.0%}"] + [str(c[k]) for k in columns[2:]]
        print(f"{key[:14]:<14}" + "".join(f"{cell:>15}" for cell in cells))


if __name__ == "__main__":
    main()
