"""What both stores share: the schema number, their errors, and how rows become answers.

The SQLite and PostgreSQL stores hold the same tables and must answer every question the same
way (``errdex explain`` says the same on either), so what does not depend on the database's
SQL lives here once.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any, ParamSpec, Protocol, TypeVar, cast

from errdex.errors import ErrdexError
from errdex.record import Record, RepoInfo, release_key
from errdex.store.artifacts import Artifact
from errdex.symbols import SymbolTable

#: Bumped whenever a table, an index or the stored record's shape changes; older stores are
#: refused, not migrated (4: records keep their guards and parameters as structure; 5: guards
#: say what each block means: the classes a handler catches and the code its ``try`` guards,
#: the ``else`` of a loop or ``try``, every early exit, negations folded; 8: sites keep the
#: function a traceback prints, for frames of another release; 9: sources and records keyed by
#: release too, the file-level extraction cache, and a corpus's requirements and artifacts;
#: 11: a symbol table per release).
STORE_SCHEMA = 11

REPO_COLUMNS = (
    "repo", "package", "sha", "analyzed_at", "kind", "version", "fingerprint", "files", "skipped",
    "sites", "records",
)  # fmt: skip
ARTIFACT_COLUMNS = tuple(field.name for field in fields(Artifact))
#: A pasted traceback can be long; its first words say enough to rank messages.
MAX_TERMS = 32

P = ParamSpec("P")
T = TypeVar("T")


class StoreError(ErrdexError):
    """The database failed under errdex (locked, corrupt, changed by something else)."""


class OutdatedStore(StoreError):
    """A store another errdex wrote, in another schema: refused, never migrated."""

    def __init__(self, path: Path, found: str) -> None:
        super().__init__(
            f"{path} has store schema {found} but this errdex needs {STORE_SCHEMA}; delete it and mine again"
        )
        self.path = path


def database_errors(
    errors: type[BaseException], where: Callable[[Any], str]
) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """A decorator for store methods: a database failure of type ``errors`` reaches the caller
    as a ``StoreError`` naming the store (``where(store)``), so that every front end reports it
    as it reports any of errdex's own failures."""

    def failed(store: Any, exc: BaseException) -> StoreError:
        return StoreError(f"database error in {where(store)}: {str(exc).strip()}")

    def decorate(method: Callable[P, T]) -> Callable[P, T]:
        if inspect.isgeneratorfunction(method):

            @functools.wraps(method)
            def generator(*args: P.args, **kwargs: P.kwargs) -> Any:
                try:
                    yield from cast(Iterator[Any], method(*args, **kwargs))
                except errors as exc:
                    raise failed(args[0], exc) from exc

            return cast(Callable[P, T], generator)

        @functools.wraps(method)
        def function(*args: P.args, **kwargs: P.kwargs) -> T:
            try:
                return method(*args, **kwargs)
            except errors as exc:
                raise failed(args[0], exc) from exc

        return function

    return decorate


def release_of(rows: list[tuple[str, str]], version: str | None) -> Record | None:
    """Of a record's (release, data) rows, the one of ``version``, else the newest release's."""
    if version is not None:
        rows = [row for row in rows if row[0] == version]
    if not rows:
        return None
    return Record.model_validate_json(max(rows, key=lambda row: release_key(row[0]))[1])


def repo_infos(rows: Iterator[tuple[Any, ...]] | list[tuple[Any, ...]]) -> list[RepoInfo]:
    """``repos`` rows (in ``REPO_COLUMNS`` order) as sources, oldest release first in a package."""
    infos = []
    for row in rows:
        found = dict(zip(REPO_COLUMNS, row, strict=True))
        infos.append(
            RepoInfo.model_validate(
                {**found, "package": found["package"] or None, "version": found["version"] or None}
            )
        )
    return sorted(infos, key=lambda i: (i.repo, i.package or "", release_key(i.version)))


def sorted_artifacts(rows: Iterator[tuple[Any, ...]] | list[tuple[Any, ...]]) -> list[Artifact]:
    """``artifacts`` rows (in ``ARTIFACT_COLUMNS`` order), by package then release."""
    found = [Artifact(**dict(zip(ARTIFACT_COLUMNS, row, strict=True))) for row in rows]
    return sorted(found, key=lambda a: (a.package, release_key(a.version)))


def function_name(function: str | None) -> str | None:
    """The name a traceback prints for a function (``fail`` of ``Context.fail``)."""
    return function.rpartition(".")[2] if function else None


class _ByNum(Protocol):
    def by_num(self, nums: Iterable[int]) -> dict[int, Record]: ...


def records_found(store: _ByNum, found: list[tuple[int, str]]) -> list[Record]:
    """The records of a message search's (row number, message) hits, in its order."""
    records = store.by_num(num for num, _ in found)
    return [records[num] for num, _ in found if num in records]


def newest_providers(rows: Iterable[tuple[str, str, str, str]]) -> dict[str, tuple[str, str, str]]:
    """Of ``symbols`` rows (repo, package, version, roots), the newest release answering for
    each top-level name (``torch`` -> the newest torch the store holds)."""
    best: dict[str, tuple[str, str, str]] = {}
    for repo, package, version, roots in rows:
        for root in roots.split():
            known = best.get(root)
            if known is None or release_key(version) > release_key(known[2]):
                best[root] = (repo, package, version)
    return best


def symbols_row(table: SymbolTable) -> tuple[str, bytes]:
    """What a store keeps of a table: the top-level names it answers for, and its bytes."""
    return " ".join(sorted(table.roots)), table.dumps()
