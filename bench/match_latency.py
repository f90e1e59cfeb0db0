"""Pattern-index latency at 10^4..10^6 patterns, against a naive ``re`` loop in the same run.

    .venv/bin/python bench/match_latency.py [--sizes 10000,100000,1000000] [--queries 2000]
        [--naive-queries 200,50,10] [--repeat 3]

The patterns are real: every "literal" and "template" message mined (``jobs=2``) from a few
pinned PyPI packages, deduplicated.  Each size N adds generated variants up to N: a real
template with about a third of its literal words replaced by words drawn, weighted by
frequency, from the real templates' vocabulary, re-escaped, distinct (``random.Random(0)``).
Queries are runtime messages made by filling a pattern's placeholders with random values
(numbers, quoted names, paths, dotted names, object reprs, phrases); half come from real
patterns, half from variants.  Per N it prints:

* ``build``: ``PatternIndex.build`` over the rows, best of ``--repeat`` rounds, fewer when
  they would pass ``BUILD_BUDGET_S`` (at 10^6 a build alone takes minutes: one round);
* ``memory``: ``tracemalloc`` growth while ``PatternIndex.loads`` makes the index, measured
  in a separate run: all the index holds, pattern text included;
* ``dumps``: size of ``PatternIndex.dumps()``; ``load``: ``PatternIndex.loads`` of it, one
  per build round, best of them (the goal is under a second at 10^5);
* ``cold``: per-query ``index.match`` latency on the first pass, after emptying the compiled
  matcher cache (``matcher.cache_clear()``) and ``re``'s cache, so each candidate pattern is
  compiled the first time it is confirmed;
* ``warm``: the same queries again, ``--repeat`` passes pooled (the goal is p99 <= 200 us at
  10^6 on one core);
* ``candidates``: mean ``len(index.candidates(q))``, the patterns a query must confirm, of
  which ``always`` (``index.always``, patterns without a usable word) are tried by every query;
  ``matched``: mean patterns that do match a query;
* ``naive compile``: ``re.compile(p, re.DOTALL)`` of every pattern; ``naive``: per query, a
  ``fullmatch`` of every compiled pattern collecting all matches, on the first
  ``--naive-queries`` queries only (it is slow), interleaved with the warm passes;
* ``speed-up``: naive p50 / index warm p50;
* ``misses``: queries whose source pattern is not among ``index.match`` (must be 0), and
  ``disagreements``: naive queries whose naive match set differs from the index's.

Latencies are ``time.perf_counter_ns`` per query in microseconds, other times in seconds.
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.match.index import PatternIndex, matcher
from errdex.mine import mine
from errdex.patterns import PLACEHOLDER_GROUP, js_escape, split_pattern
from errdex.store import PatternRow
from pypi import fetch_package

PACKAGES = (
    "lightning==2.6.6",
    "sqlalchemy==2.0.36",
    "click==8.1.8",
    "requests==2.32.3",
    "flask==3.1.0",
    "httpx==0.28.1",
    "werkzeug==3.1.3",
)
SIZES = (10_000, 100_000, 1_000_000)
NAIVE_QUERIES = (200, 50, 10)
KINDS = ("literal", "template")
SHA = "0" * 40
GOAL_P99_US = 200.0
GOAL_LOAD_S = 1.0
#: Build rounds beyond the first stop before they would take this long together.
BUILD_BUDGET_S = 60.0
_WORD = re.compile(r"\w+")
_WORD_SPLIT = re.compile(r"(\w+)")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The words of the real templates' literal text, drawn in proportion to their frequency."""

    words: list[str]
    cum_weights: list[int]

    @classmethod
    def of(cls, patterns: Sequence[str]) -> Vocabulary:
        counts = Counter(w for p in patterns for seg in split_pattern(p) for w in _WORD.findall(seg))
        return cls(list(counts), list(accumulate(counts.values())))

    def draw(self, rng: random.Random, k: int = 1) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cum_weights, k=k)


@dataclass(frozen=True, slots=True)
class Base:
    """A real template cut into tokens: per literal segment, words at the odd positions."""

    segments: list[list[str]]
    words: list[tuple[int, int]]

    @classmethod
    def of(cls, pattern: str) -> Base:
        segments = [_WORD_SPLIT.split(seg) for seg in split_pattern(pattern)]
        words = [(s, t) for s, tokens in enumerate(segments) for t in range(1, len(tokens), 2)]
        return cls(segments, words)


@dataclass(frozen=True, slots=True)
class Corpus:
    """Distinct patterns: the real ones first, then the variants; a pattern's number is its position."""

    patterns: list[str]
    kinds: list[str]
    real: int

    def rows(self, n: int) -> list[PatternRow]:
        return [PatternRow(i, self.patterns[i], self.kinds[i], None, None, None) for i in range(n)]


@dataclass(frozen=True, slots=True)
class Latency:
    p50: float
    p99: float
    max: float

    @classmethod
    def of(cls, nanoseconds: Sequence[int]) -> Latency:
        cuts = statistics.quantiles(nanoseconds, n=100, method="inclusive")
        return cls(cuts[49] / 1000, cuts[98] / 1000, max(nanoseconds) / 1000)


@dataclass(frozen=True, slots=True)
class Timings:
    """Seconds per round of building and of loading an index."""

    build: list[float]
    load: list[float]


@dataclass(frozen=True, slots=True)
class Result:
    n: int
    queries: int
    naive_queries: int
    timings: Timings
    memory_mb: float
    dumps_mb: float
    cold: Latency
    warm: Latency
    candidates: float
    always: int
    matches: float
    naive_compile_s: float
    naive: Latency
    misses: int
    disagreements: int


def mine_real() -> tuple[list[str], list[str]]:
    """Distinct literal and template patterns of the packages, with their message kinds."""
    found: dict[str, str] = {}
    kept = 0
    for spec in PACKAGES:
        name, _, version = spec.partition("==")
        result = mine(fetch_package(name, version), repo=f"bench/{name}", sha=SHA, jobs=2)
        records = [r for r in result.records if r.message_kind in KINDS]
        kept += len(records)
        for record in records:
            found.setdefault(record.message_pattern, record.message_kind)
    print(f"mined {', '.join(PACKAGES)}: {kept} literal/template records, {len(found)} distinct patterns")
    return list(found), list(found.values())


def make_variant(base: Base, vocabulary: Vocabulary, rng: random.Random) -> str:
    """``base`` with about a third of its literal words replaced by vocabulary words."""
    segments = [list(tokens) for tokens in base.segments]
    chosen = rng.sample(base.words, max(1, round(len(base.words) / 3)))
    for (s, t), word in zip(chosen, vocabulary.draw(rng, len(chosen)), strict=True):
        segments[s][t] = word
    return PLACEHOLDER_GROUP.join(js_escape("".join(tokens)) for tokens in segments)


def build_corpus(
    real_patterns: list[str], real_kinds: list[str], size: int, vocabulary: Vocabulary, rng: random.Random
) -> Corpus:
    """The real patterns, then distinct variants of them up to ``size``."""
    patterns = list(real_patterns)
    kinds = list(real_kinds)
    real = len(patterns)
    if real > size:
        raise SystemExit(f"{real} real patterns do not fit in a corpus of {size}")
    bases = [base for base in map(Base.of, patterns) if base.words]
    seen = set(patterns)
    while len(patterns) < size:
        variant = make_variant(rng.choice(bases), vocabulary, rng)
        if variant not in seen:
            seen.add(variant)
            patterns.append(variant)
            kinds.append("template" if PLACEHOLDER_GROUP in variant else "literal")
    return Corpus(patterns, kinds, real)


def _identifier(vocabulary: Vocabulary, rng: random.Random) -> str:
    return "_".join(vocabulary.draw(rng, rng.randint(1, 2)))


def _number(vocabulary: Vocabulary, rng: random.Random) -> str:
    return rng.choice((str(rng.randint(0, 99)), str(rng.randint(0, 10**9)), f"{rng.random() * 100:.4g}"))


def _quoted(vocabulary: Vocabulary, rng: random.Random) -> str:
    return repr(_identifier(vocabulary, rng))


def _path(vocabulary: Vocabulary, rng: random.Random) -> str:
    return "/" + "/".join(vocabulary.draw(rng, rng.randint(2, 5))) + rng.choice((".py", ".json", "/"))


def _dotted(vocabulary: Vocabulary, rng: random.Random) -> str:
    return ".".join(_identifier(vocabulary, rng) for _ in range(rng.randint(2, 4)))


def _repr(vocabulary: Vocabulary, rng: random.Random) -> str:
    name = _identifier(vocabulary, rng).title()
    return rng.choice(
        (
            f"<{name} object at 0x{rng.getrandbits(48):012x}>",
            f"{name}(in_features={rng.randint(1, 512)}, bias={rng.choice((True, False))})",
            f"[{', '.join(str(rng.randint(0, 9)) for _ in range(rng.randint(1, 4)))}]",
        )
    )


def _phrase(vocabulary: Vocabulary, rng: random.Random) -> str:
    return " ".join(vocabulary.draw(rng, rng.randint(2, 6))) + rng.choice(("", ".", ",", ":", "!"))


VALUES: tuple[Callable[[Vocabulary, random.Random], str], ...] = (
    _number,
    _quoted,
    _path,
    _dotted,
    _repr,
    _phrase,
)


def fill(pattern: str, vocabulary: Vocabulary, rng: random.Random) -> str:
    """A runtime message of ``pattern``: its literal text with a random value per placeholder."""
    first, *rest = split_pattern(pattern)
    parts = [first]
    for segment in rest:
        parts += (rng.choice(VALUES)(vocabulary, rng), segment)
    return "".join(parts)


def make_queries(
    corpus: Corpus, n: int, count: int, vocabulary: Vocabulary, rng: random.Random
) -> tuple[list[str], list[int]]:
    """``count`` messages, alternately of a real pattern and of a variant, and their sources."""
    sources = [
        rng.randrange(corpus.real) if i % 2 == 0 else rng.randrange(corpus.real, n) for i in range(count)
    ]
    return [fill(corpus.patterns[s], vocabulary, rng) for s in sources], sources


def time_build_and_load(rows: list[PatternRow], repeat: int) -> tuple[PatternIndex, bytes, Timings]:
    """The loaded index, its dumps, and the build and load times of interleaved rounds.

    Rounds stop at ``repeat`` or when another would take the build past ``BUILD_BUDGET_S``.
    """
    timings = Timings([], [])
    while len(timings.build) < repeat and sum(timings.build) + max(timings.build, default=0) < BUILD_BUDGET_S:
        gc.collect()
        start = time.perf_counter()
        built = PatternIndex.build(rows)
        timings.build.append(time.perf_counter() - start)
        data = built.dumps()
        del built
        gc.collect()
        start = time.perf_counter()
        loaded = PatternIndex.loads(data)
        timings.load.append(time.perf_counter() - start)
        assert loaded is not None
    return loaded, data, timings


def loaded_memory_mb(data: bytes) -> float:
    """What ``PatternIndex.loads`` keeps allocated: the whole index, pattern text included."""
    gc.collect()
    tracemalloc.start()
    try:
        index = PatternIndex.loads(data)
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del index
    return current / 1e6


def time_matches(index: PatternIndex, queries: Sequence[str]) -> tuple[list[int], list[set[int]]]:
    """Per query, the nanoseconds ``index.match`` took and the numbers it found."""
    elapsed = []
    found = []
    for query in queries:
        start = time.perf_counter_ns()
        matches = index.match(query)
        elapsed.append(time.perf_counter_ns() - start)
        found.append({c.num for c in matches})
    return elapsed, found


def time_naive(
    compiled: Sequence[re.Pattern[str]], queries: Sequence[str]
) -> tuple[list[int], list[set[int]]]:
    """Per query, the nanoseconds a full-match loop over every pattern took, and what matched."""
    elapsed = []
    found = []
    for query in queries:
        start = time.perf_counter_ns()
        matched = [num for num, regex in enumerate(compiled) if regex.fullmatch(query)]
        elapsed.append(time.perf_counter_ns() - start)
        found.append(set(matched))
    return elapsed, found


def compile_naive(patterns: Sequence[str]) -> tuple[list[re.Pattern[str]], float]:
    """The naive "build": every pattern compiled as ``re`` reads it, and how long that took."""
    gc.collect()
    start = time.perf_counter()
    # errdex lets a value be empty: the schema's (.+?) as (.*?), so both accept the same messages.
    compiled = [re.compile(p.replace(PLACEHOLDER_GROUP, "(.*?)"), re.DOTALL) for p in patterns]
    return compiled, time.perf_counter() - start


def missed(found: Sequence[set[int]], sources: Sequence[int]) -> set[int]:
    """Positions of the queries whose source pattern is not among what was found."""
    return {i for i, (nums, source) in enumerate(zip(found, sources, strict=True)) if source not in nums}


@dataclass(slots=True)
class QueryTimes:
    cold: list[int]
    warm: list[int]
    naive: list[int]
    #: What the cold pass found per query.
    found: list[set[int]]
    misses: set[int]
    disagreements: int


def time_queries(
    index: PatternIndex,
    compiled: Sequence[re.Pattern[str]],
    queries: Sequence[str],
    sources: Sequence[int],
    naive_count: int,
    repeat: int,
) -> QueryTimes:
    """One cold pass, then ``repeat`` warm passes, each followed by a share of the naive queries."""
    matcher.cache_clear()
    re.purge()
    gc.collect()
    cold, found = time_matches(index, queries)
    times = QueryTimes(cold, [], [], found, missed(found, sources), 0)
    for round_ in range(repeat):
        gc.collect()
        elapsed, found = time_matches(index, queries)
        times.warm += elapsed
        times.misses |= missed(found, sources)
        chosen = range(round_, naive_count, repeat)
        elapsed, naive_found = time_naive(compiled, [queries[i] for i in chosen])
        times.naive += elapsed
        times.disagreements += sum(found[i] != nums for i, nums in zip(chosen, naive_found, strict=True))
    return times


def bench(
    corpus: Corpus,
    vocabulary: Vocabulary,
    rng: random.Random,
    n: int,
    *,
    queries: int,
    naive: int,
    repeat: int,
) -> Result:
    messages, sources = make_queries(corpus, n, queries, vocabulary, rng)
    index, data, timings = time_build_and_load(corpus.rows(n), repeat)
    memory_mb = loaded_memory_mb(data)
    candidates = statistics.fmean(len(index.candidates(m)) for m in messages)
    always = len(index.always)
    compiled, naive_compile_s = compile_naive(corpus.patterns[:n])
    times = time_queries(index, compiled, messages, sources, naive, repeat)
    return Result(
        n=n,
        queries=queries,
        naive_queries=naive,
        timings=timings,
        memory_mb=memory_mb,
        dumps_mb=len(data) / 1e6,
        cold=Latency.of(times.cold),
        warm=Latency.of(times.warm),
        candidates=candidates,
        always=always,
        matches=statistics.fmean(map(len, times.found)),
        naive_compile_s=naive_compile_s,
        naive=Latency.of(times.naive),
        misses=len(times.misses),
        disagreements=times.disagreements,
    )


def row(label: str, index: str, naive: str = "", ratio: str = "", note: str = "") -> None:
    print(f"  {label:<24}{index:>11}{naive:>12}{ratio:>9}  {note}".rstrip())


def report(r: Result, corpus: Corpus, repeat: int) -> None:
    build_s, load_s = min(r.timings.build), min(r.timings.load)
    rounds = len(r.timings.build)
    print(
        f"\nN = {r.n:,} patterns ({corpus.real:,} real + {r.n - corpus.real:,} variants), "
        f"{r.queries:,} queries (half of real patterns), naive loop on the first {r.naive_queries}"
    )
    row("", "index", "naive re", "ratio")
    row(
        "build s",
        f"{build_s:.3f}",
        f"{r.naive_compile_s:.3f}",
        f"{r.naive_compile_s / build_s:.1f}x",
        f"best of {rounds}; naive: re.compile of every pattern",
    )
    row("memory MB", f"{r.memory_mb:.1f}", note="tracemalloc of the index PatternIndex.loads makes")
    row("dumps MB", f"{r.dumps_mb:.1f}")
    row("load s", f"{load_s:.3f}", note=f"best of {rounds}")
    row("patterns tried/query", f"{r.candidates:.1f}", f"{r.n:,}", note="index: mean candidates")
    row("  of which always tried", f"{r.always:,}", note="index.always: patterns without a usable word")
    row("patterns matched/query", f"{r.matches:.2f}", note="mean")
    for name, index, naive in (("p50", r.warm.p50, r.naive.p50), ("p99", r.warm.p99, r.naive.p99)):
        row(f"{name} us cold", f"{getattr(r.cold, name):.1f}")
        row(f"{name} us warm", f"{index:.1f}", f"{naive:.0f}", f"{naive / index:.0f}x")
    row("max us cold", f"{r.cold.max:.0f}")
    row("max us warm", f"{r.warm.max:.0f}", f"{r.naive.max:.0f}")
    row("queries timed", f"{r.queries:,}", f"{r.naive_queries}", note=f"index warm: {repeat} passes pooled")
    print(
        f"  misses: {r.misses} of {r.queries:,} queries lack their source pattern (cold or warm); "
        f"index vs naive disagreements: {r.disagreements} of {r.naive_queries}"
    )


def summarise(results: Sequence[Result]) -> None:
    print()
    header = (
        "N",
        "build s",
        "mem MB",
        "load s",
        "cold p50",
        "cold p99",
        "warm p50",
        "warm p99",
        "cands",
        "naive p50",
        "naive p99",
        "speed-up",
    )
    print(" ".join(f"{h:>9}" for h in header))
    for r in results:
        cells = (
            f"{r.n:,}",
            f"{min(r.timings.build):.2f}",
            f"{r.memory_mb:.0f}",
            f"{min(r.timings.load):.3f}",
            f"{r.cold.p50:.1f}",
            f"{r.cold.p99:.1f}",
            f"{r.warm.p50:.1f}",
            f"{r.warm.p99:.1f}",
            f"{r.candidates:.1f}",
            f"{r.naive.p50:.0f}",
            f"{r.naive.p99:.0f}",
            f"{r.naive.p50 / r.warm.p50:.0f}x",
        )
        print(" ".join(f"{c:>9}" for c in cells))
    print("latencies in microseconds; speed-up = naive p50 / index warm p50; naive on fewer queries (above)")
    for r in results:
        if r.n == 1_000_000:
            verdict = "met" if r.warm.p99 <= GOAL_P99_US else "NOT met"
            print(f"goal warm p99 <= {GOAL_P99_US:.0f} us at 10^6: {verdict} ({r.warm.p99:.1f} us)")
        if r.n == 100_000:
            verdict = "met" if min(r.timings.load) < GOAL_LOAD_S else "NOT met"
            print(f"goal load < {GOAL_LOAD_S:.0f} s at 10^5: {verdict} ({min(r.timings.load):.3f} s)")


def int_list(text: str) -> list[int]:
    return [int(part.replace("_", "")) for part in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int_list, default=list(SIZES), help="comma-separated pattern counts")
    parser.add_argument("--queries", type=int, default=2000, help="queries per size")
    parser.add_argument(
        "--naive-queries",
        type=int_list,
        help="naive-loop queries per size, comma-separated (default 200 at 10^4, 50 at 10^5, 10 at 10^6)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="build/load rounds and warm passes")
    args = parser.parse_args()
    naive = args.naive_queries or [
        dict(zip(SIZES, NAIVE_QUERIES, strict=True)).get(n, 10) for n in args.sizes
    ]
    if len(naive) != len(args.sizes):
        parser.error("--naive-queries needs one count per size")

    started = time.perf_counter()
    rng = random.Random(0)
    real_patterns, real_kinds = mine_real()
    vocabulary = Vocabulary.of(real_patterns)
    corpus = build_corpus(real_patterns, real_kinds, max(args.sizes), vocabulary, rng)
    print(
        f"vocabulary {len(vocabulary.words):,} words; {len(corpus.patterns):,} patterns ready "
        f"in {time.perf_counter() - started:.1f} s"
    )
    results = []
    for n, naive_count in zip(args.sizes, naive, strict=True):
        result = bench(
            corpus, vocabulary, rng, n, queries=args.queries, naive=naive_count, repeat=args.repeat
        )
        report(result, corpus, args.repeat)
        results.append(result)
    summarise(results)
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
