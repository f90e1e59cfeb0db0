"""Checks a model's answer against the record it is about, field by field, before keeping any.

Each rule is deterministic and reads only the record (its facts and source window) and the
answer; a field that breaks one is dropped with the rule's reason, and the record keeps what it
had for that field.  The rules, in order:

1. **A field errdex takes**, of the shape the schema gives (``errdex.enrich.prompt``): text not
   empty and not past its bound, lists of such text, code as text.
2. **No URL, package or version the facts do not name**: a link must appear in the record's
   text (its message, docstrings, source window, permalink); ``pip install X`` must install the
   record's own package; a version number must be one the facts carry.
3. **Exception classes that agree with the record**: a class named in prose or caught or raised
   in code is the record's own class, a builtin one of its language, or one its facts name.
4. **Code that parses** in the record's language, and calls or imports only names the source
   window, the facts or the package have (or the language's standard library, or what the
   snippet defines itself).
5. **No condition contradicting a guard**: prose that says the error happens "when `test`"
   where `test` is the negation of a guard on the way to the raise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from errdex.enrich.prompt import CODE_FIELDS, FIELDS, LIST_FIELDS, MAX_CODE, MAX_ITEM, MAX_ITEMS, MAX_TEXT
from errdex.languages import find
from errdex.record import Record

_URL = re.compile(r"https?://[^\s`'\"<>)\]]+")
_VERSION = re.compile(r"\b(?:v|version\s+)?(\d+\.\d+(?:\.\d+)+|\d+\.\d+(?=\s*(?:release|version)))\b", re.I)
_INSTALL = re.compile(
    r"\b(?:pip3?|uv\s+pip|conda|poetry|uv)\s+(?:install|add)\s+(?:(?:-U|--upgrade|--user)\s+)*"
    r"[\"']?([A-Za-z0-9][A-Za-z0-9._\-]*)"
)
_CLASS = re.compile(r"\b([A-Z][A-Za-z0-9]*(?:Error|Exception|Warning))\b")
_WORD = re.compile(r"[A-Za-z_]\w*")
_WHEN = re.compile(r"\b(?:when|whenever|if)\s+`([^`\n]{1,200})`", re.I)
#: Prose fields that say when the error happens (solutions may well name a guard's negation).
_WHEN_FIELDS = ("documentation", "triggerScenarios", "commonSituations")


@dataclass(slots=True)
class Verdict:
    """What of an answer may be kept (by schema v2 field name) and why the rest may not."""

    kept: dict[str, Any] = field(default_factory=dict)
    rejected: dict[str, str] = field(default_factory=dict)


def verify(record: Record, answer: Mapping[str, Any]) -> Verdict:
    """Each field of ``answer`` kept, normalised, or rejected with the reason."""
    verdict = Verdict()
    known = _Known(record)
    for name, value in answer.items():
        reason = _check(record, known, name, value)
        if reason is None:
            verdict.kept[name] = _normalised(value)
        else:
            verdict.rejected[name] = reason
    return verdict


def _check(record: Record, known: _Known, name: str, value: Any) -> str | None:
    if name not in FIELDS:
        return "not a field errdex takes"
    if (shape := _shape(name, value)) is not None:
        return shape
    texts = value if isinstance(value, list) else [value]
    for text in texts:
        if (reason := _text(record, known, text)) is not None:
            return reason
    if name in CODE_FIELDS:
        return _code(record, known, value)
    if name in _WHEN_FIELDS:
        return _guards(record, known, value)
    return None


def _shape(name: str, value: Any) -> str | None:
    if name in LIST_FIELDS:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            return "not a list of text"
        if len(value) > MAX_ITEMS:
            return f"more than {MAX_ITEMS} items"
        if any(not v.strip() for v in value):
            return "an empty item"
        if any(len(v) > MAX_ITEM for v in value):
            return f"an item over {MAX_ITEM} characters"
        return None
    if not isinstance(value, str) or not value.strip():
        return "empty" if isinstance(value, str) else "not text"
    limit = MAX_CODE if name in CODE_FIELDS else MAX_TEXT
    return f"over {limit} characters" if len(value) > limit else None


def _normalised(value: Any) -> Any:
    return [v.strip() for v in value] if isinstance(value, list) else value.strip("\n").rstrip()


class _Known:
    """What the record's facts name: the text a model may quote, the words it may call."""

    def __init__(self, record: Record) -> None:
        facts = record.facts
        parts = [
            record.error_message,
            record.source_code,
            record.function or "",
            record.qualified_class or "",
            record.github_url or "",
            record.package or "",
            record.version or "",
            record.file_path,
            facts.signature or "",
            facts.docstring or "",
            facts.raises_doc or "",
            facts.class_doc or "",
            *facts.parameter_docs.values(),
            *(g.text for g in facts.guards),
            *(c.function for c in facts.callers),
            *(e.function for e in facts.entry_points),
            *(t.call or "" for t in facts.tests),
            *(p.name for p in facts.parameters),
        ]
        self.text = "\n".join(parts)
        self.words = set(_WORD.findall(self.text))
        self.versions = set(_VERSION.findall(self.text)) | ({record.version} if record.version else set())
        language = find(record.language)
        self.language = language
        self.package = language.package_of(record.file_path) if language is not None else None
        short = (record.error_class or "").rpartition(".")[2]
        builtin = language.builtin_classes if language is not None else frozenset()
        self.classes = {short} | set(builtin) | set(_CLASS.findall(self.text))


def _text(record: Record, known: _Known, text: str) -> str | None:
    for url in _URL.findall(text):
        if url.rstrip(".,;:") not in known.text:
            return f"names a URL the facts do not ({url})"
    for version in _VERSION.findall(text):
        if version not in known.versions:
            return f"names a version the facts do not ({version})"
    for package in _INSTALL.findall(text):
        if _dist(package) not in {_dist(record.package or ""), _dist(known.package or "")}:
            return f"installs a package the facts do not name ({package})"
    for name in _CLASS.findall(text):
        if name not in known.classes:
            return f"names an exception class the record does not ({name})"
    return None


def _dist(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _code(record: Record, known: _Known, code: str) -> str | None:
    language = known.language
    if language is None:
        return f"no reader for {record.language} code"
    used = language.code.used(code)
    if used is None:
        return f"does not parse as {record.language}"
    for module in used.imports:
        root = module.lstrip(".").split(".")[0]
        # An npm specifier names its package before any path into it (``lodash/fp``, ``@s/n/x``).
        root = "/".join(root.split("/")[: 2 if root.startswith("@") else 1])
        if not (root in known.words or root == known.package or language.code.is_standard(root)):
            return f"imports what the facts do not name ({module})"
    imported = {m.rpartition(".")[2] for m in used.imports} | {m.split(".")[0] for m in used.imports}
    for called in sorted(used.calls):
        start = _WORD.match(called)
        if start is not None and start.group() not in known.words and start.group() not in imported:
            return f"calls what the facts do not name ({called})"
    for cls in used.classes:
        if cls.rpartition(".")[2] not in known.classes:
            return f"catches or raises a class the record does not ({cls})"
    return None


def _guards(record: Record, known: _Known, text: str) -> str | None:
    reader = known.language.call_reader if known.language is not None else None
    if reader is None:
        return None
    needed = [
        f"not ({g.text})" if g.negated else g.text
        for g in record.facts.guards
        if g.kind in ("if", "elif", "else", "while", "assert", "early-exit") and g.text
    ]
    for stated in _WHEN.findall(text):
        for guard in needed:
            if reader.contradicts(stated, True, guard):
                return f"says it is raised when `{stated}`, where the raise needs `{guard}`"
    return None
