"""The errors a project's own tests expect, read from its test files (never run).

``with pytest.raises(ValueError, match="..."):``, ``self.assertRaises(KeyError, f, x)`` and
``assertRaisesRegex`` say which error a call should raise: a test that triggers a record is
the best evidence of how it is triggered, and its ``match`` ties it to one message.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap

from errdex.languages.ir import Trigger
from errdex.languages.python.syntax import dotted
from errdex.record import utf8

#: Statement text kept per trigger: enough to show the call, not a whole test.
_MAX_CALL = 240
_EXPECTS = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})
_REGEX_FORMS = frozenset({"assertRaisesRegex", "assertRaisesRegexp"})


def extract_triggers(text: str, path: str) -> list[Trigger]:
    """Every expected error in one test file.

    Test suites are large (pandas ships thousands of files) and only a few lines of each
    matter, so instead of parsing whole files this parses just the statement around each
    ``raises(`` or ``assertRaises``: the line and the more indented lines under it.
    """
    if "raises" not in text and "assertRaises" not in text:
        return []
    lines = text.split("\n")  # line numbers as text.count('\\n') gives them
    found: list[Trigger] = []
    seen: set[int] = set()
    for m in _EXPECT_TEXT.finditer(text):
        first = text.count("\n", 0, m.start())
        if first in seen or first >= len(lines):
            continue
        seen.add(first)
        block, indent = _block(lines, first)
        test = _enclosing_test(lines, first, indent)
        if test is None:
            continue  # a helper at module level, not a test
        try:
            tree = ast.parse(textwrap.dedent(block))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # the line is inside a larger statement: this cheap reading skips it
        node = tree.body[0] if tree.body else None
        if isinstance(node, ast.With | ast.AsyncWith):
            found += [_moved(t, first) for t in _from_with(node, test, path)]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            trigger = _from_call(node.value, test, path)
            if trigger is not None:
                found.append(_moved(trigger, first))
    return found


_EXPECT_TEXT = re.compile(r"\braises\(|\bassertRaises")
_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)")
_CLASS = re.compile(r"^([ \t]*)class[ \t]+(\w+)")
#: Lines of one statement read at most: the ``with`` header and its body.
_MAX_BLOCK = 60


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _block(lines: list[str], first: int) -> tuple[str, int]:
    """The statement starting at ``first`` (0-based): that line and the deeper lines under it."""
    indent = _indent(lines[first])
    end = first + 1
    while end < len(lines) and end - first < _MAX_BLOCK:
        line = lines[end]
        if line.strip() and _indent(line) <= indent and not line.lstrip().startswith((")", "]", "}")):
            break
        end += 1
    return "\n".join(lines[first:end]), indent


def _enclosing_test(lines: list[str], first: int, indent: int) -> str | None:
    """``Class.test_name`` of the function the line is in, read upwards by indentation."""
    name = None
    for i in range(first - 1, -1, -1):
        line = lines[i]
        if not line.strip() or _indent(line) >= indent:
            continue
        if name is None:
            m = _DEF.match(line)
            if m is not None:
                name, indent = m.group(2), _indent(line)
            else:
                indent = _indent(line)  # an enclosing block (if, for, with) of the test's body
            continue
        m = _CLASS.match(line)
        if m is not None:
            return f"{m.group(2)}.{name}"
        indent = _indent(line)
    return name


def _moved(trigger: Trigger, lines: int) -> Trigger:
    """A trigger read from a snippet, at its line in the file."""
    return dataclasses.replace(trigger, line=trigger.line + lines)


def _expectation(call: ast.Call) -> tuple[str, str | None] | None:
    """The class and pattern of ``pytest.raises(X, match=...)``-like calls."""
    func = call.func
    method = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if method not in _EXPECTS or not call.args:
        return None
    expected = call.args[0]
    if isinstance(expected, ast.Tuple) and expected.elts:
        expected = expected.elts[0]
    error_class = dotted(expected)
    if error_class is None:
        return None
    pattern: ast.expr | None = next(
        (k.value for k in call.keywords if k.arg in ("match", "expected_regex")), None
    )
    if pattern is None and method in _REGEX_FORMS and len(call.args) > 1:
        pattern = call.args[1]
    match = (
        utf8(pattern.value) if isinstance(pattern, ast.Constant) and isinstance(pattern.value, str) else None
    )
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
    func = dotted(call.func)
    is_regex = (func or "").rpartition(".")[2] in _REGEX_FORMS
    rest = call.args[2:] if is_regex else call.args[1:]
    if not rest:
        return None  # a context manager used without ``with`` is not a trigger
    target, *args = rest
    text = f"{ast.unparse(target)}({', '.join(ast.unparse(a) for a in args)})"
    name = (dotted(target) or "").rpartition(".")[2]
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
