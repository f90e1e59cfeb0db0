"""What a Python docstring says: its summary, and what its ``Raises`` section says of a class."""

from __future__ import annotations

import inspect
import re
from functools import lru_cache

import docstring_parser

_SPACES = re.compile(r"\s+")
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
