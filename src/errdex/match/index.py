"""Find the records whose pattern fully matches a message, at any number of records.

A pattern's literal text holds words every matching message must contain, in order, and
often a fixed start or end.  Each pattern is filed under the rarest such key (a word, a pair
of adjacent words, its start or end text) and is a candidate only when a message also holds
its second rarest: one rare word, or even one rare pair, is too loose at a million patterns.
A query looks up the keys of the message and confirms the few candidates with a linear-time
regex.  Patterns without any key go to a short list that every query checks.  Patterns with
no literal text at all (a message computed at run time, or none) match anything: they are kept
by the class they raise, and otherwise found by a traceback's frames.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from errdex import collector
from errdex.deadline import Deadline, check
from errdex.languages import for_path
from errdex.patterns import MessageMatcher, split_pattern
from errdex.store import PatternRow, Store

_WORD = re.compile(r"\w+")
#: Bumped whenever the pickled layout changes, so an old cache is rebuilt, not misread.
INDEX_FORMAT = 14
#: Characters of a pattern's fixed start or end used as its key when it has no whole word.
_ANCHOR = 4
#: A bucket this full gets its patterns' longest literal texts checked before matching.
_CROWDED = 16
#: How many of a crowded pattern's literal texts (longest first) are checked.
_GUARDS = 4
#: A message's words past this many add cost, not precision.
_MAX_QUERY_WORDS = 4000
#: Candidates confirmed between two checks of a lookup's deadline.
_CHECK_EVERY = 64


@lru_cache(maxsize=65536)
def matcher(pattern: str) -> MessageMatcher:
    """Compiling a pattern costs far more than matching it: keep the recent ones."""
    return MessageMatcher(pattern)


def class_key(qualified: str) -> str:
    """A class by its package and name: a traceback prints the defining module
    (``networkx.exception.NodeNotFound``), a raise often names a re-export (``networkx.NodeNotFound``)."""
    if qualified.startswith("./"):
        return qualified.rpartition(".")[2]  # a JavaScript class prints its name alone
    head, _, rest = qualified.partition(".")
    return f"{head}.{rest.rpartition('.')[2]}" if rest else head


def package_of(file_path: str) -> str | None:
    """The top-level package a record's file belongs to, as its language names it: what a
    traceback's ``pkg.module.Class`` begins with.  None for a language errdex does not read."""
    language = for_path(file_path)
    return language.package_of(file_path) if language is not None else None


def pattern_words(pattern: str) -> list[list[str]]:
    return segment_words(split_pattern(pattern))


def segment_words(segments: list[str]) -> list[list[str]]:
    """Per literal segment, the words a matching message must contain as whole words.

    A word touching a placeholder may run on into the interpolated value ("file{n}" gives
    "file12"), so it is left out; the ends of the first and last segments are anchored.
    """
    last = len(segments) - 1
    out = []
    for i, segment in enumerate(segments):
        matches = list(_WORD.finditer(segment))
        if matches and i > 0 and matches[0].start() == 0:
            matches = matches[1:]
        if matches and i < last and matches[-1].end() == len(segment):
            matches = matches[:-1]
        out.append([m.group() for m in matches])
    return out


def _keys(segments: list[str]) -> set[str]:
    """Everything a matching message is sure to contain: words, adjacent word pairs, and the
    text it must start (``^``) or end (``$``) with.

    ``(.+?)_ts1`` has no whole word (``_ts1`` may run on from the value), but every message it
    matches ends in ``_ts1``: without anchors it would be tried on every query.
    """
    words = segment_words(segments)
    keys = {w for segment in words for w in segment}
    keys.update(f"{a} {b}" for segment in words for a, b in itertools.pairwise(segment))
    if segments[0]:
        keys.add("^" + segments[0][:_ANCHOR])
    if len(segments) > 1 and segments[-1]:
        keys.add("$" + segments[-1][-_ANCHOR:])
    return keys


def _overlap(a: str, b: str) -> bool:
    """Whether one key implies the other (a pair and one of its words): no use as a second key."""
    return a in b.split(" ") or b in a.split(" ")


@dataclass(slots=True)
class Candidate:
    num: int
    captures: tuple[str, ...]


@dataclass(slots=True)
class PatternIndex:
    """Row numbers of records, keyed by the rarest literal word pair of their pattern."""

    patterns: dict[int, str] = field(default_factory=dict)
    keys: dict[str, list[int]] = field(default_factory=dict)
    always: list[int] = field(default_factory=list)
    #: In how many patterns each word occurs: the rarity weights of fuzzy matching.
    word_counts: dict[str, int] = field(default_factory=dict)
    #: Patterns filed under their rarest key, then their second rarest: a candidate only when
    #: the message holds both.  Both levels are looked up by set intersection.
    paired: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    #: The longest literal texts of patterns filed in crowded buckets, all checked before
    #: matching: variants of one template share their longest text but rarely all of them.
    guard: dict[int, tuple[str, ...]] = field(default_factory=dict)
    #: Records whose message is computed at run time, by the class they raise: with no text to
    #: go on, a printed ``pkg.errors.NotFound`` (or ``KeyError``) still narrows it down.
    by_class: dict[str, list[int]] = field(default_factory=dict)
    #: Records by the error code they carry (``ERR_INVALID_ARG_TYPE``, ``ENOENT``): a paste
    #: that prints one is looked up by it exactly, before any text.
    by_code: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, rows: Iterable[PatternRow]) -> PatternIndex:
        index = cls()
        entries: list[tuple[int, set[str], list[str]]] = []
        counts: Counter[str] = Counter()
        for row in rows:
            if row.error_code:
                index.by_code.setdefault(row.error_code, []).append(row.num)
                index.patterns.setdefault(row.num, row.pattern)
            segments = split_pattern(row.pattern)
            if not any(s.strip() for s in segments):
                if row.qualified_class:
                    # ``raise KeyError(key)``: the class is all a paste of it has to go on.
                    index.patterns[row.num] = row.pattern
                    index.by_class.setdefault(class_key(row.qualified_class), []).append(row.num)
                elif not row.error_class and (package := package_of(row.file_path)):
                    # ``raise error`` of an instance built elsewhere: all errdex knows is the
                    # package, which a printed ``pkg.errors.ValidationError`` names too.
                    index.patterns[row.num] = row.pattern
                    index.by_class.setdefault(f"{package}.*", []).append(row.num)
                continue
            index.patterns[row.num] = row.pattern
            keys = _keys(segments)
            entries.append((row.num, keys, segments))
            counts.update(keys)
        for num, keys, _ in entries:
            ordered = sorted(keys, key=lambda k: (counts[k], k))
            if not ordered:
                index.always.append(num)
                continue
            first = ordered[0]
            second = next((k for k in ordered[1:] if not _overlap(first, k)), None)
            if second is None:
                index.keys.setdefault(first, []).append(num)
                continue
            # Filed under its rarest key, a candidate only when its second key is there too.
            index.paired.setdefault(first, {}).setdefault(second, []).append(num)
        # In a crowded bucket most entries share both keys with the query and differ only in
        # a common word: their longest literal text rejects them before any matcher is called.
        buckets = [*index.keys.values(), *(b for inner in index.paired.values() for b in inner.values())]
        crowded = {num for bucket in buckets if len(bucket) >= _CROWDED for num in bucket}
        index.guard = {
            num: tuple(sorted((s for s in segments if s), key=len, reverse=True)[:_GUARDS])
            for num, _, segments in entries
            if num in crowded
        }
        index.word_counts = {k: n for k, n in counts.items() if k[0] not in "^$" and " " not in k}
        return index

    def candidates(self, message: str) -> set[int]:
        """Row numbers whose pattern might match: a superset, to be confirmed."""
        words = _WORD.findall(message)[:_MAX_QUERY_WORDS]
        query = set(words)
        query.update(map(" ".join, itertools.pairwise(words)))
        query.update(f"^{message[:k]}" for k in range(1, _ANCHOR + 1))
        query.update(f"${message[-k:]}" for k in range(1, _ANCHOR + 1))
        found: set[int] = set(self.always)
        keys = self.keys
        # Set intersections run in C: a long message's hundreds of keys cost one pass, and
        # Python only sees the few keys that file patterns.
        for key in keys.keys() & query:
            found.update(keys[key])
        paired = self.paired
        for key in paired.keys() & query:
            inner = paired[key]
            for second in inner.keys() & query:
                found.update(inner[second])
        guard = self.guard
        return {
            num for num in found if (texts := guard.get(num)) is None or all(map(message.__contains__, texts))
        }

    def match(
        self, message: str, error_class: str | None = None, deadline: Deadline | None = None
    ) -> list[Candidate]:
        """Records whose pattern matches the whole message, with the placeholder values.

        With a ``pkg.module.Class`` a traceback printed, records of that class whose message is
        computed at run time are included: their pattern matches anything.  Those of a builtin
        class, which a package raises by the hundred, are asked for apart (``computed``).
        """
        out = []
        found = self.candidates(message)
        if error_class and "." in error_class:
            found.update(self.by_class.get(class_key(error_class), ()))
            found.update(self.by_class.get(f"{error_class.partition('.')[0]}.*", ()))
        for count, num in enumerate(found):
            if count % _CHECK_EVERY == 0:
                check(deadline)
            captures = matcher(self.patterns[num]).match(message)
            if captures is not None:
                out.append(Candidate(num, captures))
        return out

    def computed(self, error_class: str) -> list[int]:
        """Records of a builtin class whose message is computed at run time, or that have none
        (``raise KeyError(key)``): what a paste of one has to go on when nothing else places it."""
        return [] if "." in error_class else self.by_class.get(error_class, [])

    def dumps(self) -> bytes:
        # JSON, not pickle: a store may come from someone else, and unpickling runs code.
        return json.dumps(
            {
                "format": INDEX_FORMAT,
                "nums": list(self.patterns),
                "patterns": list(self.patterns.values()),
                "keys": self.keys,
                "always": self.always,
                "words": self.word_counts,
                "classes": self.by_class,
                "paired": self.paired,
                "guard": list(self.guard.items()),
                "codes": self.by_code,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()

    @classmethod
    def loads(cls, data: bytes) -> PatternIndex | None:
        """The index from ``dumps``, or None when it was written in another format."""
        # Tens of thousands of new lists and dicts would each trigger a pass of the cyclic
        # collector, which has nothing to find in parsed JSON.
        with collector.paused():
            loaded = json.loads(data)
        if not isinstance(loaded, dict) or loaded.get("format") != INDEX_FORMAT:
            return None
        patterns = dict(zip(loaded["nums"], loaded["patterns"], strict=True))
        return cls(
            patterns,
            loaded["keys"],
            loaded["always"],
            loaded["words"],
            loaded["paired"],
            {num: tuple(texts) for num, texts in loaded["guard"]},
            loaded["classes"],
            loaded["codes"],
        )


def index_key(store: Store) -> str:
    """The cache key of the store's pattern index for its records as they are now."""
    return f"pattern-index:{INDEX_FORMAT}:{store.generation()}"


def cache_index(store: Store) -> bool:
    """Build the store's pattern index and keep it in the store's cache, unless a current one
    is there already: what a writer does last, so that its first reader only loads it.
    Whether it was built."""
    key = index_key(store)
    if store.cache_get(key) is not None:
        return False
    store.cache_put(key, PatternIndex.build(store.pattern_rows()).dumps())
    return True


def load_index(store: Store) -> PatternIndex:
    """The store's pattern index: from its cache when current, else built (and cached)."""
    key = index_key(store)
    cached = store.cache_get(key)
    if cached is not None:
        index = PatternIndex.loads(cached)
        if index is not None:
            return index
    index = PatternIndex.build(store.pattern_rows())
    store.cache_put(key, index.dumps())
    return index
