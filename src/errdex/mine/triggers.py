"""The errors a project's own tests expect, read from its test files (never run).

``with pytest.raises(ValueError, match="..."):``, ``self.assertRaises(KeyError, f, x)`` and
``assertRaisesRegex`` say which error a call should raise: a test that triggers a record is
the best evidence of how it is triggered, and its ``match`` ties it to one message.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

#: Statement text kept per trigger: enough to show the call, not a whole test.
_MAX_CALL = 240
_EXPECTS = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})
_REGEX_FORMS = frozenset({"assertRaisesRegex", "assertRaisesRegexp"})


@dataclass(frozen=True, slots=True)
class Trigger:
    """One expectation of an error in a test."""

    #: The class as the test writes it (``click.BadParameter``, ``ValueError``).
    error_class: str
    #: The message pattern the test checks, when it checks one.
    match: str | None
    test: str
    path: str
    line: int
    #: What the test runs to get the error, as written.
    call: str | None
    #: Names of the functions that code calls: how a test without ``match`` finds its record.
    called: tuple[str, ...]


def extract_triggers(text: str, path: str) -> list[Trigger]:
    """Every expected error in one test file; a file that does not parse has none."""
    if "raises" not in text and "assertRaises" not in text:
        return []  # most test files of a big suite: no need to parse them
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found: list[Trigger] = []
    _visit(tree.body, "", path, found)
    return found


def _visit(body: list[ast.stmt], prefix: str, path: str, found: list[Trigger]) -> None:
    for stmt in body:
        if isinstance(stmt, ast.ClassDef):
            _visit(stmt.body, f"{prefix}{stmt.name}.", path, found)
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{stmt.name}"
            for node in ast.walk(stmt):
                if isinstance(node, ast.With | ast.AsyncWith):
                    found += _from_with(node, name, path)
                elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                    trigger = _from_call(node.value, name, path)
                    if trigger is not None:
                        found.append(trigger)


def _expectation(call: ast.Call) -> tuple[str, str | None] | None:
    """The class and pattern of ``pytest.raises(X, match=...)``-like calls."""
    func = call.func
    method = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if method not in _EXPECTS or not call.args:
        return None
    expected = call.args[0]
    if isinstance(expected, ast.Tuple) and expected.elts:
        expected = expected.elts[0]
    error_class = _dotted(expected)
    if error_class is None:
        return None
    pattern: ast.expr | None = next(
        (k.value for k in call.keywords if k.arg in ("match", "expected_regex")), None
    )
    if pattern is None and method in _REGEX_FORMS and len(call.args) > 1:
        pattern = call.args[1]
    match = pattern.value if isinstance(pattern, ast.Constant) and isinstance(pattern.value, str) else None
    return error_class, match


def _from_with(node: ast.With | ast.AsyncWith, test: str, path: str) -> list[Trigger]:
    out = []
    for item in node.items:
        if not isinstance(item.context_expr, ast.Call):
            continue
        expected = _expectation(item.context_expr)
        if expected is None:
            continue
        call = _text(node.body[0]) if node.body else None
        called = tuple(dict.fromkeys(name for stmt in node.body for name in _called(stmt)))
        out.append(Trigger(expected[0], expected[1], test, path, node.lineno, call, called))
    return out


def _from_call(call: ast.Call, test: str, path: str) -> Trigger | None:
    """``self.assertRaises(X, func, *args)``: the callable and its arguments follow the class."""
    expected = _expectation(call)
    if expected is None:
        return None
    func = _dotted(call.func)
    is_regex = (func or "").rpartition(".")[2] in _REGEX_FORMS
    rest = call.args[2:] if is_regex else call.args[1:]
    if not rest:
        return None  # a context manager used without ``with`` is not a trigger
    target, *args = rest
    text = f"{ast.unparse(target)}({', '.join(ast.unparse(a) for a in args)})"
    name = (_dotted(target) or "").rpartition(".")[2]
    return Trigger(
        expected[0], expected[1], test, path, call.lineno, text[:_MAX_CALL], (name,) if name else ()
    )


def _called(node: ast.AST) -> list[str]:
    names = []
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            func = inner.func
            if isinstance(func, ast.Attribute):
                names.append(func.attr)
            elif isinstance(func, ast.Name):
                names.append(func.id)
    return names


def _text(stmt: ast.stmt) -> str:
    return re.sub(r"\s+", " ", ast.unparse(stmt))[:_MAX_CALL]


def _dotted(node: ast.expr) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))
