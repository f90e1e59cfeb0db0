"""Where raising functions are called: one pass over the tree's text for just their names.

Walking every expression of every syntax tree to build a full call graph would cost more
than parsing; a regular expression over the text for every ``name(`` is no cheaper in
Python.  Only the names of functions that raise (and of the private functions on the way up to
a public one) matter, so an Aho-Corasick automaton of ``name(`` finds exactly those calls in
one linear pass per file, in C.  What only looks like a call is left out: a definition
(``def name(``), and text in a string or a comment on the line (a message that quotes
``self.log(...)``), as the file's language writes them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

import ahocorasick

from errdex import languages

#: The receiver of ``receiver.name(``: the identifier just before the dot.
_RECEIVER = re.compile(r"([A-Za-z_]\w*)\s*\Z")
_RECEIVER_WINDOW = 64

#: (file, line, receiver) of each call; ``""`` for a bare ``name(``.
Calls = dict[str, list[tuple[str, int, str]]]


def scan_calls(texts: Iterable[tuple[str, str]], names: Iterable[str], limit: int | None = None) -> Calls:
    """Every call of one of ``names`` in ``texts`` (pairs of path and source text); a name
    called more than ``limit`` times keeps only its first ``limit + 1`` calls (too common to
    tell callers apart, and in a big library the bulk of the scan)."""
    automaton = ahocorasick.Automaton()
    for name in names:
        automaton.add_word(f"{name}(", name)
    calls: Calls = defaultdict(list)
    if len(automaton) == 0:
        return calls
    automaton.make_automaton()
    for path, text in texts:
        language = languages.for_path(path)
        words = language.defining_words if language is not None else frozenset()
        definition = re.compile(rf"\b(?:{'|'.join(sorted(words))})[ \t]+\Z") if words else None
        comment = language.line_comment if language is not None else None
        line, counted = 1, 0
        for end, name in automaton.iter(text):
            start = end - len(name)  # ``end`` is the index of the parenthesis
            found = calls[name]
            if limit is not None and len(found) > limit:
                continue
            before = text[start - 1] if start else ""
            if before.isalnum() or before == "_":
                continue  # ``target(`` is not a call of ``get``
            line += text.count("\n", counted, start)
            counted = start
            if (
                before in " \t"
                and definition is not None
                and definition.search(text, max(0, start - 64), start)
            ):
                continue  # ``def get(`` and ``class Fabric(`` define, they do not call
            if _in_text(text, text.rfind("\n", 0, start) + 1, start, comment):
                continue  # ``"... self.log(...) ..."`` in a message, or a comment, calls nothing
            receiver = ""
            if before == ".":
                m = _RECEIVER.search(text, max(0, start - 1 - _RECEIVER_WINDOW), start - 1)
                receiver = m.group(1) if m else ""
            found.append((path, line, receiver))
    return calls


def _in_text(text: str, begin: int, end: int, comment: str | None) -> bool:
    """Whether ``end`` lies inside a quoted string or after a comment opened on its line (from
    ``begin``); a string that spans lines (other than a docstring, which the caller's spans
    leave out) is not seen."""
    prefix = text[begin:end]
    if '"' not in prefix and "'" not in prefix and (comment is None or comment not in prefix):
        return False
    quote, escaped = "", False
    for i, ch in enumerate(prefix):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif comment is not None and prefix.startswith(comment, i):
            return True
    return bool(quote)
