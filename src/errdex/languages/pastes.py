"""What a pasted error is once read: its errors, each with its class, message and frames.

The vocabulary of the paste side of the language interface (``errdex.languages.base``): each
language's reader of its tracebacks answers in it, the driver that reads a paste
(:mod:`errdex.match.parse`) collects it, and the matcher works from it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from errdex.errors import ErrdexError

MAX_PASTE_BYTES = 1_000_000

Format = Literal["python", "ipython", "rich", "pytest", "logging", "line", "message", "node", "browser"]


class PasteError(ErrdexError):
    """The paste is not something to parse: empty, binary or too big."""


@dataclass(frozen=True, slots=True)
class Frame:
    path: str
    line: int
    function: str | None = None
    #: The path as a record names its file (below ``site-packages``, the standard library ...).
    relative: str | None = None
    #: The source line printed under the frame, stripped; None where the paste shows none.
    source: str | None = None
    #: The package the path lies in, where the path says it (``node_modules/@scope/name/``):
    #: a record of another package at the same relative path is not this frame's.
    package: str | None = None


@dataclass(frozen=True, slots=True)
class ParsedError:
    error_class: str | None
    message: str
    frames: tuple[Frame, ...]
    format: Format
    #: One of the sub-exceptions an exception group carries, not an error raised on its own.
    in_group: bool = False
    #: The error code the paste shows (Node's ``code: 'ERR_INVALID_ARG_TYPE'``,
    #: ``TypeError [ERR_X]: ...``): looked up as a record's exact ``errorCode`` before its text.
    code: str | None = None


@dataclass(frozen=True, slots=True)
class Paste:
    errors: tuple[ParsedError, ...]

    @property
    def primary(self) -> int:
        """The error the program ended with: the last one that is not inside a group."""
        for i in reversed(range(len(self.errors))):
            if not self.errors[i].in_group:
                return i
        return len(self.errors) - 1


Lines = Sequence[str]
#: The errors a reader found and the index of the line after the block it read.
Read = tuple[list[ParsedError], int]
#: The driver's scan of some lines at a nesting depth: how a reader reads what a block nests
#: (the sub-exceptions of a group).
Scan = Callable[[Lines, int], list[ParsedError]]
