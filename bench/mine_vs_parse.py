"""Mining time against bare ``ast.parse`` of the same files, measured in the same run.

    .venv/bin/python bench/mine_vs_parse.py [--repeat 5] [name==version ...]

For each package (default: lightning 2.6.6 and SQLAlchemy 2.0.36, real wheels from PyPI), it
times, best of ``--repeat`` interleaved rounds:

* ``parse``: the baseline, reading every selected file and ``ast.parse``-ing it in a plain loop;
* ``parse-nogc``: the same loop with the cyclic GC paused, as errdex parses: the lowest floor;
* ``mine x1``: ``errdex.mine.mine(jobs=1)``, from the directory to the finished records;
* ``no symbols``: the same with everything the symbol table adds made a no-op in this process
  (the walker's definitions and bindings, every function's parameters and forwards, the scan
  for the members a file calls and sets, the join): what the table costs is ``mine x1``
  against it;
* ``mine x2 wall``: the same on two worker processes, wall-clock time;
* ``store``: writing the records into a fresh SQLite file.

Ratios are against ``parse``; the goal is ``mine x1`` at most 1.3x, and the symbol table within
10% of ``no symbols``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gc
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import errdex.languages.python.extract as python_extract
import errdex.mine.pipeline
from errdex.languages.python.symbols import FileDefinitions
from errdex.mine import mine
from errdex.mine.sources import select_files
from errdex.store import open_store
from errdex.symbols import SymbolTable
from pypi import fetch_package

SHA = "0" * 40


def timed(fn: Callable[[], object], clock: Callable[[], float]) -> float:
    start = clock()
    fn()
    return clock() - start


@contextlib.contextmanager
def no_symbols() -> Iterator[None]:
    """Mining as it was before the symbol table: the walker's calls that collect it do nothing,
    and the release's table is an empty one."""
    kept = {name: getattr(FileDefinitions, name) for name in _COLLECTING}
    joined = errdex.mine.pipeline.symbol_table
    uses, define, bound = (
        python_extract.member_uses,
        python_extract._Walker._define,
        python_extract._Walker._bound,
    )
    try:
        for name in _COLLECTING:
            setattr(FileDefinitions, name, lambda *args, **kwargs: None)
        errdex.mine.pipeline.symbol_table = lambda *args, **kwargs: SymbolTable("python")
        python_extract.member_uses = lambda *args: (set(), set())
        python_extract._Walker._define = lambda *args, **kwargs: None  # type: ignore[method-assign]
        python_extract._Walker._bound = lambda *args, **kwargs: None  # type: ignore[method-assign]
        yield
    finally:
        for name, method in kept.items():
            setattr(FileDefinitions, name, method)
        errdex.mine.pipeline.symbol_table = joined
        python_extract.member_uses = uses
        python_extract._Walker._define = define  # type: ignore[method-assign]
        python_extract._Walker._bound = bound  # type: ignore[method-assign]


_COLLECTING = ("function", "klass", "attribute", "alias", "imported", "exports")


def without_symbols(root: Path) -> None:
    with no_symbols():
        mine(root, repo="bench/bench", sha=SHA, jobs=1)


def parse_all(files: list[Path], collect: bool) -> None:
    if not collect:
        gc.disable()
    try:
        for path in files:
            with contextlib.suppress(SyntaxError, ValueError):
                ast.parse(path.read_bytes())
    finally:
        gc.enable()


def bench(spec: str, repeat: int) -> None:
    name, _, version = spec.partition("==")
    root = fetch_package(name, version)
    files = [f.path for f in select_files(root).files]
    size = sum(p.stat().st_size for p in files) / 1e6
    result = mine(root, repo="bench/bench", sha=SHA, jobs=1)

    def store() -> None:
        with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "b.db") as db:
            db.replace_repo(result.info, result.records)

    cpu = time.process_time
    wall = time.perf_counter
    runs: dict[str, Callable[[], float]] = {
        "parse": lambda: timed(lambda: parse_all(files, collect=True), cpu),
        "parse-nogc": lambda: timed(lambda: parse_all(files, collect=False), cpu),
        "mine x1": lambda: timed(lambda: mine(root, repo="bench/bench", sha=SHA, jobs=1), cpu),
        "no symbols": lambda: timed(lambda: without_symbols(root), cpu),
        "mine x2 wall": lambda: timed(lambda: mine(root, repo="bench/bench", sha=SHA, jobs=2), wall),
        "store": lambda: timed(store, cpu),
    }
    # Interleaved rounds, best of each: this machine's speed drifts by tens of percent within
    # seconds, so measuring one thing five times and then the next would compare two machines.
    times: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(repeat):
        for label, run in runs.items():
            times[label].append(run())
    floor = min(times["parse"])
    print(
        f"{spec}: {len(files)} files, {size:.1f} MB, {len(result.records)} records, "
        f"{result.info.sites} sites (best of {repeat}; CPU time except where marked wall)"
    )
    for label, values in times.items():
        print(f"  {label:<13} {min(values) * 1000:8.0f} ms  {min(values) / floor:5.2f}x parse")
    table = min(times["mine x1"]) / min(times["no symbols"])
    held = len(result.symbols.symbols) if result.symbols else 0
    print(f"  symbol table  {table:5.3f}x the mine without it ({held} symbols)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("packages", nargs="*", default=["lightning==2.6.6", "sqlalchemy==2.0.36"])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    for spec in args.packages:
        bench(spec, args.repeat)


if __name__ == "__main__":
    main()
