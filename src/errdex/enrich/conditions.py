"""Guard conditions in plain words, and as checks a caller can run.

The miner keeps each guard on the path to a raise as structure (``errdex.record.Guard``: the
test's text, its ``subject operator operand`` reading, whether the raise needs it false).
Here each test that must hold becomes a ``Condition``: words for the prose ("`model` is not
passed (it defaults to `None`)"), a fix when the condition is about an argument, and the same
test written from the caller's side (``self.`` read as the object's name), which the record's
language writes.  Nothing is parsed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from errdex.languages import CodeWriter
from errdex.record import Guard, Parameter

_COMPARE = {
    ">": "is greater than",
    "<": "is less than",
    ">=": "is at least",
    "<=": "is at most",
    "==": "equals",
    "!=": "differs from",
    "in": "is in",
    "not in": "is not in",
    "is": "is",
    "is not": "is not",
}


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


def read_guard(
    guard: Guard, params: Mapping[str, Parameter], receiver: str | None, code: CodeWriter | None
) -> Condition:
    """A guard whose test must hold (or fail) for the raise to happen, in words; with the
    language's ``code`` writer, also as the check a caller can write."""
    branch, text = guard.false_branch, guard.condition
    if code is None or guard.code is None:
        caller = None
    else:
        caller = code.caller_side(guard.code, guard.names, params, receiver)
    # The test itself opens with ``not``: one negation reads, two (``not (not x)``) do not.
    inverted = guard.negated != branch
    if branch and inverted:
        return Condition(text, "other", f"`{text}` holds", None, None, None, caller, None)
    negated = guard.negated
    subject, op, operand = guard.subject, guard.operator, guard.operand
    subject_caller = code.caller_side(subject, (), params, receiver) if code and subject and caller else None
    is_param = subject in params

    if op == "isinstance()" and operand is not None:
        kind = "not-isinstance" if negated else "isinstance"
        words = f"`{subject}` is {'not ' if negated else ''}{_a(operand)}"
        fix = f"pass {_a(operand)} as `{subject}`" if negated and is_param else None
        return Condition(text, kind, words, subject, operand, fix, caller, subject_caller)

    if op in _COMPARE and not negated:
        right = operand
        if op in ("is", "==") and right == "None":
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
        if op in ("is not", "!=") and right == "None":
            return Condition(
                text, "present", f"`{subject}` is given", subject, None, None, caller, subject_caller
            )
        if op == "not in":
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
        if op == "in":
            return Condition(
                text, "in", f"`{subject}` is in `{right}`", subject, right, None, caller, subject_caller
            )
        words = f"`{subject}` {_COMPARE[op]} `{right}`"
        fix = f"make sure `{text}` does not hold" if is_param else None
        return Condition(text, "compare", words, subject, right, fix, caller, subject_caller)

    if op == "truth":
        if negated:
            return Condition(
                text, "falsy", f"`{subject}` is false or empty", subject, None, None, caller, subject_caller
            )
        return Condition(text, "truthy", f"`{subject}` is true", subject, None, None, caller, subject_caller)

    if op == "hasattr()" and operand is not None:
        attr = operand.strip("'\"")
        words = f"`{subject}` {'lacks' if negated else 'has'} the attribute `{attr}`"
        return Condition(text, "other", words, subject, attr, None, caller, subject_caller)

    return Condition(text, "other", f"`{text}` holds", subject, None, None, caller, subject_caller)


def _a(type_text: str) -> str:
    if type_text.startswith("("):
        return f"one of `{type_text}`"
    return f"{'an' if type_text[:1].lower() in 'aeiou' else 'a'} `{type_text}`"
