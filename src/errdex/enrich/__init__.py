"""Enrich records: explanation, triggers, solutions and defensive code, from their facts.

``enrich`` is deterministic and offline (``errdex.enrich.static``); a record it enriched says
``enrichment="static"`` and lists, per field, the facts the field was written from.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable

from errdex.enrich.advice import advice
from errdex.enrich.static import enrich_record
from errdex.record import Record

__all__ = ["enrich", "enrich_record", "repeated_prose", "with_prose"]

log = logging.getLogger(__name__)


def enrich(records: Iterable[Record]) -> list[Record]:
    """The records with their prose; one whose prose cannot be written is kept without it
    (``enrichment="none"``, logged), so a mine never loses it or the others."""
    return [_enriched(r) for r in records]


def with_prose(record: Record) -> Record:
    """A record as a reader should see it: enriched now if it was stored without prose.

    The environment index stores records as mined: enriching tens of thousands of records
    would cost most of a minute, and a reader only ever looks at a few (about 1 ms each).
    """
    return _enriched(record) if record.enrichment == "none" else record


def _enriched(record: Record) -> Record:
    """``enrich_record``, or the record as it came where that fails.

    Deliberately any ``Exception``: this is the one boundary around one record's prose, and
    prose is an extra (the record as mined is what matches and is shown), so a rule failing on
    facts no one foresaw (a ``RecursionError`` on code nested too deep, or a bug) costs that
    record its prose, in the log, never the mine or the page reading it.
    """
    try:
        return enrich_record(record)
    except Exception as exc:
        log.warning(
            "%s (%s:%d): prose left out, enrichment failed: %s: %s",
            record.id, record.file_path, record.line_number, type(exc).__name__, exc,
        )  # fmt: skip
        return record


def repeated_prose(records: Iterable[Record]) -> dict[str, set[tuple[str, str | None]]]:
    """Prose that records in different functions share word for word: the mark of filler.

    Each text maps to the (file, function) pairs using it.  A solution quoting the message's
    own advice is left out: it repeats exactly where the message does.  Empty for errdex's
    own enrichment; a check for any other (a model's, an import).
    """
    owners: dict[str, set[tuple[str, str | None]]] = defaultdict(set)
    for record in records:
        quoted = {a.text.rstrip(".") for a in advice(record.error_message, record.message_pattern)}
        texts = [record.documentation, record.trigger_scenarios, record.common_situations]
        texts += [s for s in record.solutions if s.rstrip(".") not in quoted]
        texts += record.prevention_tips
        for text in filter(None, texts):
            owners[text].add((record.file_path, record.function))
    return {text: where for text, where in owners.items() if len(where) > 1}
