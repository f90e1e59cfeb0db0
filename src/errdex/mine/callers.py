"""Where raising functions are called: one pass over the tree's text for just their names.

Walking every expression of every syntax tree to build a full call graph would cost more
than parsing; a regular expression over the text for every ``name(`` is no cheaper in
Python.  Only the names of functions that raise matter, so an Aho-Corasick automaton of
``name(`` finds exactly those calls in one linear pass per file, in C.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

import ahocorasick

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
            receiver = ""
            if before == ".":
                m = _RECEIVER.search(text, max(0, start - 1 - _RECEIVER_WINDOW), start - 1)
                receiver = m.group(1) if m else ""
            found.append((path, line, receiver))
    return calls
