"""The errors a project's own tests expect, read from its test files (never run).

``with pytest.raises(ValueError, match="..."):``, ``self.assertRaises(KeyError, f, x)`` and
``assertRaisesRegex`` say which error a call should raise: a test that triggers a record is
the best evidence of how it is triggered, and its ``match`` ties it to one message.  Which
function a test calls is told by its file's imports, not by the name alone: ``pd.MultiIndex.
from_arrays`` is ``pandas.MultiIndex.from_arrays``, which ``IntervalIndex.from_arrays`` is not.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap

from errdex.languages.ir import Trigger
from errdex.languages.python.source import module_of
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
    imports = _imports(text, lines, path)
    parents = _parents(lines)
    found: list[Trigger] = []
    seen: set[int] = set()
    first = counted = 0
    for m in _EXPECT_TEXT.finditer(text):
        first += text.count("\n", counted, m.start())  # from the last match on: one pass
        counted = m.start()
        if first in seen or first >= len(lines):
            continue
        seen.add(first)
        block, indent = _block(lines, first)
        test = _enclosing_test(lines, parents, first)
        if test is None:
            continue  # a helper at module level, not a test
        try:
            tree = ast.parse(textwrap.dedent(block))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # the line is inside a larger statement: this cheap reading skips it
        node = tree.body[0] if tree.body else None
        named = _Named(lines, first, indent)
        if isinstance(node, ast.With | ast.AsyncWith):
            found += [_moved(t, first) for t in _from_with(node, test, path, imports, named)]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            trigger = _from_call(node.value, test, path, imports, named)
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


def _parents(lines: list[str]) -> list[int]:
    """For each line, the nearest non-blank line above it indented less (-1 for none): the
    block it is in.  One pass, so that finding each test's name costs its nesting depth, not
    the lines above it (a generated suite holds thousands of tests in one class)."""
    parents = [-1] * len(lines)
    open_blocks: list[tuple[int, int]] = []  # (indent, line), indents increasing
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        indent = _indent(line)
        while open_blocks and open_blocks[-1][0] >= indent:
            open_blocks.pop()
        parents[n] = open_blocks[-1][1] if open_blocks else -1
        open_blocks.append((indent, n))
    return parents


def _enclosing_test(lines: list[str], parents: list[int], first: int) -> str | None:
    """``Class.test_name`` of the function the line is in, read upwards by indentation."""
    name = None
    i = parents[first]
    while i >= 0:
        line = lines[i]
        if name is None:
            m = _DEF.match(line)
            if m is not None:
                name = m.group(2)  # else an enclosing block (if, for, with) of the test's body
        else:
            m = _CLASS.match(line)
            if m is not None:
                return f"{m.group(2)}.{name}"
        i = parents[i]
    return name


def _moved(trigger: Trigger, lines: int) -> Trigger:
    """A trigger read from a snippet, at its line in the file."""
    return dataclasses.replace(trigger, line=trigger.line + lines)


def _expectation(call: ast.Call, named: _Named | None = None) -> tuple[str, str | None] | None:
    """The class and pattern of ``pytest.raises(X, match=...)``-like calls; a pattern kept in
    a name (``match=msg``) is the text the test assigned it (``named``)."""
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
    text = _string(pattern, named) if pattern is not None else None
    return error_class, utf8(text) if text is not None else None


def _string(node: ast.expr, named: _Named | None) -> str | None:
    """The text an expression builds where its pieces are literal (or names the test assigned
    literal text): a string, ``re.escape`` of one, ``+`` of two, ``sep.join([...])``."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.Name):
        return named.text(node.id) if named is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string(node.left, named), _string(node.right, named)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        callee = dotted(node.func)
        if callee == "re.escape":
            inner = _string(node.args[0], named)
            return re.escape(inner) if inner is not None else None
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and isinstance(node.args[0], ast.List | ast.Tuple)
        ):
            sep = _string(node.func.value, None)
            parts = [_string(e, named) for e in node.args[0].elts]
            if sep is not None and all(p is not None for p in parts):
                return sep.join(p for p in parts if p is not None)
    return None


class _Named:
    """The text a test assigned a name before a statement: the nearest ``name = ...`` above it
    in the same function, where that stands in a block around the statement (not in a branch
    beside it, which may not have run) and builds literal text."""

    def __init__(self, lines: list[str], first: int, indent: int) -> None:
        self.lines, self.first, self.indent = lines, first, indent

    def text(self, name: str) -> str | None:
        assignment = re.compile(rf"([ \t]*){re.escape(name)}[ \t]*=(?!=)")
        for n in range(self.first - 1, -1, -1):
            line = self.lines[n]
            if _DEF.match(line) and _indent(line) < self.indent:
                return None  # the test's own ``def``: no assignment in it
            m = assignment.match(line)
            if m is None:
                continue
            if len(m.group(1)) > self.indent:
                return None  # in a branch or loop beside the statement
            statement, _ = _block(self.lines, n)
            try:
                node = ast.parse(textwrap.dedent(statement)).body[0]
            except (SyntaxError, ValueError, RecursionError, MemoryError, IndexError):
                return None
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                return None
            return _string(node.value, None)
        return None


def _from_with(
    node: ast.With | ast.AsyncWith, test: str, path: str, imports: dict[str, str], named: _Named
) -> list[Trigger]:
    out = []
    for item in node.items:
        if not isinstance(item.context_expr, ast.Call):
            continue
        expected = _expectation(item.context_expr, named)
        if expected is None:
            continue
        # The block ends where the error is raised: its last statement is the one that raises.
        call = _text(node.body[-1]) if node.body else None
        called: dict[str, str] = {}
        for stmt in node.body:
            for name, text in _called(stmt, imports):
                called.setdefault(name, text)
        out.append(
            Trigger(
                expected[0], expected[1], test, path, node.lineno, call, tuple(called), tuple(called.values())
            )
        )
    return out


def _from_call(
    call: ast.Call, test: str, path: str, imports: dict[str, str], named: _Named
) -> Trigger | None:
    """``self.assertRaises(X, func, *args)``: the callable and its arguments follow the class."""
    expected = _expectation(call, named)
    if expected is None:
        return None
    func = dotted(call.func)
    is_regex = (func or "").rpartition(".")[2] in _REGEX_FORMS
    rest = call.args[2:] if is_regex else call.args[1:]
    if not rest:
        return None  # a context manager used without ``with`` is not a trigger
    target, *args = rest
    text = f"{ast.unparse(target)}({', '.join(ast.unparse(a) for a in args)})"[:_MAX_CALL]
    name = dotted(target)
    called = (_qualified(name, imports),) if name else ()
    return Trigger(expected[0], expected[1], test, path, call.lineno, text, called, (text,) * len(called))


def _called(node: ast.AST, imports: dict[str, str]) -> list[tuple[str, str]]:
    """Each call in ``node`` whose callee is a dotted name, in the order of the source, as
    (the name qualified through the file's imports, the call as written)."""
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
    calls.sort(key=lambda c: (c.lineno, c.col_offset))
    found = []
    for inner in calls:
        name = dotted(inner.func)
        if name is not None:
            found.append((_qualified(name, imports), re.sub(r"\s+", " ", ast.unparse(inner))[:_MAX_CALL]))
    return found


def _qualified(name: str, imports: dict[str, str]) -> str:
    """``pd.MultiIndex`` as ``pandas.MultiIndex`` where the file imports ``pandas as pd``."""
    head, dot, rest = name.partition(".")
    target = imports.get(head)
    return f"{target}{dot}{rest}" if target else name


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import|import)[ \t]", re.MULTILINE)


def _imports(text: str, lines: list[str], path: str) -> dict[str, str]:
    """What each name a test file imports stands for (``pd`` for ``pandas``), read from its
    import statements alone, wherever they stand (a test's own imports included)."""
    if "import" not in text:
        return {}
    module = module_of(path) or ""
    package = module if path.endswith("/__init__.py") else module.rpartition(".")[0]
    imports: dict[str, str] = {}
    line, counted = 0, 0
    for m in _IMPORT.finditer(text):
        line += text.count("\n", counted, m.start())
        counted = m.start()
        statement = lines[line].strip()
        end = line
        # A parenthesized list of names, or a backslash, continues on the next lines.
        while (statement.count("(") > statement.count(")") or statement.endswith("\\")) and end - line < 40:
            end += 1
            if end >= len(lines):
                break
            statement = statement.rstrip("\\") + " " + lines[end].strip()
        try:
            body = ast.parse(statement).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # an import inside a larger statement, or text that only looks like one
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    head = alias.name.partition(".")[0]
                    imports[alias.asname or head] = alias.name if alias.asname else head
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pieces = package.split(".") if package else []
                    pieces = pieces[: len(pieces) - (node.level - 1)] if node.level > 1 else pieces
                    base = ".".join([*pieces, base] if base else pieces)
                for alias in node.names:
                    if alias.name != "*":
                        imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    return imports


def _text(stmt: ast.stmt) -> str:
    return re.sub(r"\s+", " ", ast.unparse(stmt))[:_MAX_CALL]
