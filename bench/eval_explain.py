"""How often errdex names the right raise site for real errors from real libraries.

    .venv/bin/python bench/corpus/make_corpus.py   # once: builds .cache/eval-venv and errors.jsonl
    .venv/bin/python bench/eval_explain.py [--top 5] [--misses 20]

The corpus (``bench/corpus/errors.jsonl``) holds errors produced by running real libraries;
each error's ground truth is the innermost library frame of its real traceback, never a
template.  This script mines the very code that ran (the evaluation venv's site-packages and
the standard library), then asks errdex about each error three ways:

* ``message``: the message alone, as ``str(exc)`` gives it;
* ``last line``: ``Class: message``, as a traceback ends;
* ``traceback``: the whole traceback.

For each it reports coverage (any candidate at all), top-1 and top-5 raise-site accuracy (a
candidate has a site at the truth's file and line), top-1 counting twins (the truth ties with
the top candidate: same score and template, which no paste without frames can separate),
exact-template accuracy (top-1 is right and its pattern fully matches the message), and the
mean number of candidates; over all errors and averaged per distinct raise site
(``top-1/site``), and again for the errors that a raise or assert statement raised.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import sysconfig
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.match.explain import Match
from errdex.match.parse import PasteError
from errdex.mine import mine
from errdex.patterns import MessageMatcher
from errdex.session import Session
from errdex.store import open_store

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "corpus" / "errors.jsonl"
VENV = ROOT / ".cache" / "eval-venv"
SHA = "0" * 40
INPUTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "message": lambda e: e["message"],
    "last line": lambda e: e["last_line"],
    "traceback": lambda e: e["traceback"],
}


@dataclass
class Tally:
    total: int = 0
    covered: int = 0
    top1: int = 0
    twins: int = 0
    top5: int = 0
    exact: int = 0
    candidates: list[int] = field(default_factory=list)
    by_site: dict[tuple[str, int], list[bool]] = field(default_factory=lambda: defaultdict(list))
    seconds: list[float] = field(default_factory=list)


def site_packages() -> Path:
    found = sorted(VENV.glob("lib/python3*/site-packages"))
    if not found:
        sys.exit(f"no evaluation venv at {VENV}: run bench/corpus/make_corpus.py first")
    return found[0]


def build_store(path: Path) -> None:
    with open_store(path) as store:
        for root, repo, prefix in (
            (site_packages(), "eval/site-packages", ""),
            (Path(sysconfig.get_paths()["stdlib"]), "python/cpython", "Lib/"),
        ):
            start = time.perf_counter()
            result = mine(root, repo=repo, sha=SHA, path_prefix=prefix, jobs=2)
            store.replace_repo(result.info, result.records)
            print(
                f"mined {repo}: {result.info.files} files, {result.info.records} records,"
                f" {result.info.skipped} skipped, {time.perf_counter() - start:.1f} s"
            )


def is_truth(match: Match, truth: dict[str, Any]) -> bool:
    """A candidate is right when one of its sites is the truth's file and line."""
    tail = truth["path"].split("/")

    # A multi-line assert's frame points into its test; the record names the statement's line.
    lines = {truth["line"], truth.get("statement_line", truth["line"])}

    def same(path: str | None, line: int | None) -> bool:
        return line in lines and path is not None and path.split("/")[-len(tail) :] == tail

    # A helper call's site also names the helper's own raise, where the innermost frame points.
    return any(
        same(site.file_path, site.line_number) or same(site.via_file_path, site.via_line_number)
        for site in match.stored.sites
    )


def evaluate(session: Session, errors: list[dict[str, Any]], top: int, misses: int) -> None:
    tallies = {name: Tally() for name in INPUTS}
    # Errors raised by an operation or C code (``a / 0``, a dict lookup) have no raise
    # statement at their innermost frame: no source miner can name one, so they get rows apart.
    raised = {name: Tally() for name in INPUTS}
    shown: dict[str, int] = defaultdict(int)
    for error in errors:
        truth = error["truth"]
        site = (truth["path"], truth["line"])
        for name, make in INPUTS.items():
            tally = tallies[name]
            also = raised[name] if truth.get("kind", "raise") != "other" else Tally()
            start = time.perf_counter()
            try:
                answer = session.explain(make(error), top=50)
            except PasteError:  # an exception with no message gives nothing to paste
                answer = None
            tally.seconds.append(time.perf_counter() - start)
            matches = [] if answer is None else answer.for_error(answer.query.primary)
            right = [is_truth(m, truth) for m in matches[:top]]
            first = bool(right) and right[0]
            # Twins: records as good as the top one (same score, same template): a paste
            # without frames cannot tell them apart, and errdex lists them all.
            twins = [m for m in matches if matches[0].score - m.score < 1e-9] if matches else []
            twin = any(
                is_truth(m, truth) and m.stored.message_pattern == matches[0].stored.message_pattern
                for m in twins
            )
            exact = first and MessageMatcher(matches[0].stored.message_pattern).match(error["message"])
            for t in (tally, also):
                t.total += 1
                t.candidates.append(len(matches))
                t.covered += bool(matches)
                t.top1 += first
                t.twins += twin
                t.top5 += any(right)
                t.by_site[site].append(first)
                t.exact += bool(exact)
            if not first and shown[name] < misses:
                shown[name] += 1
                best = matches[0].record if matches else None
                got = (
                    f"{best.file_path}:{best.line_number} {best.error_message[:70]!r}" if best else "nothing"
                )
                print(f"  miss [{name}] {error['id']}: truth {truth['path']}:{truth['line']}; top-1 {got}")
    report("all errors", tallies)
    report("errors raised by a raise or assert statement", raised)
    ms = sorted(s * 1000 for t in tallies.values() for s in t.seconds)
    p50, p99 = ms[len(ms) // 2], ms[int(len(ms) * 0.99)]
    print(f"\nlatency per explain (all inputs): p50 {p50:.2f} ms, p99 {p99:.2f} ms")


def report(title: str, tallies: dict[str, Tally]) -> None:
    first = next(iter(tallies.values()))
    print(f"\n{title}: {first.total} errors, {len(first.by_site)} distinct raise sites")
    print(
        f"{'input':<10} {'coverage':>9} {'top-1':>7} {'+twins':>7} {'top-5':>7} {'exact':>7}"
        f" {'cands':>6} {'top-1/site':>11}"
    )
    for name, t in tallies.items():
        n = t.total
        per_site = statistics.mean(sum(v) / len(v) for v in t.by_site.values())
        print(
            f"{name:<10} {t.covered / n:9.1%} {t.top1 / n:7.1%} {t.twins / n:7.1%} {t.top5 / n:7.1%}"
            f" {t.exact / n:7.1%} {statistics.mean(t.candidates):6.1f} {per_site:11.1%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--misses", type=int, default=15, help="misses to list per input")
    args = parser.parse_args()
    errors = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "eval.db"
        build_store(db)
        # What every front end asks; its pattern index loaded before the clock starts.
        with Session(db) as session:
            session.matcher()
            evaluate(session, errors, args.top, args.misses)


if __name__ == "__main__":
    main()
