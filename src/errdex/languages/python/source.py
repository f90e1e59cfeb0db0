"""Python's files: which are sources and which are tests, how they decode, what module each is."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Sequence
from pathlib import Path

from errdex.reading import read_regular

EXTENSIONS = (".py",)
#: Left out of mining besides what no language's library holds (docs, examples, vendored code).
EXCLUDES = ("__pycache__", "site-packages", "test_*.py", "*_test.py", "conftest.py")
#: Directories that hold no tests of the library itself.
NOT_TESTS = ("site-packages", "__pycache__")
PACKAGE_FILE = "__init__.py"
_TEST_FILE = re.compile(r"^(test_.*|.*_test)\.py$")


def is_test_name(name: str) -> bool:
    """``test_cart.py``, ``cart_test.py``: a test file wherever it lies."""
    return _TEST_FILE.match(name) is not None


def module_name(parts: Sequence[str]) -> tuple[str | None, bool]:
    """The dotted module a file is importable as, from its path below the import root
    (``pkg/sub/mod.py`` is ``pkg.sub.mod``, ``pkg/__init__.py`` is ``pkg``), and whether it is
    a package; None where a piece of the path is no identifier."""
    name = parts[-1]
    is_package = name == PACKAGE_FILE
    pieces = list(parts[:-1]) if is_package else [*parts[:-1], name.removesuffix(".py")]
    if not pieces or not all(p.isidentifier() for p in pieces):
        return None, is_package
    return ".".join(pieces), is_package


def package_of(file_path: str) -> str | None:
    """The top-level package or module a file belongs to, past a ``src/`` or ``Lib/`` layout:
    ``src/lightning/fabric/fabric.py`` is in ``lightning``, ``Lib/configparser.py`` is
    ``configparser``."""
    parts = file_path.replace("\\", "/").split("/")
    if len(parts) > 1 and parts[0] in ("src", "Lib", "lib"):
        parts = parts[1:]
    head = parts[0].removesuffix(".py") if len(parts) == 1 else parts[0]
    return head if head.isidentifier() else None


def module_of(file_path: str) -> str | None:
    """The dotted module a file is, past a ``src/`` or ``Lib/`` layout:
    ``src/lightning/fabric/fabric.py`` is ``lightning.fabric.fabric``, ``Lib/json/__init__.py``
    is ``json``; None where a piece of the path is no identifier."""
    parts = file_path.replace("\\", "/").split("/")
    if len(parts) > 1 and parts[0] in ("src", "Lib", "lib"):
        parts = parts[1:]
    return module_name(parts)[0]


def read_source(path: Path, limit: int) -> str:
    """Decode a file as Python would: BOM, PEP 263 cookie, else UTF-8.

    Raises ``UnicodeDecodeError``, ``SyntaxError`` (bad cookie) or ``OSError`` (not a regular
    file, over ``limit`` bytes); callers record those as skips.
    """

    data = read_regular(path, limit)
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    # A cookie stands in the first two lines (found without splitting off the rest of the file).
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1) if first >= 0 else -1
    if b"coding" not in (data if second < 0 else data[:second]):
        return data.decode("utf-8")
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)
