"""errdex's own failures: each says in one line what went wrong and what to do about it."""


class ErrdexError(Exception):
    """A failure the user can act on; the CLI prints it as one line and exits non-zero."""
