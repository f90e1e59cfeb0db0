"""The languages errdex reads, each behind the one interface of :mod:`errdex.languages.base`.

``LANGUAGES`` lists the entries: Python, JavaScript and TypeScript (one reader for both).
``NAMES`` knows more languages by their files' extensions than errdex reads, so that a record
imported from elsewhere is
labelled with its language even where no entry reads it.
"""

from __future__ import annotations

from pathlib import PurePath

from errdex.errors import ErrdexError
from errdex.languages.base import CodeWriter, Language, PasteReader
from errdex.languages.javascript import JAVASCRIPT, TYPESCRIPT
from errdex.languages.python import PYTHON

__all__ = [
    "LANGUAGES", "NAMES", "CodeWriter", "Language", "PasteReader", "find", "for_path", "get", "language_name"
]  # fmt: skip

LANGUAGES: dict[str, Language] = {entry.name: entry for entry in (PYTHON, JAVASCRIPT, TYPESCRIPT)}

NAMES = {
    ".py": "python", ".pyi": "python", ".pyx": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".go": "go", ".rs": "rust", ".java": "java", ".rb": "ruby", ".php": "php",
}  # fmt: skip

_BY_EXTENSION = {ext: entry for entry in LANGUAGES.values() for ext in entry.extensions}


def get(name: str) -> Language:
    """The entry for ``name``; an ``ErrdexError`` for a language errdex does not read."""
    entry = LANGUAGES.get(name)
    if entry is None:
        raise ErrdexError(f"errdex does not read {name} (it reads {', '.join(sorted(LANGUAGES))})")
    return entry


def find(name: str) -> Language | None:
    """The entry for ``name``, or None."""
    return LANGUAGES.get(name)


def for_path(path: str | PurePath) -> Language | None:
    """The entry that reads files like ``path``, or None."""
    return _BY_EXTENSION.get(PurePath(path).suffix)


def language_name(path: str | PurePath) -> str:
    """The language a file is written in, by its extension (``unknown`` where none is known)."""
    return NAMES.get(PurePath(path).suffix, "unknown")
