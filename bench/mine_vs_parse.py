"""Mining time against bare ``ast.parse`` of the same files, measured in the same run.

    .venv/bin/python bench/mine_vs_parse.py [--repeat 5] [name==version ...]

For each package (default: lightning 2.6.6 and SQLAlchemy 2.0.36, real wheels from PyPI), it
times, best of ``--repeat``:

* ``parse``: read every selected file and ``ast.parse`` it, the cyclic GC left on as a plain
  loop would have it;
* ``parse-nogc``: the same loop with the cyclic GC paused, as errdex runs it: the fairest floor;
* ``mine x1``: ``errdex.mine.mine(jobs=1)``, everything up to the finished records;
* ``mine x2``: the same on two worker processes (wall time);
* ``store``: writing the records into a fresh SQLite file.

Ratios are against ``parse-nogc``; the goal is ``mine x1`` at most 1.3x.
"""

from __future__ import annotations

import argparse
import ast
import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import contextlib

from errdex.mine import mine
from errdex.mine.sources import read_source, select_files
from errdex.store import open_store
from pypi import fetch_package

SHA = "0" * 40


def best(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def parse_all(files: list[Path], collect: bool) -> None:
    if not collect:
        gc.disable()
    try:
        for path in files:
            with contextlib.suppress(SyntaxError, ValueError, UnicodeDecodeError):
                ast.parse(read_source(path))
    finally:
        gc.enable()


def bench(spec: str, repeat: int) -> None:
    name, _, version = spec.partition("==")
    root = fetch_package(name, version)
    files = [f.path for f in select_files(root).files]
    size = sum(p.stat().st_size for p in files) / 1e6

    parse = best(repeat, lambda: parse_all(files, collect=True))
    floor = best(repeat, lambda: parse_all(files, collect=False))
    one = best(repeat, lambda: mine(root, repo="bench/bench", sha=SHA, jobs=1))
    two = best(repeat, lambda: mine(root, repo="bench/bench", sha=SHA, jobs=2))
    result = mine(root, repo="bench/bench", sha=SHA, jobs=1)

    def store() -> None:
        with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "b.db") as db:
            db.replace_repo(result.info, result.records)

    stored = best(repeat, store)
    print(
        f"{spec}: {len(files)} files, {size:.1f} MB, {len(result.records)} records, {result.info.sites} sites"
    )
    for label, seconds in (
        ("parse", parse),
        ("parse-nogc", floor),
        ("mine x1", one),
        ("mine x2", two),
        ("store", stored),
    ):
        print(f"  {label:<11} {seconds * 1000:8.0f} ms  {seconds / floor:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("packages", nargs="*", default=["lightning==2.6.6", "sqlalchemy==2.0.36"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for spec in args.packages:
        bench(spec, args.repeat)


if __name__ == "__main__":
    main()
