"""Snapshots to hand out: a store, or one repository's part of it, as one file with a manifest
beside it that says what the file holds and lets whoever receives it check its bytes.

``sqlite`` is a store file ready to use (``errdex explain --db FILE`` opens it as it is) and
keeps each source's ``RepoInfo`` and symbol table; ``parquet`` holds records and the releases'
symbol tables (in its metadata), the JSONL formats (``files.py``) records only.  Snapshots are
read from and written into stores through the :class:`Store` interface alone, so either side
may be SQLite or PostgreSQL.  What a store derives from its records (the
pattern index's cache, the extraction cache) stays out: whoever opens the snapshot rebuilds it.

An import tells the format from the file's first bytes, never its name; checks the manifest,
when there is one, before it writes anything; and replaces each release (repo, package,
version) the snapshot holds in a transaction of the target's own, leaving its other releases
alone: each release is replaced whole or not at all, and importing a snapshot again changes
nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import stat
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Literal, NamedTuple, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from errdex import __version__
from errdex.errors import ErrdexError
from errdex.reading import file_kind, read_regular
from errdex.record import Record, RepoInfo, release_key
from errdex.store import Store, StoreError, is_server_url
from errdex.store.common import STORE_SCHEMA
from errdex.store.files import (
    describe,
    import_records,
    parquet_symbols,
    read_jsonl,
    read_parquet,
    replacing,
    write_jsonl,
    write_parquet,
)
from errdex.store.sqlite import SqliteStore
from errdex.symbols import SymbolTable

SnapshotFormat = Literal["sqlite", "parquet", "errdex", "errlookup"]
_FORMATS: dict[str, SnapshotFormat] = {name: name for name in get_args(SnapshotFormat)}

_SQLITE_MAGIC = b"SQLite format 3\x00"
_PARQUET_MAGIC = b"PAR1"
#: A manifest lists every release: tens of thousands fit, and nothing larger is read.
_MANIFEST_LIMIT = 64 << 20

_Release = tuple[str, str | None, str | None]


class _Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class Source(_Camel):
    """One release a snapshot holds, and how many of its records."""

    repo: str
    package: str | None
    version: str | None
    records: int = Field(ge=0)


class Manifest(_Camel):
    """What ``FILE.manifest.json`` says of ``FILE``; fields it does not know are ignored, so an
    older errdex still checks the bytes of a newer one's snapshot."""

    format: SnapshotFormat
    #: The snapshot's name, in the same folder as the manifest.
    file: str
    sha256: str = Field(pattern="^[0-9a-f]{64}$")
    size: int = Field(alias="bytes", ge=0)
    records: int = Field(ge=0)
    sources: list[Source]
    store_schema: int
    errdex_version: str
    created_at: str


class Exported(NamedTuple):
    manifest: Manifest
    #: Records the format cannot hold (``errlookup``: see ``files.Written``).
    left_out: int


def manifest_path(snapshot: Path) -> Path:
    return snapshot.with_name(snapshot.name + ".manifest.json")


def is_store_file(path: Path, target: str) -> bool:
    """Whether ``path`` is the very file of the store at ``target`` (never so for a server URL):
    a snapshot written over its own store, or a store imported into itself, is refused."""
    if is_server_url(target):
        return False
    try:
        return path.samefile(target)
    except OSError:  # either is missing
        return False


def snapshot_format(name: str) -> SnapshotFormat:
    """The format ``--format NAME`` means; any other name is refused with the formats there are."""
    if name not in _FORMATS:
        raise ErrdexError(f"--format must be one of {', '.join(_FORMATS)}, not {name!r}")
    return _FORMATS[name]


def export(store: Store, fmt: SnapshotFormat, out: Path, *, repo: str | None, created_at: str) -> Exported:
    """Write ``store``'s records (of ``repo`` only, when given) to ``out`` in ``fmt``, then its
    manifest, computed from the bytes on disk.  Both are written atomically, the snapshot first:
    a crash between them leaves a manifest that no longer matches, which an import refuses,
    never one that vouches for the wrong file."""
    tally: Counter[_Release] = Counter()
    left_out = 0
    if fmt == "sqlite":
        for info in _write_sqlite(store, out, repo):
            tally[info.repo, info.package, info.version] = info.records
    elif fmt == "parquet":

        def tables() -> Iterator[tuple[_Release, SymbolTable]]:
            for release in sorted(tally, key=lambda r: (r[0], r[1] or "", release_key(r[2]))):
                if (table := store.symbols(*release)) is not None:
                    yield release, table

        write_parquet(_tallied(store.records(repo), tally), out, tables)
    else:
        # errlookup leaves out what schema v2 cannot hold; the manifest counts what was written.
        keep = (lambda r: r.fits_schema_v2) if fmt == "errlookup" else None
        left_out = write_jsonl(_tallied(store.records(repo), tally, keep), out, fmt, created_at).left_out
    sources = [
        Source(repo=release[0], package=release[1], version=release[2], records=tally[release])
        for release in sorted(tally, key=lambda r: (r[0], r[1] or "", release_key(r[2])))
    ]
    manifest = Manifest(
        format=fmt,
        file=out.name,
        sha256=_sha256(out),
        size=out.stat().st_size,
        records=sum(tally.values()),
        sources=sources,
        store_schema=STORE_SCHEMA,
        errdex_version=__version__,
        created_at=created_at,
    )
    with replacing(manifest_path(out)) as tmp:
        tmp.write_text(manifest.model_dump_json(by_alias=True, indent=2) + "\n", encoding="utf-8")
    return Exported(manifest, left_out)


def import_snapshot(path: Path, store: Store) -> list[RepoInfo]:
    """Load a snapshot or export (SQLite, Parquet or JSONL) into ``store``; returns each release
    as stored.  Anything wrong with the file (its manifest disagrees, it is cut short, it is not
    errdex's) is found before the first write, or at worst fails one release's transaction."""
    vouched = verify(path) is not None
    if _size(path) == 0:
        if vouched:  # an export of nothing (an empty store, or no record schema v2 holds)
            return []
        raise ErrdexError(f"{path} is empty: not an errdex snapshot or export")
    with path.open("rb") as file:
        head = file.read(len(_SQLITE_MAGIC))
    if head == _SQLITE_MAGIC:
        return _import_sqlite(path, store, vouched=vouched)
    if head.startswith(_PARQUET_MAGIC):
        return import_records(read_parquet(path), store, parquet_symbols(path))
    return import_records(read_jsonl(path), store)


def verify(path: Path) -> Manifest | None:
    """The manifest beside ``path``, once its size and sha256 are found to match; None when
    there is none.  A manifest that cannot be read, or does not match, refuses the file."""
    beside = manifest_path(path)
    if not beside.exists():
        return None
    try:
        manifest = Manifest.model_validate_json(read_regular(beside, _MANIFEST_LIMIT))
    except OSError as exc:
        raise ErrdexError(f"cannot read {beside}: {exc}; nothing imported") from exc
    except ValidationError as exc:
        raise ErrdexError(f"{beside} is not an errdex manifest: {describe(exc)}; nothing imported") from exc
    size = _size(path)
    if size != manifest.size or _sha256(path) != manifest.sha256:
        found = (
            f"{size} bytes where it says {manifest.size}"
            if size != manifest.size
            else "another sha256 than it says"
        )
        raise ErrdexError(
            f"{path} does not match {beside.name} ({found}): it was cut short or changed, or opened as"
            " a store since; nothing imported (fetch it again, or delete the manifest to import it as it is)"
        )
    return manifest


def _write_sqlite(store: Store, out: Path, repo: str | None) -> list[RepoInfo]:
    """A fresh SQLite store at ``out`` holding every release of ``store`` (of ``repo``), each
    with its ``RepoInfo``: written beside it, compacted into one self-contained file, renamed."""
    for sidecar in _sidecars(out):
        if sidecar.exists():
            # Replacing a live store's file would pair its WAL with another database.
            raise ErrdexError(f"{out} is a store in use ({sidecar.name} beside it): write elsewhere")
    stored = []
    with replacing(out) as tmp:
        try:
            with SqliteStore(tmp) as snapshot:
                for info in store.repos():
                    if repo is None or info.repo == repo:
                        stored.append(
                            snapshot.replace_repo(
                                info, _release(store, info), release=True, symbols=_symbols(store, info)
                            )
                        )
            _compact(tmp)
        finally:
            for sidecar in _sidecars(tmp):
                sidecar.unlink(missing_ok=True)
    return stored


def _compact(path: Path) -> None:
    """Make the written store one whole, small file: its WAL folded in and gone (the journal
    back to a rollback one, so a read-only open needs no ``-shm`` beside it either), free pages
    dropped.  The first writable open turns WAL back on."""
    try:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
            (mode,) = db.execute("PRAGMA journal_mode = DELETE").fetchone()
            if mode != "delete":
                raise ErrdexError(f"cannot finish the snapshot {path}: its journal stays {mode}")
            db.execute("VACUUM")
            db.execute("PRAGMA optimize")
    except sqlite3.Error as exc:
        raise ErrdexError(f"cannot finish the snapshot {path}: {exc}") from exc


def _import_sqlite(path: Path, store: Store, *, vouched: bool) -> list[RepoInfo]:
    """Copy every release of a SQLite snapshot, each in one transaction of the target's.

    Unless a manifest vouched for the bytes, every record is read once before the first write:
    a damaged one then fails the import, not only the releases after those already copied."""
    # Opening checks that it is an errdex store of this schema (else OutdatedStore).
    with SqliteStore(path, readonly=True, create=False) as snapshot:
        _check_intact(path)
        releases = snapshot.repos()
        if not vouched:
            try:
                for info in releases:
                    for _ in _valid(_release(snapshot, info), path):
                        pass
            except StoreError as exc:  # only the snapshot is read here
                reason = _shortened(str(exc.__cause__ or exc))
                raise ErrdexError(f"{path} is damaged: {reason}; nothing imported") from exc
        return [
            store.replace_repo(
                info, _valid(_release(snapshot, info), path), release=True, symbols=_symbols(snapshot, info)
            )
            for info in releases
        ]


def _check_intact(path: Path) -> None:
    """Refuse a damaged SQLite file (cut short, pages overwritten) before anything is copied."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            problems = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
    except sqlite3.Error as exc:
        raise ErrdexError(f"{path} is damaged: {exc}; nothing imported") from exc
    if problems != ["ok"]:
        raise ErrdexError(f"{path} is damaged: {problems[0]}; nothing imported")


def _release(store: Store, info: RepoInfo) -> Iterator[Record]:
    """The records of one stored release.  ``""`` asks for those stored without a package or a
    version, where None would ask for those of every one."""
    return store.records(info.repo, package=info.package or "", version=info.version or "")


def _symbols(store: Store, info: RepoInfo) -> SymbolTable | None:
    """The symbol table stored with one release, if any."""
    return store.symbols(info.repo, info.package, info.version)


def _valid(records: Iterator[Record], path: Path) -> Iterator[Record]:
    """A snapshot's records, a record that fails validation reported as the file's fault."""
    try:
        yield from records
    except ValidationError as exc:
        raise ErrdexError(f"{path} holds an invalid record: {describe(exc)}") from exc


def _tallied(
    records: Iterable[Record], tally: Counter[_Release], keep: Callable[[Record], bool] | None = None
) -> Iterator[Record]:
    """``records`` passed on unchanged, each (that ``keep`` keeps) counted by release."""
    for record in records:
        if keep is None or keep(record):
            tally[record.repo, record.package, record.version] += 1
        yield record


def _shortened(text: str, limit: int = 200) -> str:
    """SQLite quotes the whole undecodable value it met: a record, thousands of characters."""
    return text if len(text) <= limit else text[:limit] + "..."


def _size(path: Path) -> int:
    """The size of a regular file; anything else (missing, a FIFO that would block) refused."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ErrdexError(f"no file at {path}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ErrdexError(f"{path} is not a regular file ({file_kind(info.st_mode)})")
    return info.st_size


def _sha256(path: Path) -> str:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
