"""Pausing Python's cyclic garbage collector around work that builds many acyclic objects, and
handing memory back once large structures are gone.

Syntax trees and parsed JSON hold no reference cycles and are freed by reference counting;
left on, the collector rescans every live container each time enough new ones appear, which
adds a fifth to parsing and a third to loading a pattern index.
"""

from __future__ import annotations

import ctypes
import gc
import sys
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


def release_memory() -> None:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``).

    A long-lived process that replaces a large structure (a server's pattern index, built anew
    beside the old one) frees the old one's memory to the allocator, which keeps it: the
    process stays as large as it was with both.  Elsewhere than glibc, nothing is done."""
    if sys.platform != "linux":
        return
    # The process's own symbols: libc is loaded already (``find_library`` would run ldconfig).
    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    if trim is not None:
        trim(0)
