"""What every server front end asks of a store: the HTTP API, the pages and the MCP server.

One matcher answers all of them, so a search on the web page, over the API and from a coding
agent gives the same records in the same order.  The store is opened read-only; each thread
gets its own SQLite connection (connections are not shared across threads), all of them one
pattern index, reloaded when the store's records change.
"""

from __future__ import annotations

import gc
import threading
from dataclasses import dataclass
from pathlib import Path

from errdex.enrich import with_prose
from errdex.enrich.taxonomy import classify
from errdex.errors import ErrdexError
from errdex.match.explain import Answer, Match, Matcher
from errdex.match.index import PatternIndex, load_index
from errdex.record import Record, RepoInfo
from errdex.store import Store, open_store

#: The most a search returns, as the existing API allows.
MAX_LIMIT = 25
#: Related records shown beside one record.
RELATED = 8


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One search result in the existing API's shape."""

    match: Match

    def to_json(self) -> dict[str, object]:
        record = self.match.stored
        return {
            "id": record.id,
            "repo": record.repo,
            "code": record.error_code,
            "message": record.error_message,
            "score": round(self.match.score, 4),
            "matchType": self.match.evidence,
            "url": record.github_url,
        }


class Service:
    """A read-only view of one store, safe to share between threads."""

    def __init__(self, db: str | Path, *, readonly: bool = True, freeze_index: bool = False) -> None:
        """``readonly=False`` lets the pattern index, when built, be kept in the store for the
        next process (a hook's); ``freeze_index`` is for a server process (see ``matcher``)."""
        self.db = str(db)
        self.readonly = readonly
        self.freeze_index = freeze_index
        self._local = threading.local()
        self._lock = threading.Lock()
        self._index: tuple[int, PatternIndex] | None = None
        self._version: tuple[int, str] | None = None
        self.dataset_version()  # fails now, with errdex's message, if the store cannot be opened

    @property
    def store(self) -> Store:
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = open_store(self.db, readonly=self.readonly, create=False)
            self._local.store = store
        return store

    def matcher(self) -> Matcher:
        store = self.store
        generation = store.generation()
        with self._lock:
            if self._index is None or self._index[0] != generation:
                self._index = (generation, load_index(store))
                if self.freeze_index:
                    # The index is hundreds of thousands of long-lived containers: left to the
                    # cyclic collector, each full pass over them stalls every request in flight
                    # for tens of milliseconds.  Frozen, they are never scanned.  It freezes the
                    # whole process, so only a server that owns its process asks for it.
                    gc.freeze()
            index = self._index[1]
        return Matcher(store, index)

    def search(self, message: str, repo: str | None = None, limit: int = 10) -> list[SearchHit]:
        """Records explaining a message (or a pasted traceback), best first, in one repository
        if ``repo`` is given."""
        if not 1 <= limit <= MAX_LIMIT:
            raise ErrdexError(f"limit must be between 1 and {MAX_LIMIT}")
        # Asked for more when filtering by repository, so that the filter still leaves enough.
        answer = self.matcher().explain(message, MAX_LIMIT * 4 if repo else limit)
        matches = [m for m in answer.matches if repo is None or m.stored.repo == repo]
        return [SearchHit(m) for m in matches[:limit]]

    def explain(self, text: str, top: int = 5) -> Answer:
        return self.matcher().explain(text, top)

    def get(self, key: str) -> Record | None:
        """A record by id or ``owner/name/slug``, with its prose."""
        record = self.store.get(key)
        return None if record is None else with_prose(record)

    def repos(self) -> list[RepoInfo]:
        return self.store.repos()

    def records(self, repo: str) -> list[Record]:
        """A repository's records as stored (the table of a repository's errors needs no prose)."""
        return list(self.store.records(repo))

    def related(self, record: Record) -> list[Record]:
        """Records raised by the same function, then records of the same family, in its repository."""
        same_function = []
        same_family = []
        for other in self.store.records(record.repo):
            if other.id == record.id:
                continue
            if record.function and other.function == record.function:
                same_function.append(other)
            elif record.background_tag and _family(other) == record.background_tag:
                same_family.append(other)
        return (same_function + same_family)[:RELATED]

    def close(self) -> None:
        store = getattr(self._local, "store", None)
        if store is not None:
            store.close()
            self._local.store = None

    def dataset_version(self) -> str:
        """When the store last changed: the newest mining time among its sources (kept until
        the records change: every answer carries it)."""
        generation = self.store.generation()
        cached = self._version
        if cached is None or cached[0] != generation:
            newest = max((info.analyzed_at for info in self.repos()), default="1970-01-01T00:00:00.000Z")
            cached = self._version = (generation, newest)
        return cached[1]


def _family(record: Record) -> str | None:
    """A record's family: stored, or classified now (far cheaper than enriching it whole)."""
    if record.enrichment != "none":
        return record.background_tag
    found = classify(record.error_message, record.error_class, record.conditions)
    return found.tag if found else None
