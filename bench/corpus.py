"""Corpus mode at real scale: fetch, mine on three engines, releases, store size, explain latency.

    .venv/bin/python bench/corpus.py [--json FILE]                        # the full scale
    .venv/bin/python bench/corpus.py --packages 10 --releases 3 --skip-ray --skip-postgres

Inputs: the first ``--packages`` names of ``bench/top_packages.txt`` (widely used PyPI projects,
picked by hand: see its header), each at its latest release, and the ``--releases`` newest final
releases of ``--release-packages`` (``requests`` and ``click``).  Every figure comes from one run:

1. **Fetch, once**: each project is planned on pypi.org (``errdex.corpus.plan``) and its file
   downloaded by ``errdex.corpus.fetch.download`` (sha256 and size checked) into ``--cache``
   (``.cache/bench-corpus``, kept between runs with the plan in ``manifest.json``, so a rerun
   mines the same releases without the network; ``--replan`` plans again).  Files over
   ``--max-mb`` (30) are left out, as are projects that fail to plan; both are listed.  The
   cached files are then served by a loopback PEP 691 index (``tests/package_index.py``), so
   no mining figure includes the network.
2. **Throughput**: the latest releases mined from that index into a fresh SQLite store per
   engine (the file cache would otherwise serve the second): ``local`` with one process,
   ``local`` with ``--jobs`` (2) workers, ``ray`` on a local cluster of ``--jobs`` CPUs (its
   start-up included).  Artifacts per minute and files per second (library files, as
   ``RepoInfo.files`` counts them; and library and test files read, the file cache's hits and
   misses), each against one process.
3. **Releases**: the 2 x 20 releases mined into a fresh store (the pool, then again in one
   process: two workers may mine consecutive releases at once, and the later misses what the
   earlier has not stored yet); the file cache's hit rate across them, against the share of
   files byte-identical between consecutive releases, hashed here with hashlib from the
   archives themselves.
4. **Size**: the pool's store plus the releases (merged through the ``Store`` protocol) is the
   full store.  Its SQLite file (after a WAL checkpoint) per record, also without the caches
   (``dbstat``); then the same records imported into a throwaway PostgreSQL
   (``tests/pg_server.py``), ``pg_total_relation_size`` of its tables per record.
5. **Explain latency** on the full store: ``Session.explain(text)`` (top 5) for pastes made
   from stored records' own messages (placeholders filled) and real errors of stored packages
   from ``bench/corpus/errors.jsonl`` (message and traceback), p50 and p99, on SQLite and on
   PostgreSQL, against a naive loop over every distinct ``messagePattern`` compiled with ``re``.

The machine's load matters: on a shared 2-core machine the engines' figures move by 10-20%
between runs.  ``--keep`` keeps the stores (in ``--work``) for a look afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # package_index, pg_server

from errdex.corpus.fetch import download  # noqa: E402
from errdex.corpus.plan import DEFAULT_INDEX, plan  # noqa: E402
from errdex.corpus.run import RunReport, run  # noqa: E402
from errdex.corpus.task import Outcome  # noqa: E402
from errdex.errors import ErrdexError  # noqa: E402
from errdex.match.parse import PasteError  # noqa: E402
from errdex.record import Record, release_key  # noqa: E402
from errdex.session import Session  # noqa: E402
from errdex.store import Store, open_store, writing  # noqa: E402
from errdex.store.artifacts import Artifact  # noqa: E402
from package_index import PackageIndex  # noqa: E402

PACKAGES = Path(__file__).resolve().parent / "top_packages.txt"
ERRORS = Path(__file__).resolve().parent / "corpus" / "errors.jsonl"
CACHE = REPO / ".cache" / "bench-corpus"
#: Placeholder values for pastes: what such messages carry at run time, cycled.
FILLERS = ("'name'", "42", "<class 'str'>", "'data/input.csv'", "None", "3", "'utf-8'", "[1, 2, 3]", "'x'")
_PLACEHOLDER = "(.+?)"
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --- step 1: fetch once ----------------------------------------------------------------------


@dataclasses.dataclass
class Fetched:
    latest: dict[str, Path] = dataclasses.field(default_factory=dict)
    releases: dict[str, list[Path]] = dataclasses.field(default_factory=dict)
    #: Names that could not be planned, with why.
    problems: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    #: Files left out: (filename, why).
    skipped: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    bytes: int = 0
    downloaded: int = 0
    seconds: float = 0.0


def read_names(path: Path, limit: int) -> list[str]:
    names = [line.split("#", 1)[0].strip() for line in path.read_text().splitlines()]
    return [n for n in names if n][:limit]


def _planned(manifest: dict[str, Any], key: str, requirement: str, replan: bool) -> dict[str, Any]:
    """What pypi.org plans for ``requirement``, from the manifest unless absent or ``replan``."""
    if not replan and key in manifest:
        return manifest[key]
    try:
        entry: dict[str, Any] = {"artifacts": [dataclasses.asdict(a) for a in plan(requirement)]}
    except ErrdexError as exc:
        entry = {"problem": str(exc)}
    if not entry.get("artifacts") and "problem" not in entry:
        entry = {"problem": "no final release with an sdist or wheel"}
    if "problem" not in entry or entry["problem"].startswith(("no project", "no final")):
        manifest[key] = entry  # an unreachable index is not remembered: the next run asks again
    return entry


def _cached(artifact: Artifact, cache: Path, max_bytes: int) -> tuple[Path | None, str | None, bool]:
    """The artifact's file in the cache (checked again), else downloaded; or why not."""
    if artifact.size is not None and artifact.size > max_bytes:
        return None, f"{artifact.size / 1e6:.1f} MB, over the {max_bytes / 1e6:.0f} MB cap", False
    path = cache / artifact.filename
    if path.is_file() and artifact.sha256 and _sha256(path) == artifact.sha256:
        return path, None, False
    try:
        return download(artifact, cache, max_bytes=max_bytes), None, True
    except ErrdexError as exc:
        return None, str(exc), False
    except OSError as exc:
        return None, f"download failed: {exc}", False


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def fetch(
    names: list[str], release_names: list[str], releases: int, cache: Path, max_bytes: int, replan: bool
) -> Fetched:
    start = time.monotonic()
    cache.mkdir(parents=True, exist_ok=True)
    manifest_path = cache / "manifest.json"
    manifest: dict[str, Any] = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    wanted = [(f"latest:{n}", n) for n in names] + [(f"history:{n}", f"{n}>=0") for n in release_names]
    with ThreadPoolExecutor(8) as pool:
        entries = dict(
            zip(
                [k for k, _ in wanted],
                pool.map(lambda kr: _planned(manifest, kr[0], kr[1], replan), wanted),
                strict=True,
            )
        )
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True))
    out = Fetched()
    jobs: list[tuple[str, str, Artifact]] = []  # (kind, name, artifact)
    for key, entry in entries.items():
        kind, name = key.split(":", 1)
        if "problem" in entry:
            out.problems.append((name, entry["problem"]))
            continue
        artifacts = [Artifact(**a) for a in entry["artifacts"]]
        chosen = artifacts[-1:] if kind == "latest" else artifacts[-releases:]
        jobs += [(kind, name, a) for a in chosen]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda job: _cached(job[2], cache, max_bytes), jobs))
    for (kind, name, artifact), (path, why, fresh) in zip(jobs, results, strict=True):
        if path is None:
            out.skipped.append((artifact.filename, why or "?"))
            continue
        out.bytes += path.stat().st_size
        out.downloaded += fresh
        if kind == "latest":
            out.latest[name] = path
        else:
            out.releases.setdefault(name, []).append(path)
    out.seconds = time.monotonic() - start
    return out


# --- step 2 and 3: corpus runs ---------------------------------------------------------------


@dataclasses.dataclass
class Mined:
    label: str
    report: RunReport | None
    files: int = 0
    records: int = 0
    error: str | None = None

    @property
    def seconds(self) -> float:
        return self.report.seconds if self.report else 0.0

    def summary(self, base: Mined | None) -> dict[str, Any]:
        if self.report is None:
            return {"engine": self.label, "error": self.error}
        r = self.report
        minutes = r.seconds / 60
        out: dict[str, Any] = {
            "engine": self.label,
            "seconds": round(r.seconds, 2),
            "done": len(r.done),
            "failed": len(r.failed),
            "skipped": len(r.skipped) + len(r.problems),
            "files": self.files,
            "records": self.records,
            "artifacts_per_minute": round(len(r.done) / minutes, 2) if minutes else None,
            "files_per_second": round(self.files / r.seconds, 2) if r.seconds else None,
            # Library files and tests, each read and extracted (or found in the file cache).
            "files_read": r.cache_hits + r.cache_misses,
            "files_read_per_second": round((r.cache_hits + r.cache_misses) / r.seconds, 2)
            if r.seconds
            else None,
            "cache_hits": r.cache_hits,
            "cache_misses": r.cache_misses,
            "failures": [[a.package, a.version, a.reason] for a in r.failed],
            "skips": [[a.package, a.version, why] for a, why in r.skipped] + [list(p) for p in r.problems],
            "stopped": r.stopped,
        }
        if base is not None and base.report is not None and r.seconds:
            out["speedup_vs_one_process"] = round(base.seconds / r.seconds, 2)
        return out


def mine(label: str, db: Path, requirements: list[str], index_url: str, engine: str, jobs: int) -> Mined:
    with open_store(db) as store:
        store.corpus_add(requirements)

    def progress(outcome: Outcome, done: int, total: int) -> None:
        a = outcome.artifact
        if done % 10 == 0 or a.state != "done":
            log(f"  [{label}] {done}/{total} {a.package} {a.version}: {a.state} {a.reason or ''}")

    log(f"{label}: mining {len(requirements)} requirement(s) into {db.name}")
    try:
        report = run(
            os.fspath(db),
            index_url=index_url,
            engine=engine,  # type: ignore[arg-type]
            jobs=jobs,
            max_failures=10**6,
            progress=progress,
        )
    except Exception as exc:  # an engine that cannot start (Ray missing) is reported, not fatal
        return Mined(label, None, error=f"{type(exc).__name__}: {exc}")
    with open_store(db, readonly=True) as store:
        repos = store.repos()
    files = sum(info.files for info in repos)
    records = sum(info.records for info in repos)
    log(f"{label}: {len(report.done)} done, {len(report.failed)} failed in {report.seconds:.1f}s")
    return Mined(label, report, files, records)


def _members(archive: Path) -> Iterator[tuple[str, bytes]]:
    """Every regular file of an archive, by its path inside it, read by the standard library."""
    if archive.name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                if not info.is_dir():
                    yield info.filename, z.read(info)
    else:
        with tarfile.open(archive) as tar:
            for member in tar:
                if member.isfile() and (f := tar.extractfile(member)) is not None:
                    yield member.name, f.read()


def file_hashes(archive: Path) -> dict[str, str]:
    """Path (less an sdist's top directory, which names the version) -> sha256 of its bytes."""
    files = dict(_members(archive))
    tops = {name.split("/", 1)[0] for name in files}
    strip = len(tops) == 1 and all("/" in name for name in files)
    return {
        (name.split("/", 1)[1] if strip else name): hashlib.sha256(data).hexdigest()
        for name, data in files.items()
    }


def identical_baseline(releases: dict[str, list[Path]]) -> dict[str, Any]:
    """Consecutive releases compared by hand: the share of each release's files with the same
    bytes at the same path in the release before, over all files and over ``.py`` files; and
    the hit rate a content-keyed cache could reach mining them oldest first."""
    out: dict[str, Any] = {}
    totals = {"all": [0, 0, 0], "py": [0, 0, 0]}  # files, same as previous at same path, seen before
    for name, paths in releases.items():
        ordered = sorted(paths, key=lambda p: release_key(_version_of(p)))
        previous: dict[str, str] = {}
        seen: dict[str, set[str]] = {"all": set(), "py": set()}
        shares = []
        for n, path in enumerate(ordered):
            hashes = file_hashes(path)
            for kind in ("all", "py"):
                mine_ = {p: h for p, h in hashes.items() if kind == "all" or p.endswith(".py")}
                totals[kind][0] += len(mine_)
                if n:
                    same = sum(previous.get(p) == h for p, h in mine_.items())
                    totals[kind][1] += same
                    if kind == "py" and mine_:
                        shares.append(same / len(mine_))
                for h in mine_.values():
                    totals[kind][2] += h in seen[kind]
                    seen[kind].add(h)
            previous = hashes
        out[name] = {
            "releases": [_version_of(p) for p in ordered],
            "py_share_identical_to_previous_mean": round(statistics.mean(shares), 4) if shares else None,
        }
    for kind, (files, same, seen_before) in totals.items():
        out[f"{kind}_files"] = files
        out[f"{kind}_identical_to_previous"] = same
        out[f"{kind}_rate_identical_to_previous"] = round(same / files, 4) if files else None
        out[f"{kind}_rate_content_seen_before"] = round(seen_before / files, 4) if files else None
    return out


def _version_of(path: Path) -> str:
    from packaging.utils import parse_sdist_filename, parse_wheel_filename

    name = path.name
    parsed = parse_wheel_filename(name)[1] if name.endswith(".whl") else parse_sdist_filename(name)[1]
    return str(parsed)


# --- step 4: size ----------------------------------------------------------------------------


def checkpoint(db: Path) -> None:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def merge(into: Store, source: Store) -> int:
    """Every release of ``source`` copied into ``into`` through the Store protocol."""
    count = 0
    for info in source.repos():
        records = source.records(info.repo, package=info.package, version=info.version or "")
        count += into.replace_repo(info, records, release=True).records
    return count


_CACHE_TABLES = ("cache", "extractions")


def sqlite_size(db: Path) -> dict[str, Any]:
    checkpoint(db)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        records = conn.execute("SELECT count(*) FROM records").fetchone()[0]
        sites = conn.execute("SELECT count(*) FROM sites").fetchone()[0]
        tables = dict(conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
        free = (
            conn.execute("PRAGMA freelist_count").fetchone()[0]
            * conn.execute("PRAGMA page_size").fetchone()[0]
        )
    size = db.stat().st_size
    caches = sum(
        v
        for k, v in tables.items()
        if k in _CACHE_TABLES or k.startswith(tuple(f"sqlite_autoindex_{t}_" for t in _CACHE_TABLES))
    )
    return {
        "records": records,
        "sites": sites,
        "file_bytes": size,
        "free_bytes": free,
        "cache_bytes": caches,
        "bytes_per_record": round(size / records, 1) if records else None,
        "bytes_per_record_without_caches": round((size - free - caches) / records, 1) if records else None,
        "tables": {k: v for k, v in sorted(tables.items(), key=lambda kv: -kv[1])[:12]},
    }


def pg_size(url: str) -> dict[str, Any]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        rows = conn.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 2 DESC"
        ).fetchall()
        records = conn.execute("SELECT count(*) FROM records").fetchone()[0]
    tables = {name: size for name, size in rows}
    total = sum(tables.values())
    caches = sum(tables.get(t, 0) for t in _CACHE_TABLES)
    return {
        "records": records,
        "total_relation_bytes": total,
        "cache_bytes": caches,
        "bytes_per_record": round(total / records, 1) if records else None,
        "bytes_per_record_without_caches": round((total - caches) / records, 1) if records else None,
        "tables": tables,
    }


# --- step 5: explain latency -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Paste:
    text: str
    kind: str  # "message" (a stored record's, filled), "real-last-line", "real-traceback"
    #: The record a "message" paste was made from; the raising file of a real error.
    record_id: str | None = None
    truth_path: str | None = None


def filled(pattern: str, n: int) -> str:
    """A message as raised: the pattern's literal text, each placeholder given a value."""
    segments = [_ESCAPED.sub(r"\1", s) for s in pattern.split(_PLACEHOLDER)]
    out = segments[0]
    for i, segment in enumerate(segments[1:]):
        out += FILLERS[(n + i) % len(FILLERS)] + segment
    return out


def build_pastes(records: list[Record], packages: set[str], count: int, real: int) -> list[Paste]:
    rng = random.Random(691)
    usable = [
        r for r in records if r.message_kind in ("literal", "template") and len(r.error_message.strip()) >= 12
    ]
    by_message: dict[tuple[str | None, str], Record] = {}
    for record in usable:
        by_message.setdefault((record.error_class, record.message_pattern), record)
    chosen = rng.sample(sorted(by_message.values(), key=lambda r: r.id), min(count, len(by_message)))
    pastes = []
    for n, record in enumerate(chosen):
        message = filled(record.message_pattern, n)
        text = f"{record.error_class}: {message}" if record.error_class else message
        pastes.append(Paste(text, "message", record_id=record.id))
    errors = [json.loads(line) for line in ERRORS.read_text().splitlines() if line.strip()]
    mine_ = [e for e in errors if e["library"] in packages and e["message"]]
    for e in rng.sample(mine_, min(real, len(mine_))):
        pastes.append(Paste(e["last_line"].strip(), "real-last-line", truth_path=e["truth"]["path"]))
        pastes.append(Paste(e["traceback"], "real-traceback", truth_path=e["truth"]["path"]))
    return pastes


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    if not ms:
        return {}
    return {
        "n": len(ms),
        "p50_ms": round(ms[len(ms) // 2], 3),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
        "mean_ms": round(statistics.mean(ms), 3),
    }


def _found(paste: Paste, matches: list[Record]) -> bool:
    if paste.record_id is not None:
        return any(m.id == paste.record_id for m in matches)
    truth = paste.truth_path or ""
    return any(m.file_path == truth or m.file_path.endswith("/" + truth) for m in matches)


def time_matcher(db: str, pastes: list[Paste], rounds: int, top: int) -> dict[str, Any]:
    with Session(db) as session:
        start = time.perf_counter()
        session.matcher()
        index_s = time.perf_counter() - start
        for paste in pastes[:50]:  # warm-up
            with contextlib.suppress(PasteError):
                session.explain(paste.text, top=top)
        seconds: dict[str, list[float]] = {}
        found: dict[str, list[bool]] = {}
        for round_ in range(rounds):
            for paste in pastes:
                start = time.perf_counter()
                try:
                    answer = session.explain(paste.text, top=top)
                    matches = [m.stored for m in answer.matches]
                except PasteError:
                    matches = []
                elapsed = time.perf_counter() - start
                seconds.setdefault(paste.kind, []).append(elapsed)
                seconds.setdefault("all", []).append(elapsed)
                if round_ == 0:
                    found.setdefault(paste.kind, []).append(_found(paste, matches))
    out: dict[str, Any] = {"index_load_s": round(index_s, 3), "top": top}
    for kind, values in seconds.items():
        out[kind] = _percentiles(values)
        if kind in found:
            out[kind][f"found_in_top_{top}"] = round(sum(found[kind]) / len(found[kind]), 4)
    return out


def time_naive(records: list[Record], pastes: list[Paste], per_kind: int) -> dict[str, Any]:
    """Every distinct messagePattern compiled with ``re``, each tried on the paste with
    ``search``: the candidates a matcher without an index would have to rank.  Once over the
    first ``per_kind`` pastes of each kind: on a traceback, the patterns' ``(.+?)`` groups
    backtrack for seconds at this scale."""
    taken: dict[str, int] = {}
    sample = []
    for paste in pastes:
        if taken.get(paste.kind, 0) < per_kind:
            taken[paste.kind] = taken.get(paste.kind, 0) + 1
            sample.append(paste)
    start = time.perf_counter()
    compiled: list[re.Pattern[str]] = []
    bad = 0
    for pattern in sorted({r.message_pattern for r in records if r.message_pattern}):
        try:
            compiled.append(re.compile(pattern))
        except re.error:
            bad += 1
    compile_s = time.perf_counter() - start
    seconds: dict[str, list[float]] = {}
    candidates: list[int] = []
    for paste in sample:
        start = time.perf_counter()
        hits = [p for p in compiled if p.search(paste.text)]
        elapsed = time.perf_counter() - start
        seconds.setdefault(paste.kind, []).append(elapsed)  # by kind only: a sample of each
        candidates.append(len(hits))
    out: dict[str, Any] = {
        "patterns": len(compiled),
        "not_compiled": bad,
        "compile_s": round(compile_s, 3),
        "candidates_median": statistics.median(candidates) if candidates else None,
    }
    out.update({kind: _percentiles(values) for kind, values in seconds.items()})
    return out


# --- the run ---------------------------------------------------------------------------------


def _step(title: str) -> Callable[[], float]:
    log(f"== {title}")
    start = time.monotonic()
    return lambda: time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--packages", type=int, default=200, help="first N names of top_packages.txt")
    parser.add_argument("--names", type=Path, default=PACKAGES)
    parser.add_argument("--release-packages", nargs="+", default=["requests", "click"])
    parser.add_argument("--releases", type=int, default=20, help="newest final releases of each")
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--replan", action="store_true", help="plan on pypi.org again, not from the cache")
    parser.add_argument("--max-mb", type=float, default=30.0, help="leave out files larger than this")
    parser.add_argument("--jobs", type=int, default=2, help="workers of the pool and CPUs of the Ray cluster")
    parser.add_argument("--pastes", type=int, default=300, help="pastes made from stored messages")
    parser.add_argument(
        "--real", type=int, default=100, help="real errors (each a last line and a traceback)"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--naive-pastes", type=int, default=25, help="pastes of each kind the naive loop is timed on, once"
    )
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--work", type=Path, help="where the stores go (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the stores")
    parser.add_argument("--json", type=Path, help="write the summary here")
    args = parser.parse_args()

    work = args.work or Path(tempfile.mkdtemp(prefix="bench-corpus-"))
    work.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}}
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    def save() -> None:
        if args.json:
            args.json.write_text(json.dumps(summary, indent=2))

    try:
        _bench(args, work, summary, save)
    finally:
        if not args.keep and args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))
        print(f"\nsummary: {args.json}")
    else:
        print()
        print(json.dumps(summary))


def _bench(args: argparse.Namespace, work: Path, summary: dict[str, Any], save: Callable[[], None]) -> None:
    names = read_names(args.names, args.packages)
    elapsed = _step(
        f"1. fetch {len(names)} latest releases and {args.releases} releases of "
        f"{', '.join(args.release_packages)} from {DEFAULT_INDEX}"
    )
    got = fetch(names, args.release_packages, args.releases, args.cache, int(args.max_mb * 1e6), args.replan)
    summary["fetch"] = {
        "names": len(names),
        "latest": len(got.latest),
        "releases": {n: len(p) for n, p in got.releases.items()},
        "bytes": got.bytes,
        "downloaded_now": got.downloaded,
        "seconds": round(got.seconds, 1),
        "plan_failures": got.problems,
        "skipped": got.skipped,
    }
    save()
    print(
        f"\n1. fetch: {len(got.latest)}/{len(names)} latest releases, "
        f"{sum(map(len, got.releases.values()))} releases of {len(got.releases)} packages, "
        f"{got.bytes / 1e6:.0f} MB in {args.cache} ({got.downloaded} downloaded now) in {elapsed():.0f}s"
    )
    for name, why in got.problems:
        print(f"   plan failed: {name}: {why}")
    for filename, why in got.skipped:
        print(f"   skipped: {filename}: {why}")

    served = sorted({*got.latest.values(), *(p for ps in got.releases.values() for p in ps)})
    with PackageIndex(served) as index:
        latest = sorted(got.latest)
        engines = [("one process", "local", 1), ("pool", "local", args.jobs)]
        if not args.skip_ray:
            engines.append(("ray", "ray", args.jobs))
        elapsed = _step("2. throughput")
        mined = []
        for label, engine, jobs in engines:
            mined.append(mine(label, work / f"{label.replace(' ', '-')}.db", latest, index.url, engine, jobs))
            summary["throughput"] = [m.summary(mined[0]) for m in mined]
            save()
        base = mined[0]
        print(
            f"\n2. throughput: {len(latest)} latest releases from a loopback index, a fresh store each"
            f" ({elapsed():.0f}s)"
        )
        print(
            f"   {'engine':<12} {'done':>5} {'fail':>5} {'skip':>5} {'files':>7} {'records':>8} "
            f"{'seconds':>8} {'art/min':>8} {'files/s':>8} {'read/s':>8} {'speedup':>8}"
        )
        for row in summary["throughput"]:
            if "error" in row:
                print(f"   {row['engine']:<12} failed to run: {row['error']}")
                continue
            print(
                f"   {row['engine']:<12} {row['done']:>5} {row['failed']:>5} {row['skipped']:>5} "
                f"{row['files']:>7} {row['records']:>8} {row['seconds']:>8.1f} "
                f"{row['artifacts_per_minute']:>8.1f} {row['files_per_second']:>8.1f} "
                f"{row['files_read_per_second']:>8.1f} {row.get('speedup_vs_one_process', 1.0):>7.2f}x"
            )
        print("   files: library files mined (RepoInfo.files); read/s: library and test files read")
        for row in summary["throughput"]:
            for package, version, why in row.get("failures", []):
                print(f"   [{row['engine']}] failed: {package} {version}: {why}")
            for package, version, why in row.get("skips", [])[:20]:
                print(f"   [{row['engine']}] skipped: {package} {version}: {why}")

        elapsed = _step("3. releases")
        release_db = work / "releases.db"
        requirements = [f"{name}>=0" for name in sorted(got.releases)]
        releases = mine("releases", release_db, requirements, index.url, "local", args.jobs)
        # Once more in one process: the pool's two workers may mine consecutive releases of a
        # package at once, the later one missing what the earlier has not stored yet.
        alone = mine("releases, one process", work / "releases-1.db", requirements, index.url, "local", 1)
        baseline = identical_baseline(got.releases)
    rel = releases.summary(None)
    rel["cache_rate"] = round(releases.report.cache_rate, 4) if releases.report else None
    one = alone.summary(None)
    one["cache_rate"] = round(alone.report.cache_rate, 4) if alone.report else None
    summary["releases"] = {"run": rel, "one_process": one, "baseline": baseline}
    save()
    print(
        f"\n3. releases: {rel.get('done')} releases of {', '.join(sorted(got.releases))} into a fresh store"
        f" (pool), {rel.get('seconds')}s ({elapsed():.0f}s with the baseline)"
    )
    print(
        f"   file cache hit rate:                      {rel['cache_rate']:.1%}"
        f"  ({rel.get('cache_hits')} hits, {rel.get('cache_misses')} misses)"
    )
    print(
        f"   the same, mined in one process:           {one['cache_rate']:.1%}"
        f"  ({one.get('cache_hits')} hits, {one.get('cache_misses')} misses, {one.get('seconds')}s)"
    )
    print(
        f"   baseline, .py files identical to previous: {baseline['py_rate_identical_to_previous']:.1%}"
        f"  ({baseline['py_identical_to_previous']} of {baseline['py_files']}, same path)"
    )
    print(
        f"   baseline, .py contents seen before:        {baseline['py_rate_content_seen_before']:.1%}"
        f"  (what a content-keyed cache can hit, oldest first)"
    )
    print(
        f"   baseline, all files identical to previous: {baseline['all_rate_identical_to_previous']:.1%}"
        f"  ({baseline['all_identical_to_previous']} of {baseline['all_files']})"
    )
    for package, version, why in rel.get("failures", []):
        print(f"   failed: {package} {version}: {why}")

    elapsed = _step("4. size")
    pool = next((m for m in mined if m.label == "pool" and m.report), base)
    pool_db = work / f"{pool.label.replace(' ', '-')}.db"
    full_db = work / "full.db"
    checkpoint(pool_db)
    shutil.copyfile(pool_db, full_db)
    with writing(full_db), open_store(full_db) as full, open_store(release_db, readonly=True) as source:
        merge(full, source)
    sizes: dict[str, Any] = {"sqlite": sqlite_size(full_db)}
    sq = sizes["sqlite"]
    print(f"\n4. size of the full store ({sq['records']} records, {sq['sites']} sites; {elapsed():.0f}s)")
    print(
        f"   SQLite:     {sq['file_bytes'] / 1e6:8.1f} MB file, {sq['bytes_per_record']:7.0f} B/record;"
        f" without caches and free pages {sq['bytes_per_record_without_caches']:7.0f} B/record"
    )
    records = list(_all_records(full_db))
    packages = {r.package for r in records if r.package}
    pastes = build_pastes(records, packages, args.pastes, args.real)
    pg_context: contextlib.AbstractContextManager[Any] = contextlib.nullcontext(None)
    if not args.skip_postgres:
        from pg_server import postgres_server

        pg_context = postgres_server()
    with pg_context as pg:
        pg_url = None
        if pg is not None:
            pg_url = pg.url(pg.create_database())
            start = time.monotonic()
            with open_store(pg_url) as target, open_store(full_db, readonly=True) as source:
                merge(target, source)
            sizes["postgres"] = pg_size(pg_url) | {"import_s": round(time.monotonic() - start, 1)}
            pq = sizes["postgres"]
            print(
                f"   PostgreSQL: {pq['total_relation_bytes'] / 1e6:8.1f} MB in tables, "
                f"{pq['bytes_per_record']:7.0f} B/record; without caches "
                f"{pq['bytes_per_record_without_caches']:7.0f} B/record"
                f" (imported in {pq['import_s']}s, after VACUUM ANALYZE)"
            )
        summary["size"] = sizes
        save()

        elapsed = _step(f"5. explain latency, {len(pastes)} pastes x {args.rounds}")
        kinds = {k: sum(p.kind == k for p in pastes) for k in ("message", "real-last-line", "real-traceback")}
        latency: dict[str, Any] = {
            "pastes": kinds,
            "sqlite": time_matcher(os.fspath(full_db), pastes, args.rounds, args.top),
        }
        if pg_url is not None:
            latency["postgres"] = time_matcher(pg_url, pastes, args.rounds, args.top)
        latency["naive"] = time_naive(records, pastes, args.naive_pastes)
        summary["explain"] = latency
    print(
        f"\n5. explain latency over the full store: {kinds['message']} filled messages of stored records,"
        f" {kinds['real-last-line']} real errors as last line and as traceback; x{args.rounds}"
        f" ({elapsed():.0f}s)"
    )
    print(f"   {'':<22} {'kind':<15} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9} {'found':>6}")
    for label, key in (
        ("matcher, SQLite", "sqlite"),
        ("matcher, PostgreSQL", "postgres"),
        ("naive re loop", "naive"),
    ):
        if key not in latency:
            continue
        for kind in ("all", "message", "real-last-line", "real-traceback"):
            row = latency[key].get(kind)
            if not row:
                continue
            found = row.get(f"found_in_top_{args.top}")
            print(
                f"   {label:<22} {kind:<15} {row['p50_ms']:>9.2f} {row['p99_ms']:>9.2f}"
                f" {row['mean_ms']:>9.2f}"
                f" {'' if found is None else f'{found:.0%}':>6}"
            )
    n = latency["naive"]
    print(
        f"   matcher index load: SQLite {latency['sqlite']['index_load_s']}s"
        + (f", PostgreSQL {latency['postgres']['index_load_s']}s" if "postgres" in latency else "")
        + f"; naive: {n['patterns']} distinct patterns compiled in {n['compile_s']}s,"
        f" median {n['candidates_median']} matching a paste (naive timed once on"
        f" {args.naive_pastes} pastes of each kind)"
    )


def _all_records(db: Path) -> Iterator[Record]:
    with open_store(db, readonly=True) as store:
        yield from store.records()


if __name__ == "__main__":
    main()
