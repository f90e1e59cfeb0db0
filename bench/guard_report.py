"""Whether errdex's prose says truly when a raise happens, over real packages.

    .venv/bin/python bench/guard_report.py [--checkout PATH=OWNER/NAME ...]

Mines and enriches pinned PyPI wheels (click, requests, lightning), this interpreter's
``multiprocessing``, ``ipaddress``, ``fractions``, ``zoneinfo`` and ``json``, and any local
checkouts given; then reads every record's first site again with ``tests/guard_reader.py``
(an ``ast`` pass of its own, sharing nothing with errdex's walker) and prints per source:

* ``read`` / ``guarded``: records, and those in an ``except`` handler, after an early exit, in a
  loop, an ``else`` branch, a ``case`` or under an ``if`` (each kind counted);
* ``said unguarded``: guarded records whose prose says "whenever that line is reached": must be 0;
* ``in handler`` / ``named``: raises in a handler that names its classes, and the share whose
  ``triggerScenarios`` name every one of them.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.enrich import enrich
from errdex.mine import mine
from guard_reader import Tally
from pypi import fetch_package

SHA = "0" * 40
PACKAGES = (("click", "8.1.8"), ("requests", "2.32.3"), ("lightning", "2.6.6"))
STDLIB = ("multiprocessing", "ipaddress.py", "fractions.py", "zoneinfo", "json")


def report(name: str, root: Path, repo: str, total: Tally) -> None:
    records = enrich(mine(root, repo=repo, sha=SHA, jobs=2).records)
    tally = Tally()
    tally.add(root, records)
    total.add(root, records)
    print(f"{name:<20} {tally}")
    for where in tally.said_unguarded[:10]:
        print(f"    said unguarded: {where}")
    for where in tally.unnamed[:10]:
        print(f"    handler's class not named: {where}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", action="append", default=[], metavar="PATH=OWNER/NAME")
    args = parser.parse_args()
    total = Tally()
    for name, version in PACKAGES:
        report(f"{name} {version}", fetch_package(name, version), f"pypi/{name}", total)
    with tempfile.TemporaryDirectory() as tmp:
        lib, root = Path(shutil.__file__).parent, Path(tmp)
        for module in STDLIB:
            if (lib / module).is_dir():
                shutil.copytree(lib / module, root / module, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(lib / module, root / module)
        report(f"stdlib {sys.version.split()[0]}", root, "python/cpython", total)
    for spec in args.checkout:
        path, _, repo = spec.partition("=")
        report(Path(path).name, Path(path), repo, total)
    print(f"{'all':<20} {total}")


if __name__ == "__main__":
    main()
