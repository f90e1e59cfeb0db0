"""A fixed sample of records from an index of a real environment, to grade by reading the source.

    .venv/bin/python bench/graded/sample.py pick  --db STORE --out bench/graded/sample-LABEL.jsonl
    .venv/bin/python bench/graded/sample.py pick  --db STORE --like bench/graded/sample-before.jsonl --out ...
    .venv/bin/python bench/graded/sample.py score bench/graded/grades-LABEL.jsonl

``pick`` draws 40 records with a fixed seed (10 from the standard library, 30 from the other
distributions, leaving out the packaging tools pip and setuptools) and writes each with what a
grader needs: where it is raised and every prose and code field errdex wrote.  Run against an
index built by another errdex, the same draw (by package, file and line, the identity that
survives a change of wording) gives the records to grade again.

``score`` reads grades (one JSON object per record: ``id``, the five grades ``documentation``,
``triggers``, ``solution``, ``code``, ``sentences``, each 0-3 with a one-line reason in
``reasons``, and ``false_sentence``, ``usable_solution``, ``useful_code`` as booleans) and prints
the averages the issue asks for.

The grades: documentation (says what the error means for the caller), triggers (when it happens,
in the caller's terms, true to the guards), solution (a fix the caller can act on), code (code
that would run and help), sentences (3: every sentence true; 0: a false one misleads).  Graded
by reading the raising code, not by reading errdex's own facts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from errdex.record import Record
from errdex.store import open_store

SEED = 13
STDLIB, THIRD_PARTY = 10, 30
LEFT_OUT = {"pip", "setuptools"}
FIELDS = (
    "errorClass", "errorMessage", "documentation", "triggerScenarios", "commonSituations",
    "solutions", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips",
    "handlingStrategy", "backgroundTag", "conditions", "function",
)  # fmt: skip
GRADES = ("documentation", "triggers", "solution", "code", "sentences")


def pick(db: str, seed: int, like: Path | None = None) -> list[dict[str, object]]:
    if like is not None:
        return _same_sites(db, like)
    with open_store(db, readonly=True) as store:
        stdlib, others = [], []
        for record in store.records():
            if record.package in LEFT_OUT:
                continue
            (stdlib if record.repo == "python/cpython" else others).append(record)
    key = lambda r: (r.package or "", r.file_path, r.line_number, r.id)  # noqa: E731
    rng = random.Random(seed)
    chosen = rng.sample(sorted(stdlib, key=key), STDLIB) + rng.sample(sorted(others, key=key), THIRD_PARTY)
    return [_shown(record) for record in chosen]


def _same_sites(db: str, like: Path) -> list[dict[str, object]]:
    """The records raised at the sites of an earlier draw, in its order (skipping sites gone)."""
    wanted = [json.loads(line) for line in like.read_text().splitlines() if line.strip()]
    with open_store(db, readonly=True) as store:
        by_site = {(r.package, r.file_path, r.line_number): r for r in store.records()}
    keys = [(w["package"], w["filePath"], w["lineNumber"]) for w in wanted]
    return [_shown(by_site[key]) for key in keys if key in by_site]


def _shown(record: Record) -> dict[str, object]:
    """What a grader reads of a record: where it is raised, and what errdex wrote."""
    data = record.to_errdex()
    return {
        "id": record.id,
        "package": record.package,
        "version": record.version,
        "filePath": record.file_path,
        "lineNumber": record.line_number,
        **{name: data.get(name) for name in FIELDS},
    }


def score(path: Path) -> None:
    grades = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    n = len(grades)
    for name in GRADES:
        print(f"{name:<14} {sum(g[name] for g in grades) / n:.2f} of 3")
    total = sum(sum(g[name] for name in GRADES) for g in grades) / n
    print(f"{'total':<14} {total:.1f} of 15 over {n} records")
    for flag in ("false_sentence", "usable_solution", "useful_code"):
        print(f"{flag:<16} {sum(bool(g[flag]) for g in grades) / n:.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    picked = commands.add_parser("pick")
    picked.add_argument("--db", required=True)
    picked.add_argument("--seed", type=int, default=SEED)
    picked.add_argument("--out", type=Path, required=True)
    picked.add_argument("--like", type=Path, help="the sites of an earlier draw, in its order")
    scored = commands.add_parser("score")
    scored.add_argument("grades", type=Path)
    args = parser.parse_args()
    if args.command == "pick":
        records = pick(args.db, args.seed, args.like)
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
        print(f"{len(records)} records -> {args.out}", file=sys.stderr)
    else:
        score(args.grades)


if __name__ == "__main__":
    main()
