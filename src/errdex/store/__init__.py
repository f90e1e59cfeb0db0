"""Where mined records live between runs.

The rest of errdex talks to :class:`Store` only, so the SQLite file used today can later be
swapped for a shared PostgreSQL database without touching mining, lookup or the server.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self

from errdex.errors import ErrdexError
from errdex.record import Record, RepoInfo
from errdex.store.sqlite import OutdatedStore, PatternRow, SqliteStore, StoreError, source_kinds, writer_lock

__all__ = [
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

    def replace_repo(self, info: RepoInfo, records: Iterable[Record]) -> RepoInfo:
        """Swap in a repo's new records atomically; readers see the old set or the new one."""
        ...

    def remove(self, repo: str, package: str | None) -> int:
        """Drop one source (repo and package) and its records; returns how many records."""
        ...

    def records(self, repo: str | None = None) -> Iterator[Record]: ...

    def update_prose(self, records: Iterable[Record]) -> int:
        """Store new prose for records already stored (same ids); returns how many changed."""
        ...

    def get(self, key: str) -> Record | None:
        """A record by id, or by ``owner/name/slug``."""
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
    ``waiting`` is told when another process has it and this one waits."""
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
        raise ErrdexError("PostgreSQL is not supported yet; give a path to a SQLite file instead")
    return SqliteStore(Path(raw), readonly=readonly, create=create)
