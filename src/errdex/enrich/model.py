"""Prose from a language model, kept field by field only where the record's facts back it.

``errdex enrich --llm URL --model NAME`` asks any OpenAI-compatible chat endpoint (a local
llama.cpp, vLLM or ollama server, or a hosted one) about each record, through the official
``openai`` client (the ``llm`` extra), which retries rate limits, timeouts and server errors with
exponential backoff.  Every answer is checked before anything is kept:

* an empty, truncated (``finish_reason == "length"``), non-JSON or off-schema answer is a
  failure, counted by its reason, never a success, and the record keeps all it had;
* each field of an answer that parses goes through ``errdex.enrich.verify``; a field that fails
  is dropped and counted by its reason, the static field stays;
* each field kept names its model, the server's version string (``system_fingerprint``) and the
  prompt version (``Record.model_prose``).

Answers are cached by content (``errdex.enrich.prompt.content_key``) in the store's cache: a rerun
sends only records whose facts or source changed, and a record mined again gets back the model
prose whose key still matches (``keep_model_prose``).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from errdex.enrich import with_prose
from errdex.enrich.prompt import FIELDS, PROMPT_VERSION, answer_schema, content_key, messages
from errdex.enrich.verify import Checker
from errdex.errors import ErrdexError
from errdex.record import ModelProse, Record
from errdex.symbols import SymbolTable


class Store(Protocol):
    """What of a store the model loop uses: its cache, its metadata, writing prose back."""

    def cache_get(self, key: str) -> bytes | None: ...

    def cache_put(self, key: str, data: bytes) -> None: ...

    def meta_get(self, key: str) -> str | None: ...

    def meta_put(self, key: str, value: str) -> None: ...

    def update_prose(self, records: Iterable[Record]) -> int: ...

    def symbols(self, repo: str, package: str | None, version: str | None) -> SymbolTable | None: ...

    def symbol_providers(self) -> dict[str, tuple[str, str, str]]: ...


#: Tokens a model may write for one record: the longest answer the schema admits is shorter.
MAX_ANSWER_TOKENS = 1_500
#: Records read, asked about and written back at a time: a run over a whole environment's
#: index holds one batch (and the tables it needs), never every record.
BATCH = 256
#: Symbol tables held at once (a release's is a few MB for the largest libraries).
_TABLES = 8
_CACHE = "model-prose:"
#: The store's record of which models wrote prose, so that a mine knows which keys to look up.
_MODELS = "model-prose-models"
#: Python attribute of each schema v2 field a model may write.
_ATTRIBUTE = {
    name: attr for attr, info in Record.model_fields.items() if (name := info.alias or attr) in FIELDS
}


@dataclass(slots=True)
class Summary:
    """What a run did, as the command reports it."""

    records: int = 0
    #: Records whose answer came from the cache, or whose model prose was already current.
    cached: int = 0
    current: int = 0
    sent: int = 0
    calls_failed: Counter[str] = field(default_factory=Counter)
    fields_kept: Counter[str] = field(default_factory=Counter)
    #: (field, reason) -> count.
    fields_rejected: Counter[tuple[str, str]] = field(default_factory=Counter)
    tokens: int = 0
    #: Records not sent because the token budget was spent.
    over_budget: int = 0
    changed: int = 0


@dataclass(frozen=True, slots=True)
class Answer:
    """One model answer, checked: the fields kept, and why the others were not."""

    kept: dict[str, Any]
    rejected: dict[str, str]
    model: str
    model_version: str | None
    #: Why the model gave no answer to check, where asking again would get the same: an empty,
    #: non-JSON, off-schema or cut answer at temperature 0 (a timeout is asked again).
    failure: str | None = None
    #: The tokens the answer was allowed: an answer cut short is asked again with more.
    max_tokens: int | None = None

    def dumps(self) -> bytes:
        raw = {
            "kept": self.kept,
            "rejected": self.rejected,
            "model": self.model,
            "version": self.model_version,
            "failure": self.failure,
            "max_tokens": self.max_tokens,
        }
        return json.dumps(raw, ensure_ascii=False).encode("utf-8", "surrogatepass")

    @classmethod
    def loads(cls, data: bytes) -> Answer | None:
        try:
            raw = json.loads(data.decode("utf-8", "surrogatepass"))
            kept, rejected = dict(raw["kept"]), dict(raw["rejected"])
            return cls(kept, rejected, str(raw["model"]), raw["version"], raw["failure"], raw["max_tokens"])
        except (ValueError, KeyError, TypeError):
            return None  # a cache entry another version wrote: asked again


class Failure(Exception):
    """A call that gave no usable answer, by reason (``empty answer``, ``truncated`` ...), and
    the tokens it cost all the same."""

    def __init__(self, reason: str, tokens: int = 0) -> None:
        super().__init__(reason)
        self.tokens = tokens

    @property
    def lasting(self) -> bool:
        """Whether the same question would get the same failure: the model's own answer."""
        return str(self).startswith(("empty answer", "not JSON", "off-schema", "truncated"))


class Asker:
    """One chat endpoint and model, asked about one record at a time (thread-safe)."""

    def __init__(
        self,
        url: str,
        model: str,
        api_key: str | None,
        *,
        timeout: float,
        retries: int,
        max_tokens: int = MAX_ANSWER_TOKENS,
    ) -> None:
        try:
            import openai
        except ImportError as exc:  # the llm extra is optional
            raise ErrdexError("--llm needs the openai client: pip install 'errdex[llm]'") from exc
        self.model = model
        self.max_tokens = max_tokens
        self._openai = openai
        self._lock = threading.Lock()
        schema = {"type": "json_schema", "json_schema": {"name": "errdex_prose", "schema": answer_schema()}}
        #: OpenAI's structured output; llama.cpp's JSON mode under a schema; any JSON; none.
        self._formats: list[dict[str, Any]] = [
            {"response_format": schema},
            {"response_format": {"type": "json_object", "schema": answer_schema(bounded=False)}},
            {"response_format": {"type": "json_object"}},
            {},
        ]
        self._format: dict[str, Any] | None = None
        self._client = openai.OpenAI(
            base_url=url, api_key=api_key or "none", timeout=timeout, max_retries=retries
        )

    def _create(self, request: dict[str, Any]) -> Any:
        """One completion, under the strictest answer format the server takes: a JSON schema
        (OpenAI's structured output), else any JSON object, else none; the first the server
        does not refuse is used from then on (errdex validates the answer either way)."""
        openai = self._openai
        with self._lock:
            formats = self._formats if self._format is None else [self._format]
        for fmt in formats:
            # While the format is unknown, a refusal is not retried: it would be refused again.
            client = self._client if self._format is not None else self._client.with_options(max_retries=0)
            try:
                response = client.chat.completions.create(**request, **fmt)
            except openai.APITimeoutError as exc:
                raise Failure("timed out") from exc
            except openai.APIConnectionError as exc:
                raise Failure("no connection") from exc
            except openai.APIStatusError as exc:
                if self._format is None and fmt and "response_format" in str(exc):
                    continue  # this server does not take that format: the next one
                raise Failure(f"HTTP {exc.status_code}") from exc
            except openai.APIError as exc:  # a body the client could not read
                raise Failure(f"bad response: {type(exc).__name__}") from exc
            with self._lock:
                self._format = fmt
            return response
        raise Failure("HTTP error: no answer format taken")

    def ask(self, record: Record) -> Asked:
        """The model's answer for ``record``, read but not yet checked, and the tokens it cost;
        ``Failure`` when it gave none that can be read.  Safe on any thread: it reads the record,
        never the store (checking it does, so the caller's thread checks it: ``Asked.checked``)."""
        request: dict[str, Any] = {
            "model": self.model,
            "messages": messages(record),
            "temperature": 0,
            "seed": 0,
            "max_tokens": self.max_tokens,
        }
        response = self._create(request)
        usage = response.usage
        tokens = usage.total_tokens if usage is not None else 0
        if not response.choices:
            raise Failure("no choice", tokens)
        choice = response.choices[0]
        content = choice.message.content
        if choice.finish_reason == "length":
            raise Failure("truncated", tokens)
        if content is None or not content.strip():
            raise Failure("empty answer", tokens)
        try:
            parsed = json.loads(content)
        except ValueError as exc:
            raise Failure("not JSON", tokens) from exc
        if not isinstance(parsed, dict):
            raise Failure("off-schema: not an object", tokens)
        if not any(name in FIELDS for name in parsed):
            raise Failure("off-schema: no field errdex takes", tokens)
        return Asked(parsed, response.system_fingerprint or None, tokens)


@dataclass(frozen=True, slots=True)
class Asked:
    """An answer as the model gave it, before any field of it is checked."""

    fields: dict[str, Any]
    model_version: str | None
    tokens: int

    def checked(self, record: Record, model: str, checker: Checker | None = None) -> Answer:
        """The answer with each field checked against the record (``checker``: its release's
        symbol table beside the language's names)."""
        verdict = (checker or Checker.of(record.language, None)).verify(record, self.fields)
        return Answer(verdict.kept, verdict.rejected, model, self.model_version)


class Tables:
    """The checks each record's answer goes through: its release's symbol table, with the tables
    of the other releases the store holds beside it (a fix's ``import torch`` is checked against
    torch's table where the store has one), each read once and a few held at a time.  Used from
    the thread that holds the store only (``_Run._finished``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tables: dict[tuple[str, str, str], SymbolTable | None] = {}
        self._providers: dict[str, tuple[str, str, str]] | None = None
        self._checkers: dict[tuple[str, str, str, str], Checker] = {}

    def checker(self, record: Record) -> Checker:
        release = (record.repo, record.package or "", record.version or "")
        key = (*release, record.language)
        found = self._checkers.get(key)
        if found is None:
            if len(self._checkers) >= _TABLES:
                self._checkers.clear()
                self._tables.clear()
            found = self._checkers[key] = Checker.of(record.language, self._table(release), self._other)
        return found

    def _table(self, release: tuple[str, str, str]) -> SymbolTable | None:
        if release not in self._tables:
            self._tables[release] = self.store.symbols(*release)
        return self._tables[release]

    def _other(self, root: str) -> SymbolTable | None:
        """The table of the newest release the store holds that answers for ``root``."""
        if self._providers is None:
            self._providers = self.store.symbol_providers()
        release = self._providers.get(root)
        return self._table(release) if release is not None else None


def enrich_with_model(
    store: Store,
    records: Iterable[Record],
    asker: Asker,
    *,
    only_missing: bool = False,
    limit: int | None = None,
    concurrency: int = 1,
    budget_tokens: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    expected: int = 0,
) -> Summary:
    """Ask the model about each record not already current, keep what passes, write it back.

    A record asked is one whose cache key (its facts, source, the model, the prompt version) has
    no answer yet; ``only_missing`` skips records with any model prose, ``limit`` caps the records
    sent, ``budget_tokens`` stops sending once the tokens used reach it.  ``records`` are read
    ``BATCH`` at a time, and each batch's prose is written before the next is read, so a run
    holds one batch whatever the store's size; ``progress`` is told the records done of
    ``expected``."""
    run = _Run(
        store, asker, Tables(store), only_missing, limit, concurrency, budget_tokens, progress, expected
    )
    _remember_model(store, asker.model)
    batch: list[Record] = []
    for record in records:
        batch.append(record)
        if len(batch) >= BATCH:
            run.batch(batch)
            batch = []
    if batch:
        run.batch(batch)
    return run.summary


@dataclass
class _Run:
    """One ``enrich_with_model`` run: its settings, and what it has done so far."""

    store: Store
    asker: Asker
    tables: Tables
    only_missing: bool
    limit: int | None
    concurrency: int
    budget: int | None
    progress: Callable[[int, int], None] | None
    expected: int
    summary: Summary = field(default_factory=Summary)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Records handled (current, cached or answered), for the progress bar.
    done: int = 0

    def batch(self, records: list[Record]) -> None:
        """The cached answers applied, the others asked, and what changed written back."""
        summary, asker, store = self.summary, self.asker, self.store
        todo: list[tuple[Record, str]] = []
        changed: list[Record] = []
        for record in records:
            summary.records += 1
            if self.only_missing and record.model_prose:
                summary.current += 1
                continue
            key = content_key(record, asker.model)
            if record.model_prose and all(p.key == key for p in record.model_prose.values()):
                summary.current += 1
                continue
            cached = _cached(store, key)
            if (
                cached is not None
                and cached.failure == "truncated"
                and asker.max_tokens > (cached.max_tokens or 0)
            ):
                cached = None  # cut short before: asked again, with more room
            if cached is not None:
                summary.cached += 1
                if cached.kept:
                    changed.append(apply(record, cached, key))
                continue
            todo.append((record, key))
        if self.limit is not None:
            todo = todo[: max(0, self.limit - summary.sent)]
        self._tick(len(records) - len(todo))
        sent = summary.sent
        for record, key, outcome in _asked(asker, todo, self.concurrency, summary, self.budget, self.lock):
            answered = self._finished(record, key, outcome)
            if answered is not None and answered.kept:
                changed.append(apply(record, answered, key))
            self._tick(1)
        summary.over_budget += len(todo) - (summary.sent - sent)
        summary.changed += store.update_prose(changed) if changed else 0

    def _finished(self, record: Record, key: str, outcome: Asked | Failure) -> Answer | None:
        """One call's outcome counted and cached; an answer checked, here, in the thread that
        holds the store (the checks read its symbol tables)."""
        summary, store = self.summary, self.store
        with self.lock:
            if isinstance(outcome, Failure):
                summary.calls_failed[str(outcome)] += 1
                summary.tokens += outcome.tokens
                if outcome.lasting:
                    failed = Answer({}, {}, self.asker.model, None, str(outcome), self.asker.max_tokens)
                    store.cache_put(_CACHE + key, failed.dumps())
                return None
            answer = outcome.checked(record, self.asker.model, self.tables.checker(record))
            summary.tokens += outcome.tokens
            summary.fields_kept.update(list(answer.kept))
            summary.fields_rejected.update(answer.rejected.items())
            store.cache_put(_CACHE + key, answer.dumps())
            return answer

    def _tick(self, n: int) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(self.done, max(self.expected, self.done))


def _asked(
    asker: Asker,
    todo: list[tuple[Record, str]],
    concurrency: int,
    summary: Summary,
    budget: int | None,
    lock: threading.Lock,
) -> Iterator[tuple[Record, str, Asked | Failure]]:
    """Each record's outcome as it comes, at most ``concurrency`` calls at once, none started
    once the tokens used reach ``budget``."""

    def one(record: Record) -> Asked | Failure:
        try:
            return asker.ask(record)  # the prompt reads facts, never prose
        except Failure as failure:
            return failure

    with ThreadPoolExecutor(max(1, concurrency)) as pool:
        running: dict[Future[Asked | Failure], tuple[Record, str]] = {}
        queue = iter(todo)
        while True:
            while len(running) < max(1, concurrency):
                with lock:
                    spent = budget is not None and summary.tokens >= budget
                item = None if spent else next(queue, None)
                if item is None:
                    break
                summary.sent += 1
                running[pool.submit(one, item[0])] = item
            if not running:
                return
            ready, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in ready:
                record, key = running.pop(future)
                yield record, key, future.result()


def apply(record: Record, answer: Answer, key: str) -> Record:
    """The record with the fields the model wrote in place of its own, each with who wrote it.
    A record never loses a field: a field not kept stays as it was (enriched first if stored
    without prose)."""
    base = with_prose(record)
    if not answer.kept:
        return base
    written = ModelProse(
        model=answer.model, model_version=answer.model_version, prompt_version=PROMPT_VERSION, key=key
    )
    update: dict[str, Any] = {_ATTRIBUTE[name]: value for name, value in answer.kept.items()}
    update["model_prose"] = {**base.model_prose, **dict.fromkeys(answer.kept, written)}
    return base.model_copy(update=update)


def keep_model_prose(store: Store, records: list[Record]) -> list[Record]:
    """Records mined again, with the model prose cached for their facts as they are now: prose
    asked about other facts (a changed guard, a moved line) is not brought back."""
    models = _models(store)
    if not models:
        return records
    out = []
    for record in records:
        for model in models:
            key = content_key(record, model)
            cached = _cached(store, key)
            if cached is not None and cached.kept:
                record = apply(record, cached, key)
                break
        out.append(record)
    return out


def _cached(store: Store, key: str) -> Answer | None:
    data = store.cache_get(_CACHE + key)
    return None if data is None else Answer.loads(data)


def _models(store: Store) -> list[str]:
    raw = store.meta_get(_MODELS)
    try:
        models = json.loads(raw) if raw else []
    except ValueError:
        return []
    return [m for m in models if isinstance(m, str)]


def _remember_model(store: Store, model: str) -> None:
    models = _models(store)
    if model not in models:
        store.meta_put(_MODELS, json.dumps([*models, model]))


def with_model_prose(written: Record, enriched: Record) -> Record:
    """``enriched`` (errdex's own prose written again) with the fields a model wrote in
    ``written`` kept: static enrichment never replaces a model's prose unless asked to."""
    if not written.model_prose:
        return enriched
    kept = {_ATTRIBUTE[name]: getattr(written, _ATTRIBUTE[name]) for name in written.model_prose}
    return enriched.model_copy(update={**kept, "model_prose": written.model_prose})
