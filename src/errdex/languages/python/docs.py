"""What a Python function says of itself: its signature as written, its docstring's summary, and
what its docstring's ``Raises`` section says of a class."""

from __future__ import annotations

import inspect
import re
from functools import lru_cache

import docstring_parser

_SPACES = re.compile(r"\s+")
_DEF = re.compile(r"\bdef\s+(.*)")
_OPENING_SPACE = re.compile(r"([\[(])\s+")
_CLOSING_SPACE = re.compile(r",?\s*([\])])")


def signature(lines: list[str], start: int, body: int) -> str | None:
    """The ``def`` line(s) as written, on one line: ``backward(self, tensor, *args, model=None)``."""
    text = " ".join(lines[start - 1 : max(start, body - 1)])
    m = _DEF.search(text)
    if m is None:
        return None
    head = _SPACES.sub(" ", m.group(1)).strip()
    # Up to the colon that opens the body: the last one, since annotations hold colons too.
    head = head[: head.rfind(":")] if head.rfind(":") > head.find(")") else head
    # Undo the line breaks of a long signature: "( a, b, )" reads "(a, b)".
    head = _OPENING_SPACE.sub(r"\1", head)
    head = _CLOSING_SPACE.sub(r"\1", head)
    return head or None


#: A docstring section that lists raised exceptions: Google ``Raises:``, NumPy ``Raises`` with
#: an underline, Sphinx ``:raises X:``.  Prose that merely says "raises" needs no parser.
_RAISES_SECTION = re.compile(r"^\s*Raises\s*:?\s*$|:raises?\b", re.MULTILINE)


def summary(doc: str | None) -> str | None:
    """The docstring's first paragraph, on one line."""
    if not doc:
        return None
    cleaned = inspect.cleandoc(doc)
    first = cleaned.split("\n\n", 1)[0].strip()
    return _SPACES.sub(" ", first) or None


def raises(doc: str | None, error_class: str | None) -> str | None:
    """What a docstring's ``Raises`` section (Google, NumPy or Sphinx style) says of this class."""
    if not doc or not error_class or not _RAISES_SECTION.search(doc):
        return None
    return _raises_section(doc).get(error_class.rpartition(".")[2])


@lru_cache(maxsize=4096)
def _raises_section(doc: str) -> dict[str, str]:
    """Exception name to description, from a docstring's ``Raises`` section."""
    try:
        parsed = docstring_parser.parse(inspect.cleandoc(doc))
    except (docstring_parser.ParseError, ValueError, IndexError):
        return {}
    return {
        entry.type_name.rpartition(".")[2]: _SPACES.sub(" ", entry.description).strip()
        for entry in reversed(parsed.raises)  # the first entry for a name wins
        if entry.type_name and entry.description
    }
