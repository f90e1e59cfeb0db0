"""Pausing Python's cyclic garbage collector around work that builds many acyclic objects.

Syntax trees and parsed JSON hold no reference cycles and are freed by reference counting;
left on, the collector rescans every live container each time enough new ones appear, which
adds a fifth to parsing and a third to loading a pattern index.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The cyclic collector off for the block, then back as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
