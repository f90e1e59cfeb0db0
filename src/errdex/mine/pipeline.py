"""The mining pipeline: select files, extract sites in parallel, resolve, build records.

Each file goes to the extractor of its language (:mod:`errdex.languages`); what comes back is
the language-neutral intermediate representation of :mod:`errdex.languages.ir`, which the rest of
the pipeline resolves across files, turns into records and completes with their facts.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import multiprocessing
import os
import signal
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from errdex import collector, languages
from errdex.errors import too_deep
from errdex.languages.ir import FileResult
from errdex.mine.build import Context, build_records
from errdex.mine.cache import CacheCount, ExtractionCache, dump, file_key, load
from errdex.mine.callers import scan_calls
from errdex.mine.entries import loaded_files, mark_loaded
from errdex.mine.facts import MAX_CALL_SITES, attach_facts, call_names
from errdex.mine.installed import installed_helpers
from errdex.mine.resolve import resolve
from errdex.mine.sources import (
    DEFAULT_MAX_FILE_SIZE,
    Origin,
    Skipped,
    Source,
    SourceFile,
    directory_source,
)
from errdex.mine.symbols import symbol_table
from errdex.record import Record, RepoInfo, utc_now
from errdex.symbols import SymbolTable

__all__ = ["MineResult", "Skipped", "Source", "directory_source", "mine", "mine_sources"]

#: ``prctl`` option: the signal a process gets when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1

log = logging.getLogger(__name__)

#: Below this many files the cost of starting worker processes outweighs the gain.
_PARALLEL_THRESHOLD = 64
_CHUNK = 16

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class MineResult:
    info: RepoInfo
    records: list[Record]
    origin: Origin
    skipped: list[Skipped] = field(default_factory=list)
    #: How the file-level cache did for this source's files (all misses without a cache).
    cache: CacheCount = field(default_factory=CacheCount)
    #: What the release defines (``errdex.symbols``): kept beside its records.
    symbols: SymbolTable | None = None


def mine(
    path: str | os.PathLike[str],
    *,
    repo: str | None = None,
    sha: str | None = None,
    path_prefix: str = "",
    exclude: Iterable[str] = (),
    default_excludes: bool = True,
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> MineResult:
    """Mine every error site under ``path``: a directory, or an archive (``ARCHIVES``) of one.

    ``repo`` and ``sha`` default to what a git checkout says about itself, and ``repo`` to
    the GitHub repository a wheel's or sdist's metadata links to; without a commit the
    records have none and no permalink.  ``path_prefix`` maps an installed layout onto the
    repository's (``src/``).  ``jobs`` defaults to all cores.

    The cyclic collector stays paused from the first file to the last record (nothing here
    builds a reference cycle): paused only stage by stage, it would scan every extracted
    file's results between extraction and building, for nothing.
    """
    with collector.paused(), _unpacked(Path(path)) as root:
        source = directory_source(
            root,
            repo=repo,
            sha=sha,
            path_prefix=path_prefix,
            exclude=exclude,
            default_excludes=default_excludes,
            max_file_size=max_file_size,
        )
        return next(mine_sources([source], jobs=jobs, progress=progress))


#: Archives ``mine`` unpacks first: an npm tarball (``npm pack``'s ``.tgz``), an sdist, a wheel.
ARCHIVES = (".tgz", ".tar.gz", ".tar.bz2", ".tar.xz", ".tar", ".zip", ".whl")


@contextmanager
def _unpacked(path: Path) -> Iterator[Path]:
    """The directory to mine: ``path`` itself, or an archive unpacked into a temporary
    directory for the mine (bounded and checked: ``corpus.fetch.unpack``), removed after."""
    if not path.name.lower().endswith(ARCHIVES) or not path.is_file():
        yield path
        return
    from errdex.corpus.fetch import unpack

    with tempfile.TemporaryDirectory(prefix="errdex-unpacked-") as scratch:
        yield unpack(path, Path(scratch) / "tree")


def mine_sources(
    sources: list[Source],
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    cache: ExtractionCache | None = None,
) -> Iterator[MineResult]:
    """Mine several sources with one pool of workers; one result per source, as each is done.

    Parsing is most of the cost, so every file of every source goes to the pool at once:
    many small distributions keep both cores busy where one pool each would not.  Records
    are then built per source, also in parallel.  ``progress`` counts files, then sources.
    With a ``cache`` (``errdex.mine.cache``), a file extracted before, with the same bytes at
    the same place by the same miner, is read from it instead; what is extracted is added.
    """
    files = [(n, f) for n, source in enumerate(sources) for f in (*source.files, *source.tests)]
    total = len(files) + len(sources)
    extracted: list[list[FileResult]] = [[] for _ in sources]
    counts = [CacheCount() for _ in sources]
    keys: list[str | None] = [None] * len(files)
    wanted = list(enumerate(f for _, f in files))
    if cache is not None:
        keys = [file_key(f) for _, f in files]
        held = cache.extractions_get(k for k in keys if k)
        wanted = []
        for i, ((n, f), key) in enumerate(zip(files, keys, strict=True)):
            found = load(held[key]) if key in held else None
            if found is None:
                wanted.append((i, f))
            else:
                extracted[n].append(found)
                counts[n].hits += 1
    # Files count first, then sources: the total covers both.
    held_back = len(files) - len(wanted)
    of_total = None if progress is None else (lambda done, _: progress(held_back + done, total))
    new: dict[str, bytes] = {}
    for i, found in _extract_all(wanted, jobs, of_total):
        n = files[i][0]
        extracted[n].append(found)
        counts[n].misses += 1
        key = keys[i]
        if cache is not None and key is not None and not found.error:
            new[key] = dump(found)
    if cache is not None:
        cache.extractions_put(new)
    done = len(files)
    for n, mined in _build_all(sources, extracted, jobs):
        mined.cache = counts[n]
        done += 1
        if progress:
            progress(done, total)
        yield mined


#: What forked builders read: the parent's sources and extracted files, shared copy-on-write
#: instead of pickled to each worker.
_FORKED: tuple[list[Source], list[list[FileResult]]] | None = None


def _build_all(
    sources: list[Source], extracted: list[list[FileResult]], jobs: int | None
) -> Iterator[tuple[int, MineResult]]:
    """Each source's records with the source's index, as each is built."""
    global _FORKED
    workers = jobs or os.cpu_count() or 1
    if workers <= 1 or len(sources) < 2 or sys.platform != "linux":
        for n, (source, results) in enumerate(zip(sources, extracted, strict=True)):
            yield n, build_source(source, results)
        return
    # Biggest first, so that the last to finish is a small one.
    order = sorted(range(len(sources)), key=lambda n: len(extracted[n]), reverse=True)
    pending = set(order)
    _FORKED = (sources, extracted)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(
            workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
        ) as pool:
            futures = {pool.submit(_mine_forked, n): n for n in order}
            for future in as_completed(futures):
                result = future.result()
                pending.discard(futures[future])
                yield futures[future], result
    except BrokenProcessPool:
        log.warning("a mining worker died; building the remaining records in this process")
        for n in sorted(pending):
            yield n, build_source(sources[n], extracted[n])
    finally:
        _FORKED = None


def _mine_forked(n: int) -> MineResult:
    assert _FORKED is not None, "only called in a worker forked by _build_all"
    sources, extracted = _FORKED
    return build_source(sources[n], extracted[n])


def build_source(source: Source, extracted: list[FileResult]) -> MineResult:
    """One source's records from its files' extractions (``extract_files``): the stage after
    extraction, which resolves names across files, builds the records and finds their facts.

    Built with the cyclic collector paused: records, their sites and facts hold no reference
    cycles, and the collector would rescan every extracted file's results (live until the
    end) each time enough new records appear, a tenth of the run."""
    with collector.paused():
        return _build_one(source, extracted)


def _build_one(source: Source, extracted: list[FileResult]) -> MineResult:
    origin, prefix = source.origin, source.path_prefix
    test_paths = {t.relative for t in source.tests}
    triggers = [t for r in extracted if r.path in test_paths for t in r.triggers]
    results = [r for r in extracted if r.path not in test_paths]
    skipped = source.skipped + _skips(extracted)
    symbols = symbol_table(
        results,
        package=origin.package,
        version=origin.version,
        dependencies=origin.dependencies,
        entries=source.entries,
    )
    # Names resolve within one language: a Python import never names a JavaScript module.
    by_language: dict[str, list[FileResult]] = defaultdict(list)
    for result in results:
        if not result.error:
            by_language[result.language].append(result)
    results = []
    for name, group in by_language.items():
        language = languages.get(name)
        # Helpers of other packages raise where those are installed, beside this one.
        results += resolve(group, language, installed_helpers(language, source.files, prefix))

    ctx = Context(source.repo, source.sha, utc_now(), prefix, origin.package, origin.version, source.ref)
    records = build_records(results, ctx)
    # The text again for the call scan: kept lines where a file had sites, else read anew.
    kept = {r.path: r.lines for r in results}
    texts = (
        (prefix + f.relative, "\n".join(lines) if (lines := kept[f.relative]) else _text(f))
        for f in source.files
        if f.relative in kept
    )
    calls = scan_calls(texts, call_names(records, results), MAX_CALL_SITES)
    records = attach_facts(records, results, triggers, calls, prefix)
    if source.entries:
        records = mark_loaded(records, loaded_files(results, source.entries), prefix)
    info = RepoInfo(
        repo=source.repo,
        sha=source.sha,
        analyzed_at=ctx.analyzed_at,
        kind=origin.kind,
        package=origin.package,
        version=origin.version,
        fingerprint=source.fingerprint,
        files=len(source.files),
        skipped=len(skipped),
        sites=sum(len(r.sites) for r in records),
        records=len(records),
    )
    return MineResult(info, records, origin, sorted(skipped, key=lambda s: s.path), symbols=symbols)


def _skips(extracted: list[FileResult]) -> list[Skipped]:
    """Each file left out (a test file's expectations included), and each statement or fact
    left out of a file otherwise read, as ``path:line``."""
    skips = [Skipped(r.path, r.error) for r in extracted if r.error]
    return skips + [Skipped(f"{r.path}:{line}", why) for r in extracted for line, why in r.omitted]


def _extract_all(
    files: list[tuple[int, SourceFile]], jobs: int | None, progress: Progress | None
) -> Iterator[tuple[int, FileResult]]:
    """Each file's result with the tag it came with; a worker returns a chunk's results in order."""
    total = len(files)
    done = 0
    workers = jobs or os.cpu_count() or 1
    if workers <= 1 or total < _PARALLEL_THRESHOLD:
        with collector.paused():  # for the whole extraction, not once per chunk (see extract_files)
            for start in range(0, total, _CHUNK):
                chunk = files[start : start + _CHUNK]
                yield from _tagged(chunk, extract_files([f for _, f in chunk]))
                done += len(chunk)
                if progress:
                    progress(done, total)
        return
    # Big files first so the last chunk to finish is a small one.
    ordered = sorted(files, key=lambda tf: _size(tf[1]), reverse=True)
    chunks = [ordered[i : i + _CHUNK] for i in range(0, total, _CHUNK)]
    # fork starts workers in milliseconds and needs no importable __main__; the workers only
    # parse and walk, touching no lock another thread could hold.
    method = "fork" if sys.platform == "linux" else "spawn"
    pending = list(chunks)
    try:
        context = multiprocessing.get_context(method)
        with ProcessPoolExecutor(
            workers, mp_context=context, initializer=_extractor, initargs=(os.getpid(),)
        ) as pool:
            for batch in pool.map(extract_files, [[f for _, f in chunk] for chunk in chunks]):
                yield from _tagged(pending.pop(0), batch)
                done += len(batch)
                if progress:
                    progress(done, total)
    except BrokenProcessPool:
        log.warning("a mining worker died; mining the remaining files in this process")
        for chunk in pending:
            yield from _tagged(chunk, extract_files([f for _, f in chunk]))
            done += len(chunk)
            if progress:
                progress(done, total)


def _extractor(parent: int) -> None:
    """A worker that only extracts (see extract_files): its cyclic collector stays off."""
    die_with_parent(parent)
    gc.disable()


def die_with_parent(parent: int) -> None:
    """Have the kernel end this worker when ``parent``, the mine that started it, ends, even by
    ``kill -9``: a worker left alone would go on with its queued chunks for minutes, for nobody
    (Linux; elsewhere workers end when they next find their queue gone)."""
    if sys.platform != "linux":
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent was gone before the request took
        os._exit(1)


def _tagged(
    chunk: list[tuple[int, SourceFile]], results: list[FileResult]
) -> Iterator[tuple[int, FileResult]]:
    return ((n, result) for (n, _), result in zip(chunk, results, strict=True))


def _size(f: SourceFile) -> int:
    try:
        return f.path.stat().st_size
    except OSError:
        return 0


def _text(f: SourceFile) -> str:
    """A file read again for the call scan: it decoded once, so only a race can fail it."""
    try:
        return languages.get(f.language).read_source(f.path, f.max_size)
    except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
        return ""


def extract_files(files: list[SourceFile]) -> list[FileResult]:
    """Extract files with the cyclic collector paused: extraction builds no reference cycles
    (syntax trees and the intermediate representation are freed by reference counting), and
    the collector would rescan every live object each time enough new ones appear."""
    with collector.paused():
        return [extract_file(f) for f in files]


def extract_file(f: SourceFile) -> FileResult:
    """Read and extract one file; any failure becomes the result's ``error``, never an exception."""
    language = languages.get(f.language)
    try:
        text = language.read_source(f.path, f.max_size)
    except (OSError, UnicodeDecodeError, SyntaxError, LookupError) as exc:
        if f.is_test:
            return FileResult(f.relative, None, f.language)  # a test we cannot read only lacks its evidence
        return FileResult(f.relative, f.module, f.language, error=f"cannot be decoded: {exc}".splitlines()[0])
    if f.is_test:
        try:
            triggers = language.extract_triggers(text, f.relative)
        except RecursionError as exc:  # the tests' evidence lost, counted; the library's sites stay
            return FileResult(f.relative, None, f.language, error=f"expectations left out: {too_deep(exc)}")
        return FileResult(f.relative, None, f.language, triggers=triggers)
    result = language.extract(text, f.relative, f.module, f.is_package)
    if not result.sites and not result.candidates:
        result.lines = []  # nothing will need the source window
    return result
