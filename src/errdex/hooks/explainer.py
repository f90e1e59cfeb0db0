"""From an exception caught by a hook to errdex's brief answer, without ever raising.

A hook runs at the worst moment: the user's program has just failed and its traceback is the
one thing that must reach them.  So everything errdex does here (finding and opening the store,
parsing, matching, rendering) is fenced: a failure becomes one line, ``errdex: could not explain
this error: ...``, printed after the user's traceback, never instead of it.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from errdex.errors import ErrdexError

if TYPE_CHECKING:
    from errdex.match.explain import Answer
    from errdex.session import Session

Db = str | os.PathLike[str] | None

#: Not errors: the user or the program asked to stop, or a generator was closed.
NOT_ERRORS = (KeyboardInterrupt, SystemExit, GeneratorExit)
#: Candidates a hook asks for: the best one and a few others.
TOP = 4
FAILED = "errdex: could not explain this error"


def should_explain(exc_type: type[BaseException] | None) -> bool:
    """Whether a hook should explain an exception of this class (not an interrupt or an exit)."""
    return exc_type is not None and not issubclass(exc_type, NOT_ERRORS)


def failure_line(error: BaseException) -> str:
    """The one line a hook prints when errdex itself failed, whatever went wrong."""
    detail = " ".join(str(error).split())
    if not isinstance(error, ErrdexError):
        # Not one of errdex's own explained failures: a bug, or a store it cannot read.
        detail = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    return f"{FAILED}: {detail}"


class Explainer:
    """Explains exceptions against one store.

    With ``keep``, the store and its pattern index stay open between errors (an IPython session,
    a pytest run) and are reloaded when the store changes; otherwise each error opens the store
    afresh, which suits a process that is about to exit.  Both read through a ``Session``, as
    every front end does, which also gives an error in another thread a connection of its own.
    """

    def __init__(
        self, db: Db = None, *, keep: bool = False, top: int = TOP, harness: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.keep = keep
        self.top = top
        #: Top-level packages that ran the user's code (``IPython``, ``_pytest``): their frames
        #: at the top of a traceback are left out, as their own displays leave them out.
        self.harness = harness
        self._session: Session | None = None

    def brief(self, exc: BaseException, tb: TracebackType | None = None) -> str:
        """errdex's answer for ``exc`` as plain text, or one line saying why there is none."""
        try:
            from errdex.hooks.render import brief

            tb = _without_harness(tb or exc.__traceback__, self.harness)
            text = "".join(traceback.format_exception(type(exc), exc, tb))
            return brief(self._explain(text), others=self.top - 1)
        except Exception as error:
            return failure_line(error)
        except KeyboardInterrupt:
            return f"{FAILED}: interrupted"

    def close(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            session.close()

    def _explain(self, text: str) -> Answer:
        from errdex.session import Session

        # Not read-only: a pattern index built here is kept in the store for the next error.
        if not self.keep:
            with Session(existing_store(self.db), readonly=False) as session:
                return session.explain(text, self.top)
        if self._session is None:
            self._session = Session(existing_store(self.db), readonly=False)
        return self._session.explain(text, self.top)


def _without_harness(tb: TracebackType | None, harness: tuple[str, ...]) -> TracebackType | None:
    """The traceback from the first frame that is not the harness's.  Once the whole environment
    is indexed, a harness's frames near its own raises would otherwise count as evidence."""
    start = tb
    while start is not None and start.tb_frame.f_globals.get("__name__", "").partition(".")[0] in harness:
        start = start.tb_next
    return start if start is not None else tb


def existing_store(db: Db) -> str:
    """The store ``db`` names, resolved as the CLI resolves it (``--db``, ``$ERRDEX_DB``, else the
    index of the environment this interpreter runs in), provided it exists.

    A hook only reads: indexing an environment takes minutes, far too long to keep a failed
    program waiting, so a missing index gets the command that builds it instead.
    """
    from errdex.defaults import default_target
    from errdex.store import is_server_url

    target, _ = default_target(db, sys.executable)
    if not is_server_url(target) and not Path(target).is_file():
        raise ErrdexError(f"no errdex database at {target} (run `errdex index` to build one)")
    return target
