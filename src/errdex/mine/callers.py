"""Where raising functions are called: one pass over the tree's text for just their names.

Walking every expression of every syntax tree to build a full call graph would cost more
than parsing.  Only the names of functions that raise (and of the private functions on the way
up to a public one) matter: one regular expression over the file's text spelled backwards
jumps from ``(`` to ``(`` in C and reads the whole word before each, and a set keeps the calls
of those names (half the cost of an Aho-Corasick automaton of ``name(``, which steps through
every character and finds ``get(`` inside ``target(`` too).
What only looks like a call is left out: a definition
(``def name(``), and text in a string or a comment on the line (a message that quotes
``self.log(...)``), as the file's language writes them; a template of code in a string that
spans lines is left out of the calls resolved (``long_strings``).

A name alone does not say which function a call runs (``shutil.copyfileobj`` is not
``tarfile.copyfileobj``), so each call keeps what it is called on, written out
(``self._strategy``, ``nx.approximation``), and where its argument list opens in the file's
text, which is kept: :mod:`errdex.mine.facts` resolves the few calls it finds, and reads the
arguments of those whose raise depends on them.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from errdex import languages

#: The receiver of ``receiver.name(``, read backwards from the dot (one anchored match, not a
#: search): a dotted chain of identifiers, not itself the tail of a longer expression (``f().x``
#: calls on what ``f`` returns).
_RECEIVER = re.compile(r"[ \t]*(\w*[A-Za-z_](?:[ \t]*\.[ \t]*\w*[A-Za-z_])*)(?![\w.)\]])")
_SUPER = re.compile(r"[ \t]*\)\(repus(?![\w.])")
_RECEIVER_WINDOW = 128
#: ``name(`` spelled backwards: a parenthesis, then the whole word before it; or the call
#: TypeScript and Babel compile an imported function's call to, ``(0, module.name)(``, whose
#: ``)`` stands between.
_CALL_REVERSED = re.compile(r"\((\)[ \t]*)?(\w+)")
#: What stands before the receiver of a compiled call (``(0, module.name)(``).
_INDIRECT = re.compile(r"\(\s*0\s*,\s*[\w$.]*$")
_WORD = re.compile(r"\w+")
#: How far back from a name a defining word (``def``, ``class``) is looked for.
_DEFINITION_WINDOW = 64
#: What a call is made on when its text shows no name for it (``f().name(``, ``x[0].name(``).
UNNAMED = "?"
SUPER = "super()"


class CallSite(NamedTuple):
    """One call found by the scan."""

    path: str
    line: int
    #: What it is called on as written, spaces left out: ``""`` for a bare ``name(``, a dotted
    #: chain (``self._strategy``), ``super()``, or ``UNNAMED``.
    receiver: str
    #: Where its ``(`` stands in the file's text (``Calls.texts``).
    offset: int


@dataclass(slots=True)
class Calls:
    """The calls of each scanned name, and the text of every file one was found in."""

    sites: dict[str, list[CallSite]] = field(default_factory=lambda: defaultdict(list))
    texts: dict[str, str] = field(default_factory=dict)

    def of(self, name: str) -> list[CallSite]:
        return self.sites.get(name, [])


def scan_calls(texts: Iterable[tuple[str, str]], names: Iterable[str], limit: int | None = None) -> Calls:
    """Every call of one of ``names`` in ``texts`` (pairs of path and source text); a name
    called more than ``limit`` times keeps only its first ``limit + 1`` calls (too common to
    tell callers apart, and in a big library the bulk of the scan)."""
    # Names are identifiers: a call is one where no word character stands just before the name.
    backwards = {name[::-1] for name in names if _WORD.fullmatch(name)}
    calls = Calls()
    if not backwards:
        return calls
    for path, text in texts:
        language = languages.for_path(path)
        words = language.defining_words if language is not None else frozenset()
        comment = language.line_comment if language is not None else None
        line, counted, kept = 1, 0, False
        scan = _LineScan(text, comment)
        for start, end, name in _named_calls(text, backwards):
            found = calls.sites[name]
            if limit is not None and len(found) > limit:
                continue
            before = text[start - 1] if start else ""
            line += text.count("\n", counted, start)
            counted = start
            if before in " \t" and words and _defines(text, start, words):
                continue  # ``def get(`` and ``class Fabric(`` define, they do not call
            if scan.in_text(text.rfind("\n", 0, start) + 1, start):
                continue  # ``"... self.log(...) ..."`` in a message, or a comment, calls nothing
            receiver = _receiver(text, start - 1) if before == "." else ""
            found.append(CallSite(path, line, receiver, end))
            kept = True
        if kept:
            calls.texts[path] = text
    return calls


def _named_calls(text: str, backwards: set[str]) -> list[tuple[int, int, str]]:
    """Where each ``name(`` of ``text`` starts, where its ``(`` stands, and the name, in order,
    for the names of ``backwards`` (each spelled backwards) written as a whole word: ``target(``
    is no call of ``get``."""
    last = len(text) - 1
    found = []
    for m in _CALL_REVERSED.finditer(text[::-1]):
        if m.group(2) not in backwards:
            continue
        start = last - m.end(2) + 1
        if m.group(1) and not _INDIRECT.search(text, max(0, start - _RECEIVER_WINDOW), start):
            continue  # ``f(name)(``: ``name`` is passed, not called
        found.append((start, last - m.start(), m.group(2)[::-1]))
    found.reverse()
    return found


def _defines(text: str, start: int, words: frozenset[str]) -> bool:
    """Whether one of the defining ``words``, whole, then spaces or tabs stand just before
    ``start`` (within ``_DEFINITION_WINDOW`` characters): ``def get(``, ``class Fabric(``."""
    begin = max(0, start - _DEFINITION_WINDOW)
    head = text[begin:start]
    stripped = head.rstrip(" \t")
    if len(stripped) == len(head):
        return False
    for word in words:
        at = begin + len(stripped) - len(word)
        if stripped.endswith(word) and (at == 0 or not _is_word(text[at - 1])):
            return True
    return False


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _receiver(text: str, dot: int) -> str:
    """What the call whose ``.`` stands at ``dot`` is made on, as ``CallSite.receiver`` says."""
    backwards = text[max(0, dot - _RECEIVER_WINDOW) : dot][::-1]
    m = _RECEIVER.match(backwards)
    if m is not None and (m.end() < len(backwards) or dot <= _RECEIVER_WINDOW):
        return re.sub(r"[ \t]", "", m.group(1))[::-1]
    return SUPER if _SUPER.match(backwards) else UNNAMED


def in_long_string(text: str, begin: int, at: int, path: str) -> bool:
    """Whether ``at`` stands in a string that may span lines (a template of code, which calls
    nothing), one opened after ``begin`` (where the enclosing function starts: code the syntax
    tree calls a function is in no string before it), as the file's language writes strings.
    Read only for the calls resolved, not for every call the scan finds."""
    language = _language(path.rpartition(".")[2])
    if language is None or not language.long_strings:
        return False
    if at - begin > _MAX_STRING_REGION:
        return False  # a minified bundle's one function of a megabyte: not read again per call
    if not any(q in text[begin:at] for q in language.long_strings):
        return False
    # The strings from the function's start on, read once for all the calls in it.
    starts, ends = _strings_from(text, begin, language.long_strings, language.line_comment)
    i = bisect.bisect_right(starts, at - begin) - 1
    return i >= 0 and at - begin < ends[i]


@functools.lru_cache(maxsize=256)
def _strings_from(
    text: str, begin: int, quotes: tuple[str, ...], comment: str | None
) -> tuple[list[int], list[int]]:
    """Where each long string of ``text`` from ``begin`` on starts and ends (relative to ``begin``)."""
    spans = _long_strings(text[begin : begin + _MAX_STRING_REGION], quotes, comment)
    return [s for s, _ in spans], [e for _, e in spans]


#: Text read back from a function's start for the strings a call may stand in, at most.
_MAX_STRING_REGION = 65_536


@functools.cache
def _language(suffix: str) -> languages.Language | None:
    """The language of files ending ``.suffix`` (a path parsed once per suffix, not per call)."""
    return languages.for_path(f"x.{suffix}")


def _long_strings(text: str, quotes: tuple[str, ...], comment: str | None) -> list[tuple[int, int]]:
    """Where each string opened by one of ``quotes`` (three double quotes) starts and ends;
    a quote in a comment or a one-line string opens none.  The file's comments and strings
    are read in order, each skipped whole: a search, then a find of its end."""
    if not any(q in text for q in quotes):
        return []
    opening, ends = _tokens(quotes, comment)
    spans = []
    pos = 0
    while (m := opening.search(text, pos)) is not None:
        token = m.group()
        if token in quotes:
            close = m.end()
            while (close := text.find(token, close)) > 0 and _escaped(text, close):
                close += 1
            end = len(text) if close < 0 else close + len(token)
            spans.append((m.start(), end))
        elif token == comment:
            end = text.find("\n", m.end())
        else:  # a one-line string
            closed = ends[token].match(text, m.end())
            end = closed.end() if closed is not None else m.end()
        if end < 0:
            break
        pos = end
    return spans


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes."""
    run = 0
    while at - run > 0 and text[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


#: What opens a comment or a string, longest first, and where each one-line string ends.
_Tokens = tuple[re.Pattern[str], dict[str, re.Pattern[str]]]


@functools.cache
def _tokens(quotes: tuple[str, ...], comment: str | None) -> _Tokens:
    """What opens a comment or a string, longest first, and where each one-line string ends."""
    openings = [*quotes, *([comment] if comment else []), '"', "'"]
    opening = re.compile("|".join(re.escape(o) for o in openings))
    ends = {q: re.compile(rf"(?:[^{q}\\\n]|\\.)*{q}") for q in "\"'"}
    return opening, ends


class _LineScan:
    """Whether a place lies inside a quoted string or after a comment opened on its line; a
    string that spans lines (other than a docstring, which the caller's spans leave out) is not
    seen.  Places are asked in order, and a line is read once however many calls it holds: a
    minified bundle is one line of a megabyte.  The line is read from quote to quote (and to
    the comment) by regular expressions, not character by character."""

    __slots__ = ("at", "begin", "commented", "escaped", "opening", "quote", "text")

    def __init__(self, text: str, comment: str | None) -> None:
        self.text = text
        self.opening = _openings(comment)
        self.begin = self.at = -1
        self.quote, self.escaped, self.commented = "", False, False

    def in_text(self, begin: int, end: int) -> bool:
        if begin != self.begin:
            self.begin = self.at = begin
            self.quote, self.escaped, self.commented = "", False, False
        if self.commented:
            return True
        text, at, quote = self.text, self.at, self.quote
        if self.escaped and at < end:  # the last stretch ended on a backslash: skip what it escapes
            at, self.escaped = at + 1, False
        while at < end:
            if quote:
                m = _CLOSING[quote].search(text, at, end)
                if m is None:
                    at = end
                elif m[0] == "\\":
                    at = m.end() + 1
                    if at > end:  # the escaped character lies past this stretch
                        at, self.escaped = end, True
                else:
                    at, quote = m.end(), ""
            else:
                m = self.opening.search(text, at, end)
                if m is None:
                    at = end
                elif m[0] in _QUOTES:
                    at, quote = m.end(), m[0]
                else:
                    self.commented = True
                    return True
        self.at, self.quote = at, quote
        return bool(quote)


_QUOTES = ('"', "'")
#: Where a quoted string ends, or a backslash escapes the character after it.
_CLOSING = {q: re.compile(rf"\\|{q}") for q in _QUOTES}


@functools.cache
def _openings(comment: str | None) -> re.Pattern[str]:
    """What opens a string or a comment outside of one."""
    return re.compile("|".join(re.escape(o) for o in (*_QUOTES, *([comment] if comment else []))))
