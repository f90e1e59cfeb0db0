"""How the verifier does on the labelled answers: each field's true and false text checked
against its real record, per kind of falsehood.

    .venv/bin/python bench/verify_report.py [--set dev|frozen|heldout|all] [--why] [--kept]

For each set (``tests/model_answers/``), mines the packages it names (real releases from PyPI
and npm, cached), finds each labelled record by its key, and runs ``errdex.enrich.verify`` on
the true and the false text of every field, with the release's symbol table.  Prints per kind:
false fields kept, true fields kept, and, with ``--why``, why each true field was dropped;
``--kept`` lists the false fields kept.  The same answers go through ``errdex enrich --llm`` and
a real HTTP server in ``tests/test_model_verify.py``; this is the quick look.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from errdex.enrich.verify import Checker
from labelled import HARMFUL, KINDS, SETS, by_key, fields, messages, mine_package, releases


def report(which: str, why: bool, kept_list: bool) -> None:
    mined = {name: mine_package(name, version) for name, version in releases(which).items()}
    records = {name: by_key(result.records) for name, result in mined.items()}
    checkers = {
        name: {lang: Checker.of(lang, result.symbols) for lang in ("python", "javascript", "typescript")}
        for name, result in mined.items()
    }
    written = messages(which)
    false_kept: Counter[str] = Counter()
    true_kept: Counter[str] = Counter()
    total: Counter[str] = Counter()
    dropped: dict[str, Counter[str]] = defaultdict(Counter)
    kept_false: list[str] = []
    missing = 0
    for f in fields(which):
        record = records[f.package].get((f.file, f.line))
        if record is None or record.error_message != written[f.file, f.line]:
            missing += 1
            continue
        checker = checkers[f.package][record.language]
        total[f.kind] += 1
        truth = checker.verify(record, {f.name: f.true})
        if f.name in truth.kept:
            true_kept[f.kind] += 1
        else:
            dropped[f.kind][truth.rejected[f.name]] += 1
        lie = checker.verify(record, {f.name: f.false})
        if f.name in lie.kept:
            false_kept[f.kind] += 1
            kept_false.append(f"{f.package} {f.file}:{f.line} {f.name} [{f.kind}] {f.note}")
    n = sum(total.values())
    print(f"{which}: {n} fields of {len(records)} packages ({missing} keys not found)")
    print(f"  {'kind':<16} {'fields':>6} {'false kept':>11} {'true kept':>10}")
    for kind in KINDS:
        if total[kind]:
            print(
                f"  {kind:<16} {total[kind]:>6} {false_kept[kind]:>5} {false_kept[kind] / total[kind]:5.1%}"
                f" {true_kept[kind]:>4} {true_kept[kind] / total[kind]:5.1%}"
            )
    harmful = sum(false_kept[k] for k in HARMFUL)
    print(
        f"  all              {n:>6} {sum(false_kept.values()):>5} {sum(false_kept.values()) / n:5.1%}"
        f" {sum(true_kept.values()):>4} {sum(true_kept.values()) / n:5.1%}   harmful kept: {harmful}"
    )
    if why:
        reasons: Counter[str] = Counter()
        for counts in dropped.values():
            reasons.update(counts)
        print("  true fields dropped, by reason:")
        for reason, count in reasons.most_common():
            print(f"    {count:>3}  {reason}")
    if kept_list:
        print("  false fields kept:")
        for line in kept_false:
            print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", default="dev", choices=[*SETS, "all"])
    parser.add_argument("--why", action="store_true", help="why true fields were dropped")
    parser.add_argument("--kept", action="store_true", help="list the false fields kept")
    args = parser.parse_args()
    for which in SETS if args.set == "all" else (args.set,):
        report(which, args.why, args.kept)


if __name__ == "__main__":
    main()
