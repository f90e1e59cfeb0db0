"""Where mined records live between runs.

The rest of errdex talks to :class:`Store` only, so the SQLite file used today can later be
swapped for a shared PostgreSQL database without touching mining, lookup or the server.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self

from errdex.errors import ErrdexError
from errdex.record import Record, RepoInfo
from errdex.store.artifacts import Artifact
from errdex.store.common import OutdatedStore, StoreError
from errdex.store.sqlite import PatternRow, SqliteStore, source_kinds, writer_lock
from errdex.symbols import SymbolTable

__all__ = [
    "Artifact",
    "OutdatedStore",
    "PatternRow",
    "Store",
    "StoreError",
    "is_server_url",
    "open_store",
    "source_kinds",
    "writing",
]

_SERVER_SCHEMES = ("postgresql://", "postgres://")


def is_server_url(target: str) -> bool:
    """Whether ``target`` names a database server (a URL) rather than a file."""
    return target.startswith(_SERVER_SCHEMES)


class Store(Protocol):
    """The few operations errdex needs from a record database."""

    def replace_repo(
        self,
        info: RepoInfo,
        records: Iterable[Record],
        *,
        release: bool = False,
        symbols: SymbolTable | None = None,
    ) -> RepoInfo:
        """Swap in a source's new records atomically; readers see the old set or the new one.

        A source is a repo and package: its records of every release are replaced, unless
        ``release``, when only those of ``info.version`` are (a corpus keeps many releases of
        one package, each stored by its own task).  ``symbols`` is the release's symbol table,
        stored with its records (a release replaced without one has none)."""
        ...

    def symbols(self, repo: str, package: str | None, version: str | None) -> SymbolTable | None:
        """The symbol table of one release (``errdex.symbols``), where one was stored."""
        ...

    def symbol_providers(self) -> dict[str, tuple[str, str, str]]:
        """Each top-level name (``torch``) a stored table answers for, and the newest release
        (repo, package, version) whose table it is."""
        ...

    def remove(self, repo: str, package: str | None) -> int:
        """Drop one source (repo and package) and its records; returns how many records."""
        ...

    def records(
        self, repo: str | None = None, *, package: str | None = None, version: str | None = None
    ) -> Iterator[Record]:
        """Records, of one repo, package or release (``""`` for a source without a version)."""
        ...

    def records_page(self, after: int, limit: int, repo: str | None = None) -> list[tuple[int, Record]]:
        """Up to ``limit`` records (of ``repo``) stored after row ``after``, by row: a reader that
        writes between pages (prose, as a model answers) holds one page at a time."""
        ...

    def update_prose(self, records: Iterable[Record]) -> int:
        """Store new prose for records already stored (same ids); returns how many changed."""
        ...

    def get(self, key: str, version: str | None = None) -> Record | None:
        """A record by id, or by ``owner/name/slug``: of release ``version`` when given (None
        when that release does not raise it), else of the newest release that does."""
        ...

    def releases(self, record_id: str) -> list[str]:
        """The releases whose records have this id (the same message raised in the same file),
        oldest first by PEP 440 (``errdex.record.release_key``); ``[""]`` for records of a source
        stored without a version."""
        ...

    def search_text(self, query: str, limit: int = 20) -> list[Record]: ...

    def search_messages(self, query: str, limit: int = 20) -> list[tuple[int, str]]: ...

    def by_num(self, nums: Iterable[int]) -> dict[int, Record]: ...

    def sites_near(self, file_name: str, line: int, drift: int) -> list[tuple[int, str, int, str | None]]: ...

    def sites_in_function(self, file_name: str, function: str) -> list[tuple[int, str, int]]: ...

    def pattern_rows(self) -> Iterator[PatternRow]: ...

    def generation(self) -> int: ...

    def cache_get(self, key: str) -> bytes | None: ...

    def cache_put(self, key: str, data: bytes) -> None: ...

    def repos(self) -> list[RepoInfo]: ...

    def extractions_get(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The file-level cache: what extraction gave for files by key (the file's sha256 and
        the miner's version, see ``errdex.mine.cache``), for those of ``keys`` it holds.  Kept
        apart from ``cache_get``'s data, which every change of records drops."""
        ...

    def extractions_put(self, items: dict[str, bytes]) -> None:
        """Keep extraction results by key, replacing what a key held: the pipeline puts only
        what it extracted, for keys whose entry was missing or could not be read back."""
        ...

    def corpus_add(self, requirements: Iterable[str]) -> list[str]:
        """Remember what a corpus holds: PEP 508 requirements (``requests>=2.20``) or local
        checkouts (``path:/abs/dir``); returns those that were new."""
        ...

    def corpus_requirements(self) -> list[str]: ...

    def plan_artifacts(self, artifacts: Iterable[Artifact]) -> list[Artifact]:
        """Add the artifacts a plan found: new releases queued; a release already known with the
        same file (sha256) keeps its state; one whose file changed is queued again.  Returns the
        artifacts queued by this call."""
        ...

    def artifacts(self, package: str | None = None) -> list[Artifact]:
        """Every planned artifact (of one package), by package then release order."""
        ...

    def mark_artifact(self, artifact: Artifact) -> None:
        """Store an artifact's new state (``state``, ``reason``, ``failure``, ``attempts``,
        ``records``, ``updated_at``), by its key."""
        ...

    def meta_get(self, key: str) -> str | None: ...

    def meta_put(self, key: str, value: str) -> None: ...

    def stats(self) -> dict[str, int]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


def writing(
    target: str | os.PathLike[str], waiting: Callable[[str], None] | None = None
) -> AbstractContextManager[None]:
    """The right to write the store at ``target`` for a block, after any other errdex writer:
    take it before mining, so that what is mined is never lost to a busy store afterwards.
    ``waiting`` is told when another process has it and this one waits.  A database server
    orders its writers itself (the PostgreSQL store's transactions and advisory locks)."""
    if is_server_url(os.fspath(target)):
        return contextlib.nullcontext()
    return writer_lock(Path(os.fspath(target)), waiting)


def open_store(
    target: str | os.PathLike[str] | None = None, *, readonly: bool = False, create: bool = True
) -> Store:
    """Open the store at a path or database URL (default ``$ERRDEX_DB``), creating it unless
    ``readonly`` or not ``create``.  Which store a command means by default is the front
    ends' choice (``errdex.envindex.default_target``)."""
    # Checked before any Path() conversion, which would fold the URL's "//" into "/".
    raw = os.fspath(target) if target is not None else os.environ.get("ERRDEX_DB", "")
    if not raw:
        raise ErrdexError("no database given: pass --db FILE or set ERRDEX_DB")
    if is_server_url(raw):
        from errdex.store.postgres import PostgresStore  # needs psycopg: "install errdex[postgres]" without

        return PostgresStore(raw, readonly=readonly, create=create)
    return SqliteStore(Path(raw), readonly=readonly, create=create)
