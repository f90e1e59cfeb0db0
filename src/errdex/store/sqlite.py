"""The SQLite store: one local file, one writer and any number of readers at a time (WAL).

Each record is kept whole as its ``to_errdex()`` JSON in ``records.data``; the other columns
exist only to find records, so reading one back never depends on the column layout.

SQLite lets a second writer wait only a few seconds, and a mine holds its results for minutes
before it writes them: so a command that mines into a store first takes the store's writer
lock (``writer_lock``, a lock file beside it), waiting its turn with a message, and only then
mines.  A read command's writes are only caches: one that meets a writer is skipped.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, NamedTuple, ParamSpec, TypeVar, cast

from errdex.errors import ErrdexError
from errdex.record import Record, RepoInfo, dumps, utf8

#: Bumped whenever a table, an index or the stored record's shape changes; older files are
#: refused, not migrated (4: records keep their guards and parameters as structure; 5: guards
#: say what each block means: the classes a handler catches and the code its ``try`` guards,
#: the ``else`` of a loop or ``try``, every early exit, negations folded; 8: sites keep the
#: function a traceback prints, for frames of another release).
STORE_SCHEMA = 8

P = ParamSpec("P")
T = TypeVar("T")

try:
    import fcntl
except ImportError:  # not POSIX: writers rely on SQLite's busy timeout alone
    fcntl = None  # type: ignore[assignment]

#: How long a best-effort write (a cache) waits for another writer before it is skipped, in ms.
_BEST_EFFORT_WAIT_MS = 100


class StoreError(ErrdexError):
    """The database failed under errdex (locked, corrupt, changed by something else)."""


class OutdatedStore(StoreError):
    """A store another errdex wrote, in another schema: refused, never migrated."""

    def __init__(self, path: Path, found: str) -> None:
        super().__init__(
            f"{path} has store schema {found} but this errdex needs {STORE_SCHEMA}; delete it and mine again"
        )
        self.path = path


def source_kinds(path: Path) -> set[str]:
    """The kinds of source a store file holds (``installed``, ``checkout`` ...), read whatever
    its schema: whether it holds anything an index rebuild would not bring back."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            return {kind for (kind,) in db.execute("SELECT DISTINCT kind FROM repos")}
    except sqlite3.Error as exc:
        raise StoreError(f"database error in {path}: {exc}") from exc


def _database_errors(method: Callable[P, T]) -> Callable[P, T]:
    """A store method whose ``sqlite3`` failures reach the caller as ``StoreError``s naming the
    file: every front end then reports them as it reports any of errdex's own failures."""

    def failed(store: Any, exc: sqlite3.Error) -> StoreError:
        return StoreError(f"database error in {store.path}: {exc}")

    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def generator(*args: P.args, **kwargs: P.kwargs) -> Any:
            try:
                yield from cast(Iterator[Any], method(*args, **kwargs))
            except sqlite3.Error as exc:
                raise failed(args[0], exc) from exc

        return cast(Callable[P, T], generator)

    @functools.wraps(method)
    def function(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            raise failed(args[0], exc) from exc

    return function


# records.num, not the implicit rowid, keys the full-text index: VACUUM may renumber an
# implicit rowid, which would silently point the index at the wrong records.
# sites are found by file name first: a traceback gives an absolute path whose tail is the
# stored path, and an index on the name serves that lookup where a LIKE '%suffix' could not.
_SCHEMA = f"""
BEGIN IMMEDIATE;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS repos (
    repo TEXT NOT NULL,
    package TEXT NOT NULL,
    sha TEXT,
    analyzed_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    version TEXT,
    fingerprint TEXT,
    files INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    sites INTEGER NOT NULL,
    records INTEGER NOT NULL,
    PRIMARY KEY (repo, package)
);
CREATE TABLE IF NOT EXISTS records (
    num INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    repo TEXT NOT NULL,
    package TEXT NOT NULL,
    slug TEXT NOT NULL,
    file_path TEXT NOT NULL,
    line_number INTEGER NOT NULL,
    error_type TEXT NOT NULL,
    error_class TEXT,
    qualified_class TEXT,
    error_message TEXT NOT NULL,
    message_pattern TEXT NOT NULL,
    message_kind TEXT NOT NULL,
    version TEXT,
    data TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS records_slug ON records (repo, package, slug);
CREATE INDEX IF NOT EXISTS records_order ON records (repo, file_path, line_number, id);
CREATE TABLE IF NOT EXISTS sites (
    record_id TEXT NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    file_path TEXT NOT NULL,
    file_name TEXT NOT NULL,
    line INTEGER NOT NULL,
    function TEXT
);
CREATE INDEX IF NOT EXISTS sites_location ON sites (file_name, line);
CREATE INDEX IF NOT EXISTS sites_record ON sites (record_id);
CREATE VIRTUAL TABLE IF NOT EXISTS messages USING fts5 (
    error_message, content = 'records', content_rowid = 'num', tokenize = 'unicode61'
);
CREATE TRIGGER IF NOT EXISTS records_index_message AFTER INSERT ON records BEGIN
    INSERT INTO messages (rowid, error_message) VALUES (new.num, new.error_message);
END;
CREATE TRIGGER IF NOT EXISTS records_unindex_message AFTER DELETE ON records BEGIN
    INSERT INTO messages (messages, rowid, error_message)
    VALUES ('delete', old.num, old.error_message);
END;
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, data BLOB NOT NULL);
INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '{STORE_SCHEMA}');
INSERT OR IGNORE INTO meta (key, value) VALUES ('generation', '0');
COMMIT;
"""


class PatternRow(NamedTuple):
    num: int
    pattern: str
    message_kind: str
    error_class: str | None
    qualified_class: str | None
    version: str | None
    #: Where it is raised: a message with neither text nor class is kept by its package.
    file_path: str = ""


_REPO_COLUMNS = (
    "repo", "package", "sha", "analyzed_at", "kind", "version", "fingerprint", "files", "skipped",
    "sites", "records",
)  # fmt: skip
_ORDER = "r.repo, r.file_path, r.line_number, r.id"
_WORD = re.compile(r"\w+")
#: A pasted traceback can be long; its first words say enough to rank messages.
_MAX_TERMS = 32


class SqliteStore(AbstractContextManager["SqliteStore"]):
    """A :class:`errdex.store.Store` in one SQLite file."""

    def __init__(self, path: Path, *, readonly: bool = False, create: bool = True) -> None:
        self.path = path
        self.readonly = readonly
        self._db = _connect(path, readonly, create)

    @_database_errors
    def replace_repo(self, info: RepoInfo, records: Iterable[Record]) -> RepoInfo:
        """Replace one source's records (its repo and package) in one transaction, so a failed
        run leaves the previous version.  Distributions sharing a repository stay apart."""
        with self._transaction() as db:
            self._delete(info.repo, info.package)
            count = sites = 0
            for record in records:
                sites += self._insert(info, record)
                count += 1
            stored = info.model_copy(update={"records": count, "sites": sites})
            row = {**stored.model_dump(), "package": stored.package or ""}
            db.execute(
                f"INSERT INTO repos ({', '.join(_REPO_COLUMNS)})"
                f" VALUES ({', '.join('?' * len(_REPO_COLUMNS))})",
                [row[column] for column in _REPO_COLUMNS],
            )
        return stored

    @_database_errors
    def remove(self, repo: str, package: str | None) -> int:
        """Drop one source and its records (an uninstalled distribution); returns how many records."""
        with self._transaction():
            return self._delete(repo, package)

    def _delete(self, repo: str, package: str | None) -> int:
        # Every change of records makes a new generation: caches derived from an older one
        # (the pattern index) are stale and are dropped in the same transaction.
        db = self._db
        removed: int = db.execute(
            "DELETE FROM records WHERE repo = ? AND package = ?", (repo, package or "")
        ).rowcount
        db.execute("DELETE FROM repos WHERE repo = ? AND package = ?", (repo, package or ""))
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
        db.execute("DELETE FROM cache")
        return removed

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed whole, or rolled back on any error (even Ctrl-C)."""
        if self.readonly:
            raise ErrdexError(f"{self.path} is open read-only; open it writable to store records")
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _insert(self, info: RepoInfo, record: Record) -> int:
        """Insert one record and its sites; returns how many sites were indexed."""
        if record.repo != info.repo:
            raise ErrdexError(f"record {record.id} belongs to {record.repo}, not to {info.repo}")
        data = dumps(record.to_errdex())
        try:
            self._db.execute(
                "INSERT INTO records (id, repo, package, slug, file_path, line_number, error_type,"
                " error_class, qualified_class, error_message, message_pattern, message_kind, version, data)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id, record.repo, info.package or "", record.slug, utf8(record.file_path),
                    record.line_number,
                    record.error_type, record.error_class, record.qualified_class,
                    utf8(record.error_message), utf8(record.message_pattern), record.message_kind,
                    record.version, data,
                ),
            )  # fmt: skip
        except sqlite3.IntegrityError as exc:
            raise ErrdexError(
                f"{info.repo}: record {record.id} ({record.slug}) repeats an id or slug already stored"
            ) from exc
        # A record without sites was still raised somewhere: its own location stands in.
        places = [(site.file_path, site.line_number, site.function) for site in record.sites] or [
            (record.file_path, record.line_number, record.function)
        ]
        self._db.executemany(
            "INSERT INTO sites (record_id, file_path, file_name, line, function) VALUES (?, ?, ?, ?, ?)",
            [
                (record.id, utf8(path), _file_name(utf8(path)), line, _function_name(function))
                for path, line, function in places
            ],
        )
        return len(places)

    @_database_errors
    def update_prose(self, records: Iterable[Record]) -> int:
        """Re-enrichment changes what records say, not what they match: the pattern index,
        sites and search text stay, and so does the generation."""
        with self._transaction() as db:
            changed = 0
            for record in records:
                data = dumps(record.to_errdex())
                changed += db.execute("UPDATE records SET data = ? WHERE id = ?", (data, record.id)).rowcount
        return changed

    @_database_errors
    def records(self, repo: str | None = None) -> Iterator[Record]:
        where, params = ("WHERE r.repo = ?", (repo,)) if repo is not None else ("", ())
        for (data,) in self._db.execute(f"SELECT r.data FROM records r {where} ORDER BY {_ORDER}", params):
            yield Record.model_validate_json(data)

    @_database_errors
    def get(self, key: str) -> Record | None:
        row = self._db.execute("SELECT data FROM records WHERE id = ?", (key,)).fetchone()
        if row is None and key.count("/") >= 2:
            repo, slug = key.rsplit("/", 1)
            # Distributions sharing a repository may share a slug: the first package wins.
            row = self._db.execute(
                "SELECT data FROM records WHERE repo = ? AND slug = ? ORDER BY package LIMIT 1", (repo, slug)
            ).fetchone()
        return None if row is None else Record.model_validate_json(row[0])

    def search_text(self, query: str, limit: int = 20) -> list[Record]:
        """Records whose message shares most words with ``query``, best first."""
        found = self.search_messages(query, limit)
        records = self.by_num(num for num, _ in found)
        return [records[num] for num, _ in found if num in records]

    @_database_errors
    def search_messages(self, query: str, limit: int = 20) -> list[tuple[int, str]]:
        """(row number, message) of the best bm25 matches for any of the query's words.

        Words are OR-ed because a pasted message carries runtime values (names, numbers) that
        the stored template lacks; ranking still puts messages sharing most words first.  Only
        word characters reach FTS5, each word quoted, so its query syntax never applies.
        """
        terms = list(dict.fromkeys(_WORD.findall(query)))[:_MAX_TERMS]
        if not terms:
            return []
        return self._db.execute(
            "SELECT r.num, r.error_message FROM (SELECT rowid, rank FROM messages WHERE messages MATCH ?"
            " ORDER BY rank LIMIT ?) m JOIN records r ON r.num = m.rowid ORDER BY m.rank",
            (" OR ".join(f'"{term}"' for term in terms), limit),
        ).fetchall()

    @_database_errors
    def by_num(self, nums: Iterable[int]) -> dict[int, Record]:
        """Records by their row number, the compact key the pattern index uses."""
        wanted = list(dict.fromkeys(nums))
        found: dict[int, Record] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            rows = self._db.execute(
                f"SELECT num, data FROM records WHERE num IN ({', '.join('?' * len(chunk))})", chunk
            )
            found.update((num, Record.model_validate_json(data)) for num, data in rows)
        return found

    @_database_errors
    def sites_in_function(self, file_name: str, function: str) -> list[tuple[int, str, int]]:
        """(record row number, site path, site line) of sites in files so named, in functions
        a traceback prints as ``function``, at any line."""
        return self._db.execute(
            "SELECT r.num, s.file_path, s.line FROM sites s JOIN records r ON r.id = s.record_id"
            " WHERE s.file_name = ? AND s.function = ?",
            (file_name, function),
        ).fetchall()

    @_database_errors
    def sites_near(self, file_name: str, line: int, drift: int) -> list[tuple[int, str, int, str | None]]:
        """(record row number, site path, site line, the site's function as a traceback prints
        it) of sites in files so named near ``line``."""
        return self._db.execute(
            "SELECT r.num, s.file_path, s.line, s.function FROM sites s JOIN records r ON r.id = s.record_id"
            " WHERE s.file_name = ? AND s.line BETWEEN ? AND ?",
            (file_name, line - drift, line + drift),
        ).fetchall()

    @_database_errors
    def pattern_rows(self) -> Iterator[PatternRow]:
        """What the pattern index needs of every record, without decoding whole records."""
        rows = self._db.execute(
            "SELECT num, message_pattern, message_kind, error_class, qualified_class, version, file_path"
            " FROM records"
        )
        for row in rows:
            yield PatternRow(*row)

    @_database_errors
    def generation(self) -> int:
        """A number that changes whenever the records do."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0])

    @_database_errors
    def cache_get(self, key: str) -> bytes | None:
        row = self._db.execute("SELECT data FROM cache WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    @_database_errors
    def cache_put(self, key: str, data: bytes) -> None:
        """Keep derived data beside the records, if no other writer holds the store now; skipped
        when the store is read-only or busy (a cache is rebuilt by whoever needs it next)."""
        if self.readonly:
            return
        with self._best_effort():
            self._db.execute("INSERT OR REPLACE INTO cache (key, data) VALUES (?, ?)", (key, data))

    @contextmanager
    def _best_effort(self) -> Iterator[None]:
        """A write that waits a moment for another writer, then is given up without a word."""
        db = self._db
        (wait,) = db.execute("PRAGMA busy_timeout").fetchone()
        db.execute(f"PRAGMA busy_timeout = {_BEST_EFFORT_WAIT_MS}")
        try:
            yield
        except sqlite3.OperationalError as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if not _busy(exc):
                raise
        finally:
            db.execute(f"PRAGMA busy_timeout = {int(wait)}")

    @_database_errors
    def repos(self) -> list[RepoInfo]:
        rows = self._db.execute(f"SELECT {', '.join(_REPO_COLUMNS)} FROM repos ORDER BY repo, package")
        infos = []
        for row in rows:
            fields = dict(zip(_REPO_COLUMNS, row, strict=True))
            infos.append(RepoInfo.model_validate({**fields, "package": fields["package"] or None}))
        return infos

    @_database_errors
    def meta_get(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"user:{key}",)).fetchone()
        return None if row is None else str(row[0])

    @_database_errors
    def meta_put(self, key: str, value: str) -> None:
        """Keep a small setting beside the records (what environment an index is of); skipped when
        the store is read-only, like the cache."""
        if self.readonly:
            return
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (f"user:{key}", value))

    @_database_errors
    def stats(self) -> dict[str, int]:
        """Table sizes, then record counts per ``errorType:<type>``."""
        counts = {
            table: self._db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("repos", "records", "sites")
        }
        for error_type, count in self._db.execute(
            "SELECT error_type, count(*) FROM records GROUP BY error_type ORDER BY error_type"
        ):
            counts[f"errorType:{error_type}"] = count
        return counts

    def close(self) -> None:
        self._db.close()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _file_name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _function_name(function: str | None) -> str | None:
    """The name a traceback prints for a function (``fail`` of ``Context.fail``)."""
    return function.rpartition(".")[2] if function else None


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite gave up waiting for another connection's lock."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF  # the primary code of an extended one
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


@contextmanager
def writer_lock(path: Path, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the store's writer lock for the block: other errdex writers of ``path`` wait.

    A lock file beside the store (``errdex.db.lock``), locked with ``flock``: the lock goes with
    the process, so a killed writer never leaves it held.  ``waiting`` hears, once, that another
    process holds it (its pid is in the file) before this one waits its turn."""
    if fcntl is None:
        yield
        return
    lock = path.with_name(path.name + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
                waiting(f"waiting for another errdex (pid {holder}) to finish writing {path}")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _connect(path: Path, readonly: bool, create: bool) -> sqlite3.Connection:
    """A configured connection to a file holding this store schema; creates it unless read-only."""
    if (readonly or not create) and not path.is_file():
        raise ErrdexError(
            f"no errdex database at {path}: build one with errdex index (a Python environment)"
            " or errdex mine PATH (a source tree)"
        )
    try:
        if readonly:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise ErrdexError(f"cannot open {path}: {exc}") from exc
    try:
        _prepare(db, path, readonly)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise ErrdexError(f"cannot use {path} as an errdex database: {exc}") from exc
    except BaseException:
        db.close()
        raise
    return db


def _prepare(db: sqlite3.Connection, path: Path, readonly: bool) -> None:
    db.execute("PRAGMA foreign_keys = ON")
    if readonly:
        db.execute("PRAGMA query_only = ON")
    else:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables and not readonly:
        db.executescript(_SCHEMA)
    elif "meta" not in tables:
        raise ErrdexError(f"{path} is not an errdex database")
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None or row[0] != str(STORE_SCHEMA):
        raise OutdatedStore(path, "none" if row is None else row[0])
