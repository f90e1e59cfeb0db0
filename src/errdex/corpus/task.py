"""One corpus task: one artifact downloaded, checked, unpacked, mined and stored.

The same function runs in a local worker process and on a Ray node, so it takes and returns
plain values and opens the store itself: what a task finished is in the store whatever
happens to the driver, and a task run twice (a lost node's retry) stores the same records
again in place of the first (``replace_repo(..., release=True)``), never beside them.

Failures are told apart by whose they are.  The package's (a checksum that does not match, an
archive that is corrupt or hostile, a tree the miner cannot read) fail the artifact, which
then cools off; the host's (no space, no memory, no process to be had) leave the artifact
queued, to be tried again once the host has recovered.
"""

from __future__ import annotations

import errno
import hashlib
import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from errdex.errors import ErrdexError
from errdex.mine.sources import Origin, Source, describe, directory_source
from errdex.record import canonical, utc_now
from errdex.store.artifacts import Artifact

if TYPE_CHECKING:
    from errdex.store import Store

#: OS errors that say the host ran short, not that the artifact is bad.
HOST_ERRNOS = frozenset({errno.ENOSPC, errno.ENOMEM, errno.EAGAIN, errno.EMFILE, errno.ENFILE, errno.EDQUOT})
#: Artifacts at least this big take the engine's one "large" slot.
LARGE_BYTES = 20_000_000


@dataclass(frozen=True, slots=True)
class Task:
    artifact: Artifact
    #: The store (a SQLite path or a PostgreSQL URL), opened by the task itself.
    db: str
    #: Where downloads are unpacked (a directory every worker can write), or None for the default.
    work_dir: str | None = None

    @property
    def large(self) -> bool:
        return (self.artifact.size or 0) >= LARGE_BYTES


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a task: the artifact in its new state, as stored, and what it cost."""

    artifact: Artifact
    cache_hits: int = 0
    cache_misses: int = 0
    seconds: float = 0.0


def run_task(task: Task) -> Outcome:
    """Do one artifact, end to end; never raises for the artifact's or the host's failures."""
    from errdex.store import open_store

    start = time.monotonic()
    artifact = task.artifact
    try:
        with tempfile.TemporaryDirectory(prefix="errdex-", dir=task.work_dir) as scratch:
            root = _fetched(artifact, Path(scratch))
            source = artifact_source(root, artifact)
            with open_store(task.db) as store:
                return _mined(task, store, source, start)
    except ErrdexError as exc:
        failed = _failed(artifact, "package", str(exc))
    except MemoryError:
        failed = _failed(artifact, "host", "out of memory")
    except OSError as exc:
        kind = "host" if exc.errno in HOST_ERRNOS else "package"
        failed = _failed(artifact, kind, f"{exc.strerror or exc}")
    except RecursionError as exc:
        failed = _failed(artifact, "package", f"too deeply nested to read: {exc}")
    except Exception as exc:  # the miner's own failure on this package: kept, counted, reported
        failed = _failed(artifact, "package", f"errdex failed on it: {type(exc).__name__}: {exc}")
    record_failure(task.db, failed)
    return Outcome(failed, seconds=time.monotonic() - start)


def _fetched(artifact: Artifact, scratch: Path) -> Path:
    """The directory to mine: a checkout as it is, an archive downloaded and unpacked."""
    from errdex.corpus.fetch import download, unpack

    if artifact.kind == "checkout":
        root = Path(artifact.url)
        if not root.is_dir():
            raise ErrdexError(f"{root} is not a directory any more")
        return root
    archive = download(artifact, scratch)
    return unpack(archive, scratch / "unpacked")


def artifact_source(root: Path, artifact: Artifact) -> Source:
    """An unpacked artifact as a source of one package's one release.  Its repository is the
    GitHub one its metadata names, else ``pypi/<name>`` (then no permalinks); permalinks of a
    release point at the tag ``v<version>``, the common convention (the commit is not known)."""
    origin = describe(root)
    repo = origin.repo or _fallback_repo(artifact)
    source = directory_source(root, repo=repo)
    source.origin = Origin(source.origin.kind, repo, source.sha, artifact.package, artifact.version)
    if source.sha is None:
        source.ref = None if repo.startswith(("pypi/", "local/")) else f"v{artifact.version}"
    return source


def _mined(task: Task, store: Store, source: Source, start: float) -> Outcome:
    from errdex.enrich.model import keep_model_prose
    from errdex.mine.pipeline import mine_sources
    from errdex.store import writing

    result = next(mine_sources([source], jobs=1, cache=_LockedCache(store, task.db)))
    artifact = task.artifact
    info = result.info.model_copy(update={"package": artifact.package, "version": artifact.version})
    with writing(task.db):
        records = keep_model_prose(store, result.records)
        stored = store.replace_repo(info, records, release=True, symbols=result.symbols)
        done = artifact.but(
            state="done", reason=None, failure=None, attempts=0, records=stored.records, updated_at=utc_now()
        )
        store.mark_artifact(done)
    return Outcome(done, result.cache.hits, result.cache.misses, time.monotonic() - start)


class _LockedCache:
    """The store's extraction cache, written under the store's writer lock (SQLite lets a
    second writer wait only seconds; another task may be storing a release meanwhile)."""

    def __init__(self, store: Store, db: str) -> None:
        self.store = store
        self.db = db

    def extractions_get(self, keys: Iterable[str]) -> dict[str, bytes]:
        return self.store.extractions_get(keys)

    def extractions_put(self, items: dict[str, bytes]) -> None:
        from errdex.store import writing

        with writing(self.db):
            self.store.extractions_put(items)


def _failed(artifact: Artifact, kind: str, reason: str) -> Artifact:
    """The artifact after a failure: a package failure counts an attempt (it cools off longer
    each time); a host failure leaves it queued as it was."""
    reason = " ".join(reason.split())[:500]
    if kind == "host":
        return artifact.but(state="queued", reason=reason, failure="host", updated_at=utc_now())
    return artifact.but(
        state="failed", reason=reason, failure="package", attempts=artifact.attempts + 1, updated_at=utc_now()
    )


def record_failure(db: str, artifact: Artifact) -> None:
    """Store a failed artifact's state; a store that cannot be written now (the host's trouble)
    leaves it as it was: the next run tries it again."""
    from errdex.store import open_store, writing

    try:
        with writing(db), open_store(db) as store:
            store.mark_artifact(artifact)
    except (ErrdexError, OSError):
        pass


def checkout_artifact(path: Path) -> Artifact:
    """A local checkout as an artifact of its own: its package name from its metadata, else the
    directory's name; its version the metadata's, else ``0+local``; and, for its "sha256", a
    digest of what the miner would read (each file's path, size and modification time), so
    that a rerun mines it again only when something in it changed."""
    root = path.resolve()
    if not root.is_dir():
        raise ErrdexError(f"{path} is not a directory")
    origin = describe(root)
    package = canonical(origin.package or root.name)
    source = directory_source(root, repo=origin.repo or f"local/{_repo_part(package)}")
    digest = hashlib.sha256(origin.sha.encode() if origin.sha else b"")
    for f in (*source.files, *source.tests):
        try:
            stat = f.path.stat()
        except OSError:
            continue
        digest.update(f"{f.relative}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return Artifact(
        package=package,
        version=origin.version or "0+local",
        filename=root.name,
        url=os.fspath(root),
        sha256=digest.hexdigest(),
        size=None,
        kind="checkout",
    )


def _fallback_repo(artifact: Artifact) -> str:
    """The repository of a source whose metadata names none on GitHub."""
    owner = "local" if artifact.kind == "checkout" else "pypi"
    return f"{owner}/{_repo_part(artifact.package)}"


def _repo_part(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name) or "checkout"


__all__ = ["Outcome", "Task", "artifact_source", "checkout_artifact", "run_task"]
