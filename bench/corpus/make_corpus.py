"""Build the evaluation corpus of real runtime errors: bench/corpus/errors.jsonl.

Creates (if missing) the venv ``.cache/eval-venv``, installs ``requirements.txt`` into it,
runs every snippet of ``snippets/`` through ``harness.py`` in a fresh process of that venv's
python, twice with different hash seeds, and writes the errors that were the same both times
and came out of a library's Python source, sorted by id. Prints counts per library and the
snippets that were dropped, with the reason.

Usage:
    .venv/bin/python bench/corpus/make_corpus.py                 # errors.jsonl
    .venv/bin/python bench/corpus/make_corpus.py --release old --first 20   # errors-old.jsonl
    .venv/bin/python bench/corpus/make_corpus.py --check pint rich

``--release old`` runs the same snippets under the older releases of ``requirements-old.txt``
(in ``.cache/eval-venv-old``): the cross-release set, whose errors are explained against an
index of the current releases.  ``--check`` runs the named libraries' snippets once and
prints what each raised (or why it would be dropped), writing nothing: for writing snippets.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile
import textwrap
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent
REPO = CORPUS.parents[1]
SNIPPETS = CORPUS / "snippets"
HARNESS = CORPUS / "harness.py"
HASH_SEEDS = ("1", "2")
WORKERS = 2


@dataclass(frozen=True)
class Release:
    """A set of pinned libraries, the venv they are installed in and the corpus file they give."""

    requirements: Path
    venv: Path
    output: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


RELEASES = {
    "current": Release(CORPUS / "requirements.txt", REPO / ".cache" / "eval-venv", CORPUS / "errors.jsonl"),
    "old": Release(
        CORPUS / "requirements-old.txt", REPO / ".cache" / "eval-venv-old", CORPUS / "errors-old.jsonl"
    ),
}


def ensure_venv(release: Release) -> None:
    """Create the evaluation venv and install the pinned libraries when they changed."""
    if not release.python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(release.venv)], check=True)
    stamp = release.venv / "requirements.sha256"
    digest = hashlib.sha256(release.requirements.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    install = [str(release.python), "-m", "pip", "install", "--quiet", "-r", str(release.requirements)]
    subprocess.run(install, check=True)
    stamp.write_text(digest)


def load_snippets() -> list[dict[str, str]]:
    """Every snippet, with its stable id ``<library>-<n>`` (n counts from 1 within a file)."""
    items = []
    for path in sorted(SNIPPETS.glob("*.py")):
        module = runpy.run_path(str(path))
        library: str = module["LIBRARY"]
        for n, code in enumerate(module["SNIPPETS"], start=1):
            snippet = textwrap.dedent(code).strip() + "\n"
            items.append({"id": f"{library}-{n:03d}", "library": library, "snippet": snippet})
    return items


def run_one(release: Release, item: dict[str, str], seed: str, workdir: str) -> dict[str, Any]:
    """Run one snippet in a fresh interpreter of the evaluation venv."""
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [str(release.python), str(HARNESS)],
        input=json.dumps([item]),
        capture_output=True,
        text=True,
        cwd=workdir,
        env=env,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"harness failed on {item['id']} ({done.returncode}):\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_harness(release: Release, items: list[dict[str, str]], seed: str) -> dict[str, dict[str, Any]]:
    """Run every snippet, each in its own process (two at a time); results by id."""
    with tempfile.TemporaryDirectory() as workdir, ThreadPoolExecutor(WORKERS) as pool:
        results = pool.map(lambda item: run_one(release, item, seed, workdir), items)
        return {result["id"]: result for result in results}


def canonical(name: str) -> str:
    """A distribution name normalised for comparison."""
    return re.sub(r"[-_.]+", "-", name).lower()


def summarize(records: list[dict[str, Any]], dropped: dict[str, str], total: int) -> None:
    """Print counts per library, distinct raise sites and the dropped snippets."""
    by_library: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_library[record["library"]].append(record)
    print(f"{'library':<16} {'version':<10} {'errors':>6} {'sites':>6}  kinds")
    for library, group in sorted(by_library.items()):
        sites = {(r["truth"]["root"], r["truth"]["path"], r["truth"]["line"]) for r in group}
        kinds = Counter(r["truth"]["kind"] for r in group)
        print(
            f"{library:<16} {group[0]['version']:<10} {len(group):>6} {len(sites):>6}  "
            + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        )
    all_sites = {(r["truth"]["root"], r["truth"]["path"], r["truth"]["line"]) for r in records}
    print(f"{'total':<27} {len(records):>6} {len(all_sites):>6}  ({total} snippets)")
    foreign = [r["id"] for r in records if canonical(r["truth"]["owner"]) != canonical(r["library"])]
    if foreign:
        print(f"raised in another distribution than the snippet's library: {', '.join(foreign)}")
    print(f"dropped {len(dropped)}:")
    for item_id, reason in sorted(dropped.items()):
        print(f"  {item_id}: {reason}")


def check(release: Release, libraries: list[str]) -> None:
    """Run the named libraries' snippets once and print what each gave."""
    items = [item for item in load_snippets() if item["library"] in libraries]
    if not items:
        sys.exit(f"no snippets for {', '.join(libraries)}")
    for item in items:
        result = run_harness(release, [item], HASH_SEEDS[0])[item["id"]]
        if "dropped" in result:
            print(f"{item['id']}  DROPPED {result['dropped']}")
            continue
        truth = result["truth"]
        message = result["last_line"].splitlines()[0][:100] if result["last_line"] else ""
        print(f"{item['id']}  {truth['path']}:{truth['line']} ({truth['kind']})  {message}")


def main() -> None:
    """Build the corpus file of a release and print a summary."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--release", choices=sorted(RELEASES), default="current")
    parser.add_argument("--check", nargs="+", metavar="LIBRARY", help="run these libraries' snippets once")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N snippets of each library")
    args = parser.parse_args()
    release = RELEASES[args.release]
    ensure_venv(release)
    if args.check:
        check(release, args.check)
        return
    items = load_snippets()
    if args.first:
        items = [item for item in items if int(item["id"].rpartition("-")[2]) <= args.first]
    first, second = (run_harness(release, items, seed) for seed in HASH_SEEDS)
    records: list[dict[str, Any]] = []
    dropped: dict[str, str] = {}
    for item in items:
        result = first[item["id"]]
        if "dropped" in result:
            dropped[item["id"]] = result["dropped"]
        elif result != second[item["id"]]:
            dropped[item["id"]] = "differs between runs"
        else:
            records.append(result)
    records.sort(key=lambda record: record["id"])
    with release.output.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    summarize(records, dropped, len(items))
    print(f"wrote {len(records)} errors to {release.output.relative_to(REPO)}")


if __name__ == "__main__":
    main()
