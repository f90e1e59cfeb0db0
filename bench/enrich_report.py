"""How much of errdex's offline enrichment rests on facts, over real packages.

    .venv/bin/python bench/enrich_report.py [--checkout PATH=OWNER/NAME ...]

Mines and enriches pinned PyPI packages (lightning's wheel; click's and requests' sdists,
which ship their tests), plus any local checkouts given, and prints per package:

* ``solution``: share of records with at least one solution grounded in the message's own
  advice, a docstring ``Raises`` entry or a test (conditions alone do not count);
* ``by message`` / ``by docstring`` / ``by test``: the same, per source;
* ``test``: share of records with a test in the tree that triggers them;
* ``family``: share with a ``backgroundTag`` (assigned only on evidence);
* ``shared``: prose texts (documentation, triggers, situations, solutions and tips not
  quoted from the message) that records in two different functions share: filler, must be 0;
* ``enrich``: enrichment time as a ratio of mining time, measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.enrich import enrich, repeated_prose
from errdex.mine import mine
from pypi import fetch_package

SHA = "0" * 40
PACKAGES = (("lightning", "2.6.6", False), ("click", "8.1.8", True), ("requests", "2.32.3", True))


def report(name: str, root: Path, repo: str) -> None:
    start = time.perf_counter()
    mined = mine(root, repo=repo, sha=SHA, jobs=2).records
    mining = time.perf_counter() - start
    start = time.perf_counter()
    records = enrich(mined)
    enriching = time.perf_counter() - start
    n = len(records) or 1

    def share(test: object) -> str:
        return f"{sum(map(bool, test)) / n:7.1%}"  # type: ignore[call-overload]

    sources = [set(r.provenance.get("solutions", [])) for r in records]
    print(
        f"{name:<22} {len(records):>7} {share(s & {'message', 'raises_doc', 'tests'} for s in sources)}"
        f" {share('message' in s for s in sources)} {share('raises_doc' in s for s in sources)}"
        f" {share('tests' in s for s in sources)} {share(r.facts.tests for r in records)}"
        f" {share(r.background_tag for r in records)} {len(repeated_prose(records)):>7}"
        f" {enriching / mining:6.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", action="append", default=[], help="PATH=OWNER/NAME of a local checkout")
    args = parser.parse_args()
    print(
        f"{'package':<22} {'records':>7} {'solution':>8} {'by msg':>7} {'by doc':>7} {'by test':>7}"
        f" {'test':>7} {'family':>7} {'shared':>7} {'enrich':>7}"
    )
    for name, version, sdist in PACKAGES:
        report(
            f"{name} {version}{' sdist' if sdist else ''}",
            fetch_package(name, version, sdist=sdist),
            f"pypi/{name}",
        )
    for item in args.checkout:
        path, _, repo = item.partition("=")
        report(Path(path).name, Path(path), repo or "local/checkout")


if __name__ == "__main__":
    main()
