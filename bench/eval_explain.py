"""How often errdex names the right raise site for real errors from real libraries.

    .venv/bin/python bench/corpus/make_corpus.py                # once: .cache/eval-venv, errors.jsonl
    .venv/bin/python bench/corpus/make_corpus.py --release old  # once: the cross-release set
    .venv/bin/python bench/eval_explain.py [--top 5] [--misses 20] [--kind twins]

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

Where the innermost frame of a traceback prints a line that cannot raise (``datetime(``,
``return self._data[key]``) and no record is there, errdex's first answer is that frame: an
operation there raised the error (``origin``, the share of such answers).  It counts as right
when it is the truth's line, and no template is then its first answer.

``noise-1`` is the share of answers whose first candidate comes from a low-information
template (fewer than 6 letters and digits outside its placeholders: ``{a}: {b}``, ``{key}``),
``noise!`` the share where that happens although the truth's own template is informative or
a frame could say where.

Each error is also given the kinds of trouble it has, read from the error and from the
records the index holds at its raise site (never from errdex's answer), and every kind gets
its own rows:

* ``multi-line``: the message spans lines;
* ``decorated``: a record is at the raise site, but no template of it matches the whole
  message (``__str__`` adds to it, or the text comes from elsewhere);
* ``no record``: nothing is recorded at the raise site (an operation, a message built in
  another module, a re-raise);
* ``low-info``: the raise site's template carries no informative text (``raise KeyError(key)``);
* ``twins``: the raise site's template is raised at other sites too;
* ``wrapper``: the message embeds another error (``... Error: ...``, ``(pkg.Class) ...``);
* ``names module``: a captured value names a module or package (``module 'numpy' ...``);
* ``plain``: none of these.

The cross-release set (``bench/corpus/errors-old.jsonl``: the same snippets run under the
older releases of ``requirements-old.txt``) is explained against the index of the current
releases; an answer is right there when its first candidate is in the truth's file and
either in the truth's function or with a template that matches the whole message, since
lines move between releases.
"""

from __future__ import annotations

import argparse
import json
import re
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
from errdex.match.parse import Frame, PasteError
from errdex.mine import mine
from errdex.patterns import MessageMatcher
from errdex.session import Session
from errdex.store import open_store

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "corpus" / "errors.jsonl"
CROSS = ROOT / "bench" / "corpus" / "errors-old.jsonl"
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
    noise: int = 0
    noise_wrong: int = 0
    #: Answers that an operation, not a raise statement, raised the error at a frame.
    origins: int = 0


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


#: Letters and digits outside placeholders below which a template says nothing of itself.
LOW_INFORMATION = 6
_GROUP = re.compile(re.escape("(.+?)"))
_ESCAPE = re.compile(r"\\(.)")


def literal_text(pattern: str) -> str:
    """A schema v2 pattern's literal text, placeholders left out."""
    return _ESCAPE.sub(r"\1", _GROUP.sub(" ", pattern))


def low_information(pattern: str) -> bool:
    return sum(ch.isalnum() for ch in literal_text(pattern)) < LOW_INFORMATION


def site_key(path: str, line: int) -> tuple[str, int]:
    return (path.removeprefix("Lib/"), line)


@dataclass
class Sites:
    """The index's records by raise site, and at how many sites each template is raised:
    what the kinds of trouble are read from, apart from errdex's answers."""

    #: File name -> (path, line) -> the templates recorded there.
    by_name: dict[str, dict[tuple[str, int], set[str]]] = field(default_factory=lambda: defaultdict(dict))
    spread: dict[str, set[tuple[str, int]]] = field(default_factory=lambda: defaultdict(set))

    @classmethod
    def of(cls, store_path: Path) -> Sites:
        sites = cls()
        with open_store(store_path, readonly=True) as store:
            for record in store.records():
                for site in record.sites:
                    key = site_key(site.file_path, site.line_number)
                    found = sites.by_name[key[0].rpartition("/")[2]].setdefault(key, set())
                    found.add(record.message_pattern)
                    sites.spread[record.message_pattern].add(key)
        return sites

    def at(self, truth: dict[str, Any]) -> set[str]:
        """The templates recorded at the truth's raise site (records name a file from their
        repository's root, the truth from site-packages: the truth's path is a tail)."""
        lines = {truth["line"], truth.get("statement_line", truth["line"])}
        path: str = truth["path"]
        return {
            p
            for (name, line), found in self.by_name[path.rpartition("/")[2]].items()
            if line in lines and (name == path or name.endswith("/" + path))
            for p in found
        }


_WRAPPED = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b: |^\([\w.]+\.[A-Z]\w*\) ")
_NAMES_MODULE = re.compile(r"\b(?:module|package) ['\"]?[\w.]+")


def kinds_of(error: dict[str, Any], sites: Sites) -> list[str]:
    """The kinds of trouble an error has, from the error and the index's raise site."""
    message: str = error["message"]
    found = sites.at(error["truth"])
    kinds = []
    if "\n" in message.strip():
        kinds.append("multi-line")
    if not found:
        kinds.append("no record")
    elif not any(MessageMatcher(p).match(message) for p in found):
        kinds.append("decorated")
    if found and all(low_information(p) for p in found):
        kinds.append("low-info")
    if any(len(sites.spread[p]) > 1 for p in found):
        kinds.append("twins")
    if _WRAPPED.search(message):
        kinds.append("wrapper")
    if _NAMES_MODULE.search(message):
        kinds.append("names module")
    return kinds or ["plain"]


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


def answers(session: Session, text: str) -> tuple[list[Match], Frame | None]:
    """The candidates for the error a paste ended with, best first, and the frame errdex says
    an operation raised it at, where no raise statement did (none for a paste errdex refuses:
    an exception with no message gives nothing to paste)."""
    try:
        answer = session.explain(text, top=50)
    except PasteError:
        return [], None
    primary = answer.query.primary
    origin = answer.origin(primary)
    return answer.for_error(primary), origin.frame if origin else None


def at_truth(frame: Frame | None, truth: dict[str, Any]) -> bool:
    """Whether errdex's answer that an operation raised the error names the truth's line."""
    if frame is None:
        return False
    tail = truth["path"].split("/")
    path = (frame.relative or frame.path).split("/")
    return (
        frame.line in {truth["line"], truth.get("statement_line", truth["line"])}
        and path[-len(tail) :] == tail
    )


def evaluate(
    session: Session, errors: list[dict[str, Any]], sites: Sites, top: int, misses: int, only: str | None
) -> list[float]:
    """Every error three ways; tallies over all errors, over raise statements, and per kind."""
    sections: dict[str, dict[str, Tally]] = defaultdict(lambda: {name: Tally() for name in INPUTS})
    shown: dict[str, int] = defaultdict(int)
    seconds: list[float] = []
    for error in errors:
        truth = error["truth"]
        site = (truth["path"], truth["line"])
        kinds = kinds_of(error, sites)
        # Errors raised by an operation or C code (``a / 0``, a dict lookup) have no raise
        # statement at their innermost frame: no source miner can name one, so they get rows apart.
        names = ["all errors"] + (
            ["raised by a raise or assert statement"] if truth["kind"] != "other" else []
        )
        names += [f"kind: {kind}" for kind in kinds]
        informative = any(not low_information(p) for p in sites.at(truth))
        for name, make in INPUTS.items():
            start = time.perf_counter()
            matches, origin = answers(session, make(error))
            seconds.append(time.perf_counter() - start)
            # An operation's frame, where errdex names one, is its first answer; records follow.
            right = ([at_truth(origin, truth)] if origin else []) + [is_truth(m, truth) for m in matches]
            first = bool(right) and right[0]
            # Twins: records as good as the top one (same score, same template): a paste
            # without frames cannot tell them apart, and errdex lists them all.
            twins = [m for m in matches if matches[0].score - m.score < 1e-9] if matches else []
            twin = first or (
                origin is None
                and any(
                    is_truth(m, truth) and m.stored.message_pattern == matches[0].stored.message_pattern
                    for m in twins
                )
            )
            exact = (
                first
                and origin is None
                and MessageMatcher(matches[0].stored.message_pattern).match(error["message"])
            )
            noise = origin is None and bool(matches) and low_information(matches[0].stored.message_pattern)
            for section in names:
                t = sections[section][name]
                t.total += 1
                t.candidates.append(len(matches))
                t.covered += bool(matches) or origin is not None
                t.top1 += first
                t.origins += origin is not None
                t.twins += twin
                t.top5 += any(right[:top])
                t.by_site[site].append(first)
                t.exact += bool(exact)
                t.noise += noise
                t.noise_wrong += noise and not first and (informative or name == "traceback")
            if not first and shown[name] < misses and (only is None or only in kinds):
                shown[name] += 1
                best = matches[0].record if matches else None
                got = (
                    f"an operation at {origin.relative or origin.path}:{origin.line}"
                    if origin
                    else f"{best.file_path}:{best.line_number} {best.error_message[:70]!r}"
                    if best
                    else "nothing"
                )
                print(
                    f"  miss [{name}] {error['id']} ({', '.join(kinds)}):"
                    f" truth {truth['path']}:{truth['line']}; top-1 {got}"
                )
    for title, tallies in sorted(
        sections.items(), key=lambda kv: (kv[0].startswith("kind"), kv[0] != "all errors")
    ):
        report(title, tallies)
    return seconds


def cross_right(match: Match, error: dict[str, Any]) -> bool:
    """In the truth's file, and in its function or with a template matching the whole message."""
    truth = error["truth"]
    tail = truth["path"].split("/")
    in_file = any(s.file_path.split("/")[-len(tail) :] == tail for s in match.stored.sites)
    same_function = (match.stored.function or "").rpartition(".")[2] == truth["function"]
    return in_file and (
        same_function or bool(MessageMatcher(match.stored.message_pattern).match(error["message"]))
    )


def evaluate_cross(session: Session, errors: list[dict[str, Any]], misses: int) -> None:
    """Errors of older releases against the index of the current ones: the first candidate
    is right when it is in the truth's file and in its function, or its template matches the
    whole message."""
    tallies = {name: Tally() for name in INPUTS}
    shown: dict[str, int] = defaultdict(int)
    for error in errors:
        truth = error["truth"]
        for name, make in INPUTS.items():
            matches, origin = answers(session, make(error))
            # An operation's frame is the truth's own, lines of its release and all.
            first = at_truth(origin, truth) if origin else bool(matches) and cross_right(matches[0], error)
            t = tallies[name]
            t.total += 1
            t.covered += bool(matches) or origin is not None
            t.candidates.append(len(matches))
            t.top1 += first
            t.top5 += first or any(cross_right(m, error) for m in matches[:5])
            t.by_site[(truth["path"], truth["line"])].append(first)
            if not first and shown[name] < misses:
                shown[name] += 1
                best = matches[0].record if matches else None
                got = f"{best.file_path}:{best.line_number} {best.function}" if best else "nothing"
                print(
                    f"  miss [cross {name}] {error['id']}: truth {truth['path']}:{truth['line']}"
                    f" {truth['function']}; top-1 {got}"
                )
    first = tallies["message"]
    libraries = {e["library"] for e in errors}
    print(
        f"\ncross-release: {first.total} errors of older releases ({len(libraries)} libraries),"
        " right file first"
    )
    print(f"{'input':<10} {'coverage':>9} {'top-1':>7} {'top-5':>7} {'top-1/site':>11}")
    for name, t in tallies.items():
        n = t.total
        per_site = statistics.mean(sum(v) / len(v) for v in t.by_site.values())
        print(f"{name:<10} {t.covered / n:9.1%} {t.top1 / n:7.1%} {t.top5 / n:7.1%} {per_site:11.1%}")


def report(title: str, tallies: dict[str, Tally]) -> None:
    first = next(iter(tallies.values()))
    print(f"\n{title}: {first.total} errors, {len(first.by_site)} distinct raise sites")
    print(
        f"{'input':<10} {'coverage':>9} {'top-1':>7} {'+twins':>7} {'top-5':>7} {'exact':>7}"
        f" {'noise-1':>8} {'noise!':>7} {'origin':>7} {'cands':>6} {'top-1/site':>11}"
    )
    for name, t in tallies.items():
        n = t.total
        per_site = statistics.mean(sum(v) / len(v) for v in t.by_site.values())
        print(
            f"{name:<10} {t.covered / n:9.1%} {t.top1 / n:7.1%} {t.twins / n:7.1%} {t.top5 / n:7.1%}"
            f" {t.exact / n:7.1%} {t.noise / n:8.1%} {t.noise_wrong / n:7.1%} {t.origins / n:7.1%}"
            f" {statistics.mean(t.candidates):6.1f} {per_site:11.1%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--misses", type=int, default=15, help="misses to list per input")
    parser.add_argument("--kind", help="list only the misses of this kind (e.g. twins, decorated)")
    parser.add_argument("--db", type=Path, help="reuse this index of the evaluation venv (built if missing)")
    args = parser.parse_args()
    errors = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    current = {e["library"]: e["version"] for e in errors}
    # Only what another release than the one indexed raised (not the standard library's).
    cross = [
        error
        for line in (CROSS.read_text().splitlines() if CROSS.exists() else [])
        if line.strip() and (error := json.loads(line))["version"] != current.get(error["library"])
    ]
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "eval.db"
        if not db.exists():
            build_store(db)
        sites = Sites.of(db)
        # What every front end asks; its pattern index loaded before the clock starts.
        with Session(db) as session:
            session.matcher()
            seconds = evaluate(session, errors, sites, args.top, args.misses, args.kind)
            if cross:
                evaluate_cross(session, cross, args.misses)
    ms = sorted(s * 1000 for s in seconds)
    p50, p99 = ms[len(ms) // 2], ms[int(len(ms) * 0.99)]
    print(f"\nlatency per explain (all inputs, current releases): p50 {p50:.2f} ms, p99 {p99:.2f} ms")


if __name__ == "__main__":
    main()
