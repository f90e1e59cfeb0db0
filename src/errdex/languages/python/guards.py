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
    the code after ``if test: return``).  ``text`` is the test as the source writes it; the
    guard's ``code`` is the condition the site needs, its negation folded (``_negation``)."""
    inverted = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    core = test.operand if isinstance(test, ast.UnaryOp) and inverted else test
    if (quick := _quick(core, negated != inverted)) is not None:
        return Guard(kind, text, negated != inverted, *quick)
    subject, operator, operand = _reading(core)
    read: set[str] = set()
    simple = _simple(core, read)
    code, names = (ast.unparse(core), names_in(core)) if simple is None else (simple, tuple(sorted(read)))
    false = negated != inverted
    if false:
        code = _negation(core, code)
    return Guard(kind, text, false, subject, operator, operand, names, code)


def _quick(core: ast.expr, false: bool) -> tuple[str | None, str, str | None, tuple[str, ...], str] | None:
    """``subject, operator, operand, names, code`` of the commonest tests, each part written
    once: one comparison of simple parts (``x is None``), a name (``x``, ``self.strict``), a
    call of simple parts (``isinstance(x, T)``); None for any other test, which
    ``condition_guard`` reads piece by piece (to the same result for these)."""
    read: set[str] = set()
    if type(core) is ast.Compare and len(core.ops) == 1:
        left, right = _part(core.left, read), _part(core.comparators[0], read)
        if left is None or right is None:
            return None
        op = type(core.ops[0])
        code = f"{left} {_OPERATORS[op]} {right}"
        if false:  # as ``_negation`` folds it
            code = f"{left} {_OPERATORS[_INVERSE[op]]} {right}" if op in _INVERSE else f"not {code}"
        return left, _OPERATORS[op], right, tuple(sorted(read)), code
    if type(core) is ast.Name or type(core) is ast.Attribute:
        name = dotted(core)
        if name is None:
            return None
        return name, "truth", None, (name.partition(".")[0],), f"not {name}" if false else name
    if type(core) is ast.Call and (called := dotted(core.func)) is not None:
        written = _part(core, read)
        if written is None:
            return None
        # Its arguments are simple parts too: the first two are written as ``_reading`` would.
        args = core.args
        first = _part(args[0], set()) if args else None
        second = _part(args[1], set()) if len(args) == 2 else None
        return first, f"{called}()", second, tuple(sorted(read)), f"not {written}" if false else written
    return None


#: Comparisons whose negation is another operator exactly (not ``<``: ``not a < b`` is not
#: ``a >= b`` for sets or NaN).
_INVERSE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}  # fmt: skip


def _negation(core: ast.expr, code: str) -> str:
    """``not core`` as code, given ``core``'s code: a double ``not`` cancels (``not not x`` is
    ``x`` as a test), a single comparison takes its inverse (``x is not None``, ``k not in d``,
    ``a != b``), and ``not (not a or not b)`` is ``a and b`` where that says it with fewer
    ``not``s; any other test takes ``not``, in parentheses where it binds more loosely."""
    folded = _negated(core)
    if not isinstance(folded, ast.UnaryOp):
        return code_of(folded)
    # ``not`` binds more loosely than a comparison or a call: those take it as is.
    return f"not {code}" if isinstance(core, _TIGHTER_THAN_NOT) else code_of(ast.UnaryOp(ast.Not(), core))


def _negated(node: ast.expr) -> ast.expr:
    """The test that holds exactly where ``node`` fails, with as few ``not``s as the rules above
    give; ``not node`` itself where none applies."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return node.operand
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _INVERSE:
        return ast.Compare(node.left, [_INVERSE[type(node.ops[0])]()], node.comparators)
    if isinstance(node, ast.BoolOp):
        swapped = ast.BoolOp(
            ast.And() if isinstance(node.op, ast.Or) else ast.Or(), [_negated(v) for v in node.values]
        )
        if _nots(swapped) < _nots(node) + 1:
            return swapped
    return ast.UnaryOp(ast.Not(), node)


def _nots(node: ast.expr) -> int:
    """How many ``not``s a test says (counting those of an ``and``/``or`` only)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return 1 + _nots(node.operand)
    if isinstance(node, ast.Compare):
        return sum(isinstance(op, ast.IsNot | ast.NotIn | ast.NotEq) for op in node.ops)
    if isinstance(node, ast.BoolOp):
        return sum(_nots(v) for v in node.values)
    return 0


#: Expressions ``not`` applies to without parentheses, as ``ast.unparse`` writes them.
_TIGHTER_THAN_NOT = (
    ast.Name, ast.Attribute, ast.Call, ast.Compare, ast.Subscript, ast.Constant, ast.UnaryOp,
)  # fmt: skip


#: The unparser's precedence levels (``ast._Precedence``) of what ``_simple`` writes: an
#: expression in parentheses where its context asks for more than its own level.
_TEST, _OR, _AND, _NOT, _CMP, _ATOM = 4, 5, 6, 7, 8, 18


def _simple(node: ast.expr, names: set[str], level: int = _TEST) -> str | None:
    """The code ``ast.unparse`` writes for the common shapes of a test (``x is None``,
    ``isinstance(x, (A, B))``, ``len(x) <= 1``, ``not x``, and ``and``/``or`` of those),
    adding the names it reads to ``names``, without the unparser's cost; None for any other
    shape, which the unparser writes.  ``level`` is the precedence the context asks for."""
    if type(node) is ast.BoolOp:
        own = _AND if type(node.op) is ast.And else _OR
        # As the unparser does, each operand asks one level more than the one before it:
        # ``a == 1 and b == 2 and (c == 3)``, ``a and (not b)``.
        texts, asked = [], own
        for value in node.values:
            asked = min(asked + 1, _ATOM)
            if (text := _simple(value, names, asked)) is None:
                return None
            texts.append(text)
        code = (" and " if own == _AND else " or ").join(texts)
        return f"({code})" if level > own else code
    if type(node) is ast.UnaryOp and type(node.op) is ast.Not:
        inner = _simple(node.operand, names, _NOT)
        if inner is None:
            return None
        return f"(not {inner})" if level > _NOT else f"not {inner}"
    if type(node) is ast.Compare:
        left = _part(node.left, names)
        if left is None:
            return None
        code = left
        for op, right in zip(node.ops, node.comparators, strict=True):
            text = _part(right, names)
            if text is None:
                return None
            code += f" {_OPERATORS[type(op)]} {text}"
        return f"({code})" if level > _CMP else code
    return _part(node, names)


def _part(node: ast.expr, names: set[str]) -> str | None:
    """A dotted name, a constant, or a call or tuple of those, as the unparser writes them."""
    if isinstance(node, ast.Call):
        func = _atom(node.func, names)
        if func is None:
            return None
        written = []
        for arg in node.args:
            if (text := _part(arg, names)) is None:
                return None
            written.append(text)
        for keyword in node.keywords:
            if keyword.arg is None or (text := _part(keyword.value, names)) is None:
                return None
            written.append(f"{keyword.arg}={text}")
        return f"{func}({', '.join(written)})"
    if isinstance(node, ast.Tuple):
        texts = []
        for element in node.elts:
            if (text := _part(element, names)) is None:
                return None
            texts.append(text)
        return f"({texts[0]},)" if len(texts) == 1 else f"({', '.join(texts)})"
    return _atom(node, names)


def _atom(node: ast.expr, names: set[str]) -> str | None:
    """A dotted name, or a constant the unparser writes as its ``repr``."""
    name = dotted(node)
    if name is not None:
        names.add(name.partition(".")[0])
        return name
    if isinstance(node, ast.Constant) and node.kind is None and type(node.value) in _REPR_CONSTANTS:
        return repr(node.value)
    return None


#: Constants whose ``repr`` is what the unparser writes (not floats: it writes infinities apart).
_REPR_CONSTANTS = (type(None), bool, int, str, bytes)


def _reading(node: ast.expr) -> tuple[str | None, str | None, str | None]:
    """``subject operator operand`` of a test, as far as its shape gives them."""
    if isinstance(node, ast.Compare):
        left = code_of(node.left)
        if len(node.ops) != 1:
            return left, None, None
        return left, _OPERATORS[type(node.ops[0])], code_of(node.comparators[0])
    if isinstance(node, ast.Call):
        called = dotted(node.func)
        first = code_of(node.args[0]) if node.args else None
        second = code_of(node.args[1]) if len(node.args) == 2 else None
        return first, f"{called}()" if called is not None else None, second
    if isinstance(node, ast.Name | ast.Attribute):
        return code_of(node), "truth", None
    return None, None, None


def code_of(node: ast.expr) -> str:
    """The expression as ``ast.unparse`` writes it (see ``_simple``)."""
    simple = _simple(node, set())
    return simple if simple is not None else ast.unparse(node)


def names_in(node: ast.AST) -> tuple[str, ...]:
    """The names an expression reads, each once, in alphabetical order.

    What ``ast.walk`` would find, for a fraction of its cost: the expressions tests are made of
    are taken apart here, anything else by ``ast.iter_child_nodes``."""
    found: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ast.Name:
            found.add(n.id)  # type: ignore[attr-defined]
        elif t is ast.Attribute:
            stack.append(n.value)  # type: ignore[attr-defined]
        elif t is ast.Call:
            stack.append(n.func)  # type: ignore[attr-defined]
            stack += n.args  # type: ignore[attr-defined]
            stack += (k.value for k in n.keywords)  # type: ignore[attr-defined]
        elif t is ast.Compare:
            stack.append(n.left)  # type: ignore[attr-defined]
            stack += n.comparators  # type: ignore[attr-defined]
        elif t is ast.BoolOp:
            stack += n.values  # type: ignore[attr-defined]
        elif t is ast.UnaryOp:
            stack.append(n.operand)  # type: ignore[attr-defined]
        elif t is not ast.Constant:
            stack += ast.iter_child_nodes(n)
    return tuple(sorted(found))
