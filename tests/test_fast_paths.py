"""The extractor's shortcuts, held against the slow readings they stand in for, on real code.

Mining stays near a bare ``ast.parse`` because the walker skips work: it writes the code of
common tests itself instead of calling ``ast.unparse`` (``guards.code_of``), and it looks for
``:=`` only in the expressions whose lines hold one (``extract.assigned_names``).  Each shortcut
must give exactly what the slow reading gives, on every expression and function of real
packages and of the standard library, or a record's facts would change with the speed-up.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from errdex.languages.python.extract import assigned_names, walrus_lines
from errdex.languages.python.guards import _negated, _reading, code_of, condition_guard, names_in
from errdex.languages.python.syntax import split_lines

pytestmark = pytest.mark.pypi

PACKAGES = (("lightning", "2.6.6"),)
#: Standard-library modules dense in ``and``/``or`` tests and in ``:=``.
STDLIB = ("ast.py", "inspect.py", "typing.py", "tarfile.py", "email", "asyncio")


def _sources(pypi_package: Callable[..., Path]) -> Iterator[tuple[Path, str]]:
    lib = Path(shutil.__file__).parent
    roots = [pypi_package(name, version) for name, version in PACKAGES]
    for root in [*roots, *(lib / name for name in STDLIB)]:
        for path in [root] if root.is_file() else sorted(root.rglob("*.py")):
            yield path, path.read_text("utf-8")


def test_code_of_writes_what_unparse_writes(pypi_package: Callable[..., Path]) -> None:
    checked = 0
    for path, text in _sources(pypi_package):
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.expr):
                assert code_of(node) == ast.unparse(node), (path, node.lineno)
                checked += 1
            if isinstance(node, ast.If | ast.While | ast.Assert):
                # The guard's reading, its negation folded, and the names it reads.
                for negated in (False, True):
                    guard = condition_guard("if", node.test, negated, "")
                    core = node.test.operand if _is_not(node.test) else node.test
                    assert guard.names == names_in(core), (path, node.lineno)
                    # ``_quick``'s reading and folded negation, as the piece-by-piece path gives them.
                    reading = (guard.subject, guard.operator, guard.operand)
                    assert reading == _reading(core), (path, node.lineno)
                    folded = _negated(core) if guard.negated else core
                    assert guard.code == ast.unparse(folded), (path, node.lineno)
    assert checked > 100_000


def _is_not(test: ast.expr) -> bool:
    return isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)


def test_assigned_names_looks_for_walrus_only_where_it_can_be(pypi_package: Callable[..., Path]) -> None:
    """Gated on the lines that hold ``:=``, the reading equals the one that walks every
    expression of every function."""
    functions = with_walrus = 0
    for path, text in _sources(pypi_package):
        lines = walrus_lines(split_lines(text)) if ":=" in text else []
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found = assigned_names(node, lines)
                assert found == assigned_names(node, None), (path, node.lineno)
                functions += 1
                with_walrus += any(isinstance(n, ast.NamedExpr) for n in ast.walk(node))
    assert functions > 3_000 and with_walrus > 10
