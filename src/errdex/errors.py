"""errdex's own failures: each says in one line what went wrong and what to do about it."""

from __future__ import annotations

from collections import Counter


class ErrdexError(Exception):
    """A failure the user can act on; the CLI prints it as one line and exits non-zero."""


def too_deep(exc: RecursionError | MemoryError) -> str:
    """The reason a skip gives for code nested deeper than a reader can follow, naming the error
    and where it was raised (``too deeply nested to read (RecursionError in ast.unparse)``): the
    same file may be read by the parser, the unparser or errdex's own walk, and a report should
    say which gave up."""
    return f"too deeply nested to read ({type(exc).__name__} in {_raised_in(exc)})"


def _raised_in(exc: BaseException) -> str:
    """The standard ``ast`` function the error came from, as entered (``ast.parse``); else the
    function that recursed, the one most often on the failed stack."""
    import traceback  # only once something failed

    frames = [
        (frame.f_globals.get("__name__", "?"), frame.f_code.co_qualname)
        for frame, _ in traceback.walk_tb(exc.__traceback__)
    ]
    entered = next((f"ast.{name}" for module, name in frames if module == "ast"), None)
    if entered is not None or not frames:
        return entered or "the parser"
    module, name = Counter(frames).most_common(1)[0][0]
    return f"{module}.{name}"
