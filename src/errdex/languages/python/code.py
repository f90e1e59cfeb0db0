"""Python as enrichment writes it: calls, checks, a ``try``/``except``, a caller's view of a test.

Enrichment decides what to say (which argument to pass, which check to run first); this module
only spells it in Python, so that the rules stay the same for every language errdex reads.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from errdex.languages.python.names import BUILTIN_NAMES

_BUILTIN_MODULE = "builtins"


def comment(text: str) -> str:
    return f"# {text}"


def placeholder(note: str) -> str:
    """A statement left for the reader to write, with what it should do."""
    return f"...  # {note}"


def call(function: str, positional: Sequence[str] = (), keywords: Sequence[tuple[str, str]] = ()) -> str:
    args = [*positional, *(f"{name}={value}" for name, value in keywords)]
    return f"{function}({', '.join(args)})"


def all_of(tests: Sequence[str]) -> str:
    """Tests joined so that all must hold."""
    return " and ".join(f"({t})" if " or " in t else t for t in tests)


def if_block(test: str, body: str) -> str:
    return f"if {test}:\n    {body}"


def is_instance(subject: str, classes: str) -> str:
    return f"isinstance({subject}, {classes})"


def try_except(qualified_class: str, body: str, handler: str) -> str:
    """Catch the class around ``body``, importing it first unless it is a builtin."""
    module, _, name = qualified_class.rpartition(".")
    lines = []
    if module and module != _BUILTIN_MODULE and "." not in name:
        lines += [f"from {module} import {name}", ""]
    lines += ["try:", f"    {body}", f"except {name} as exc:", f"    {handler}"]
    return "\n".join(lines)


def caller_side(
    code: str, names: Collection[str], params: Collection[str], receiver: str | None
) -> str | None:
    """A test as a caller can write it: ``self`` read as the caller's object; None when it reads
    names a caller does not have (the function's locals, or module names it cannot see)."""
    for name in names:
        if name == "self":
            if receiver is None:
                return None
        elif name not in params and name not in BUILTIN_NAMES and not name[:1].isupper():
            return None
    if receiver is not None:
        code = code.replace("self.", f"{receiver}.").replace("self)", f"{receiver})")
    return code
