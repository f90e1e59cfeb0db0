"""errdex: map an error message back to the line of library source that raised it."""

from __future__ import annotations

import os
import traceback
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.match.explain import Answer

__version__ = "0.1.0"
__all__ = ["explain"]


def explain(error: str | BaseException, db: str | os.PathLike[str] | None = None, top: int = 5) -> Answer:
    """Explain an error message, a pasted traceback, or an exception object.

    ``db`` is a store path (default: ``$ERRDEX_DB``, else the user data directory).
    """
    # Imported here so that ``import errdex`` stays cheap for hooks that may never fire.
    from errdex.match.explain import Matcher
    from errdex.store import open_store

    text = error if isinstance(error, str) else "".join(traceback.format_exception(error))
    with open_store(db, create=False) as store:
        return Matcher(store).explain(text, top)
