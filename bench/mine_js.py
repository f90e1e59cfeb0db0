"""Mining JavaScript and TypeScript against a bare tree-sitter parse of the same files, same run.

    .venv/bin/python bench/mine_js.py [--repeat 5] [name@version ...]

For each npm package (default: express, axios, commander, yargs and zod at the versions the
recall test pins, real tarballs from the npm registry, cached), it times, best of ``--repeat``
interleaved rounds, in CPU time:

* ``parse``: the baseline, reading every selected file and parsing it with tree-sitter's
  grammar for its extension, in a plain loop;
* ``+query``: the same parse, then the cheapest query tree-sitter runs (one node type,
  ``(throw_statement)``) over each tree: the floor of any reader that asks tree-sitter for the
  nodes it reads rather than walking them in Python;
* ``mine x1``: ``errdex.mine.mine(jobs=1)``, from the directory to the finished records (the
  extraction cache off: every file is read and extracted);
* ``build``: the stage after extraction alone (``errdex.mine.pipeline.build_source``: names
  resolved across files, records built, the call scan, facts), from the files extracted once
  before the rounds: the part of ``mine x1`` no faster reader removes;
* ``cached``: the whole mine with every file's extraction taken from a warm extraction cache
  (``build`` plus reading, hashing and loading each file's cached extraction): what mining an
  unchanged package again costs;
* ``store``: writing the records into a fresh SQLite file.

Ratios are against ``parse``; the goal is ``mine x1`` at most 1.5x.  The last line adds
``floor``: ``+query`` plus ``build``, what a mine would cost whose extraction read nothing
past one query, so the lowest ratio any extractor reading through tree-sitter's queries could
reach with today's build stage.
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import tree_sitter as ts

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.languages import for_path
from errdex.languages.javascript.syntax import grammar_of, language, parse
from errdex.mine import mine
from errdex.mine.pipeline import build_source, extract_files, mine_sources
from errdex.mine.sources import directory_source, select_files
from errdex.store import open_store
from npm import fetch_npm

SHA = "0" * 40
DEFAULT = ["express@4.21.2", "axios@1.7.9", "commander@12.1.0", "yargs@17.7.2", "zod@3.23.8"]


def timed(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def parse_all(files: list[Path]) -> None:
    for path in files:
        parse(path.read_bytes().decode("utf-8", "replace"), path.name)


@functools.cache
def _throws(grammar: str) -> ts.Query:
    return ts.Query(language(grammar), "(throw_statement) @throw")


def parse_and_query(files: list[Path]) -> None:
    for path in files:
        tree = parse(path.read_bytes().decode("utf-8", "replace"), path.name)
        ts.QueryCursor(_throws(grammar_of(path.name))).captures(tree.root_node)


def bench(spec: str, repeat: int) -> dict[str, float]:
    name, _, version = spec.rpartition("@")
    root = fetch_npm(name, version)
    files = [
        f.path for f in select_files(root).files if (entry := for_path(f.path)) and entry.name != "python"
    ]
    size = sum(p.stat().st_size for p in files) / 1e6
    result = mine(root, repo="bench/bench", sha=SHA, jobs=1)

    def store() -> None:
        with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "b.db") as db:
            db.replace_repo(result.info, result.records)

    scratch = tempfile.TemporaryDirectory()
    cache = open_store(Path(scratch.name) / "cache.db")

    def cached() -> None:
        source = directory_source(root, repo="bench/bench", sha=SHA)
        next(mine_sources([source], jobs=1, cache=cache))

    cached()  # warm: every file's extraction is in the cache from here on
    selected = directory_source(root, repo="bench/bench", sha=SHA)
    extracted = extract_files([*selected.files, *selected.tests])
    runs: dict[str, Callable[[], float]] = {
        "parse": lambda: timed(lambda: parse_all(files)),
        "+query": lambda: timed(lambda: parse_and_query(files)),
        "mine x1": lambda: timed(lambda: mine(root, repo="bench/bench", sha=SHA, jobs=1)),
        "build": lambda: timed(lambda: build_source(selected, extracted)),
        "cached": lambda: timed(cached),
        "store": lambda: timed(store),
    }
    # Interleaved rounds, best of each: the machine's speed drifts within seconds.
    times: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(repeat):
        for label, run in runs.items():
            times[label].append(run())
    cache.close()
    scratch.cleanup()
    floor = min(times["parse"])
    print(
        f"{spec}: {len(files)} files, {size:.2f} MB, {len(result.records)} records, "
        f"{result.info.sites} sites (best of {repeat}, CPU time)"
    )
    for label, values in times.items():
        print(f"  {label:<8} {min(values) * 1000:8.0f} ms  {min(values) / floor:5.2f}x parse")
    return {label: min(values) for label, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("packages", nargs="*", default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    each = [bench(spec, args.repeat) for spec in args.packages]
    total = {label: sum(t[label] for t in each) for label in each[0]}
    ratio = {label: value / total["parse"] for label, value in total.items()}
    print(
        f"all: parse {total['parse'] * 1000:.0f} ms, mine x1 {total['mine x1'] * 1000:.0f} ms, "
        f"{ratio['mine x1']:.2f}x (+query {ratio['+query']:.2f}x, build {ratio['build']:.2f}x, "
        f"cached {ratio['cached']:.2f}x; floor {ratio['+query'] + ratio['build']:.2f}x)"
    )


if __name__ == "__main__":
    main()
