"""Guard conditions in plain words, and as checks a caller can run.

The miner keeps each guard on the path to a raise as structure (``errdex.record.Guard``: the
test's text, its ``subject operator operand`` reading, whether the raise needs it false).
Here each test that must hold becomes a ``Condition``: words for the prose ("`model` is not
passed (it defaults to `None`)"), a fix when the condition is about an argument, and the same
test written from the caller's side (``self.`` read as the object's name), which the record's
language writes.  Nothing is parsed here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from errdex.languages import CodeWriter
from errdex.record import CONDITION_KINDS, Guard, Parameter

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
    #: The comparison, for a ``compare`` (``!=`` in "`axis` differs from `1`").
    operator: str | None = None


def read_guard(
    guard: Guard, params: Mapping[str, Parameter], receiver: str | None, code: CodeWriter | None
) -> Condition:
    """A guard whose test must hold (or fail) for the raise to happen, in words; with the
    language's ``code`` writer, also as the check a caller can write.

    The words say what holds where the site runs, never a double negation: a test the site
    needs false reads as its inverse (``not (x is None)`` as "`x` is not `None`", ``not (k in
    d)`` as "`k` is not in `d`", ``not (a < b)`` as "`a` is not less than `b`")."""
    text = guard.needed
    if code is None or guard.code is None:
        caller = None
    else:
        caller = code.caller_side(guard.code, guard.names, params, receiver)
    subject, op, operand = guard.subject, guard.operator, guard.operand
    negated = guard.negated
    if negated and op in INVERSE:
        op, negated = INVERSE[op], False
    subject_caller = code.caller_side(subject, (), params, receiver) if code and subject and caller else None
    is_param = subject in params

    if op == "isinstance()" and operand is not None:
        kind = "not-isinstance" if negated else "isinstance"
        words = f"`{subject}` is {'not ' if negated else ''}{a_type(operand)}"
        fix = f"pass {a_type(operand)} as `{subject}`" if negated and is_param else None
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
            words = f"`{subject}` is given" if is_param else f"`{subject}` is not `None`"
            return Condition(text, "present", words, subject, None, None, caller, subject_caller)
        param = params.get(subject or "")
        if (
            op in ("is", "is not")
            and param is not None
            and right is not None
            and param.default == right
            and not _literal(right)
        ):
            # A sentinel default (``axis=lib.no_default``): the test says whether it was passed.
            # Not a literal one: ``flag is True`` holds for ``flag=True`` passed as well.
            if op == "is":
                words = f"`{subject}` is not passed (it defaults to `{right}`)"
                return Condition(
                    text, "absent", words, subject, None, f"pass `{subject}`", caller, subject_caller
                )
            words = f"`{subject}` is passed (its default is `{right}`)"
            return Condition(
                text, "present", words, subject, None, f"leave `{subject}` out", caller, subject_caller
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
        compared = Condition(text, "compare", words, subject, right, None, caller, subject_caller, op)
        if not is_param:
            fix = None
        elif op in _NOT_COMPARE and _number(right):
            fix = f"make sure `{subject}` {_NOT_COMPARE[op]} `{right}`"
        elif op == "==":
            fix = f"make sure `{subject}` differs from `{right}`"
        else:
            fix = f"make sure `{text}` does not hold"
        return replace(compared, fix=fix)

    if op in _NOT_COMPARE and negated and operand is not None:
        # An order the site needs false: ``not a < b`` is not ``a >= b`` (sets, NaN), so it is
        # said as it is.
        words = f"`{subject}` {_NOT_COMPARE[op]} `{operand}`"
        fix = f"make sure `{subject} {op} {operand}` holds" if is_param else None
        return Condition(text, "compare", words, subject, operand, fix, caller, subject_caller)

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

    if guard.negated and guard.false_branch and text.startswith("not ") and (written := _quoted(guard.text)):
        # Past ``if a and b: return``: the test as written does not hold, rather than ``not (a
        # and b)`` holds; where the negation folded away (``msg or ancdata`` past ``if not msg
        # and not ancdata: return``) the code says it plainly.
        return Condition(
            text, "other", f"{written} does not hold", subject, None, None, caller, subject_caller
        )
    return Condition(text, "other", f"`{text}` holds", subject, None, None, caller, subject_caller)


#: The comparison a negated one is: ``not (x is None)`` is ``x is not None``.
INVERSE = {"is": "is not", "is not": "is", "in": "not in", "not in": "in", "==": "!=", "!=": "=="}
_NOT_COMPARE = {
    ">": "is not greater than",
    "<": "is not less than",
    ">=": "is not at least",
    "<=": "is not at most",
}


def circumstances(guards: Iterable[Guard], params: Mapping[str, Parameter]) -> tuple[list[str], list[str]]:
    """Every guard on the path in words, outermost first: what holds where the site runs (each
    test, each early exit, a handler's failing call, a matched ``case``, a loop or ``try`` whose
    ``else`` it is), and where it stands (the loops and ``with`` blocks around it, each a phrase
    of its own: "while iterating over `items`").  A test another one implies is left out
    (``x != 0`` past an early exit, where ``x > 1`` is checked too)."""
    guards = list(guards)
    tests = [g for g in guards if g.kind in _TEST_KINDS]
    held: list[str] = []
    around: list[str] = []
    for guard in guards:
        if guard.kind in _TEST_KINDS:
            if guard.kind == "while" and not guard.names:  # ``while True``: no test, a loop
                around.append(f"inside the {_quoted(f'while {guard.text}') or '`while`'} loop")
            elif not any(other is not guard and _implies(other, guard) for other in tests):
                held.append(read_guard(guard, params, None, None).words)
        elif (words := _block_words(guard)) is not None:
            (around if guard.kind in ("loop", "with") else held).append(words)
    # One test at several early exits (``if _check(value, x): return`` thrice) is said once.
    return list(dict.fromkeys(held)), list(dict.fromkeys(around))


#: Guards that are a test of their own: those whose test must hold, and the early exits.
_TEST_KINDS = frozenset({*CONDITION_KINDS, "early-exit"})


def _block_words(guard: Guard) -> str | None:
    """A block that is no test, in words: what holds when the site in it runs, or (a loop, a
    ``with``) a phrase saying where it stands."""
    kind = guard.kind
    if kind == "except":
        if guard.caught:
            classes = either([f"`{c}`" for c in guard.caught])
        elif guard.text:
            classes = f"an exception matching {_quoted(guard.text) or 'what the handler names'}"
        else:
            classes = "any exception"
        guarded = _quoted(guard.guarded)
        return f"{guarded or 'the `try` block before it'} raises {classes}"
    if kind == "try-else":
        guarded = _quoted(guard.guarded)
        if guarded:
            return f"{guarded} raises no exception"
        return "the `try` block before it completes without raising"
    if kind == "loop-else":
        if guard.operator == "in":
            loop = f"the loop over {_quoted(guard.operand) or 'its iterable'}"
        else:
            loop = f"the {_quoted(f'while {guard.text}') or '`while`'} loop"
        return f"{loop} runs to its end without a `break`"
    if kind == "loop":
        return f"while iterating over {_quoted(guard.operand) or 'a `for` loop'}"
    if kind == "with":
        return f"inside the {_quoted(f'with {guard.text}') or '`with`'} block"
    if kind == "match-case":
        subject = _quoted(guard.subject) or "the `match` subject"
        if guard.operator == "otherwise":
            return f"{subject} matches none of the earlier cases"
        return f"{subject} matches the case {_quoted(guard.operand) or 'before it'}"
    return None


def _implies(a: Guard, b: Guard) -> bool:
    """Whether test ``a`` holding makes test ``b`` hold, for the one shape that repeats itself
    in real code: checks of one subject against whole numbers (``x > 1`` makes ``x != 0`` and
    ``x is not None`` hold)."""
    ra, rb = _comparison(a), _comparison(b)
    if ra is None or rb is None or ra[0] != rb[0]:
        return False
    op_a, n = ra[1], _whole(ra[2])
    op_b, operand_b = rb[1], rb[2]
    if n is None:
        return False
    if op_b == "is not" and operand_b == "None":
        return op_a in (">", ">=", "<", "<=", "==")  # None has no order, and equals no number
    m = _whole(operand_b)
    if op_b != "!=" or m is None:
        return False
    return {">": n >= m, ">=": n > m, "<": n <= m, "<=": n < m, "==": n != m}.get(op_a, False)


def _comparison(guard: Guard) -> tuple[str, str, str] | None:
    """``subject operator operand`` the site needs to hold, its negation folded into the operator."""
    subject, op, operand = guard.subject, guard.operator, guard.operand
    if subject is None or op is None or operand is None:
        return None
    if guard.negated:
        if op not in INVERSE:
            return None
        op = INVERSE[op]
    return subject, op, operand


def _whole(code: str | None) -> int | None:
    """A whole number written as one (``1``, ``-2``)."""
    digits = (code or "").removeprefix("-")
    return int(code or "") if digits.isdigit() and digits.isascii() else None


def _quoted(code: str | None) -> str | None:
    """``code`` in backticks, if it is one short line."""
    if not code or "\n" in code or "`" in code or len(code) > _QUOTED_LENGTH:
        return None
    return f"`{code}`"


_QUOTED_LENGTH = 120
_DOTTED = re.compile(r"[A-Za-z_][\w.]*")


def either(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _number(code: str | None) -> bool:
    """Whether ``code`` is a number written as one (``0``, ``-1.5``): ordered like any other."""
    try:
        float((code or "").replace("_", ""))
    except ValueError:
        return False
    return (code or "").lstrip("-")[:1].isdigit()


def classes_of(type_text: str) -> list[str]:
    """The classes an ``isinstance`` operand names, as written: ``(A, B)`` gives ``A`` and ``B``."""
    return [n.strip() for n in type_text.strip("()").split(",") if n.strip()]


def _literal(text: str) -> bool:
    """A value written as itself (``True``, ``3``, ``'x'``), which a caller can pass as well."""
    return text in ("True", "False") or _number(text) or text[:1] in ("'", '"')


def a_type(type_text: str) -> str:
    """``a `T```, or for a tuple of classes ``an instance of `A`, `B` or `C```."""
    if type_text.startswith("("):
        names = classes_of(type_text)
        if names and all(_DOTTED.fullmatch(n) for n in names):
            return f"an instance of {either([f'`{n}`' for n in names])}"
        return f"one of `{type_text}`"
    return f"{'an' if type_text[:1].lower() in 'aeiou' else 'a'} `{type_text}`"
