"""Solutions a user can act on and code that runs, measured over real packages.

    .venv/bin/python bench/solutions_report.py [--python PY] [--before SRC]

Mines and enriches, per package: the pinned PyPI packages the tests use (lightning's wheel,
click's and requests' sdists, SQLAlchemy, pydantic, jinja2) and this interpreter's standard
library; or, with ``--python``, every distribution of that environment and its standard
library (the environment index ``errdex explain`` builds).  For each it prints:

* ``solution``: share of records with at least one solution;
* ``leak``: records whose solutions show a placeholder of the message (``{x}``, ``%s``);
* ``priv try``: records with a ``try`` around a call of a name with a private part;
* ``warn exc``: warnings (warned, not raised) caught with ``except <Warning>`` outside a
  filter that makes them errors;
* ``no comp``: records with a code field that does not compile;
* ``...``: records with a code field where ``...`` stands for code;
* ``bad call``: calls of the raising function its own ``def`` refuses (a keyword twice, an
  argument missing), an ``async def`` not awaited, a property called;
* ``check``: caller checks placed after the call or reading a value the function rebinds;
* ``shared``: prose texts records in two functions share (``repeated_prose``): filler, must be 0.

Every code check reads the generated code and the mined source with ``ast`` here
(tests/snippets.py), not errdex's facts.  ``--before SRC`` runs the same measure with another
copy of errdex's ``src`` first (``PYTHONPATH``) and prints both, before -> after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.enrich import enrich, repeated_prose
from errdex.mine import mine, mine_sources
from errdex.mine.environment import distribution_source, distributions, probe, stdlib_source
from errdex.record import Record
from pypi import fetch_package
from snippets import PACKAGES, counts

SHA = "0" * 40
COLUMNS = (
    "records",
    "solution",
    "leak",
    "priv try",
    "warn exc",
    "no comp",
    "...",
    "bad call",
    "check",
    "shared",
)


def measure(records: list[Record], source: Callable[[Record], Path | None]) -> dict[str, float]:
    found = counts(records, source)
    n = len(records) or 1
    return {
        "records": len(records),
        "solution": sum(bool(r.solutions) for r in records) / n,
        "leak": found["placeholder"],
        "priv try": found["private-try"],
        "warn exc": found["warning-except"],
        "no comp": found["compile"],
        "...": found["ellipsis"],
        "bad call": found["bad-call"] + found["no-await"] + found["property-call"],
        "check": found["validation-order"],
        "shared": len(repeated_prose(records)),
    }


def packages(python: str | None) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    env = probe(python or sys.executable)
    if python is None:
        for name, version, sdist in PACKAGES:
            root = fetch_package(name, version, sdist=sdist)
            records = enrich(mine(root, repo=f"pypi/{name}", sha=SHA, jobs=os.cpu_count()).records)
            out[f"{name} {version}{' sdist' if sdist else ''}"] = measure(
                records, lambda r, root=root: root / r.file_path
            )
        sources = [stdlib_source(env)]
        roots = [env.stdlib]
    else:
        dists = distributions(env)
        sources = [stdlib_source(env), *(distribution_source(d) for d in dists)]
        roots = [env.stdlib, *(d.site for d in dists)]
    root_of = {(s.origin.package, s.origin.version): root for s, root in zip(sources, roots, strict=True)}
    for mined in mine_sources(sources, jobs=os.cpu_count()):  # in the order each is done
        records = enrich(mined.records)
        root = root_of[(mined.origin.package, mined.origin.version)]
        prefix = "Lib/" if mined.info.repo == "python/cpython" else ""
        out[f"{mined.info.package} {mined.info.version}"] = measure(
            records, lambda r, root=root, prefix=prefix: Path(root) / r.file_path.removeprefix(prefix)
        )
    return out


def cell(column: str, value: float) -> str:
    return f"{value:.1%}" if column == "solution" else f"{int(value)}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--python", help="measure this Python environment's index instead of the pinned packages"
    )
    parser.add_argument("--before", help="another errdex src/ to measure first, for before -> after")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    after = packages(args.python)
    if args.json:
        print(json.dumps(after))
        return
    before: dict[str, dict[str, float]] = {}
    if args.before:
        command = [sys.executable, __file__, "--json", *(["--python", args.python] if args.python else [])]
        env = {**os.environ, "PYTHONPATH": args.before}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        before = json.loads(done.stdout.splitlines()[-1])
    width = max(map(len, after)) + 2
    print(f"{'package':<{width}}" + "".join(f"{c:>{16 if before else 9}}" for c in COLUMNS))
    for name, row in after.items():
        old = before.get(name)
        cells = []
        for c in COLUMNS:
            text = cell(c, row[c]) if old is None else f"{cell(c, old[c])} -> {cell(c, row[c])}"
            cells.append(f"{text:>{16 if before else 9}}")
        print(f"{name:<{width}}" + "".join(cells))


if __name__ == "__main__":
    main()
