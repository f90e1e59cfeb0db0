"""JavaScript's and TypeScript's files: which are sources and which are tests, how they decode,
what module each is, and which package a path lies in."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from errdex.reading import read_regular

JS_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx")
TS_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts")
#: Left out of mining: declarations hold no code that runs, minified copies no line worth
#: pointing at (their readable original is mined), and Jest's test, mock and fixture folders.
EXCLUDES = (
    "*.d.ts", "*.d.mts", "*.d.cts", "*.min.js", "*.min.mjs", "*.min.cjs",
    "*.test.*", "*.spec.*", "__tests__", "__mocks__", "__fixtures__", "bower_components",
)  # fmt: skip
NOT_TESTS = ("bower_components", "coverage")
_TEST_FILE = re.compile(r"^.+[.-](test|spec)\.[cm]?[jt]sx?$")
#: The extensions a specifier may leave out (``require('./x')`` loads ``x.js``; TypeScript's
#: ``import './x.js'`` is ``x.ts``): a module is named without them.  ``.cjs`` and ``.mjs`` are
#: always written, and stay (``x.cts`` is imported as ``x.cjs``).
_EXTENSION = re.compile(r"\.[jt]sx?$")
_KEPT = {".cts": ".cjs", ".mts": ".mjs"}
#: ``node_modules/name/`` or ``node_modules/@scope/name/`` at a path's start.
_PACKAGE = re.compile(r"^node_modules/((?:@[^/]+/)?[^/]+)/")
#: The files ``require('./dir')`` (and TypeScript's ``import './dir'``) load from a directory.
INDEX_FILES = frozenset({"index.js", "index.jsx", "index.ts", "index.tsx"})


def is_test_name(name: str) -> bool:
    """``cart.test.js``, ``cart.spec.ts``, ``cart-test.js``: a test file wherever it lies."""
    return _TEST_FILE.match(name) is not None


def module_name(parts: Sequence[str]) -> tuple[str | None, bool]:
    """A file's module: its path from the package's root without the extension, as a relative
    ``require`` names it (``./lib/router``), so that no class qualified with it
    (``./lib/errors.NotFound``) reads as one of an npm package's.  A directory's ``index.js``
    is the directory's module (``require('./router')`` loads ``router/index.js``)."""
    name = parts[-1]
    stem = _EXTENSION.sub("", name)
    for typed, written in _KEPT.items():
        stem = stem.removesuffix(typed) + written if stem.endswith(typed) else stem
    if not stem or any(not p or p in (".", "..") for p in parts):
        return None, False
    if name in INDEX_FILES and len(parts) > 1:
        return "./" + "/".join(parts[:-1]), True
    return "./" + "/".join([*parts[:-1], stem]), name in INDEX_FILES


def package_of(file_path: str) -> str | None:
    """The npm package a path lies in (``node_modules/@scope/name/lib/x.js`` is in
    ``@scope/name``); None where the path names none: a record's path is its package's own."""
    path = file_path.replace("\\", "/")
    # The last ``node_modules`` on the path is the package's own (``a/node_modules/b/`` is b's).
    at = path.rfind("/node_modules/")
    found = _PACKAGE.match(path[at + 1 :] if at >= 0 else path)
    return found[1] if found else None


def module_of(file_path: str) -> str | None:
    """A record's file as a module (``lib/router/index.js`` is ``./lib/router/index``)."""
    return module_name(file_path.replace("\\", "/").split("/"))[0]


def read_source(path: Path, limit: int) -> str:
    """A source file's text: UTF-8, a byte-order mark dropped.  Raises ``OSError`` (not a
    regular file, over ``limit`` bytes) or ``UnicodeDecodeError``; callers count those as skips."""
    data = read_regular(path, limit)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8")
