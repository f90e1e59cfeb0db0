"""Count, independently of errdex, the ``raise`` statements whose message can be read from source.

A raise counts when it raises a call whose message argument (the first positional argument,
else a ``msg=`` or ``message=`` keyword) is one of:

* a string constant                       ``raise ValueError("bad value")``
* an f-string with some literal text      ``raise ValueError(f"bad value {x}")``
* a ``%`` format of a string constant     ``raise ValueError("bad value %s" % x)``
* ``.format`` on a string constant        ``raise ValueError("bad value {}".format(x))``
* a ``+`` chain with a string constant    ``raise ValueError("bad value " + x)``

Files are chosen the way errdex chooses them by default: tests, docs, examples, vendored code and
hidden directories are skipped, and so are files that do not parse.

Run it as ``python tests/raise_counter.py DIRECTORY`` to print the count.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

SKIPPED_DIRECTORIES = {
    "tests",
    "test",
    "docs",
    "doc",
    "examples",
    "example",
    "benchmarks",
    "benchmark",
    "vendor",
    "vendored",
    "_vendor",
    "third_party",
    "node_modules",
    "__pycache__",
    "site-packages",
}


def is_skipped_directory(name: str) -> bool:
    return name in SKIPPED_DIRECTORIES or name.startswith(".")


def is_skipped_file(name: str) -> bool:
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


#: Skipped only at the root: a project's ``testing/`` holds its tests, ``numpy/testing`` is code.
SKIPPED_AT_ROOT = {"testing"}


def python_files(root: Path) -> list[Path]:
    files = []
    for directory, subdirectories, filenames in os.walk(root):
        at_root = Path(directory) == root
        subdirectories[:] = [
            name
            for name in subdirectories
            if not is_skipped_directory(name) and not (at_root and name in SKIPPED_AT_ROOT)
        ]
        for name in filenames:
            if name.endswith(".py") and not is_skipped_file(name):
                files.append(Path(directory, name))
    return sorted(files)


def is_str_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def added_operands(node: ast.expr) -> list[ast.expr]:
    """``a + b + c`` as ``[a, b, c]``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return added_operands(node.left) + added_operands(node.right)
    return [node]


def is_readable_message(node: ast.expr) -> bool:
    if is_str_constant(node):
        return True
    if isinstance(node, ast.JoinedStr):
        return any(is_str_constant(part) and part.value for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return is_str_constant(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return any(is_str_constant(operand) for operand in added_operands(node))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and is_str_constant(node.func.value)
    return False


def message_argument(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    for keyword in call.keywords:
        if keyword.arg in ("msg", "message"):
            return keyword.value
    return None


def raises_readable_message(node: ast.AST) -> bool:
    if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
        return False
    message = message_argument(node.exc)
    return message is not None and is_readable_message(message)


def count_raises(root: Path) -> tuple[list[tuple[str, int]], int]:
    """Every ``(path relative to root, line)`` raising a readable message, and how many there are."""
    sites = []
    for path in python_files(root):
        try:
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (SyntaxError, ValueError):
            continue
        relative = path.relative_to(root).as_posix()
        for node in ast.walk(tree):
            if raises_readable_message(node):
                sites.append((relative, node.lineno))
    sites.sort()
    return sites, len(sites)


if __name__ == "__main__":
    _, count = count_raises(Path(sys.argv[1]))
    print(count)
