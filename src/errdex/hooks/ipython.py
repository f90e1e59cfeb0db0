"""``%load_ext errdex``: IPython and Jupyter show their own traceback, then errdex's answer.

IPython catches a cell's error itself and never reaches ``sys.excepthook``, so the extension
uses IPython's custom exception handler.  The handler draws IPython's traceback first, as IPython
would have, then prints the answer; a handler someone set before keeps handling its own classes.
The store stays open for the session and is reloaded when it changes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from errdex.hooks.explainer import Db, Explainer

ExcTypes = tuple[type[BaseException], ...]


class _Shell(Protocol):
    """The part of ``InteractiveShell`` used here (IPython leaves these methods untyped)."""

    custom_exceptions: ExcTypes
    CustomTB: Callable[..., Any]
    compile: Any

    def set_custom_exc(self, exc_tuple: ExcTypes, handler: Callable[..., Any] | None) -> None: ...

    def showtraceback(
        self,
        exc_tuple: tuple[type[BaseException], BaseException, TracebackType | None] | None = None,
        filename: str | None = None,
        tb_offset: int | None = None,
    ) -> None: ...


@dataclass(slots=True)
class _Loaded:
    explainer: Explainer
    #: What ``set_custom_exc`` held before, restored on unload.
    previous_types: ExcTypes
    previous_handler: Callable[..., Any]
    #: The tuple errdex set: how unload knows errdex's handler is still the current one.
    types: ExcTypes


_loaded: dict[int, _Loaded] = {}


def load(ip: InteractiveShell, db: Db = None) -> None:
    """Explain every error a cell raises, under IPython's traceback (loading twice changes nothing)."""
    from errdex.hooks.explainer import Explainer

    shell = cast(_Shell, ip)
    if id(ip) in _loaded:
        return
    previous_types = tuple(shell.custom_exceptions)
    types: ExcTypes = (Exception, *(t for t in previous_types if not issubclass(t, Exception)))
    state = _Loaded(Explainer(db, keep=True, harness=("IPython",)), previous_types, shell.CustomTB, types)

    def handler(
        self: _Shell,
        etype: type[BaseException],
        value: BaseException,
        tb: TracebackType | None,
        tb_offset: int | None = None,
    ) -> None:
        if state.previous_types and issubclass(etype, state.previous_types):
            state.previous_handler(etype, value, tb, tb_offset=tb_offset)
        else:
            self.showtraceback((etype, value, tb), tb_offset=tb_offset)
        if isinstance(value, Exception) and not _typed_in_a_cell(self, value):
            # Where IPython printed the traceback (stdout in a terminal, the cell in Jupyter).
            print(state.explainer.brief(value, tb), file=sys.stdout, flush=True)

    shell.set_custom_exc(types, handler)
    _loaded[id(ip)] = state


def _typed_in_a_cell(shell: _Shell, exc: Exception) -> bool:
    """A syntax error in what the user typed (IPython's custom handler also gets those): no
    library raised it, so IPython's caret under the mistake says all there is to say."""
    if not isinstance(exc, SyntaxError) or not exc.filename:
        return False
    try:
        return shell.compile.format_code_name(exc.filename) is not None
    except Exception:
        return False


def unload(ip: InteractiveShell) -> None:
    """Stop explaining, and give back the custom exception handler that was there before."""
    shell = cast(_Shell, ip)
    state = _loaded.pop(id(ip), None)
    if state is None:
        return
    state.explainer.close()
    if shell.custom_exceptions is not state.types:
        return  # someone replaced errdex's handler since: theirs stays
    if state.previous_types:
        shell.custom_exceptions, shell.CustomTB = state.previous_types, state.previous_handler
    else:
        shell.set_custom_exc((), None)
