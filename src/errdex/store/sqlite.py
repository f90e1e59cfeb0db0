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
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from errdex.errors import ErrdexError
from errdex.record import Record, RepoInfo, dumps, release_key, utc_now, utf8
from errdex.store.artifacts import Artifact
from errdex.store.common import (
    ARTIFACT_COLUMNS,
    MAX_TERMS,
    REPO_COLUMNS,
    STORE_SCHEMA,
    OutdatedStore,
    StoreError,
    database_errors,
    function_name,
    newest_providers,
    records_found,
    release_of,
    repo_infos,
    sorted_artifacts,
    symbols_row,
)
from errdex.symbols import SymbolTable

try:
    import fcntl
except ImportError:  # not POSIX: writers rely on SQLite's busy timeout alone
    fcntl = None  # type: ignore[assignment]

#: How long a best-effort write (a cache) waits for another writer before it is skipped, in ms.
_BEST_EFFORT_WAIT_MS = 100


def source_kinds(path: Path) -> set[str]:
    """The kinds of source a store file holds (``installed``, ``checkout`` ...), read whatever
    its schema: whether it holds anything an index rebuild would not bring back."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            return {kind for (kind,) in db.execute("SELECT DISTINCT kind FROM repos")}
    except sqlite3.Error as exc:
        raise StoreError(f"database error in {path}: {exc}") from exc


#: A ``sqlite3`` failure leaves a store method as a ``StoreError`` naming the file.
_database_errors = database_errors(sqlite3.Error, lambda store: str(store.path))


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
    version TEXT NOT NULL,
    fingerprint TEXT,
    files INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    sites INTEGER NOT NULL,
    records INTEGER NOT NULL,
    PRIMARY KEY (repo, package, version)
);
CREATE TABLE IF NOT EXISTS records (
    num INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    repo TEXT NOT NULL,
    package TEXT NOT NULL,
    version TEXT NOT NULL,
    slug TEXT NOT NULL,
    file_path TEXT NOT NULL,
    line_number INTEGER NOT NULL,
    error_type TEXT NOT NULL,
    error_class TEXT,
    qualified_class TEXT,
    error_message TEXT NOT NULL,
    message_pattern TEXT NOT NULL,
    message_kind TEXT NOT NULL,
    error_code TEXT,
    data TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS records_slug ON records (repo, package, version, slug);
CREATE UNIQUE INDEX IF NOT EXISTS records_release ON records (id, package, version);
CREATE INDEX IF NOT EXISTS records_order ON records (repo, file_path, line_number, id);
CREATE TABLE IF NOT EXISTS sites (
    record_num INTEGER NOT NULL REFERENCES records (num) ON DELETE CASCADE,
    file_path TEXT NOT NULL,
    file_name TEXT NOT NULL,
    line INTEGER NOT NULL,
    function TEXT
);
CREATE INDEX IF NOT EXISTS sites_location ON sites (file_name, line);
CREATE INDEX IF NOT EXISTS sites_function ON sites (file_name, function);
CREATE INDEX IF NOT EXISTS sites_record ON sites (record_num);
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
CREATE TABLE IF NOT EXISTS symbols (
    repo TEXT NOT NULL,
    package TEXT NOT NULL,
    version TEXT NOT NULL,
    roots TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (repo, package, version)
);
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS extractions (key TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS corpus_requirements (requirement TEXT PRIMARY KEY, added_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS artifacts (
    package TEXT NOT NULL,
    version TEXT NOT NULL,
    filename TEXT NOT NULL,
    url TEXT NOT NULL,
    sha256 TEXT,
    size INTEGER,
    kind TEXT NOT NULL,
    upload_time TEXT,
    state TEXT NOT NULL,
    reason TEXT,
    failure TEXT,
    attempts INTEGER NOT NULL,
    updated_at TEXT,
    records INTEGER NOT NULL,
    PRIMARY KEY (package, version)
);
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
    #: The code it carries (``ERR_INVALID_ARG_TYPE``), which a paste may print beside the message.
    error_code: str | None = None


_ORDER = "r.repo, r.file_path, r.line_number, r.id"
_WORD = re.compile(r"\w+")


class SqliteStore(AbstractContextManager["SqliteStore"]):
    """A :class:`errdex.store.Store` in one SQLite file."""

    def __init__(self, path: Path, *, readonly: bool = False, create: bool = True) -> None:
        self.path = path
        self.readonly = readonly
        self._db = _connect(path, readonly, create)

    @_database_errors
    def replace_repo(
        self,
        info: RepoInfo,
        records: Iterable[Record],
        *,
        release: bool = False,
        symbols: SymbolTable | None = None,
    ) -> RepoInfo:
        """Replace one source's records (its repo and package: every release of it, or with
        ``release`` only ``info.version``'s) and its symbol table in one transaction, so a failed
        run leaves the previous ones.  Distributions sharing a repository stay apart."""
        with self._transaction() as db:
            self._delete(info.repo, info.package, (info.version or "") if release else None)
            if symbols is not None:
                roots, data = symbols_row(symbols)
                db.execute(
                    "INSERT INTO symbols (repo, package, version, roots, data) VALUES (?, ?, ?, ?, ?)",
                    (info.repo, info.package or "", info.version or "", roots, data),
                )
            count = sites = 0
            for record in records:
                sites += self._insert(info, record)
                count += 1
            stored = info.model_copy(update={"records": count, "sites": sites})
            row = {**stored.model_dump(), "package": stored.package or "", "version": stored.version or ""}
            db.execute(
                f"INSERT INTO repos ({', '.join(REPO_COLUMNS)})"
                f" VALUES ({', '.join('?' * len(REPO_COLUMNS))})",
                [row[column] for column in REPO_COLUMNS],
            )
        return stored

    @_database_errors
    def remove(self, repo: str, package: str | None) -> int:
        """Drop one source and its records (an uninstalled distribution); returns how many records."""
        with self._transaction():
            return self._delete(repo, package)

    def _delete(self, repo: str, package: str | None, version: str | None = None) -> int:
        """Drop a source's records: of one release, or of all (``version`` None)."""
        # Every change of records makes a new generation: caches derived from an older one
        # (the pattern index) are stale and are dropped in the same transaction.
        db = self._db
        where, params = "repo = ? AND package = ?", [repo, package or ""]
        if version is not None:
            where, params = where + " AND version = ?", [*params, version]
        removed: int = db.execute(f"DELETE FROM records WHERE {where}", params).rowcount
        db.execute(f"DELETE FROM repos WHERE {where}", params)
        db.execute(f"DELETE FROM symbols WHERE {where}", params)
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
            num = self._db.execute(
                "INSERT INTO records (id, repo, package, version, slug, file_path, line_number, error_type,"
                " error_class, qualified_class, error_message, message_pattern, message_kind, error_code,"
                " data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id, record.repo, info.package or "", info.version or "", record.slug,
                    utf8(record.file_path), record.line_number,
                    record.error_type, record.error_class, record.qualified_class,
                    utf8(record.error_message), utf8(record.message_pattern), record.message_kind,
                    record.error_code, data,
                ),
            ).lastrowid  # fmt: skip
        except sqlite3.IntegrityError as exc:
            raise ErrdexError(
                f"{info.repo}: record {record.id} ({record.slug}) repeats an id or slug already stored"
            ) from exc
        # A record without sites was still raised somewhere: its own location stands in.
        places = [(site.file_path, site.line_number, site.function) for site in record.sites] or [
            (record.file_path, record.line_number, record.function)
        ]
        self._db.executemany(
            "INSERT INTO sites (record_num, file_path, file_name, line, function) VALUES (?, ?, ?, ?, ?)",
            [
                (num, utf8(path), _file_name(utf8(path)), line, function_name(function))
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
                # Each release's own row: another release of the record says what it says.
                values = (data, record.id, record.version or "")
                sql = "UPDATE records SET data = ? WHERE id = ? AND version = ?"
                changed += db.execute(sql, values).rowcount
        return changed

    @_database_errors
    def records(
        self, repo: str | None = None, *, package: str | None = None, version: str | None = None
    ) -> Iterator[Record]:
        """Records, of one repo, package or release when given, in file and line order."""
        given = {"repo": repo, "package": package, "version": version}
        wanted = {column: value for column, value in given.items() if value is not None}
        where = "WHERE " + " AND ".join(f"r.{column} = ?" for column in wanted) if wanted else ""
        query = f"SELECT r.data FROM records r {where} ORDER BY {_ORDER}, r.version"
        for (data,) in self._db.execute(query, list(wanted.values())):
            yield Record.model_validate_json(data)

    @_database_errors
    def symbols(self, repo: str, package: str | None, version: str | None) -> SymbolTable | None:
        """One release's symbol table, where it was stored with one."""
        row = self._db.execute(
            "SELECT data FROM symbols WHERE repo = ? AND package = ? AND version = ?",
            (repo, package or "", version or ""),
        ).fetchone()
        return None if row is None else SymbolTable.loads(row[0])

    @_database_errors
    def symbol_providers(self) -> dict[str, tuple[str, str, str]]:
        """Each top-level name a stored table answers for, with the newest release holding it."""
        return newest_providers(self._db.execute("SELECT repo, package, version, roots FROM symbols"))

    @_database_errors
    def records_page(self, after: int, limit: int, repo: str | None = None) -> list[tuple[int, Record]]:
        where, params = ("AND repo = ?", [repo]) if repo is not None else ("", [])
        rows = self._db.execute(
            f"SELECT num, data FROM records WHERE num > ? {where} ORDER BY num LIMIT ?",
            [after, *params, limit],
        ).fetchall()
        return [(num, Record.model_validate_json(data)) for num, data in rows]

    @_database_errors
    def get(self, key: str, version: str | None = None) -> Record | None:
        rows = self._db.execute("SELECT version, data FROM records WHERE id = ?", (key,)).fetchall()
        if not rows and key.count("/") >= 2:
            repo, slug = key.rsplit("/", 1)
            # Distributions sharing a repository may share a slug: the first package wins.
            rows = self._db.execute(
                "SELECT version, data FROM records WHERE repo = ? AND slug = ? AND package ="
                " (SELECT min(package) FROM records WHERE repo = ? AND slug = ?)",
                (repo, slug, repo, slug),
            ).fetchall()
        return release_of(rows, version)

    @_database_errors
    def releases(self, record_id: str) -> list[str]:
        rows = self._db.execute("SELECT DISTINCT version FROM records WHERE id = ?", (record_id,))
        return sorted((version for (version,) in rows), key=release_key)

    def search_text(self, query: str, limit: int = 20) -> list[Record]:
        """Records whose message shares most words with ``query``, best first."""
        return records_found(self, self.search_messages(query, limit))

    @_database_errors
    def search_messages(self, query: str, limit: int = 20) -> list[tuple[int, str]]:
        """(row number, message) of the best bm25 matches for any of the query's words.

        Words are OR-ed because a pasted message carries runtime values (names, numbers) that
        the stored template lacks; ranking still puts messages sharing most words first.  Only
        word characters reach FTS5, each word quoted, so its query syntax never applies.
        """
        terms = list(dict.fromkeys(_WORD.findall(query)))[:MAX_TERMS]
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
        rows = self._rows_in("SELECT num, data FROM records WHERE num IN ({})", nums)
        return {num: Record.model_validate_json(data) for num, data in rows}

    def _rows_in(self, query: str, values: Iterable[object]) -> Iterator[tuple[Any, ...]]:
        """The rows of ``query`` for each distinct value, its ``IN ({})`` filled 500 at a time:
        below SQLite's limit on parameters, whatever the number of values."""
        wanted = list(dict.fromkeys(values))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            yield from self._db.execute(query.format(", ".join("?" * len(chunk))), chunk)

    @_database_errors
    def sites_in_function(self, file_name: str, function: str) -> list[tuple[int, str, int]]:
        """(record row number, site path, site line) of sites in files so named, in functions
        a traceback prints as ``function``, at any line."""
        return self._db.execute(
            "SELECT s.record_num, s.file_path, s.line FROM sites s WHERE s.file_name = ? AND s.function = ?",
            (file_name, function),
        ).fetchall()

    @_database_errors
    def sites_near(self, file_name: str, line: int, drift: int) -> list[tuple[int, str, int, str | None]]:
        """(record row number, site path, site line, the site's function as a traceback prints
        it) of sites in files so named near ``line``."""
        return self._db.execute(
            "SELECT s.record_num, s.file_path, s.line, s.function FROM sites s"
            " WHERE s.file_name = ? AND s.line BETWEEN ? AND ?",
            (file_name, line - drift, line + drift),
        ).fetchall()

    @_database_errors
    def pattern_rows(self) -> Iterator[PatternRow]:
        """What the pattern index needs of every record, without decoding whole records."""
        rows = self._db.execute(
            "SELECT num, message_pattern, message_kind, error_class, qualified_class, version, file_path,"
            " error_code FROM records"
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
        """Every source stored, one per release, oldest release first within a package."""
        return repo_infos(self._db.execute(f"SELECT {', '.join(REPO_COLUMNS)} FROM repos"))

    @_database_errors
    def extractions_get(self, keys: Iterable[str]) -> dict[str, bytes]:
        return {
            key: bytes(data)
            for key, data in self._rows_in("SELECT key, data FROM extractions WHERE key IN ({})", keys)
        }

    @_database_errors
    def extractions_put(self, items: dict[str, bytes]) -> None:
        """Kept in a transaction of its own: a result cached is true whatever the records do."""
        if not items:
            return
        with self._transaction() as db:
            db.executemany("INSERT OR REPLACE INTO extractions (key, data) VALUES (?, ?)", items.items())

    @_database_errors
    def corpus_add(self, requirements: Iterable[str]) -> list[str]:
        added = []
        with self._transaction() as db:
            for requirement in dict.fromkeys(requirements):
                cursor = db.execute(
                    "INSERT OR IGNORE INTO corpus_requirements (requirement, added_at) VALUES (?, ?)",
                    (requirement, utc_now()),
                )
                if cursor.rowcount:
                    added.append(requirement)
        return added

    @_database_errors
    def corpus_requirements(self) -> list[str]:
        rows = self._db.execute("SELECT requirement FROM corpus_requirements ORDER BY added_at, requirement")
        return [requirement for (requirement,) in rows]

    @_database_errors
    def plan_artifacts(self, artifacts: Iterable[Artifact]) -> list[Artifact]:
        queued = []
        with self._transaction() as db:
            for artifact in artifacts:
                row = db.execute(
                    "SELECT sha256, filename FROM artifacts WHERE package = ? AND version = ?", artifact.key
                ).fetchone()
                if row is not None and tuple(row) == (artifact.sha256, artifact.filename):
                    continue
                fresh = artifact.but(state="queued", reason=None, failure=None, attempts=0, records=0)
                fresh = fresh.but(updated_at=utc_now())
                db.execute(
                    f"INSERT OR REPLACE INTO artifacts ({', '.join(ARTIFACT_COLUMNS)})"
                    f" VALUES ({', '.join('?' * len(ARTIFACT_COLUMNS))})",
                    [getattr(fresh, column) for column in ARTIFACT_COLUMNS],
                )
                queued.append(fresh)
        return queued

    @_database_errors
    def artifacts(self, package: str | None = None) -> list[Artifact]:
        where, params = ("WHERE package = ?", (package,)) if package is not None else ("", ())
        return sorted_artifacts(
            self._db.execute(f"SELECT {', '.join(ARTIFACT_COLUMNS)} FROM artifacts {where}", params)
        )

    @_database_errors
    def mark_artifact(self, artifact: Artifact) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE artifacts SET state = ?, reason = ?, failure = ?, attempts = ?, records = ?,"
                " updated_at = ? WHERE package = ? AND version = ?",
                (
                    artifact.state, artifact.reason, artifact.failure, artifact.attempts, artifact.records,
                    artifact.updated_at or utc_now(), *artifact.key,
                ),
            )  # fmt: skip

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
