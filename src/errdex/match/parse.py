"""Read what people paste when they ask about an error: each language's tracebacks, or a message.

``parse`` checks the paste (not empty, not binary, not too big), cleans it (colours, line
endings, trailing blanks, which terminals add at will) and walks its lines once: at each line
every language's paste reader (``errdex.languages``) is asked in turn, and the first that
recognises the line consumes the block that starts there.  Lines no reader wants are skipped,
so text around an error is harmless.  One-line digests of a failure (pytest's ``FAILED ...``
summary) count only where nothing fuller is there, and a paste in which no error is
recognised is one message.
"""

from __future__ import annotations

import re

from errdex.languages import LANGUAGES, PasteReader
from errdex.languages.pastes import (
    MAX_PASTE_BYTES,
    Format,
    Frame,
    Lines,
    ParsedError,
    Paste,
    PasteError,
    Read,
)

__all__ = ["MAX_PASTE_BYTES", "Format", "Frame", "ParsedError", "Paste", "PasteError", "parse"]

_LIMIT = f"{MAX_PASTE_BYTES:,} bytes"
#: Share of control and replacement characters, and of undecodable bytes (lone surrogates, as
#: ``surrogateescape`` decodes them), above which a paste is taken for binary data.
_BINARY_SHARE = 0.3
_BINARY_SAMPLE = 100_000

_UNREADABLE = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f\ufffd\ud800-\udfff]")
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b")


def parse(text: str) -> Paste:
    """Every error in ``text`` in paste order; text in which none is recognised is one message."""
    _check(text)
    lines = _clean(text)
    return Paste(tuple(_scan(lines, 0) or [_whole(lines)]))


def _readers() -> list[PasteReader]:
    # Languages that share a reader (JavaScript and TypeScript) are asked once.
    return list({id(entry.paste): entry.paste for entry in LANGUAGES.values()}.values())


def _check(text: str) -> None:
    # Every character is at least one byte, so the costly count is needed only near the limit.
    if len(text) > MAX_PASTE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_PASTE_BYTES:
        raise PasteError(f"the paste is over the limit of {_LIMIT}: paste only the traceback or error")
    sample = text[:_BINARY_SAMPLE]
    if "\x00" in text or len(_UNREADABLE.findall(sample)) > _BINARY_SHARE * len(sample):
        raise PasteError(f"the paste looks like binary data: paste the error as text (at most {_LIMIT})")


def _clean(text: str) -> list[str]:
    """Lines without colours, line-ending variants or trailing blanks, which terminals add at will."""
    text = _ANSI.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = text.replace("\xa0", " ").lstrip("\ufeff")
    return [line.rstrip() for line in text.split("\n")]


def _whole(lines: list[str]) -> ParsedError:
    """The paste as one message, for text that holds no recognisable error."""
    text = "\n".join(line for line in lines if not line.startswith("```")).strip()
    if not text:
        raise PasteError(f"the paste is empty: paste a traceback, log line or message (at most {_LIMIT})")
    for reader in _readers():
        if (error := reader.bare(text)) is not None:
            return error
    return ParsedError(None, text, (), "message")


def _scan(lines: Lines, depth: int) -> list[ParsedError]:
    """Errors in ``lines``; one-line summaries count only when nothing fuller is there."""
    readers = _readers()
    errors: list[ParsedError] = []
    summaries: list[ParsedError] = []
    i = 0
    while i < len(lines):
        summary = next((s for r in readers if (s := r.summary(lines[i])) is not None), None)
        if summary is not None:
            summaries.append(summary)
            i += 1
            continue
        read = _read(readers, lines, i, depth)
        if read is None:
            i += 1
            continue
        errors += read[0]
        i = max(read[1], i + 1)
    return errors or summaries


def _read(readers: list[PasteReader], lines: Lines, i: int, depth: int) -> Read | None:
    """The first reader's read of the block at line ``i``; but where it found no frames (a bare
    ``Class: message``, a log record), a later reader's that found some: a header reads alike in
    several languages (``TypeError: x``), and the frames under it say whose error it is."""
    first: Read | None = None
    for reader in readers:
        read = reader.read(_scan, lines, i, depth)
        if read is None:
            continue
        if any(e.frames for e in read[0]):
            return read
        first = first or read
    return first
