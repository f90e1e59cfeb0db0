"""What a call site says of the raise it may reach: read from its text, only where certain.

A caller found by the call scan reaches a raise only if the raise's guards can hold when it
calls: ``put_nowait`` calls ``self.put(item, False)``, and ``put`` raises on a negative timeout
only when ``block`` is true; ``Fabric.save`` never passes the ``storage_options`` whose being
set is the error.  Two readings tell that cheaply, per call found, never per file: the call's
arguments bound to the callee's parameters (a literal, or the default of a parameter it does
not pass), against which a guard's condition is evaluated; and the tests that hold where the
call stands (``RichModelSummary() if _RICH_AVAILABLE else ...`` cannot reach ``if not
_RICH_AVAILABLE: raise``).  Anything these readings cannot follow is unknown, and an unknown
never drops a caller.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from errdex.record import Parameter

#: How far a call's argument list is followed (characters): a longer one is not read.
_MAX_ARGUMENTS = 4000
_BRACKETS = re.compile(r"""[()\[\]{}#'"]""")
_STRING_END = {
    "'": re.compile(r"(?:[^'\\\n]|\\.)*'"),
    '"': re.compile(r'(?:[^"\\\n]|\\.)*"'),
    "'''": re.compile(r"(?:[^\\]|\\.)*?'''", re.DOTALL),
    '"""': re.compile(r'(?:[^\\]|\\.)*?"""', re.DOTALL),
}


class _Unknown:
    """A value the text does not give."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


def call_at(text: str, open_at: int) -> ast.Call | None:
    """The call whose argument list opens at ``text[open_at]`` (its callee left as ``f``), or
    None where its text cannot be read (too long, or not a call on its own)."""
    close = _closing(text, open_at, min(len(text), open_at + _MAX_ARGUMENTS))
    if close is None:
        return None
    return _parsed_call(text[open_at:close])


@lru_cache(maxsize=4096)
def _parsed_call(arguments: str) -> ast.Call | None:
    try:
        node = ast.parse("f" + arguments, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return node if isinstance(node, ast.Call) else None


def _closing(text: str, start: int, end: int) -> int | None:
    """The index after the bracket that closes the one at ``start``, skipping strings and
    comments."""
    depth, i = 0, start
    while i < end:
        m = _BRACKETS.search(text, i, end)
        if m is None:
            return None
        ch, i = m.group(), m.end()
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i
        elif ch == "#":
            i = text.find("\n", i, end)
            if i < 0:
                return None
        else:
            quote = ch * 3 if text.startswith(ch * 3, m.start()) else ch
            closed = _STRING_END[quote].match(text, m.start() + len(quote), end)
            if closed is None:
                return None
            i = closed.end()
    return None


def bound(call: ast.Call, parameters: Sequence[Parameter], implicit: int) -> dict[str, Any]:
    """The value each parameter takes in ``call``, where its text gives it: a literal argument,
    or the literal default of a parameter it passes nothing for; ``UNKNOWN`` for the rest.
    ``implicit`` leading parameters are bound by the call's receiver (``self``, ``cls``)."""
    own = list(parameters[implicit:])
    positional = [p for p in own if p.kind == "positional"]
    values: dict[str, Any] = {}
    starred = len(positional)  # where ``*args`` stands: the parameters from there on are unknown
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            starred = i
            break
        if i < len(positional):
            values[positional[i].name] = literal(arg)
    spread = any(k.arg is None for k in call.keywords)  # ``**kwargs`` may pass any of them
    for keyword in call.keywords:
        if keyword.arg is not None:
            values[keyword.arg] = literal(keyword.value)
    for n, p in enumerate(positional):
        if n >= starred and p.name not in values:
            values[p.name] = UNKNOWN  # ``*args`` may pass it
    for p in own:
        if p.name in values or p.kind in ("var-positional", "var-keyword"):
            continue
        if spread or p.default is None:
            values[p.name] = UNKNOWN
        else:
            values[p.name] = _default(p.default)
    return values


def value_of(code: str) -> Any:
    """The value a literal written as ``code`` has (``UNKNOWN`` for anything else), as
    ``holds`` takes it."""
    return _default(code)


@lru_cache(maxsize=1024)
def _default(text: str) -> Any:
    try:
        return literal(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return UNKNOWN


def literal(node: ast.expr) -> Any:
    """The value of a literal expression, else ``UNKNOWN``."""
    if isinstance(node, ast.Constant):
        return node.value
    if not isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict | ast.UnaryOp | ast.BinOp):
        return UNKNOWN  # a name, a call, an attribute: what the text alone cannot value
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def holds(code: str, values: Mapping[str, Any]) -> bool | None:
    """Whether the condition ``code`` holds where its names have ``values`` (a name without one
    is unknown); None where that cannot be told."""
    tree = _condition(code)
    if tree is None:
        return None
    value = _evaluate(tree, values)
    return None if value is UNKNOWN else bool(value)


@lru_cache(maxsize=4096)
def _condition(code: str) -> ast.expr | None:
    try:
        return ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
#: The values whose identity a literal gives: ``x is None`` is certain, ``x is 5`` is not.
_SINGLETONS = (type(None), bool, type(Ellipsis))


def _evaluate(node: ast.expr, values: Mapping[str, Any]) -> Any:
    """Three-valued: a value, or ``UNKNOWN``; ``and``/``or`` short-circuit as Python does."""
    if isinstance(node, ast.Name):
        return values.get(node.id, UNKNOWN)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        operand = _evaluate(node.operand, values)
        return UNKNOWN if operand is UNKNOWN else _truth(operand, lambda v: not v)
    if isinstance(node, ast.BoolOp):
        stop = isinstance(node.op, ast.Or)  # ``or`` stops at a true value, ``and`` at a false one
        unknown = False
        for part in node.values:
            value = _truth(_evaluate(part, values), bool)
            if value is UNKNOWN:
                unknown = True
            elif value is stop:
                return stop
        return UNKNOWN if unknown else not stop
    if isinstance(node, ast.Compare):
        return _compare(node, values)
    if isinstance(node, ast.Call):
        return _isinstance(node, values)
    if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.UnaryOp):
        return literal(node)
    return UNKNOWN


#: The builtin types a literal can be of, by name: ``isinstance("dp", str)`` is certain.
_TYPES: dict[str, type | tuple[type, ...]] = {
    "str": str, "int": int, "float": float, "bool": bool, "bytes": bytes, "complex": complex,
    "list": list, "tuple": tuple, "dict": dict, "set": set, "frozenset": frozenset,
}  # fmt: skip


def _isinstance(node: ast.Call, values: Mapping[str, Any]) -> Any:
    """``isinstance(x, str)`` (or a tuple of builtin types) where ``x`` has a literal value."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2):
        return UNKNOWN
    if node.keywords or "isinstance" in values:
        return UNKNOWN
    value = _evaluate(node.args[0], values)
    kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
    if value is UNKNOWN or not all(
        isinstance(k, ast.Name) and k.id in _TYPES and k.id not in values for k in kinds
    ):
        return UNKNOWN
    return any(isinstance(value, _TYPES[k.id]) for k in kinds if isinstance(k, ast.Name))


def _truth(value: Any, test: Callable[[Any], Any]) -> Any:
    if value is UNKNOWN:
        return UNKNOWN
    try:
        return test(value)
    except Exception:
        return UNKNOWN


def _compare(node: ast.Compare, values: Mapping[str, Any]) -> Any:
    left = _evaluate(node.left, values)
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = _evaluate(right_node, values)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if isinstance(op, ast.Is | ast.IsNot):
            if not (isinstance(left, _SINGLETONS) or isinstance(right, _SINGLETONS)):
                return UNKNOWN
            same = left is right
            result = same if isinstance(op, ast.Is) else not same
        else:
            compare = _COMPARE.get(type(op))
            if compare is None:
                return UNKNOWN
            try:
                result = bool(compare(left, right))
            except Exception:
                return UNKNOWN
        if not result:
            return False
        left = right
    return True


# -- the tests that hold where a call stands ---------------------------------------------------

_HEADER = re.compile(r"(if|elif)[ \t]+(.+):[ \t]*(?:#.*)?\Z")
_ELSE = re.compile(r"else[ \t]*:[ \t]*(?:#.*)?\Z")


def tests_at(lines: Sequence[str], line: int, column: int, first: int) -> list[tuple[str, bool]]:
    """The tests that decide whether the code at ``line`` (1-based), ``column`` runs, read up to
    line ``first`` (the enclosing function's ``def``): each as (code, whether it must hold or
    fail there).  A conditional expression on the line itself counts, as do the ``if``,
    ``elif`` and ``else`` headers above it; a header that spans lines is not read."""
    found = _inline(lines[line - 1], column) if 0 < line <= len(lines) else []
    indent = _indent(lines[line - 1]) if 0 < line <= len(lines) else 0
    n = line - 2
    while n >= max(first, 1) - 1 and indent > 0:
        text = lines[n]
        stripped = text.strip()
        if not stripped or stripped.startswith("#") or _indent(text) >= indent:
            n -= 1
            continue
        indent = _indent(text)
        m = _HEADER.match(stripped)
        if m is not None:
            found.append((m.group(2), True))
        elif _ELSE.match(stripped):
            found += [(test, False) for test in _chain(lines, n, indent, first)]
        n -= 1
    return found


def _chain(lines: Sequence[str], n: int, indent: int, first: int) -> list[str]:
    """The tests of the ``if``/``elif`` headers an ``else`` at line index ``n`` follows, all of
    which failed; none where the ``else`` belongs to a loop or a ``try``, or a header is not
    read."""
    tests = []
    for k in range(n - 1, max(first, 1) - 2, -1):
        text = lines[k]
        stripped = text.strip()
        if not stripped or stripped.startswith("#") or _indent(text) > indent:
            continue
        if _indent(text) < indent:
            return []
        m = _HEADER.match(stripped)
        if m is None:
            return []
        tests.append(m.group(2))
        if m.group(1) == "if":
            return tests
    return []


def _inline(text: str, column: int) -> list[tuple[str, bool]]:
    """The tests of the conditional expressions on one line that the code at ``column`` is a
    branch of, where the line is a statement on its own."""
    if " if " not in text or " else " not in text:
        return []
    stripped = text.lstrip()
    shift = len(text) - len(stripped)
    try:
        tree = ast.parse(stripped)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found = []
    at = column - shift
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp):
            for branch, must in ((node.body, True), (node.orelse, False)):
                if branch.lineno == 1 and branch.col_offset <= at < (branch.end_col_offset or 0):
                    found.append((ast.unparse(node.test), must))
    return found


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def contradicts(test: str, must: bool, needed: str) -> bool:
    """Whether ``needed`` cannot hold where ``test`` must hold (``must``) or fail: one is the
    other's negation (``not`` and the exactly inverse comparisons read alike)."""
    a, b = _core(test), _core(needed)
    if a is None or b is None:
        return False
    return a[1] == b[1] and (a[0] == must) != b[0]


_FLIPPED = {ast.IsNot: ast.Is, ast.NotIn: ast.In, ast.NotEq: ast.Eq}


@lru_cache(maxsize=1024)
def _core(code: str) -> tuple[bool, str] | None:
    """A test as (whether it is negated, its positive form dumped): ``not x`` and ``x is not
    None`` are the negations of ``x`` and ``x is None``."""
    node = _condition(code)
    if node is None:
        return None
    negated = False
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        negated, node = not negated, node.operand
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _FLIPPED:
        negated = not negated
        node = ast.Compare(node.left, [_FLIPPED[type(node.ops[0])]()], node.comparators)
    return negated, ast.dump(node, annotate_fields=False)


def names_of(code: str) -> tuple[str, ...]:
    """The names a test reads."""
    node = _condition(code)
    if node is None:
        return ()
    return tuple(sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)}))


def forwarded(call: ast.Call, parameters: Sequence[Parameter], implicit: int) -> dict[str, str]:
    """Each parameter ``call`` passes a bare name to, and that name (``cols`` to ``columns`` for
    ``ExcelFormatter(df, cols=columns)``), bound as ``bound`` binds; a ``*args`` or ``**kwargs``
    spread leaves what it may pass out."""
    own = list(parameters[implicit:])
    positional = [p for p in own if p.kind == "positional"]
    names: dict[str, str] = {}
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred) or i >= len(positional):
            break
        if isinstance(arg, ast.Name):
            names[positional[i].name] = arg.id
    known = {p.name for p in own if p.kind in ("positional", "keyword")}
    for keyword in call.keywords:
        if keyword.arg in known and isinstance(keyword.value, ast.Name):
            names[keyword.arg] = keyword.value.id
    return names


def unchanged_parameters(lines: Sequence[str], first: int, last: int, line: int) -> frozenset[str]:
    """The parameters of the function defined at ``lines[first - 1]`` (through line ``last``)
    that hold what its caller passed at ``line``: none of its own statements above that line
    binds them.  Empty where its text does not parse on its own."""
    return _unchanged(tuple(lines[first - 1 : last]), line - first + 1)


@lru_cache(maxsize=1024)
def _unchanged(text: tuple[str, ...], line: int) -> frozenset[str]:
    from errdex.languages.python.extract import assigned_names, parameters_of

    head = text[0] if text else ""
    indent = head[: len(head) - len(head.lstrip())]
    # Lines inside a string may start further left than the ``def``: then it does not parse.
    body = "\n".join(t[len(indent) :] if t.startswith(indent) else t for t in text)
    try:
        tree = ast.parse(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return frozenset()
    try:
        bound_before = {name for name, at in assigned_names(node) if at < line}
    except RecursionError:
        return frozenset()
    names = {p.name for p in parameters_of(node.args) if p.kind in ("positional", "keyword")}
    return frozenset(names - bound_before)
