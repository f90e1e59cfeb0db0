"""What message a Python expression builds: f-strings, ``%``, ``str.format``, ``+``, named text.

The evaluator reads an expression's syntax tree and returns its ``Template`` (literal text and
placeholders named after the expressions interpolated), or None when the expression builds no
string it can read.  Names are looked up in the scope the statement visitor keeps
(:mod:`errdex.languages.python.extract`, which extends this class): a message assigned to a
name earlier, in the function or at module level, is that message.
"""

from __future__ import annotations

import ast
import copy
import textwrap

from errdex.languages.python.syntax import SourceText
from errdex.patterns import Placeholder, Template, format_template, percent_template
from errdex.record import utf8

GETTEXT = frozenset({"_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "gettext_noop", "N_"})
_MAX_BINDING_DEPTH = 8
_MAX_EXPRESSION_DEPTH = 200
#: Values inside an f-string that may stand for known text: a name bound to it, or text itself.
_TEXT_NODES = frozenset({ast.Name, ast.JoinedStr, ast.Constant})


class Scope:
    """The function (or class, or module) being read, and what its names hold so far."""

    __slots__ = (
        "alternatives",
        "bindings",
        "class_name",
        "is_method",
        "name",
        "params",
        "positional",
        "qualname",
    )

    def __init__(
        self,
        qualname: str | None,
        name: str | None,
        params: tuple[str, ...],
        is_method: bool,
        class_name: str | None,
        positional: int = 0,
    ) -> None:
        self.qualname = qualname
        self.name = name
        self.params = params
        self.positional = positional
        self.is_method = is_method
        self.class_name = class_name
        self.bindings: dict[str, ast.expr] = {}
        #: Every value a name may hold, each under the guard it was assigned under: assignments in
        #: sibling branches (``if ...: msg = "a" else: msg = "b"``) all reach a later raise.
        self.alternatives: dict[str, list[tuple[tuple[object, ...], ast.expr]]] = {}

    def child(self, name: str) -> str:
        """The ``__qualname__`` Python gives a class or function defined in this scope."""
        if self.qualname is None:
            return name
        if self.name is not None:
            return f"{self.qualname}.<locals>.{name}"
        return f"{self.qualname}.{name}"


class Evaluator:
    """Templates of expressions in one file, names resolved in ``scope`` and the module's bindings."""

    def __init__(self, source: SourceText, module: str | None = None) -> None:
        self.source = source
        #: The file's module (``sqlalchemy.orm``): what ``__name__`` holds in it.
        self.module = module
        self.module_bindings: dict[str, ast.expr] = {}
        self.scope = Scope(None, None, (), False, None)

    def segment(self, node: ast.AST) -> str:
        return self.source.of(node)

    def template(self, node: ast.expr, depth: int = 0) -> Template | None:
        """The message an expression builds, or None when it does not build a string we can read."""
        if depth > _MAX_EXPRESSION_DEPTH:
            return None
        t = type(node)
        if t is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            return Template.literal(utf8(value)) if isinstance(value, str) else None
        if t is ast.JoinedStr:
            parts: list[str | Placeholder] = []
            for v in node.values:  # type: ignore[attr-defined]
                if isinstance(v, ast.Constant):
                    parts.append(utf8(str(v.value)))
                elif isinstance(v, ast.FormattedValue):
                    # f"{msg} (at {pos})" where msg holds known text: that text, not a placeholder.
                    inner = None
                    if v.conversion == -1 and v.format_spec is None and type(v.value) in _TEXT_NODES:
                        inner = self.template(v.value, depth + 1)
                    elif (module := self._module_name(v)) is not None:
                        # f"module {__name__!r} has no attribute ...": the module says where.
                        inner = Template.literal(module)
                    if inner is not None and inner.is_static:
                        parts.extend(inner.parts)
                    else:
                        name = self.segment(v.value)
                        parts.append(Placeholder(name, "{" + name + "}"))
            return Template(()) + Template(tuple(parts))
        if t is ast.BinOp:
            op = type(node.op)  # type: ignore[attr-defined]
            if op is ast.Mod:
                left = self.template(node.left, depth + 1)  # type: ignore[attr-defined]
                if left is None or len(left.parts) != 1 or not isinstance(left.parts[0], str):
                    return None
                right = node.right  # type: ignore[attr-defined]
                if isinstance(right, ast.Tuple):
                    names = [self.segment(e) for e in right.elts]
                else:
                    names = [self.segment(right)]
                return percent_template(left.parts[0], names)
            if op is ast.Add:
                left = self.template(node.left, depth + 1)  # type: ignore[attr-defined]
                right_t = self.template(node.right, depth + 1)  # type: ignore[attr-defined]
                if left is None and right_t is None:
                    return None
                return (left or self.dynamic(node.left)) + (right_t or self.dynamic(node.right))  # type: ignore[attr-defined]
            return None
        if t is ast.Call and depth < _MAX_BINDING_DEPTH:
            return self._call_template(node, depth + 1)  # type: ignore[arg-type]
        if t is ast.Name and depth < _MAX_BINDING_DEPTH:
            name = node.id  # type: ignore[attr-defined]
            bound = self.scope.bindings.get(name)
            if bound is None and self.scope.name is not None:
                if name in self.scope.params:
                    return None
                bound = self.module_bindings.get(name)
            if bound is not None and bound is not node:
                return self.template(bound, depth + 1)
        return None

    def _module_name(self, value: ast.FormattedValue) -> str | None:
        """What an f-string field printing the module's ``__name__`` shows (its text or repr)."""
        node = value.value
        if (
            self.module is None
            or not isinstance(node, ast.Name)
            or node.id != "__name__"
            or value.format_spec is not None
            or value.conversion not in (-1, ord("s"), ord("r"))
            or "__name__" in self.scope.bindings
        ):
            return None
        return repr(self.module) if value.conversion == ord("r") else self.module

    def dynamic(self, node: ast.expr) -> Template:
        """A message computed at run time: one placeholder named after the expression."""
        return Template.dynamic(self.segment(node))

    def message(self, node: ast.expr | None) -> Template | None:
        """A site's message: readable text, or a dynamic placeholder naming the expression."""
        if node is None:
            return None
        template = self.template(node)
        if template is None:
            if isinstance(node, ast.Constant) and node.value is None:
                return None
            return self.dynamic(node)
        return template

    def choices(self, node: ast.expr) -> list[Template]:
        """The messages an expression may evaluate to when there are several: a conditional
        expression, or a name assigned in sibling branches.  Empty when there is just one."""
        if isinstance(node, ast.Name):
            values = [value for _, value in self.scope.alternatives.get(node.id, ())]
            if len(values) < 2:
                bound = self.scope.bindings.get(node.id)
                values = [bound] if isinstance(bound, ast.IfExp) else []
        else:
            values = [node]
        expanded: list[ast.expr] = []
        for value in values:
            expanded += [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        templates = [t for t in map(self.template, expanded) if t is not None and t.is_static]
        unique = list(dict.fromkeys(templates))
        return unique if len(unique) > 1 else []

    def _call_template(self, node: ast.Call, depth: int) -> Template | None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr == "format":
                receiver = self.template(func.value, depth)
                if receiver is None or len(receiver.parts) != 1 or not isinstance(receiver.parts[0], str):
                    return None
                args = [self.segment(a) for a in node.args]
                kwargs = {k.arg: self.segment(k.value) for k in node.keywords if k.arg}
                template = format_template(receiver.parts[0], args, kwargs)
                # Text passed in as a literal (kind="Client error") is part of the message.
                literals = {
                    self.segment(v): Template.literal(v.value)
                    for v in (*node.args, *(k.value for k in node.keywords))
                    if isinstance(v, ast.Constant) and isinstance(v.value, str)
                }
                return template.substitute(literals) if template is not None and literals else template
            if func.attr in ("strip", "rstrip", "lstrip") and not node.args:
                inner = self.template(func.value, depth)
                if inner is not None and len(inner.parts) == 1 and isinstance(inner.parts[0], str):
                    return Template.literal(getattr(inner.parts[0], func.attr)())
                return inner
            name = func.attr
        elif isinstance(func, ast.Name):
            name = func.id
        else:
            return None
        if (name in GETTEXT or name in ("ngettext", "ungettext")) and node.args:
            return self.template(node.args[0], depth)
        if name == "dedent" and node.args:
            inner = self.template(node.args[0], depth)
            if inner is not None and len(inner.parts) == 1 and isinstance(inner.parts[0], str):
                return Template.literal(textwrap.dedent(inner.parts[0]))
            return inner
        return None


def builds_text(node: ast.expr) -> bool:
    """Cheap test for a message being built: an f-string, ``%``/``+`` text, a string, ``.format``."""
    t = type(node)
    if t is ast.JoinedStr or t is ast.BinOp:
        return True
    if t is ast.Constant:
        return isinstance(node.value, str)  # type: ignore[attr-defined]
    return t is ast.Call and isinstance(node.func, ast.Attribute) and node.func.attr == "format"  # type: ignore[attr-defined]


def mentions(node: ast.expr, name: str) -> bool:
    return any(type(n) is ast.Name and n.id == name for n in ast.walk(node))


def inline(node: ast.AST, name: str, value: ast.expr) -> ast.expr:
    """``node`` with ``name`` standing for ``value``: new nodes only on the path to the name,
    the rest shared (nothing here mutates a tree)."""
    if isinstance(node, ast.Name) and node.id == name:
        return value
    changed: dict[str, object] = {}
    for field_name, old in ast.iter_fields(node):
        if isinstance(old, ast.AST):
            new = inline(old, name, value)
            if new is not old:
                changed[field_name] = new
        elif isinstance(old, list) and any(isinstance(item, ast.AST) for item in old):
            items = [inline(item, name, value) if isinstance(item, ast.AST) else item for item in old]
            if any(a is not b for a, b in zip(items, old, strict=True)):
                changed[field_name] = items
    if not changed:
        return node  # type: ignore[return-value]
    copied = copy.copy(node)
    for field_name, new_value in changed.items():
        setattr(copied, field_name, new_value)
    return copied  # type: ignore[return-value]
