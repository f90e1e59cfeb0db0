"""Mine a source tree into records: select files, extract sites in parallel, resolve, build.

``mine()`` is the whole stage.  It never imports or executes what it reads, and every file
it cannot use is reported in ``MineResult.skipped`` with a reason instead of failing the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.mine.pipeline import (
        MineResult,
        Progress,
        Skipped,
        Source,
        directory_source,
        mine,
        mine_sources,
    )

__all__ = ["MineResult", "Progress", "Skipped", "Source", "directory_source", "mine", "mine_sources"]


def __getattr__(name: str) -> Any:
    # Loaded on first use: ``errdex.mine.environment`` (on every ``errdex explain``, to see
    # whether the index is fresh) must not pay for the extractor, the resolver and the rest.
    if name in __all__:
        from errdex.mine import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
