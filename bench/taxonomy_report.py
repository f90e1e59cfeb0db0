"""Which families and handling strategies errdex's rules give records of real packages.

    .venv/bin/python bench/taxonomy_report.py [--jobs N] [--show TAG ...]
    .venv/bin/python bench/taxonomy_report.py --db STORE [--sample N] [--seed S]

Mines and enriches pinned real packages: this interpreter's standard library modules
``ipaddress``, ``zoneinfo``, ``json``, ``email`` (as CPython lays them out, ``Lib/``) and the
PyPI wheels below; or, with ``--db``, reads every record of a store (an environment index
keeps records as mined: each is classified as enrichment would, ``classify_record`` and
``transient``, without writing its prose).  Then prints:

* per family: how many records get it, and for a family about one kind of library (ORM,
  database, HTTP, graph, template, command line), how many of those lie outside every mined
  library of that kind (``outside``; for the ORM and database families this must be 0);
* per package: records, records with a family, records with ``retry``;
* every class that gets ``handlingStrategy: retry``, with its package and count;
* with ``--sample N``: N records with a family, in an order fixed by ``--seed`` and each
  record's id (a hash, so a rule change that drops one record's family leaves the others'
  places), with file and line: the sample a person grades by reading the source.

Which mined package is which kind of library is this script's own reading of the packages,
written here and not taken from errdex's rules, so the check is independent of them.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.enrich import enrich
from errdex.enrich.taxonomy import classify_record, transient
from errdex.mine import mine
from errdex.record import Record
from errdex.store import open_store
from pypi import fetch_package

SHA = "0" * 40
STDLIB = ("ipaddress.py", "zoneinfo", "json", "email")
#: name, version (wheels): each record is labelled with its name.
PACKAGES = (
    ("click", "8.1.8"),
    ("requests", "2.32.3"),
    ("urllib3", "2.3.0"),
    ("httpx", "0.28.1"),
    ("sqlalchemy", "2.0.36"),
    ("pydantic", "2.10.4"),
    ("jinja2", "3.1.5"),
    ("networkx", "3.4.2"),
)
ORM = {"sqlalchemy"}
DATABASE = {"sqlalchemy"}
HTTP = {"requests", "urllib3", "httpx"}
#: The families about one kind of library, and the mined packages of that kind.
ABOUT: dict[str, set[str]] = {
    "orm-mapping-error": ORM,
    "sql-error": DATABASE,
    "integrity-constraint": DATABASE,
    "no-result": DATABASE,
    "multiple-results": DATABASE,
    "session-state": ORM,
    "http-session-state": HTTP,
    "http-status-error": HTTP,
    "redirect-loop": HTTP,
    "connection-failed": HTTP,
    "rate-limited": HTTP,
    "ssl-error": HTTP,
    "graph-structure": {"networkx"},
    "template-error": {"jinja2"},
    "cli-usage-error": {"click"},
    "user-abort": {"click"},
    "distributed-setup": set(),
}


def stdlib_records(jobs: int) -> list[Record]:
    lib = Path(shutil.__file__).parent
    with tempfile.TemporaryDirectory() as tmp:
        for name in STDLIB:
            source = lib / name
            if source.is_dir():
                shutil.copytree(source, Path(tmp) / name, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(source, Path(tmp) / name)
        return mine(tmp, repo="python/cpython", sha=SHA, path_prefix="Lib/", jobs=jobs).records


def mined_packages(jobs: int) -> list[tuple[str, Record]]:
    labelled: list[tuple[str, Record]] = [("stdlib", r) for r in enrich(stdlib_records(jobs))]
    for name, version in PACKAGES:
        mined = mine(fetch_package(name, version), repo=f"pypi/{name}", sha=SHA, jobs=jobs).records
        labelled += [(name, r) for r in enrich(mined)]
    return labelled


def stored(db: str) -> list[tuple[str, Record]]:
    """Every record of the store, labelled with its package (the standard library's is
    ``stdlib``), with the family and strategy enrichment would give it."""
    labelled = []
    with open_store(db, readonly=True) as store:
        for r in store.records():
            family = classify_record(r)
            strategy = "retry" if transient(r) else None
            tag = family.tag if family else None
            r = r.model_copy(update={"background_tag": tag, "handling_strategy": strategy})
            package = (r.package or "").lower()
            labelled.append(("stdlib" if package == "python" else package, r))
    return labelled


def sample(labelled: list[tuple[str, Record]], n: int, seed: int) -> list[tuple[str, Record]]:
    """``n`` records with a family, ranked by a hash of the seed and the id."""

    def rank(item: tuple[str, Record]) -> str:
        return hashlib.sha256(f"{seed}:{item[1].id}".encode()).hexdigest()

    return sorted((item for item in labelled if item[1].background_tag), key=rank)[:n]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--db", help="read the records of this store instead of mining packages")
    parser.add_argument("--show", action="append", default=[], help="list the records of this family")
    parser.add_argument("--sample", type=int, default=0, help="list this many records with a family")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    labelled = stored(args.db) if args.db else mined_packages(args.jobs)
    packages = sorted({p for p, _ in labelled}) if args.db else ["stdlib", *(name for name, _ in PACKAGES)]

    families: dict[str, Counter[str]] = defaultdict(Counter)
    for package, r in labelled:
        if r.background_tag:
            families[r.background_tag][package] += 1
    print(f"{'family':<26} {'records':>7} {'outside':>7}  by package")
    for tag, by_package in sorted(families.items(), key=lambda item: -sum(item[1].values())):
        about = ABOUT.get(tag)
        outside = "-" if about is None else str(sum(n for p, n in by_package.items() if p not in about))
        spread = ", ".join(f"{p} {n}" for p, n in by_package.most_common())
        print(f"{tag:<26} {sum(by_package.values()):>7} {outside:>7}  {spread}")
    orm_outside = sum(n for p, n in families["orm-mapping-error"].items() if p not in ORM)
    print(f"\norm-mapping-error outside ORM libraries: {orm_outside}")

    print(f"\n{'package':<12} {'records':>7} {'family':>7} {'retry':>7}")
    for package in packages:
        mine_ = [r for p, r in labelled if p == package]
        print(
            f"{package:<12} {len(mine_):>7} {sum(bool(r.background_tag) for r in mine_):>7}"
            f" {sum(r.handling_strategy == 'retry' for r in mine_):>7}"
        )
    retry = Counter((p, r.error_class) for p, r in labelled if r.handling_strategy == "retry")
    print(f"\nretry: {sum(retry.values())} records, {len(retry)} classes")
    for (package, cls), n in sorted(retry.items(), key=lambda item: (item[0][0], -item[1], str(item[0][1]))):
        print(f"  {package:<12} {n:>4}  {cls}")
    if args.sample:
        print(f"\nsample of {args.sample} records with a family (seed {args.seed}):")
        for _, r in sample(labelled, args.sample, args.seed):
            message = r.error_message[:90].replace("\n", " ")
            print(
                f"  {r.id} {r.background_tag:<26} {r.file_path}:{r.line_number} {r.error_class}: {message!r}"
            )
    for tag in args.show:
        print(f"\n{tag}:")
        for package, r in labelled:
            if r.background_tag == tag:
                where = f"{r.file_path}:{r.line_number}"
                print(f"  {package:<10} {r.error_class}: {r.error_message[:100]!r} ({where})")


if __name__ == "__main__":
    main()
