"""From a pasted error to ranked records, with the evidence for each.

Evidence, strongest first: a record raised at the line a traceback frame points to; a
pattern that fully matches the message, with the printed class agreeing; a pattern match
alone; and a fuzzy likeness when no template produces the message.  Every front end asks
this one matcher, so the CLI, the API and the server never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from errdex.match.fuzzy import message_tokens, similarity, template_tokens
from errdex.match.index import PatternIndex, load_index
from errdex.match.parse import Frame, ParsedError, Paste, parse
from errdex.record import Record
from errdex.store import Store

Evidence = Literal["frame", "pattern+class", "pattern", "fuzzy"]

#: Lines a raise may have moved between the version mined and the version that ran.
LINE_DRIFT = 20
_MAX_FRAMES = 40
_FUZZY_POOL = 40
_FUZZY_FLOOR = 0.2
_VERSION_PART = re.compile(r"\d+")


@dataclass(slots=True)
class Match:
    score: float
    evidence: Evidence
    record: Record
    captures: dict[str, str] = field(default_factory=dict)
    #: Which error of the paste this explains (an index into ``Answer.query.errors``).
    error: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "score": round(self.score, 4),
            "evidence": self.evidence,
            "error": self.error,
            "captures": self.captures,
            "record": self.record.to_errdex(),
        }


@dataclass(slots=True)
class Answer:
    query: Paste
    matches: list[Match]

    def to_json(self) -> dict[str, Any]:
        return {"query": paste_json(self.query), "matches": [m.to_json() for m in self.matches]}


def paste_json(paste: Paste) -> dict[str, Any]:
    return {
        "errors": [
            {
                "errorClass": e.error_class,
                "message": e.message,
                "format": e.format,
                "frames": [
                    {"path": f.path, "line": f.line, "function": f.function, "relative": f.relative}
                    for f in e.frames
                ],
            }
            for e in paste.errors
        ]
    }


@dataclass(slots=True)
class _Scored:
    """Evidence gathered for one record while matching one error."""

    frame: float = 0.0
    pattern: float = 0.0
    class_: float = 0.0
    fuzzy: float = 0.0
    captures: tuple[str, ...] = ()

    def total(self) -> float:
        """Independent pieces of evidence combined as a noisy OR, so each one only adds."""
        text = self.pattern or self.fuzzy * 0.8
        return 1 - (1 - 0.6 * self.frame) * (1 - 0.75 * text) * (1 - 0.3 * self.class_)

    def evidence(self) -> Evidence:
        if self.frame:
            return "frame"
        if self.pattern:
            return "pattern+class" if self.class_ else "pattern"
        return "fuzzy"


class Matcher:
    """One store and its pattern index, ready to explain many pastes."""

    def __init__(self, store: Store, index: PatternIndex | None = None) -> None:
        self.store = store
        self.index = index if index is not None else load_index(store)
        self._total = max(1, len(self.index.patterns))

    def explain(self, text: str, top: int = 5) -> Answer:
        paste = parse(text)
        matches: list[Match] = []
        # The final error is what the user saw last; causes before it rank after it.
        for position in reversed(range(len(paste.errors))):
            matches.extend(self.match_error(paste.errors[position], top, position))
        return Answer(paste, matches)

    def match_error(self, error: ParsedError, top: int = 5, position: int = 0) -> list[Match]:
        scored: dict[int, _Scored] = {}
        self._frames(error.frames, scored)
        messages = _message_forms(error)
        for message in messages:
            for candidate in self.index.match(message):
                entry = scored.setdefault(candidate.num, _Scored())
                specificity = _specificity(self.index.patterns[candidate.num], message)
                if specificity > entry.pattern:
                    entry.pattern = specificity
                    entry.captures = candidate.captures
        if not any(s.pattern for s in scored.values()) and messages:
            self._fuzzy(messages[0], scored)
        records = self.store.by_num(scored)
        for num, entry in scored.items():
            record = records.get(num)
            if record is not None:
                entry.class_ = _class_agreement(error.error_class, record)
        ranked = sorted(
            (
                (entry.total(), _version_key(records[num].version), num)
                for num, entry in scored.items()
                if num in records
            ),
            reverse=True,
        )
        out = []
        for score, _, num in ranked[:top]:
            entry, record = scored[num], records[num]
            captures = dict(zip(record.placeholders, entry.captures, strict=False))
            out.append(Match(score, entry.evidence(), record, captures, position))
        return out

    def _frames(self, frames: tuple[Frame, ...], scored: dict[int, _Scored]) -> None:
        """Score records raised near a frame's line; the innermost frame that has any counts most."""
        depth = 0
        for frame in reversed(frames[-_MAX_FRAMES:]):
            path = (frame.relative or frame.path).replace("\\", "/")
            name = path.rsplit("/", 1)[-1]
            hits = [
                (num, abs(line - frame.line))
                for num, site_path, line in self.store.sites_near(name, frame.line, LINE_DRIFT)
                if _same_file(path, site_path)
            ]
            if not hits:
                continue
            for num, distance in hits:
                value = max(0.0, 1.0 - 0.1 * depth - 0.02 * distance)
                entry = scored.setdefault(num, _Scored())
                entry.frame = max(entry.frame, value)
            depth += 1

    def _fuzzy(self, message: str, scored: dict[int, _Scored]) -> None:
        query = message_tokens(message)
        counts = self.index.word_counts
        for num, template in self.store.search_messages(message, _FUZZY_POOL):
            value = similarity(query, template_tokens(template), counts, self._total)
            if value >= _FUZZY_FLOOR:
                entry = scored.setdefault(num, _Scored())
                entry.fuzzy = max(entry.fuzzy, value)


def _message_forms(error: ParsedError) -> list[str]:
    """The message as printed, and the forms a raise site may have written it in."""
    message = error.message
    if not message:
        return []
    forms = [message]
    cls = (error.error_class or "").rpartition(".")[2]
    # KeyError prints the repr of its argument: KeyError('x') shows as 'x'.
    if cls == "KeyError" and len(message) >= 2 and message[0] == message[-1] and message[0] in "'\"":
        forms.append(message[1:-1])
    first_line = message.split("\n", 1)[0]
    if first_line != message:
        forms.append(first_line)
    return forms


def _specificity(pattern: str, message: str) -> float:
    """How much of the message the template's own text explains: 0.5 to 1."""
    from errdex.mine.patterns import split_pattern

    literal = sum(len(s) for s in split_pattern(pattern))
    return 0.5 + 0.5 * min(1.0, literal / max(1, len(message)))


def _same_file(frame_path: str, site_path: str) -> bool:
    """Whether one path ends with the other, component by component, over two components at least.

    A frame prints an absolute installed path, a record a repository path: they share a tail
    (``lightning/fabric/fabric.py``) that one file name alone would over-match.
    """
    a = frame_path.strip("/").split("/")
    b = site_path.strip("/").split("/")
    n = min(len(a), len(b))
    if a[-n:] != b[-n:]:
        return False
    return n >= 2 or len(a) == 1 or len(b) == 1


def _class_agreement(printed: str | None, record: Record) -> float:
    if not printed:
        return 0.0
    if printed == record.qualified_class:
        return 1.0
    written = record.error_class or ""
    if printed.rpartition(".")[2] == written.rpartition(".")[2] and written:
        return 0.7
    return 0.0


def _version_key(version: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in _VERSION_PART.findall(version or ""))


def explain(text: str, store: Store, top: int = 5) -> Answer:
    return Matcher(store).explain(text, top)
