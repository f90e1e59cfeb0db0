"""Reading a file errdex did not write, without being made to wait or to read it all.

Mined trees and installed environments are other people's: a name ending in ``.py`` may be a
FIFO (opening it waits for a writer forever), a device, or a file of hundreds of megabytes.
Every read of such a file (sources, git's own files, distribution metadata) is
:func:`read_regular`.  Below mining and the languages, so both can use it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["Unreadable", "file_kind", "read_regular"]


#: Never wait on open (a FIFO), never take a terminal, never leak the descriptor to a child.
_OPEN_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)


class Unreadable(OSError):
    """A file errdex refuses to read: not a regular file, or larger than its cap."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes.

    Every file errdex reads (sources, git's files, distribution metadata) goes through here.
    The type is checked before opening, so a device is never opened; the open does not block
    (``O_NONBLOCK``: opening a FIFO otherwise waits for a writer) and the open descriptor is
    checked again, so a file swapped for a FIFO in between is refused too; and at most
    ``limit + 1`` bytes are read, so a file that grew is never read whole.  Raises ``OSError``
    (``Unreadable`` for the refusals), with the reason in its message.
    """
    if not stat.S_ISREG(mode := os.stat(path).st_mode):
        raise Unreadable(f"not a regular file ({file_kind(mode)})")
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(f"not a regular file ({file_kind(info.st_mode)})")
        if info.st_size > limit:
            raise Unreadable(f"larger than {limit} bytes ({info.st_size})")
        chunks = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise Unreadable(f"larger than {limit} bytes")
    return data


def file_kind(mode: int) -> str:
    """What a file that is not regular is, in words (``a FIFO``)."""
    kinds = (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISDIR, "a directory"),
    )
    return next((name for test, name in kinds if test(mode)), "of an unknown kind")
