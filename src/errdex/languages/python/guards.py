"""Guards as structure: a test's syntax tree read as ``subject operator operand``.

The extractor reads each guard on the path to a site from the syntax tree it already has, so
enrichment never parses a condition's text again.  The one other caller is the reading of
records written before guards were kept as structure (:mod:`errdex.languages.python.upgrade`),
which parses each stored condition once.
"""

from __future__ import annotations

import ast

from errdex.languages.python.syntax import dotted
from errdex.record import Guard, GuardKind

_OPERATORS: dict[type[ast.cmpop], str] = {
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
}


def condition_guard(kind: GuardKind, test: ast.expr, negated: bool, text: str) -> Guard:
    """The guard a test makes (``if``, ``elif``, ``while``, an ``assert``, an early exit), with
    ``negated`` set when the site is reached where the test is false (``else``, a failed assert,
    the code after ``if test: return``).  ``text`` is the test as the source writes it."""
    inverted = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    core = test.operand if isinstance(test, ast.UnaryOp) and inverted else test
    subject, operator, operand = _reading(core)
    holds = ast.UnaryOp(ast.Not(), test) if negated else test
    return Guard.model_construct(
        kind=kind,
        text=text,
        negated=negated != inverted,
        subject=subject,
        operator=operator,
        operand=operand,
        names=names_in(test),
        code=ast.unparse(holds),
    )


def _reading(node: ast.expr) -> tuple[str | None, str | None, str | None]:
    """``subject operator operand`` of a test, as far as its shape gives them."""
    if isinstance(node, ast.Compare):
        left = ast.unparse(node.left)
        if len(node.ops) != 1:
            return left, None, None
        return left, _OPERATORS[type(node.ops[0])], ast.unparse(node.comparators[0])
    if isinstance(node, ast.Call):
        called = dotted(node.func)
        first = ast.unparse(node.args[0]) if node.args else None
        second = ast.unparse(node.args[1]) if len(node.args) == 2 else None
        return first, f"{called}()" if called is not None else None, second
    if isinstance(node, ast.Name | ast.Attribute):
        return ast.unparse(node), "truth", None
    return None, None, None


def names_in(node: ast.AST) -> list[str]:
    """The names an expression reads, in order, each once."""
    return list(dict.fromkeys(n.id for n in ast.walk(node) if isinstance(n, ast.Name)))
