"""Indexing a project's ``node_modules``, and refreshing it when nothing changed, measured in the
same run against a bare tree-sitter parse of the same files.

    .venv/bin/python bench/index_node.py [--repeat 5] [name@version ...]

The tree is a real ``npm install`` (default: jest 29.7.0 and its dependencies, over 200
packages; installed once with ``--ignore-scripts`` and cached).  It times:

* ``parse``: reading and parsing with tree-sitter every JavaScript and TypeScript file the
  index mines, in a plain loop (CPU time): the baseline;
* ``index``: ``errdex index --node`` into a fresh store on two worker processes, wall time;
* ``refresh``: the same with nothing changed (best of ``--repeat``): the check ``errdex
  explain`` makes on every call; the goal is under 1 s;
* ``one changed``: after one package's ``package.json`` is touched: only it is mined again.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.languages import for_path
from errdex.nodeindex import ensure_fresh, packages
from mine_js import parse_all, timed  # the same baseline as the mining benchmark
from npm import node_modules

DEFAULT = ["jest@29.7.0"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("packages", nargs="*", default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spec = dict(p.rpartition("@")[::2] for p in args.packages)
    tree = node_modules(spec) / "node_modules"
    found, skipped = packages(tree)
    from errdex.mine.npm import package_source

    files = [
        f.path
        for _, package in found
        for f in package_source(package).files
        if (entry := for_path(f.path)) is not None and entry.name != "python"
    ]
    size = sum(p.stat().st_size for p in files) / 1e6
    baseline = min(timed(lambda: parse_all(files)) for _ in range(max(1, args.repeat // 2)))
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "node.db")
        start = time.perf_counter()
        built = ensure_fresh(db, tree, jobs=2)
        index = time.perf_counter() - start
        records = sum(info.records for info in built.mined)
        refreshes = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            again = ensure_fresh(db, tree, jobs=2)
            refreshes.append(time.perf_counter() - start)
            assert not again.changed
        touched = found[0][1].root / "package.json"
        stat = touched.stat()
        os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        try:
            start = time.perf_counter()
            one = ensure_fresh(db, tree, jobs=2)
            changed = time.perf_counter() - start
        finally:
            os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    print(
        f"{' '.join(args.packages)}: {len(found)} packages ({len(skipped)} skipped), {len(files)} files, "
        f"{size:.1f} MB, {records} records"
    )
    print(f"  parse        {baseline * 1000:8.0f} ms  (CPU, one process)")
    print(f"  index        {index * 1000:8.0f} ms  (wall, 2 workers)  {index / baseline:5.2f}x parse")
    print(f"  refresh      {min(refreshes) * 1000:8.1f} ms  (wall, nothing changed; best of {args.repeat})")
    print(f"  one changed  {changed * 1000:8.0f} ms  (wall, {len(one.mined)} package mined again)")


if __name__ == "__main__":
    main()
