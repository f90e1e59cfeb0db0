"""One read session over a store: what every front end asks of it.

The CLI (``errdex explain``, ``errdex show``), ``errdex.explain()``, the hooks, the HTTP API, the
pages and the MCP server all read through a :class:`Session`, so the same paste gives the same
records in the same order everywhere, and a record stored without prose gets it one way.

Each thread gets its own SQLite connection (connections are not shared across threads), all of
them one pattern index, reloaded when the store's records change.  Only the index and the
matcher are imported here: enrichment is imported when a record's prose is first read, so a
process that only ranks (``/api/search``) or fails early never pays for it.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from errdex import collector
from errdex.deadline import Deadline
from errdex.errors import ErrdexError
from errdex.match.explain import Answer, Match, Matcher, record_releases, release_range
from errdex.match.index import PatternIndex, load_index
from errdex.record import Record, RepoInfo, release_key
from errdex.store import Store, open_store

__all__ = ["MAX_LIMIT", "RELATED", "SearchHit", "Session"]

#: The most a search returns, as the existing API allows.
MAX_LIMIT = 25
#: Related records shown beside one record.
RELATED = 8
#: A serving session rebuilds its pattern index once the store has not changed for this many
#: seconds, or this long (``STALE``) after it first changed, whichever comes first.
QUIET = 1.0
STALE = 10.0
#: Characters from which a paste is large: read one at a time (see :meth:`Session.explain`).
LARGE_PASTE = 64_000


def _with_prose(record: Record) -> Record:
    """A record as a reader sees it: with its prose, written now if the store kept none (the
    environment index).  Enrichment is imported on first use, never by matching."""
    from errdex.enrich import with_prose as enriched

    return enriched(record)


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One search result in the existing API's shape (``/api/search``, MCP ``search_error``)."""

    match: Match

    def to_json(self) -> dict[str, object]:
        record = self.match.stored  # a search never pays for prose
        return {
            "id": record.id,
            "repo": record.repo,
            "code": record.error_code,
            "message": record.error_message,
            "score": round(self.match.score, 4),
            "matchType": self.match.evidence,
            "url": record.github_url,
        }


class Session(AbstractContextManager["Session"]):
    """A view of one store, safe to share between threads.

    Servers open it read-only (the default).  The CLI, the hooks and ``errdex.explain()`` pass
    ``readonly=False``, so that a pattern index built here is kept in the store for the next
    process.  ``serving`` is for a server that owns its process and outlives changes to the
    store (see :meth:`matcher`).
    """

    def __init__(self, db: str | os.PathLike[str], *, readonly: bool = True, serving: bool = False) -> None:
        self.db = os.fspath(db)
        self.readonly = readonly
        self.serving = serving
        self._local = threading.local()
        self._lock = threading.Lock()
        self._index: tuple[int, PatternIndex] | None = None
        #: The background rebuild of a serving session's index, while one runs.
        self._rebuild: threading.Thread | None = None
        self._version: tuple[int, str] | None = None
        self._large = threading.Lock()
        _ = self.store  # a store that cannot be opened fails now, with errdex's message

    @property
    def store(self) -> Store:
        """This thread's connection to the store, opened on first use."""
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = open_store(self.db, readonly=self.readonly, create=False)
            self._local.store = store
        return store

    def matcher(self) -> Matcher:
        """A matcher over this thread's connection and the store's pattern index.

        When the store's records change, a serving session goes on answering from the index it
        has while one background thread builds the new one (``_rebuilt``): a rebuild beside the
        server changes the records hundreds of times, and no request waits for an index.
        Anything else builds it now, on the way to its answer."""
        store = self.store
        generation = store.generation()
        with self._lock:
            held = self._index
            if held is None or (held[0] != generation and not self.serving):
                held = self._index = (generation, self._built(store))
            elif held[0] != generation and self._rebuild is None:
                self._rebuild = threading.Thread(target=self._rebuilt, name="errdex-index", daemon=True)
                self._rebuild.start()
            index = held[1]
        return Matcher(store, index, prose=_with_prose)

    def _built(self, store: Store) -> PatternIndex:
        index = load_index(store)
        if self.serving:
            # The index is hundreds of thousands of long-lived containers: left to the cyclic
            # collector, each full pass over them stalls every request in flight for tens of
            # milliseconds.  Frozen, they are never scanned.  It freezes the whole process, so
            # only a server that owns its process asks for it.
            gc.freeze()
        return index

    def _rebuilt(self) -> None:
        """Build the index anew once the store has been quiet for ``QUIET`` seconds (or, while it
        keeps changing, ``STALE`` seconds after it first changed), then put it in place."""
        try:
            with open_store(self.db, readonly=self.readonly, create=False) as store:
                start = quiet_since = time.monotonic()
                seen = store.generation()
                while (now := time.monotonic()) - quiet_since < QUIET and now - start < STALE:
                    time.sleep(QUIET / 10)
                    if (latest := store.generation()) != seen:
                        seen, quiet_since = latest, time.monotonic()
                # Read first: records changed while it builds make the next request build again.
                generation = store.generation()
                index = self._built(store)
            with self._lock:
                self._index, old = (generation, index), self._index
            # Once the requests still reading the old index are done, its memory goes back.
            del old
            time.sleep(QUIET)
            collector.release_memory()
        except ErrdexError as exc:  # the store went away or broke: requests report it themselves
            print(f"errdex: the pattern index was not rebuilt: {exc}", file=sys.stderr)
        finally:
            with self._lock:
                self._rebuild = None

    def explain(
        self, text: str, top: int = 5, deadline: Deadline | None = None, *, version: str | None = None
    ) -> Answer:
        """The records explaining a paste, best first; each match's ``record`` has its prose.
        Past ``deadline`` the lookup stops with ``Overtime``.  Records stored for several
        releases are answered of ``version``'s where the paste's paths name none (see
        ``Matcher.explain``).

        Large pastes are read one at a time: each costs tens of megabytes and a few hundred
        milliseconds while it is parsed, so a few at once would take a server's memory, and
        its time from everyone else's questions.  One that waits past its deadline is over."""
        if len(text) < LARGE_PASTE:
            return self.matcher().explain(text, top, deadline, version=version)
        if deadline is None:
            self._large.acquire()
        elif not self._large.acquire(timeout=deadline.left()):
            raise deadline.overtime()
        try:
            return self.matcher().explain(text, top, deadline, version=version)
        finally:
            self._large.release()

    def search(
        self, message: str, repo: str | None = None, limit: int = 10, deadline: Deadline | None = None
    ) -> list[SearchHit]:
        """Records explaining a message (or a pasted traceback), best first, in one repository
        if ``repo`` is given."""
        if not 1 <= limit <= MAX_LIMIT:
            raise ErrdexError(f"limit must be between 1 and {MAX_LIMIT}")
        # Asked for more when filtering by repository, so that the filter still leaves enough.
        answer = self.matcher().explain(message, MAX_LIMIT * 4 if repo else limit, deadline)
        matches = [m for m in answer.matches if repo is None or m.stored.repo == repo]
        return [SearchHit(m) for m in matches[:limit]]

    def get(self, key: str, version: str | None = None) -> Record | None:
        """A record by id or ``owner/name/slug`` (of release ``version``, else the newest that
        has it), with its prose."""
        record = self.store.get(key, version)
        return None if record is None else _with_prose(record)

    def releases(self, record: Record) -> list[str]:
        """The releases the store has the record of, oldest first; empty without versions."""
        return record_releases(self.store, record)

    def repos(self) -> list[RepoInfo]:
        return self.store.repos()

    def records(self, repo: str) -> list[Record]:
        """A repository's records as stored (the table of a repository's errors needs no prose),
        each once: of the newest release the store has it of."""
        newest: dict[str, Record] = {}
        for record in self.store.records(repo):
            held = newest.get(record.id)
            if held is None or release_key(record.version) > release_key(held.version):
                newest[record.id] = record
        return list(newest.values())

    def related(self, record: Record) -> list[Record]:
        """Records raised by the same function, then records of the same family, in its repository."""
        same_function = []
        same_family = []
        for other in self.store.records(record.repo):
            if other.id == record.id or other.version != record.version:
                continue
            if record.function and other.function == record.function:
                same_function.append(other)
            elif record.background_tag and _family(other) == record.background_tag:
                same_family.append(other)
        return (same_function + same_family)[:RELATED]

    def record_answer(self, record: Record) -> dict[str, Any]:
        """One record as the HTTP API and the MCP server return it: in the existing dataset's
        schema v2, with the dataset version; and where a model wrote some of its fields, which
        ones and who (``modelProse``), since schema v2 has no place to say so; and the releases
        the store has it of (``releases``: first, last, all), for a corpus of several."""
        answer: dict[str, Any] = {"record": record.to_errlookup(), "datasetVersion": self.dataset_version()}
        if (releases := release_range(self.releases(record))) is not None:
            answer["releases"] = releases
        if record.model_prose:
            answer["modelProse"] = {
                name: written.model_dump(by_alias=True, mode="json")
                for name, written in record.model_prose.items()
            }
        return answer

    def dataset_version(self) -> str:
        """When the store last changed: the newest mining time among its sources (kept until
        the records change: every answer carries it)."""
        generation = self.store.generation()
        cached = self._version
        if cached is None or cached[0] != generation:
            newest = max((info.analyzed_at for info in self.repos()), default="1970-01-01T00:00:00.000Z")
            cached = self._version = (generation, newest)
        return cached[1]

    def close(self) -> None:
        """Close this thread's connection (another thread's closes with that thread)."""
        store = getattr(self._local, "store", None)
        if store is not None:
            store.close()
            self._local.store = None

    def __exit__(self, *exc: object) -> None:
        self.close()


def _family(record: Record) -> str | None:
    """A record's family: stored, or classified now (far cheaper than enriching it whole)."""
    if record.enrichment != "none":
        return record.background_tag
    from errdex.enrich.taxonomy import classify_record

    found = classify_record(record)
    return found.tag if found else None
