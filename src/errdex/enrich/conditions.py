"""Guard conditions in plain words, and as checks a caller can run.

The miner keeps each ``if`` on the path to a raise as source text (``model is None``,
``not isinstance(x, str)``).  Here each becomes a ``Condition``: words for the prose ("`model`
is not passed (it defaults to `None`)"), a fix when the condition is about an argument, and
the same test written from the caller's side (``self.`` read as the object's name).
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass
from typing import Protocol

_COMPARE = {
    ast.Gt: "is greater than",
    ast.Lt: "is less than",
    ast.GtE: "is at least",
    ast.LtE: "is at most",
    ast.Eq: "equals",
    ast.NotEq: "differs from",
    ast.In: "is in",
    ast.NotIn: "is not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_BUILTINS = frozenset(dir(builtins))


class _Param(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def default(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Condition:
    text: str
    #: ``absent`` (an argument left at its None default), ``present``, ``isinstance``,
    #: ``not-isinstance``, ``in``, ``not-in``, ``compare``, ``truthy``, ``falsy``, ``other``.
    kind: str
    words: str
    subject: str | None = None
    target: str | None = None
    #: What a caller can do about it, when the condition is about an argument.
    fix: str | None = None
    #: The test as the caller can write it, when it uses only arguments, the object and constants.
    caller_text: str | None = None
    subject_caller: str | None = None


def read_condition(text: str, params: dict[str, _Param], receiver: str | None) -> Condition:
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return Condition(text, "other", f"`{text}`")
    caller = _caller_text(node, params, receiver)
    negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negated else node
    subject_node = _subject(inner)
    subject = ast.unparse(subject_node) if subject_node is not None else None
    subject_caller = _caller_text(subject_node, params, receiver) if subject_node is not None else None
    is_param = subject in params

    if isinstance(inner, ast.Call) and _name(inner.func) == "isinstance" and len(inner.args) == 2:
        target = ast.unparse(inner.args[1])
        kind = "not-isinstance" if negated else "isinstance"
        words = f"`{subject}` is {'not ' if negated else ''}{_a(target)}"
        fix = f"pass {_a(target)} as `{subject}`" if negated and is_param else None
        return Condition(text, kind, words, subject, target, fix, caller, subject_caller)

    if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and not negated:
        op = type(inner.ops[0])
        right = ast.unparse(inner.comparators[0])
        if op in (ast.Is, ast.Eq) and right == "None":
            param = params.get(subject or "")
            if param is not None and param.default == "None":
                words = f"`{subject}` is not passed (it defaults to `None`)"
                return Condition(
                    text, "absent", words, subject, None, f"pass `{subject}`", caller, subject_caller
                )
            return Condition(
                text,
                "absent" if is_param else "compare",
                f"`{subject}` is `None`",
                subject,
                None,
                None,
                caller,
                subject_caller,
            )
        if op in (ast.IsNot, ast.NotEq) and right == "None":
            return Condition(
                text, "present", f"`{subject}` is given", subject, None, None, caller, subject_caller
            )
        if op is ast.NotIn:
            fix = f"pass a `{subject}` that is in `{right}`" if is_param else None
            return Condition(
                text,
                "not-in",
                f"`{subject}` is not in `{right}`",
                subject,
                right,
                fix,
                caller,
                subject_caller,
            )
        if op is ast.In:
            return Condition(
                text, "in", f"`{subject}` is in `{right}`", subject, right, None, caller, subject_caller
            )
        words = f"`{subject}` {_COMPARE.get(op, ast.unparse(inner))} `{right}`"
        fix = f"make sure `{text}` does not hold" if is_param else None
        return Condition(text, "compare", words, subject, right, fix, caller, subject_caller)

    if isinstance(inner, ast.Name | ast.Attribute):
        if negated:
            return Condition(
                text, "falsy", f"`{subject}` is false or empty", subject, None, None, caller, subject_caller
            )
        return Condition(text, "truthy", f"`{subject}` is true", subject, None, None, caller, subject_caller)

    if isinstance(inner, ast.Call) and _name(inner.func) == "hasattr" and len(inner.args) == 2:
        attr = ast.unparse(inner.args[1]).strip("'\"")
        words = f"`{subject}` {'lacks' if negated else 'has'} the attribute `{attr}`"
        return Condition(text, "other", words, subject, attr, None, caller, subject_caller)

    return Condition(text, "other", f"`{text}` holds", subject, None, None, caller, subject_caller)


def _subject(node: ast.expr) -> ast.expr | None:
    if isinstance(node, ast.Call) and node.args:
        return node.args[0]
    if isinstance(node, ast.Compare):
        return node.left
    if isinstance(node, ast.Name | ast.Attribute):
        return node
    return None


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _a(type_text: str) -> str:
    if type_text.startswith("("):
        return f"one of `{type_text}`"
    return f"{'an' if type_text[:1].lower() in 'aeiou' else 'a'} `{type_text}`"


def _caller_text(node: ast.expr, params: dict[str, _Param], receiver: str | None) -> str | None:
    """The expression with ``self`` read as the caller's object, or None when it uses names
    a caller does not have (the function's locals)."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            name = inner.id
            if name == "self":
                if receiver is None:
                    return None
            elif name not in params and name not in _BUILTINS and not name[:1].isupper():
                return None  # a local variable, or a module-level name the caller cannot see
    text = ast.unparse(node)
    if receiver is not None:
        text = text.replace("self.", f"{receiver}.").replace("self)", f"{receiver})")
    return text
