"""The PostgreSQL store: one database many errdex processes share, readers and writers at once.

It keeps what :class:`errdex.store.sqlite.SqliteStore` keeps, in the same store schema, and
answers every question the same way, so that ``errdex explain`` says the same on either:

* Rows come back in SQLite's order (text compared byte by byte, ``COLLATE "C"``), since the
  matcher breaks ties by the order sites and messages arrive in.
* Message search ranks by the bm25 that SQLite's FTS5 computes, over the words FTS5's
  ``unicode61`` tokenizer sees: PostgreSQL's own parser would keep ``a.b.c`` and ``/x/y.py``
  as one token, and its ``ts_rank_cd`` ignores how rare a word is, which is most of what
  ranks a pasted message.  The words are kept normalised (``message_words``), as a tsvector
  (GIN) that finds the candidates and as trigrams (``pg_trgm``), the fuzzy tier consulted
  when no word matches: the one answer SQLite does not give (it finds nothing then).
* Writers of different releases run at once (a corpus run's tasks); writers of one source
  or release wait for each other on an advisory lock, so the last one wins whole.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import astuple
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from errdex.errors import ErrdexError

try:
    import psycopg
    from psycopg import errors as pg_errors
except ImportError as exc:  # the default install: SQLite only
    raise ErrdexError("a PostgreSQL store needs psycopg: install errdex[postgres]") from exc

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
from errdex.store.sqlite import PatternRow
from errdex.symbols import SymbolTable

__all__ = ["OutdatedDatabase", "PostgresStore", "message_words"]

T = TypeVar("T")

#: How long a best-effort write (a cache) waits for another writer's lock before it is skipped.
_BEST_EFFORT_WAIT = "100ms"
_WORD = re.compile(r"\w+")
#: A token as FTS5's unicode61 sees one: letters and digits (``_`` separates).
_TOKEN = re.compile(r"[^\W_]+")
#: PostgreSQL skips a word longer than 2047 bytes, which would shift every later position.
_MAX_TOKEN = 500
#: bm25's constants, as FTS5 fixes them.
_K1, _B = 1.2, 0.75
#: Rows per COPY batch and per ``= ANY`` lookup.
_CHUNK = 1000
#: Guards creating the tables: two first writers must not both create them.
_CREATE_LOCK = 0x657272646578  # "errdex"


class OutdatedDatabase(OutdatedStore):
    """A database another errdex wrote, in another store schema: refused, never migrated."""

    def __init__(self, shown: str, found: str) -> None:
        StoreError.__init__(
            self,
            f"{shown} has store schema {found} but this errdex needs {STORE_SCHEMA}; drop it and mine again",
        )
        # Never a file: nothing may treat it as one to delete (``envindex`` handles files only).
        self.path = Path(shown)
        self.url = shown


def shown_url(url: str) -> str:
    """The URL without its password, to name the database in messages and logs."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        credentials, host = netloc.rsplit("@", 1)
        netloc = f"{credentials.split(':', 1)[0]}@{host}"
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "password"])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def message_words(text: str) -> list[str]:
    """The words FTS5's ``unicode61`` tokenizer indexes of ``text``: runs of letters and digits,
    lowercased, diacritics removed, so that both stores rank the same words."""
    out = []
    for token in _TOKEN.findall(text.lower()):
        if not token.isascii():
            token = "".join(c for c in unicodedata.normalize("NFD", token) if not unicodedata.combining(c))
        out.append(token[:_MAX_TOKEN])
    return out


#: A ``psycopg`` failure leaves a store method as a ``StoreError`` naming the database (never
#: its password).
_database_errors = database_errors(psycopg.Error, lambda store: str(store.shown))


# records.num is the compact key the pattern index uses; sites point at it.  message_words is
# the message as FTS5 tokenizes it, words joined by spaces: PostgreSQL's parser then sees one
# token per word, at the position FTS5 gives it (phrases and frequencies depend on both).
_SCHEMA = f"""
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE repos (
    repo TEXT NOT NULL,
    package TEXT NOT NULL,
    version TEXT NOT NULL,
    sha TEXT,
    analyzed_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    fingerprint TEXT,
    files INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    sites INTEGER NOT NULL,
    records INTEGER NOT NULL,
    PRIMARY KEY (repo, package, version)
);
CREATE TABLE records (
    num BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
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
    data TEXT NOT NULL,
    message_words TEXT NOT NULL,
    message_length INTEGER NOT NULL,
    words TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, message_words)) STORED,
    UNIQUE (repo, package, version, slug),
    UNIQUE (id, package, version)
);
CREATE INDEX records_id ON records (id);
CREATE INDEX records_order ON records (repo COLLATE "C", file_path COLLATE "C", line_number, id COLLATE "C");
CREATE INDEX records_words ON records USING gin (words);
CREATE INDEX records_trigrams ON records USING gin (message_words gin_trgm_ops);
CREATE TABLE sites (
    num BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    record_num BIGINT NOT NULL REFERENCES records (num) ON DELETE CASCADE,
    file_path TEXT NOT NULL,
    file_name TEXT NOT NULL,
    line INTEGER NOT NULL,
    function TEXT
);
CREATE INDEX sites_location ON sites (file_name, line);
CREATE INDEX sites_function ON sites (file_name, function);
CREATE INDEX sites_record ON sites (record_num);
CREATE TABLE symbols (
    repo TEXT NOT NULL,
    package TEXT NOT NULL,
    version TEXT NOT NULL,
    roots TEXT NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (repo, package, version)
);
CREATE TABLE cache (key TEXT PRIMARY KEY, data BYTEA NOT NULL);
CREATE TABLE extractions (key TEXT PRIMARY KEY, data BYTEA NOT NULL);
CREATE TABLE corpus_requirements (requirement TEXT PRIMARY KEY, added_at TEXT NOT NULL);
CREATE TABLE artifacts (
    package TEXT NOT NULL,
    version TEXT NOT NULL,
    filename TEXT NOT NULL,
    url TEXT NOT NULL,
    sha256 TEXT,
    size BIGINT,
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
INSERT INTO meta (key, value) VALUES ('schema', '{STORE_SCHEMA}'), ('generation', '0');
"""

_RECORD_COLUMNS = (
    "num", "id", "repo", "package", "version", "slug", "file_path", "line_number", "error_type",
    "error_class", "qualified_class", "error_message", "message_pattern", "message_kind", "error_code",
    "data", "message_words", "message_length",
)  # fmt: skip
_ORDER = 'r.repo COLLATE "C", r.file_path COLLATE "C", r.line_number, r.id COLLATE "C", r.version COLLATE "C"'


class PostgresStore(AbstractContextManager["PostgresStore"]):
    """A :class:`errdex.store.Store` in a PostgreSQL database (``postgresql://...``)."""

    def __init__(self, url: str, *, readonly: bool = False, create: bool = True) -> None:
        self.url = url
        self.shown = shown_url(url)
        self.readonly = readonly
        self._db = _connect(url, self.shown, readonly, create)
        #: (generation, rows, tokens): what bm25 needs of the whole table, per generation.
        self._totals: tuple[int, int, int] | None = None
        self._streams = itertools.count()

    # -- records ---------------------------------------------------------------------------

    @_database_errors
    def replace_repo(
        self,
        info: RepoInfo,
        records: Iterable[Record],
        *,
        release: bool = False,
        symbols: SymbolTable | None = None,
    ) -> RepoInfo:
        """Replace one source's records and its symbol table in one transaction, so a failed
        run leaves the previous set: all its releases, or with ``release`` only
        ``info.version``'s (a corpus task)."""
        package, version = info.package or "", info.version or ""
        with self._transaction() as db:
            self._lock_source(info.repo, package, version if release else None)
            self._delete(info.repo, package, version if release else None)
            if symbols is not None:
                roots, data = symbols_row(symbols)
                db.execute(
                    "INSERT INTO symbols (repo, package, version, roots, data) VALUES (%s, %s, %s, %s, %s)",
                    (info.repo, package, version, roots, data),
                )
            count = sites = 0
            batch: list[Record] = []
            for record in records:
                if record.repo != info.repo:
                    raise ErrdexError(f"record {record.id} belongs to {record.repo}, not to {info.repo}")
                batch.append(record)
                if len(batch) == _CHUNK:
                    sites += self._insert(info, batch)
                    count, batch = count + len(batch), []
            sites += self._insert(info, batch)
            count += len(batch)
            stored = info.model_copy(update={"records": count, "sites": sites})
            row = {**stored.model_dump(), "package": package, "version": version}
            db.execute(
                f"INSERT INTO repos ({', '.join(REPO_COLUMNS)})"
                f" VALUES ({', '.join(['%s'] * len(REPO_COLUMNS))})",
                [row[column] for column in REPO_COLUMNS],
            )
            self._changed()
        return stored

    @_database_errors
    def remove(self, repo: str, package: str | None) -> int:
        """Drop one source, every release of it, and its records; returns how many records."""
        with self._transaction():
            self._lock_source(repo, package or "", None)
            removed = self._delete(repo, package or "", None)
            self._changed()
            return removed

    def _lock_source(self, repo: str, package: str, version: str | None) -> None:
        """Wait for any other writer of this source: a release's writer shares the source's
        lock and holds its release's alone; a writer of every release holds the source's alone.
        Always taken in that order, before any row lock, so writers never deadlock."""
        source = f"{repo}\x1f{package}"
        if version is None:
            self._db.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (source,))
            return
        self._db.execute("SELECT pg_advisory_xact_lock_shared(hashtextextended(%s, 0))", (source,))
        self._db.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{source}\x1f{version}",))

    def _delete(self, repo: str, package: str, version: str | None) -> int:
        where, params = "repo = %s AND package = %s", [repo, package]
        if version is not None:
            where, params = f"{where} AND version = %s", [*params, version]
        removed = self._db.execute(f"DELETE FROM records WHERE {where}", params).rowcount
        self._db.execute(f"DELETE FROM repos WHERE {where}", params)
        self._db.execute(f"DELETE FROM symbols WHERE {where}", params)
        return removed

    def _changed(self) -> None:
        """Every change of records makes a new generation: caches derived from an older one (the
        pattern index) are dropped in the same transaction.  Last, so that the one row every
        writer updates is locked only for the moment before its commit."""
        self._db.execute("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")
        self._db.execute("DELETE FROM cache")

    def _insert(self, info: RepoInfo, records: Sequence[Record]) -> int:
        """COPY a batch of records and their sites; returns how many sites were indexed."""
        if not records:
            return 0
        db = self._db
        nums = [
            num
            for (num,) in db.execute(
                "SELECT nextval(pg_get_serial_sequence('records', 'num')) FROM generate_series(1, %s)",
                (len(records),),
            )
        ]
        package, version = info.package or "", info.version or ""
        places: list[tuple[int, str, str, int, str | None]] = []
        try:
            with db.cursor() as cursor:
                with cursor.copy(f"COPY records ({', '.join(_RECORD_COLUMNS)}) FROM STDIN") as copy:
                    for num, record in zip(nums, records, strict=True):
                        message = utf8(record.error_message)
                        words = message_words(message)
                        copy.write_row((
                            num, record.id, record.repo, package, version, _text(record.slug),
                            _text(utf8(record.file_path)), record.line_number, record.error_type,
                            record.error_class, record.qualified_class, _text(message),
                            _text(utf8(record.message_pattern)), record.message_kind,
                            _text(record.error_code) if record.error_code else None,
                            dumps(record.to_errdex()), " ".join(words), len(words),
                        ))  # fmt: skip
                        # A record without sites was still raised somewhere: its own place stands in.
                        sites = [(s.file_path, s.line_number, s.function) for s in record.sites] or [
                            (record.file_path, record.line_number, record.function)
                        ]
                        for path, line, function in sites:
                            path = _text(utf8(path))
                            places.append((num, path, path.rsplit("/", 1)[-1], line, function_name(function)))
                with cursor.copy(
                    "COPY sites (record_num, file_path, file_name, line, function) FROM STDIN"
                ) as copy:
                    for place in places:
                        copy.write_row(place)
        except pg_errors.UniqueViolation as exc:
            detail = exc.diag.message_detail or ""
            raise ErrdexError(
                f"{info.repo}: a record repeats an id or slug already stored ({detail})"
            ) from exc
        return len(places)

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """One write transaction: committed whole, or rolled back on any error (even Ctrl-C)."""
        if self.readonly:
            raise ErrdexError(f"{self.shown} is open read-only; open it writable to store records")
        with self._db.transaction():
            yield self._db

    @_database_errors
    def update_prose(self, records: Iterable[Record]) -> int:
        """Re-enrichment changes what records say, not what they match: the pattern index,
        sites and search words stay, and so does the generation."""
        with self._transaction() as db:
            changed = 0
            for record in records:
                changed += db.execute(
                    "UPDATE records SET data = %s WHERE id = %s AND version = %s",
                    (dumps(record.to_errdex()), record.id, record.version or ""),
                ).rowcount
        return changed

    @_database_errors
    def records(
        self, repo: str | None = None, *, package: str | None = None, version: str | None = None
    ) -> Iterator[Record]:
        """Records, of one repo, package or release when asked, in the order SQLite gives them.
        Read through a server-side cursor: a corpus is more than memory holds."""
        wheres, params = [], []
        for column, value in (("repo", repo), ("package", package), ("version", version)):
            if value is not None:
                wheres.append(f"r.{column} = %s")
                params.append(value)
        where = f"WHERE {' AND '.join(wheres)}" if wheres else ""
        yield from self._stream(f"SELECT r.data FROM records r {where} ORDER BY {_ORDER}", params, _record)

    @_database_errors
    def records_page(self, after: int, limit: int, repo: str | None = None) -> list[tuple[int, Record]]:
        where, params = ("AND repo = %s", [repo]) if repo is not None else ("", [])
        rows = self._db.execute(
            f"SELECT num, data FROM records WHERE num > %s {where} ORDER BY num LIMIT %s",
            [after, *params, limit],
        ).fetchall()
        return [(num, Record.model_validate_json(data)) for num, data in rows]

    def _stream(self, query: str, params: Sequence[Any], row: Callable[[tuple[Any, ...]], T]) -> Iterator[T]:
        # A named cursor lives in a transaction; each stream its own, as streams may nest.
        name = f"errdex_stream_{next(self._streams)}"
        with self._db.transaction(), self._db.cursor(name=name) as cursor:
            cursor.itersize = _CHUNK
            cursor.execute(query, params)
            for values in cursor:
                yield row(values)

    @_database_errors
    def get(self, key: str, version: str | None = None) -> Record | None:
        """By id, else by ``owner/name/slug`` (of the first package, where distributions sharing
        a repository share a slug): of ``version`` when given, else of the newest release."""
        rows = self._db.execute(
            "SELECT version, data FROM records WHERE id = %s"
            ' ORDER BY package COLLATE "C", version COLLATE "C"',
            (key,),
        ).fetchall()
        if not rows and key.count("/") >= 2:
            repo, slug = key.rsplit("/", 1)
            rows = self._db.execute(
                "SELECT version, data FROM records WHERE repo = %s AND slug = %s AND package ="
                ' (SELECT min(package COLLATE "C") FROM records WHERE repo = %s AND slug = %s)'
                ' ORDER BY version COLLATE "C"',
                (repo, slug, repo, slug),
            ).fetchall()
        return release_of(rows, version)

    @_database_errors
    def symbols(self, repo: str, package: str | None, version: str | None) -> SymbolTable | None:
        """One release's symbol table, where it was stored with one."""
        row = self._db.execute(
            "SELECT data FROM symbols WHERE repo = %s AND package = %s AND version = %s",
            (repo, package or "", version or ""),
        ).fetchone()
        return None if row is None else SymbolTable.loads(bytes(row[0]))

    @_database_errors
    def symbol_providers(self) -> dict[str, tuple[str, str, str]]:
        """Each top-level name a stored table answers for, with the newest release holding it."""
        return newest_providers(self._db.execute("SELECT repo, package, version, roots FROM symbols"))

    @_database_errors
    def releases(self, record_id: str) -> list[str]:
        rows = self._db.execute("SELECT DISTINCT version FROM records WHERE id = %s", (record_id,))
        return sorted((version for (version,) in rows), key=release_key)

    @_database_errors
    def by_num(self, nums: Iterable[int]) -> dict[int, Record]:
        """Records by their row number, the compact key the pattern index uses."""
        wanted = list(dict.fromkeys(nums))
        found: dict[int, Record] = {}
        for start in range(0, len(wanted), _CHUNK):
            rows = self._db.execute(
                "SELECT num, data FROM records WHERE num = ANY(%s)", (wanted[start : start + _CHUNK],)
            )
            found.update((num, Record.model_validate_json(data)) for num, data in rows)
        return found

    @_database_errors
    def sites_in_function(self, file_name: str, function: str) -> list[tuple[int, str, int]]:
        """(record row number, site path, site line) of sites in files so named, in functions
        a traceback prints as ``function``, at any line; in the order they were stored."""
        return self._db.execute(
            "SELECT s.record_num, s.file_path, s.line FROM sites s WHERE s.file_name = %s AND s.function = %s"
            " ORDER BY s.num",
            (file_name, function),
        ).fetchall()

    @_database_errors
    def sites_near(self, file_name: str, line: int, drift: int) -> list[tuple[int, str, int, str | None]]:
        """(record row number, site path, site line, the site's function as a traceback prints
        it) of sites in files so named near ``line``; by line, then as stored (SQLite's order)."""
        return self._db.execute(
            "SELECT s.record_num, s.file_path, s.line, s.function FROM sites s"
            " WHERE s.file_name = %s AND s.line BETWEEN %s AND %s ORDER BY s.line, s.num",
            (file_name, line - drift, line + drift),
        ).fetchall()

    @_database_errors
    def pattern_rows(self) -> Iterator[PatternRow]:
        """What the pattern index needs of every record, without decoding whole records."""
        yield from self._stream(
            "SELECT num, message_pattern, message_kind, error_class, qualified_class, version, file_path,"
            " error_code FROM records ORDER BY num",
            (),
            lambda row: PatternRow(*row),
        )

    # -- search ----------------------------------------------------------------------------

    def search_text(self, query: str, limit: int = 20) -> list[Record]:
        """Records whose message shares most words with ``query``, best first."""
        return records_found(self, self.search_messages(query, limit))

    @_database_errors
    def search_messages(self, query: str, limit: int = 20) -> list[tuple[int, str]]:
        """(row number, message) of the best matches for any of the query's words, ranked by
        FTS5's bm25 as SQLite ranks them; when no word matches, the messages most alike by
        trigrams (a misspelt word).

        Each of the first ``MAX_TERMS`` distinct words is a phrase of the tokens FTS5 makes of
        it (``max_len`` is ``max len``), OR-ed; only those tokens reach PostgreSQL, as values of
        ``phraseto_tsquery``, so no query syntax ever applies."""
        terms = list(dict.fromkeys(_WORD.findall(query)))[:MAX_TERMS]
        phrases = [words for words in map(message_words, terms) if words]
        if not phrases:
            return []
        return self._ranked(phrases, limit) or self._alike(" ".join(w for p in phrases for w in p), limit)

    def _ranked(self, phrases: list[list[str]], limit: int) -> list[tuple[int, str]]:
        """bm25 (k1 1.2, b 0.75, idf floored at 1e-6) summed over the phrases, as FTS5 sums it."""
        db = self._db
        rows, tokens = self._table_totals()
        texts = [" ".join(p) for p in phrases]
        distinct = list(dict.fromkeys(texts))
        hits_sql = ", ".join(
            "(SELECT count(*) FROM records WHERE words @@ phraseto_tsquery('simple', %s))" for _ in distinct
        )
        hits = dict(zip(distinct, db.execute(f"SELECT {hits_sql}", distinct).fetchone() or (), strict=True))
        if not any(hits.values()):
            return []
        avgdl = tokens / rows
        parts: list[str] = []
        params: list[tuple[str, list[Any], list[float]]] = []
        for phrase, text in zip(phrases, texts, strict=True):
            idf = math.log((rows - hits[text] + 0.5) / (hits[text] + 0.5))
            frequency, frequency_params = _frequency_sql(phrase)
            parts.append(
                f"%s::float8 * ((f{len(parts)} * %s::float8) / (f{len(parts)}"
                f" + %s::float8 * (1 - %s::float8 + %s::float8 * r.message_length / %s::float8)))"
            )
            params.append(
                (frequency, frequency_params, [idf if idf > 0 else 1e-6, _K1 + 1, _K1, _B, _B, avgdl])
            )
        # Each phrase's frequency is computed once per row (a LATERAL column), then weighed.
        lateral = ", ".join(f"({sql}) AS f{i}" for i, (sql, _, _) in enumerate(params))
        score = " + ".join(parts)
        match = " || ".join("phraseto_tsquery('simple', %s)" for _ in distinct)
        sql = (
            f"SELECT r.num, r.error_message, {score} AS score FROM records r,"
            f" LATERAL (SELECT {lateral}) f WHERE r.words @@ ({match})"
            " ORDER BY score DESC, r.num LIMIT %s"
        )
        # In the order the placeholders appear: the weights (in the score), then the frequencies.
        values: list[Any] = [v for _, _, weights in params for v in weights]
        values += [v for _, frequency_params, _ in params for v in frequency_params]
        values += [*distinct, limit]
        return [(num, message) for num, message, _ in db.execute(sql, values)]

    def _table_totals(self) -> tuple[int, int]:
        """Rows and tokens of all messages (bm25's N and average length), once per generation."""
        generation = self.generation()
        if self._totals is None or self._totals[0] != generation:
            rows, tokens = self._db.execute(
                "SELECT count(*), coalesce(sum(message_length), 0) FROM records"
            ).fetchone() or (0, 0)
            self._totals = (generation, int(rows), int(tokens))
        return max(1, self._totals[1]), max(1, self._totals[2])

    def _alike(self, text: str, limit: int) -> list[tuple[int, str]]:
        """The fuzzy tier: messages sharing most trigrams with the query's words."""
        return [
            (num, message)
            for num, message, _ in self._db.execute(
                "SELECT num, error_message, similarity(message_words, %s) AS alike FROM records"
                " WHERE message_words %% %s ORDER BY alike DESC, num LIMIT %s",
                (text, text, limit),
            )
        ]

    # -- caches, settings, corpus state ----------------------------------------------------

    @_database_errors
    def generation(self) -> int:
        """A number that changes whenever the records do."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    @_database_errors
    def cache_get(self, key: str) -> bytes | None:
        row = self._db.execute("SELECT data FROM cache WHERE key = %s", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    @_database_errors
    def cache_put(self, key: str, data: bytes) -> None:
        """Keep derived data beside the records, unless a writer holds the key now; skipped
        when the store is read-only or busy (a cache is rebuilt by whoever needs it next)."""
        if self.readonly:
            return
        try:
            with self._db.transaction():
                self._db.execute(f"SET LOCAL lock_timeout = '{_BEST_EFFORT_WAIT}'")
                self._db.execute(
                    "INSERT INTO cache (key, data) VALUES (%s, %s)"
                    " ON CONFLICT (key) DO UPDATE SET data = excluded.data",
                    (key, data),
                )
        except (pg_errors.LockNotAvailable, pg_errors.SerializationFailure, pg_errors.DeadlockDetected):
            return

    @_database_errors
    def extractions_get(self, keys: Iterable[str]) -> dict[str, bytes]:
        wanted = list(dict.fromkeys(keys))
        found: dict[str, bytes] = {}
        for start in range(0, len(wanted), _CHUNK):
            rows = self._db.execute(
                "SELECT key, data FROM extractions WHERE key = ANY(%s)", (wanted[start : start + _CHUNK],)
            )
            found.update((key, bytes(data)) for key, data in rows)
        return found

    @_database_errors
    def extractions_put(self, items: dict[str, bytes]) -> None:
        """Kept in a transaction of its own: a result cached is true whatever the records do."""
        if not items:
            return
        with self._transaction(), self._db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO extractions (key, data) VALUES (%s, %s)"
                " ON CONFLICT (key) DO UPDATE SET data = excluded.data",
                list(items.items()),
            )

    @_database_errors
    def corpus_add(self, requirements: Iterable[str]) -> list[str]:
        new = []
        with self._transaction() as db:
            for requirement in dict.fromkeys(requirements):
                row = db.execute(
                    "INSERT INTO corpus_requirements (requirement, added_at) VALUES (%s, %s)"
                    " ON CONFLICT DO NOTHING RETURNING requirement",
                    (requirement, utc_now()),
                ).fetchone()
                if row is not None:
                    new.append(requirement)
        return new

    @_database_errors
    def corpus_requirements(self) -> list[str]:
        rows = self._db.execute(
            'SELECT requirement FROM corpus_requirements ORDER BY added_at, requirement COLLATE "C"'
        )
        return [requirement for (requirement,) in rows]

    @_database_errors
    def plan_artifacts(self, artifacts: Iterable[Artifact]) -> list[Artifact]:
        """Queue new releases and releases whose file changed (its sha256 or name; every field
        replaced, no tries counted); a release already known by the same file keeps its state.
        One statement each, so planners running at once agree on what each of them queued."""
        columns = ", ".join(ARTIFACT_COLUMNS)
        replaced = ", ".join(
            f"{c} = excluded.{c}" for c in ARTIFACT_COLUMNS if c not in ("package", "version")
        )
        sql = (
            f"INSERT INTO artifacts ({columns}) VALUES ({', '.join(['%s'] * len(ARTIFACT_COLUMNS))})"
            f" ON CONFLICT (package, version) DO UPDATE SET {replaced}"
            " WHERE (artifacts.sha256, artifacts.filename)"
            " IS DISTINCT FROM (excluded.sha256, excluded.filename)"
            " RETURNING package"
        )
        queued = []
        with self._transaction() as db:
            for artifact in artifacts:
                fresh = artifact.but(
                    state="queued", reason=None, failure=None, attempts=0, records=0, updated_at=utc_now()
                )
                if db.execute(sql, astuple(fresh)).fetchone() is not None:
                    queued.append(fresh)
        return queued

    @_database_errors
    def artifacts(self, package: str | None = None) -> list[Artifact]:
        where, params = ("WHERE package = %s", (package,)) if package is not None else ("", ())
        query = f"SELECT {', '.join(ARTIFACT_COLUMNS)} FROM artifacts {where}"
        return sorted_artifacts(self._db.execute(query, params).fetchall())

    @_database_errors
    def mark_artifact(self, artifact: Artifact) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE artifacts SET state = %s, reason = %s, failure = %s, attempts = %s, records = %s,"
                " updated_at = %s WHERE package = %s AND version = %s",
                (
                    artifact.state, artifact.reason, artifact.failure, artifact.attempts, artifact.records,
                    artifact.updated_at or utc_now(), artifact.package, artifact.version,
                ),
            )  # fmt: skip

    @_database_errors
    def repos(self) -> list[RepoInfo]:
        """Every source stored, one per release, oldest release first within a package."""
        return repo_infos(self._db.execute(f"SELECT {', '.join(REPO_COLUMNS)} FROM repos").fetchall())

    @_database_errors
    def meta_get(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = %s", (f"user:{key}",)).fetchone()
        return None if row is None else str(row[0])

    @_database_errors
    def meta_put(self, key: str, value: str) -> None:
        """Keep a small setting beside the records; skipped when read-only, like the cache."""
        if self.readonly:
            return
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (f"user:{key}", value),
        )

    @_database_errors
    def stats(self) -> dict[str, int]:
        """Table sizes, then record counts per ``errorType:<type>``."""
        counts: dict[str, int] = {}
        for table in ("repos", "records", "sites"):
            row = self._db.execute(f"SELECT count(*) FROM {table}").fetchone()
            counts[table] = int(row[0]) if row else 0
        for error_type, count in self._db.execute(
            'SELECT error_type, count(*) FROM records GROUP BY error_type ORDER BY error_type COLLATE "C"'
        ):
            counts[f"errorType:{error_type}"] = int(count)
        return counts

    def close(self) -> None:
        self._db.close()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _record(row: tuple[Any, ...]) -> Record:
    return Record.model_validate_json(row[0])


def _frequency_sql(phrase: list[str]) -> tuple[str, list[Any]]:
    """SQL for how often ``phrase`` occurs in a row's words (FTS5's phrase instances): the
    positions of its first word followed, one by one, by its other words."""
    positions = "(SELECT positions FROM unnest(r.words) WHERE lexeme = %s)"
    if len(phrase) == 1:
        return f"coalesce(cardinality({positions}), 0)::float8", phrase
    following = " AND ".join(f"p + {k} = ANY({positions}::smallint[])" for k in range(1, len(phrase)))
    return f"(SELECT count(*)::float8 FROM unnest({positions}) AS p WHERE {following})", [
        phrase[0],
        *phrase[1:],
    ]


def _text(text: str) -> str:
    """Text PostgreSQL can hold: a NUL becomes its escape text (the record's JSON keeps it)."""
    return text.replace("\x00", "\\x00") if "\x00" in text else text


def _connect(url: str, shown: str, readonly: bool, create: bool) -> psycopg.Connection[Any]:
    """A connection to a database holding this store schema; creates the tables unless
    read-only or told not to."""
    try:
        db = psycopg.connect(url, autocommit=True, application_name="errdex")
    except psycopg.Error as exc:
        raise ErrdexError(f"cannot open {shown}: {str(exc).strip()}") from exc
    try:
        if readonly:
            # For the session, leaving any options the URL gives in place.
            db.execute("SET default_transaction_read_only = on")
        _prepare(db, shown, readonly or not create)
    except psycopg.Error as exc:
        db.close()
        raise ErrdexError(f"cannot use {shown} as an errdex database: {str(exc).strip()}") from exc
    except BaseException:
        db.close()
        raise
    return db


def _tables(db: psycopg.Connection[Any]) -> set[str]:
    rows = db.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    return {name for (name,) in rows}


def _prepare(db: psycopg.Connection[Any], shown: str, existing: bool) -> None:
    tables = _tables(db)
    if not tables:
        if existing:
            raise ErrdexError(
                f"no errdex database at {shown}: build one with errdex mine PATH --db URL (a source tree)"
            )
        with db.transaction():
            # Two first writers at once: the second waits, then finds the tables made.
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_CREATE_LOCK,))
            if not _tables(db):
                db.execute(_SCHEMA)  # a constant, several statements
        tables = _tables(db)
    if "meta" not in tables:
        raise ErrdexError(f"{shown} is not an errdex database (it holds other tables): give an empty one")
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None or row[0] != str(STORE_SCHEMA):
        raise OutdatedDatabase(shown, "none" if row is None else str(row[0]))
