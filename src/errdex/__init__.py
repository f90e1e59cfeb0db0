"""errdex: map an error message back to the line of library source that raised it."""

from __future__ import annotations

import os
import sys

# Not ``from typing import TYPE_CHECKING``: ``import errdex`` runs at every interpreter start-up
# once ``errdex hook install`` is in effect, and typing costs more than the rest of it together.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from errdex.match.explain import Answer

__version__ = "0.1.0"
__all__ = ["explain", "install", "load_ipython_extension", "uninstall", "unload_ipython_extension"]


def explain(error: str | BaseException, db: str | os.PathLike[str] | None = None, top: int = 5) -> Answer:
    """Explain an error message, a pasted traceback, or an exception object.

    ``db`` is a store path (default: ``$ERRDEX_DB``, else the index of the environment this
    interpreter runs in, which ``errdex index`` builds: the API reads an index, never builds one).
    """
    # Imported here so that ``import errdex`` stays cheap for hooks that may never fire.
    import traceback

    from errdex.defaults import default_target
    from errdex.session import Session

    text = error if isinstance(error, str) else "".join(traceback.format_exception(error))
    # Not read-only: a pattern index built here is kept in the store for the next process.
    with Session(default_target(db, sys.executable)[0], readonly=False) as session:
        return session.explain(text, top)


def install(db: str | os.PathLike[str] | None = None) -> None:
    """Explain uncaught errors (``sys.excepthook``, ``threading.excepthook``) after their traceback.

    The hooks found are kept and run first; installing twice explains once.  ``db`` is the store
    (default, looked up when an error happens: ``$ERRDEX_DB``, else this environment's index).
    """
    from errdex.hooks.excepthook import install as install_hooks

    install_hooks(db)


def uninstall() -> None:
    """Stop explaining uncaught errors and restore the hooks :func:`install` found."""
    from errdex.hooks.excepthook import uninstall as uninstall_hooks

    uninstall_hooks()


def load_ipython_extension(ip: InteractiveShell) -> None:
    """``%load_ext errdex``: explain each error a cell raises, under IPython's traceback."""
    from errdex.hooks.ipython import load

    load(ip)


def unload_ipython_extension(ip: InteractiveShell) -> None:
    """``%unload_ext errdex``: give IPython its previous exception handler back."""
    from errdex.hooks.ipython import unload

    unload(ip)
