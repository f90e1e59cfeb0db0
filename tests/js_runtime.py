"""Real errors raised by real npm packages, run by Debian's node: the corpus test_js_runtime.py
explains.

The scripts in ``js_errors/`` call each package's public API wrongly, one case at a time, and
print one JSON line per error (its class, message, ``err.stack``, ``util.inspect(err)``).  They
run once per change to them, against one installed tree (``npm.node_modules(SPEC)``); the lines
are cached under ``<cache>/npm/``.

Where each error was made is read here from its V8 stack, independently of errdex's own stack
reader: the first frame, past the error class's own constructor, must lie inside
``node_modules/``; that frame's package, file and line are the truth.  An error whose first
frame is the runtime's (``JSON.parse``, ``new URL``) or the script's was made by them, not by
the package, and is left out.  V8 leaves out the constructor frames of ``class X extends
Error``, and ``Error.captureStackTrace(err, fn)`` the frames from ``fn`` up: the frame that
remains is the ``new`` (or the call of the helper) that made the error, which is the line a
record of errdex's should name.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import tempfile
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npm import cache_root, locked, node_modules, spec_digest

NODE = "/usr/bin/node"
SCRIPTS = Path(__file__).with_name("js_errors")
#: The packages the scripts misuse, pinned; npm adds their dependencies (body-parser,
#: raw-body, send, @hapi/hoek...), whose errors count as theirs.
SPEC = {
    "ajv": "8.17.1",
    "axios": "1.7.9",
    "commander": "12.1.0",
    "content-type": "1.0.5",
    "cookie": "0.7.2",
    "date-fns": "4.1.0",
    "express": "4.21.2",
    "http-errors": "2.0.0",
    "joi": "17.13.3",
    "js-yaml": "4.1.0",
    "jsonwebtoken": "9.0.2",
    "luxon": "3.5.0",
    "mime": "3.0.0",
    "path-to-regexp": "8.2.0",
    "qs": "6.13.1",
    "semver": "7.6.3",
    "superstruct": "2.0.2",
    "uuid": "10.0.0",
    "validator": "13.12.0",
    "ws": "8.18.0",
    "yargs": "17.7.2",
    "zod": "3.23.8",
}
SCRIPT_TIMEOUT = 180
#: What one script may print: its cases' lines, each capped at 20 kB per text by the harness.
OUTPUT_LIMIT = 32_000_000

_FRAME = re.compile(r"^\s+at (.+)$")
_LOCATION = re.compile(r"^(.*):(\d+):(\d+)$")
#: ``node_modules/name`` or ``node_modules/@scope/name``, as many deep as npm nested them.
_PACKAGE_DIR = re.compile(r"^((?:node_modules/(?:@[^/]+/)?[^/]+/)*node_modules/((?:@[^/]+/)?[^/]+))/(.+)$")


@dataclass(frozen=True, slots=True)
class Frame:
    """One ``at ...`` line of a V8 stack."""

    function: str | None
    #: A file system path (``file://`` URLs decoded); None for a frame in no file
    #: (``<anonymous>``, ``native``, code made by ``eval`` or ``new Function``).
    path: str | None
    line: int | None
    column: int | None
    text: str


def _split_call(body: str) -> tuple[str | None, str]:
    """``fn (location)`` → (fn, location); a bare location → (None, location).  The location's
    own parentheses (``eval at f (file:1:2), <anonymous>:3:4``) are kept together."""
    if not body.endswith(")"):
        return None, body
    depth = 0
    for index in range(len(body) - 1, -1, -1):
        if body[index] == ")":
            depth += 1
        elif body[index] == "(":
            depth -= 1
            if depth == 0:
                if index > 0 and body[index - 1] == " ":
                    return body[: index - 1], body[index + 1 : -1]
                return None, body
    return None, body


def parse_frame(text: str) -> Frame | None:
    """A stack line as a frame, or None when it is not one."""
    found = _FRAME.match(text)
    if found is None:
        return None
    function, location = _split_call(found[1].strip())
    place = _LOCATION.match(location)
    if place is None or location.startswith("eval at ") or function == "eval":
        return Frame(function, None, None, None, text)
    path = place[1]
    if path.startswith("file://"):
        path = urllib.parse.unquote(urllib.parse.urlsplit(path).path)
    elif not path.startswith("/"):  # node:internal/..., <anonymous>, native
        return Frame(function, None, int(place[2]), int(place[3]), text)
    return Frame(function, path, int(place[2]), int(place[3]), text)


def stack_frames(stack: str) -> list[Frame]:
    """The frames of a V8 stack, innermost first: its trailing run of ``at`` lines (a message
    may run over several lines, and frames appended later, as axios does, still count)."""
    frames: list[Frame] = []
    for text in reversed(stack.splitlines()):
        frame = parse_frame(text)
        if frame is None:
            break
        frames.append(frame)
    return frames[::-1]


@dataclass(frozen=True, slots=True)
class Truth:
    """Where an error was made: a line of a file of an installed package."""

    #: The package's folder below the tree (``node_modules/express/node_modules/cookie``).
    package_dir: str
    package: str
    #: The file below the package's folder (``lib/router/index.js``).
    file: str
    line: int

    @property
    def path(self) -> str:
        """The file below the tree, as records mined with ``path_prefix=package_dir + "/"`` name it."""
        return f"{self.package_dir}/{self.file}"


def _source_line(path: str, line: int) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle, 1):
                if number == line:
                    return text
    except OSError:
        pass
    return ""


def _captures_stack(frame: Frame) -> bool:
    """A ``new`` frame at an ``Error.captureStackTrace(this)`` line is an error class's own
    constructor (one V8 names ``new module.exports`` when the class has no name of its own,
    as @hapi/hoek's): the error was made by whoever called ``new``."""
    if frame.path is None or frame.line is None or not (frame.function or "").startswith("new "):
        return False
    return "captureStackTrace(" in _source_line(frame.path, frame.line)


def truth_of(stack: str, tree: Path, constructor: str | None, name: str | None) -> tuple[Truth | None, str]:
    """Where the error was made, or None and why not."""
    frames = stack_frames(stack)
    own = {f"new {n}" for n in (constructor, name) if n}
    while frames and (frames[0].function in own or _captures_stack(frames[0])):
        frames = frames[1:]  # the error's own constructor: it made the object, its caller the error
    if not frames:
        return None, "no stack frames"
    first = frames[0]
    if first.path is None:
        return None, f"made by the runtime: {first.text.strip()}"
    try:
        below = Path(first.path).relative_to(tree).as_posix()
    except ValueError:
        return None, f"made outside the tree: {first.text.strip()}"
    found = _PACKAGE_DIR.match(below)
    if found is None or first.line is None:
        return None, f"not in a package: {below}"
    return Truth(found[1], found[2], found[3], first.line), ""


def _scripts() -> list[Path]:
    return sorted(p for p in SCRIPTS.glob("*.js") if not p.name.startswith("_"))


def scripts_digest(tree: Path) -> str:
    """What names one run's output: every file of ``js_errors/``, node's version, the tree."""
    digest = hashlib.sha256()
    for path in sorted(p for p in SCRIPTS.rglob("*") if p.is_file()):
        digest.update(path.relative_to(SCRIPTS).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True, timeout=30, check=True)
    digest.update(version.stdout.encode() + str(tree).encode())
    return digest.hexdigest()[:16]


def run_script(script: Path, tree: Path) -> list[dict[str, Any]]:
    """One script's lines.  It runs from the tree (so relative paths and ``require`` resolve
    there), with ``NODE_PATH`` for the script's own ``require``s."""
    with tempfile.NamedTemporaryFile(prefix="js-errors-", suffix=".jsonl") as out:
        env = {**os.environ, "NODE_PATH": str(tree / "node_modules"), "ERRDEX_JS_ERRORS_OUT": out.name}
        env.pop("NODE_OPTIONS", None)
        done = subprocess.run(
            [NODE, "--stack-trace-limit=10", str(script)],
            cwd=tree,
            env=env,
            capture_output=True,
            timeout=SCRIPT_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            stderr = done.stderr.decode(errors="replace")[-4000:]
            raise RuntimeError(f"{script.name} exited with {done.returncode}:\n{stderr}")
        size = Path(out.name).stat().st_size
        if size > OUTPUT_LIMIT:
            raise RuntimeError(f"{script.name} printed {size} bytes, more than {OUTPUT_LIMIT}")
        return [json.loads(line) for line in Path(out.name).read_text().splitlines() if line.strip()]


def raw_cases() -> tuple[Path, list[dict[str, Any]]]:
    """The tree, and every case every script printed (raised or not), run at most once per
    change to the scripts."""
    tree = node_modules(SPEC)
    cached = cache_root() / f"js-errors-{spec_digest(SPEC)}-{scripts_digest(tree)}.jsonl"
    if not cached.is_file():
        with locked(cache_root() / f"{cached.name}.lock"):
            if not cached.is_file():
                lines = [line for script in _scripts() for line in run_script(script, tree)]
                partial = cached.with_name(f".{cached.name}.partial")
                partial.write_text("".join(json.dumps(line) + "\n" for line in lines))
                partial.rename(cached)
    return tree, [json.loads(line) for line in cached.read_text().splitlines()]


def corpus() -> list[dict[str, Any]]:
    """The errors made by package code, each with its ``truth`` (a :class:`Truth`)."""
    tree, lines = raw_cases()
    kept = []
    for line in lines:
        if not line["raised"] or not line.get("stack") or line.get("harness"):
            continue
        truth, _ = truth_of(line["stack"], tree, line.get("constructor"), line.get("class"))
        if truth is not None:
            kept.append({**line, "truth": truth})
    return kept


def left_out() -> list[tuple[str, str, str]]:
    """``(package, case, why)`` for every case the corpus does not keep."""
    tree, lines = raw_cases()
    out = []
    for line in lines:
        if not line["raised"]:
            out.append((line["package"], line["case"], "raised nothing"))
        elif not line.get("stack") or line.get("harness"):
            out.append((line["package"], line["case"], f"no stack: {str(line.get('message'))[:80]}"))
        else:
            truth, why = truth_of(line["stack"], tree, line.get("constructor"), line.get("class"))
            if truth is None:
                out.append((line["package"], line["case"], why))
    return out


if __name__ == "__main__":
    from collections import Counter

    errors = corpus()
    print(f"{len(errors)} errors")
    for package, count in sorted(Counter(e["truth"].package for e in errors).items()):
        print(f"  {package}: {count}")
    for package, case, why in left_out():
        print(f"left out: {package}: {case}: {why}")
