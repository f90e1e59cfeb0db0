"""From a pasted error to ranked records, with the evidence for each.

Evidence, strongest first: a record raised at the line a traceback frame points to; a
pattern that fully matches the message, with the printed class agreeing; a pattern match
alone; and a fuzzy likeness when no template produces the message.  Every front end asks
this one matcher, through its session (``errdex.session``), so that they never disagree.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from errdex.deadline import Deadline, check
from errdex.languages import LANGUAGES, find
from errdex.match.fuzzy import message_tokens, similarity, template_tokens
from errdex.match.index import PatternIndex, load_index, matcher
from errdex.match.parse import Frame, ParsedError, Paste, parse
from errdex.record import Record, Site, canonical, release_key, site_kind
from errdex.store import Store
from errdex.store.common import function_name

Evidence = Literal["frame", "code", "pattern+class", "pattern", "fuzzy"]
#: What turns a stored record into the one a reader sees (its prose written): the caller's.
Prose = Callable[[Record], Record]

#: Lines a raise may have moved between the version mined and the version that ran.
LINE_DRIFT = 20
#: Errors of one paste looked up, in the order they are explained (the error the program ended
#: with first): past the parse, a paste of thousands of one-line errors costs what twenty do,
#: and the rest are counted (``Answer.unexplained``).
MAX_ERRORS = 20
#: Matches in one answer, over all its errors: what a reader is sent, prose and all, is bounded.
MAX_MATCHES = 100
_MAX_FRAMES = 40
_FUZZY_POOL = 40
_FUZZY_TERMS = 8
#: A word in more patterns than this (or 1% of them) is too common to search by.
_FUZZY_COMMON = 100
_FUZZY_FLOOR = 0.2
_STRONG_PATTERN = 0.75
_VERSION_PART = re.compile(r"\d+")


@dataclass(slots=True)
class Match:
    score: float
    evidence: Evidence
    #: The record as the store holds it; ``record`` is the same with its prose.
    stored: Record
    #: Where it was raised: the site a traceback frame hit (a record keeps every line raising
    #: its message, and the first is not always the one that ran), else the record's first.
    site: Site
    captures: dict[str, str] = field(default_factory=dict)
    #: Which error of the paste this explains (an index into ``Answer.query.errors``).
    error: int = 0
    #: Which frame of that error hit ``site`` (an index into its ``frames``); None without one.
    frame: int | None = None
    prose: Prose | None = field(default=None, repr=False, compare=False)
    #: Every release the store has this record of (same message, same file), oldest first;
    #: empty for a store of sources without versions.  ``stored`` is the one chosen.
    releases: list[str] = field(default_factory=list)
    _readable: Record | None = field(default=None, repr=False, compare=False)

    @property
    def record(self) -> Record:
        """The record as a reader sees it: ``prose`` applied on first use, so that ranking never
        pays for enrichment; the stored record when the matcher was given no ``prose``."""
        if self._readable is None:
            self._readable = self.stored if self.prose is None else self.prose(self.stored)
        return self._readable

    def to_json(self) -> dict[str, Any]:
        return {
            "score": round(self.score, 4),
            "evidence": self.evidence,
            "error": self.error,
            "captures": self.captures,
            "record": self.record.to_errdex(),
            "site": self.site.model_dump(by_alias=True, mode="json"),
            "frame": self.frame,
            "releases": release_range(self.releases),
        }


def releases_text(releases: list[str], shown: str | None) -> str | None:
    """The releases raising a record, in a line: ``8.1.5, 8.1.6, 8.1.7 (3 releases; shown:
    8.1.6)``, the first and last only past six (``2.20.0 to 2.32.3``); None for one release or
    none, which the record's own version says."""
    if len(releases) < 2:
        return None
    listed = ", ".join(releases) if len(releases) <= 6 else f"{releases[0]} to {releases[-1]}"
    mine = f"; shown: {shown}" if shown else ""
    return f"{listed} ({len(releases)} releases{mine})"


def record_releases(store: Store, record: Record) -> list[str]:
    """The releases the store has the record of, oldest first; empty for a record of a source
    stored without a version."""
    return [v for v in store.releases(record.id) if v] if record.version else []


def release_range(releases: list[str]) -> dict[str, Any] | None:
    """The releases raising a record as a reader is shown them: the first, the last, and all."""
    if not releases:
        return None
    return {"first": releases[0], "last": releases[-1], "count": len(releases), "all": releases}


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an error was raised that no record is the site of: its innermost frame."""

    #: The frame's index in its error's ``frames``.
    index: int
    frame: Frame
    #: True for a raise statement no record is made of (``raise error``: it raises an error
    #: object made elsewhere); False for a line that cannot raise: an operation there, or C
    #: code it called, raised the error.
    statement: bool

    def sentence(self) -> str:
        """The answer in one sentence, as plain text (front ends escape it as they show it)."""
        frame = self.frame
        where = f"{frame.relative or frame.path}:{frame.line}"
        if frame.function:
            where += f" (in {frame.function})"
        if self.statement:
            return f"Raised at {where} by `{frame.source}`: errdex holds no record of that raise statement."
        return (
            f"Raised at {where} by `{frame.source}`, which is not a raise statement: an operation on"
            " that line, or code it called that the traceback shows no frame of (compiled code),"
            " raised the error, so no record is its site."
        )


@dataclass(slots=True)
class Answer:
    #: The errors looked up, in paste order: all of the paste's, up to ``MAX_ERRORS``.
    query: Paste
    matches: list[Match]
    #: Errors of the paste past the limits, counted but not looked up (nor kept).
    unexplained: int = 0
    #: Errors whose site no record is (error index -> where it was raised): records with
    #: their message, if any, are raised elsewhere.
    origins: dict[int, Origin] = field(default_factory=dict)

    @property
    def order(self) -> list[int]:
        """The errors in the order they are explained: the error the program ended with, then
        its causes and the rest, last first."""
        return explain_order(self.query)

    def to_json(self) -> dict[str, Any]:
        return {
            "query": paste_json(self.query),
            "matches": [m.to_json() for m in self.matches],
            "unexplained": self.unexplained,
            "origins": [
                {"error": e, "frame": o.index, "statement": o.statement, "sentence": o.sentence()}
                for e, o in sorted(self.origins.items())
            ],
        }

    def for_error(self, position: int) -> list[Match]:
        return [m for m in self.matches if m.error == position]

    def origin(self, position: int) -> Origin | None:
        return self.origins.get(position)


def explain_order(paste: Paste) -> list[int]:
    """The errors of a paste as they are explained: the one the program ended with first."""
    primary = paste.primary
    return [primary, *(i for i in reversed(range(len(paste.errors))) if i != primary)]


def paste_json(paste: Paste) -> dict[str, Any]:
    return {
        "primary": paste.primary,
        "errors": [
            {
                "errorClass": e.error_class,
                "message": e.message,
                "format": e.format,
                "inGroup": e.in_group,
                "frames": [
                    {
                        "path": f.path,
                        "line": f.line,
                        "function": f.function,
                        "relative": f.relative,
                        "source": f.source,
                    }
                    for f in e.frames
                ],
            }
            for e in paste.errors
        ],
    }


@dataclass(slots=True)
class _Scored:
    """Evidence gathered for one record while matching one error."""

    frame: float = 0.0
    pattern: float = 0.0
    class_: float = 0.0
    fuzzy: float = 0.0
    #: 1 when the paste prints the error code the record carries (``code: 'ERR_X'``).
    code: float = 0.0
    #: 1 when the record lives in the package the printed class comes from, -1 when it does
    #: not, 0 when the class names no package (a builtin, or none printed).
    package: float = 0.0
    captures: tuple[str, ...] = ()
    #: The frame that gave ``frame`` its value, and the site it hit: (frame index, path, line).
    hit: tuple[int, str, int] | None = None
    #: The class a wrapper printed before the message the pattern fits (``(builtins.TypeError)
    #: Not a boolean value``): the one raised where the pattern is.
    wrapped: str | None = None

    def total(self) -> float:
        """Independent pieces of evidence combined as a noisy OR, so each one only adds;
        a printed class that contradicts the record's, or names another package, lowers it."""
        text = max(self.pattern, self.fuzzy * 0.8)
        agree = max(self.class_, 0.0)
        home = max(self.package, 0.0)
        score = 1 - (
            (1 - 0.85 * self.frame)
            * (1 - 0.75 * text)
            * (1 - 0.3 * agree)
            * (1 - 0.2 * home)
            * (1 - 0.6 * self.code)
        )
        # A frame outweighs the class: wrappers re-raise the original under their own class.
        if self.frame:
            return score
        if self.class_ < 0:
            score *= 0.5
        if self.package < 0:
            # ``pkg.errors.ParseError`` is raised in pkg, or by code that imports it from there.
            score *= 0.85 if self.class_ > 0 else 0.6
        return score

    def evidence(self) -> Evidence:
        if self.frame:
            return "frame"
        if self.code:
            return "code"
        if self.pattern:
            return "pattern+class" if self.class_ > 0 else "pattern"
        return "fuzzy"


class Matcher:
    """One store and its pattern index, ready to explain many pastes.

    ``prose`` is what a match's ``record`` applies to the stored record when it is first read
    (the session's enrichment); matching itself knows nothing of enrichment.
    """

    def __init__(
        self, store: Store, index: PatternIndex | None = None, *, prose: Prose | None = None
    ) -> None:
        self.store = store
        self.index = index if index is not None else load_index(store)
        self.prose = prose
        self._total = max(1, len(self.index.patterns))
        self._outer_callers: dict[tuple[str, str], int] = {}

    def explain(
        self, text: str, top: int = 5, deadline: Deadline | None = None, *, version: str | None = None
    ) -> Answer:
        """The records explaining each error of the paste, ``top`` for each, within the limits
        (``MAX_ERRORS``, ``MAX_MATCHES``); past ``deadline``, :class:`~errdex.deadline.Overtime`.

        A record stored for several releases is answered once, of the release the paste's
        paths name (``click-8.1.6/``), else ``version`` (``8.1.6`` or ``click==8.1.6``), else
        of the newest; a frame's exact line outranks all three, being what ran.

        The answer keeps only the errors looked up: what a paste of thousands costs past the
        limits is their parsing, not their keeping, answering or sending."""
        paste = parse(text)
        wanted: list[int] = []
        found: list[tuple[int, list[Match]]] = []
        origins: dict[int, Origin] = {}
        total = 0
        for position in explain_order(paste)[:MAX_ERRORS]:
            room = min(top, MAX_MATCHES - total)
            if room <= 0:
                break
            error = paste.errors[position]
            origin = self.origin(error)
            matches = self.match_error(
                error, room, position, deadline, origin=origin, wanted=wanted_releases(error.frames, version)
            )
            wanted.append(position)
            found.append((position, matches))
            if origin is not None:
                origins[position] = origin
            total += len(matches)
        kept = sorted(wanted)
        renumbered = {position: n for n, position in enumerate(kept)}
        for position, matches in found:
            for match in matches:
                match.error = renumbered[position]
        answer = [match for _, matches in found for match in matches]
        unexplained = len(paste.errors) - len(kept)
        return Answer(
            Paste(tuple(paste.errors[n] for n in kept)),
            answer,
            unexplained,
            {renumbered[p]: f for p, f in origins.items()},
        )

    def origin(self, error: ParsedError) -> Origin | None:
        """Where the error was raised when no record is that site, as its innermost frame's
        printed source line shows: a line that cannot raise (``datetime(``, ``return
        self._data[key]``) with no record there, or a raise with no record (``raise error``) in
        a file a record nearby shows to be the version mined (the line it prints is the line
        the record's source has there).  None when the frame shows no source (a log without
        it, another format), when a record is raised at its line (``warnings.warn``), and for
        a multi-line statement's later line (an assert's frame points there, its record at
        the statement's start)."""
        # Frames with no function are where a SyntaxError points, not code that ran: the
        # innermost one that ran is the compile or import that raised it.
        index = len(error.frames) - 1
        while index >= 0 and error.frames[index].function is None:
            index -= 1
        if index < 0:
            return None
        frame = error.frames[index]
        source = frame.source
        if source is None:
            return None
        near = [(num, site_path, line) for num, site_path, line, _ in self._near(frame)]
        if any(line == frame.line for *_, line in near):
            return None
        # Decoding a record costs more than the rest of this: only those that can decide are.
        # A record's source window is its first site's, in the file it names.
        if any(entry.paste.raises(source) for entry in LANGUAGES.values()):
            # The nearest window that shows the frame's line tells whether it is this version.
            for num, site_path, _ in sorted(near, key=lambda hit: abs(hit[2] - frame.line)):
                record = self.store.by_num([num]).get(num)
                if record is not None and record.file_path == site_path:
                    shown = _line_at(record, frame.line)
                    if shown is not None:
                        return Origin(index, frame, statement=True) if shown == source else None
            return None
        above = [(num, site_path, line) for num, site_path, line in near if line < frame.line]
        records = self.store.by_num({num for num, *_ in above})
        if any(
            _continues(records[n], line, frame.line)
            for n, site_path, line in above
            if n in records and records[n].file_path == site_path
        ):
            return None
        return Origin(index, frame, statement=False)

    def match_error(
        self,
        error: ParsedError,
        top: int = 5,
        position: int = 0,
        deadline: Deadline | None = None,
        *,
        origin: Origin | None = None,
        wanted: dict[str, str] | None = None,
    ) -> list[Match]:
        """The records explaining one error, best first.  With an ``origin`` (see
        :meth:`origin`) no frame hit counts, for no frame raised the error with a statement,
        and templates without text of their own are left out: they fit the message by chance."""
        check(deadline)
        scored: dict[int, _Scored] = {}
        if origin is None:
            self._frames(error.frames, scored, deadline)
        if error.code:
            # An error code is exact where text is not: every record that carries it is a candidate.
            for num in self.index.by_code.get(error.code, ()):
                scored.setdefault(num, _Scored()).code = 1.0
        forms = _message_forms(error)
        messages = [message for message, _ in forms]
        # A class printed with no message (``StreamConsumedError``) is still a lookup.
        for message, wrapped in forms or ([("", None)] if error.error_class else []):
            for candidate in self.index.match(message, wrapped or error.error_class, deadline):
                entry = scored.setdefault(candidate.num, _Scored())
                specificity = _specificity(self.index.patterns[candidate.num], message)
                if specificity > entry.pattern:
                    entry.pattern = specificity
                    entry.captures = candidate.captures
                    entry.wrapped = wrapped
        located = origin is not None or any(e.frame for e in scored.values())
        if error.error_class and not located and not any(informative(self.index.patterns[n]) for n in scored):
            # No frame hit a raise, no operation raised the error, and no template with text
            # of its own fits (``KeyError: 'total'``, a bare ``AssertionError``): the sites
            # that raise that builtin class with a computed message, or none, as many as there
            # are, ranked by their reach.
            text = messages[0] if messages else ""
            for num in self.index.computed(error.error_class):
                pattern = self.index.patterns[num]
                values = matcher(pattern).match(text)
                if values is not None and num not in scored:
                    scored[num] = _Scored(pattern=_specificity(pattern, text), captures=values)
        # Templates that explain little of the message (``{a}: {b}``) may be coincidences:
        # let likeness compete with them.
        if messages and max((s.pattern for s in scored.values()), default=0.0) < _STRONG_PATTERN:
            check(deadline)
            self._fuzzy(messages[0], scored)
        if origin is not None:
            scored = {n: e for n, e in scored.items() if informative(self.index.patterns[n])}
        check(deadline)
        records = self.store.by_num(scored)
        for num, entry in scored.items():
            record = records.get(num)
            if record is None:
                continue
            # A wrapped error's text fits the record: the class it names is the record's to agree with.
            printed = entry.wrapped or error.error_class
            entry.class_ = _class_agreement(printed, record)
            entry.package = _package_agreement(printed, record)
            # A record found at a frame may also fit the message; a computed one always does.
            if entry.frame and not entry.pattern and record.message_kind != "none":
                _confirm(record.message_pattern, entry, messages)
            if entry.hit is not None and _other_package(error.frames[entry.hit[0]], record):
                entry.frame, entry.hit = 0.0, None  # the same path in another npm package
            if entry.hit is not None and _neighbour(record, entry, error.frames):
                entry.frame *= 0.5
        _wrapped(scored, records)
        scored = _one_release(scored, records, wanted or {})
        # Ties (one template raised at several sites) go to a copy whose lines can be read
        # over a minified one (yargs's index.cjs, all on line 1), then to the copy Node loads
        # (an npm package's bundle over the sources it was built from), then to the original over a
        # copy (a private reimplementation, a vendored or compat module), then to the site
        # more code reaches (a function with more callers in its library is more often the one
        # that raised), then to the newest version.
        ranked = sorted(
            (
                (
                    entry.total(),
                    not _minified(records[num]),
                    _LOADED.get(records[num].facts.loaded or "", 0),
                    -_copy_rank(records[num].file_path),
                    self._reach(records[num]),
                    _version_key(records[num].version),
                    num,
                )
                for num, entry in scored.items()
                if num in records
            ),
            reverse=True,
        )
        out = []
        for score, *_, num in ranked[:top]:
            entry, record = scored[num], records[num]
            captures = dict(zip(record.placeholders, entry.captures, strict=False))
            site, frame = _site_hit(record, entry.hit)
            out.append(
                Match(
                    score,
                    entry.evidence(),
                    record,
                    site,
                    captures,
                    error=position,
                    frame=frame,
                    prose=self.prose,
                    releases=record_releases(self.store, record),
                )
            )
        return out

    def _frames(
        self, frames: tuple[Frame, ...], scored: dict[int, _Scored], deadline: Deadline | None
    ) -> None:
        """Score records raised near a frame's line; the innermost frame that has any counts most.
        Each record keeps the frame and site that gave it its score.

        The innermost frame that hits no raise of its own function at its line ran another
        release, whose lines moved, maybe past the drift: the raises of its function, in its
        file, at any line, count as if at the drift's end."""
        depth = 0
        innermost = len(frames) - 1
        for position in reversed(range(max(0, len(frames) - _MAX_FRAMES), len(frames))):
            check(deadline)
            frame = frames[position]
            path, name = _frame_file(frame)
            near = [
                (num, site_path, line, abs(line - frame.line), function)
                for num, site_path, line, function in self._near(frame)
            ]
            # Lines drift between versions; when this version's line is known, it is the one.
            exact = [hit for hit in near if hit[3] == 0]
            hits = [hit[:4] for hit in exact or near]
            function = frame.function or ""
            if position == innermost and function.isidentifier() and all(h[4] != function for h in exact):
                seen = {hit[0] for hit in hits}
                hits += [
                    (num, site_path, line, LINE_DRIFT)
                    for num, site_path, line in self.store.sites_in_function(name, function)
                    if num not in seen and _same_file(path, site_path)
                ]
            if not hits:
                continue
            for num, site_path, line, distance in hits:
                value = max(0.0, 1.0 - 0.1 * depth - 0.02 * distance)
                entry = scored.setdefault(num, _Scored())
                if value > entry.frame:
                    entry.frame = value
                    entry.hit = (position, site_path, line)
            depth += 1

    def _reach(self, record: Record) -> tuple[int, bool]:
        """How much code calls the raising function (its callers, a site at module level
        none), and whether that is the function's own count.  A nested function nothing calls
        by name (the getter of an object the outer one returns, a callback it hands on) runs
        when the outer one runs: it is reached as often as the outer one's callers (its own
        recursion left out) call it, as the outer one's own records show, and ranks below a
        function its own callers reach as often."""
        own = len(record.facts.callers) + len(record.sites)
        outer = _enclosing(record.function or "") if not record.facts.callers else None
        if outer is None:
            return own, True
        key = (record.file_path, outer)
        if key not in self._outer_callers:
            name = record.file_path.rsplit("/", 1)[-1]
            nums = [
                num
                for num, path, _ in self.store.sites_in_function(name, function_name(outer) or "")
                if path == record.file_path
            ]
            self._outer_callers[key] = max(
                (
                    sum(c.function.partition(".<")[0] != outer for c in r.facts.callers)
                    for r in self.store.by_num(nums).values()
                    if r.function == outer
                ),
                default=0,
            )
        return own + self._outer_callers[key], False

    def _near(self, frame: Frame) -> list[tuple[int, str, int, str | None]]:
        """The sites within ``LINE_DRIFT`` lines of a frame's line, in the frame's file."""
        path, name = _frame_file(frame)
        return [
            hit for hit in self.store.sites_near(name, frame.line, LINE_DRIFT) if _same_file(path, hit[1])
        ]

    def _fuzzy(self, message: str, scored: dict[int, _Scored]) -> None:
        query = message_tokens(message)
        counts = self.index.word_counts
        # Only the rarest words the records use go to full-text search: "is" and "the" match
        # half the store and cost most of a query while ranking nothing.
        known = sorted((t for t in query if t in counts), key=counts.__getitem__)[:_FUZZY_TERMS]
        common = max(_FUZZY_COMMON, self._total // 100)
        known = [t for t in known if counts[t] <= common] or known[:2]
        if not known:
            return
        for num, template in self.store.search_messages(" ".join(known), _FUZZY_POOL):
            value = similarity(query, template_tokens(template), counts, self._total)
            if value >= _FUZZY_FLOOR:
                entry = scored.setdefault(num, _Scored())
                entry.fuzzy = max(entry.fuzzy, value)


#: A path component that names a release, as an unpacked sdist's top directory does (``click-8.1.6``).
_RELEASE_DIR = re.compile(r"^(.+)-(\d[A-Za-z0-9.+!]*)$")


def wanted_releases(frames: tuple[Frame, ...], version: str | None) -> dict[str, str]:
    """The releases a reader wants answers of, by canonical package name (``""``: any package):
    those the frames' paths name, then ``version`` (``8.1.6``, or ``click==8.1.6``)."""
    wanted: dict[str, str] = {}
    if version:
        name, _, number = version.rpartition("==")
        wanted[canonical(name)] = number.strip()
    for frame in frames:
        for part in frame.path.replace("\\", "/").split("/"):
            found = _RELEASE_DIR.match(part)
            if found:
                wanted[canonical(found[1])] = found[2]
    return wanted


def _one_release(
    scored: dict[int, _Scored], records: dict[int, Record], wanted: dict[str, str]
) -> dict[int, _Scored]:
    """One match per record of several releases: the best scored (a frame's exact line is what
    ran), then of a release the reader wants, then the newest."""
    groups: dict[str, list[int]] = {}
    for num in scored:
        if num in records:
            groups.setdefault(records[num].id, []).append(num)
    if all(len(nums) == 1 for nums in groups.values()):
        return scored

    def preference(num: int) -> tuple[float, bool, tuple[int, Any], int]:
        record = records[num]
        release = wanted.get(canonical(record.package or ""), wanted.get(""))
        return (round(scored[num].total(), 9), record.version == release, release_key(record.version), -num)

    keep = {max(nums, key=preference) for nums in groups.values()}
    return {num: entry for num, entry in scored.items() if num in keep or num not in records}


def record_site(record: Record) -> Site:
    """Where a record is raised when nothing says which of its sites ran: its first site, or for
    a record stored without sites (an ``errlookup`` import) its own place, as the store indexes it."""
    if record.sites:
        return record.sites[0]
    return Site(
        file_path=record.file_path,
        line_number=record.line_number,
        kind=site_kind(record.error_type),
        function=record.function,
        conditions=record.conditions,
        error_class=record.error_class,
        qualified_class=record.qualified_class,
    )


def _site_hit(record: Record, hit: tuple[int, str, int] | None) -> tuple[Site, int | None]:
    """The site a frame hit and that frame's index, else the record's site and None."""
    if hit is None:
        return record_site(record), None
    position, path, line = hit
    for site in record.sites:
        if site.line_number == line and site.file_path == path:
            return site, position
    return record_site(record), position  # a record without sites: the store indexed its place


#: Letters and digits a template needs of its own for its fit to say where it was raised.
LOW_INFORMATION = 6
_ANY_ERROR = frozenset({"Exception", "BaseException"})


@functools.lru_cache(maxsize=65536)
def informative(pattern: str) -> bool:
    """Whether a template has text of its own: ``{a}: {b}`` or ``{msg}`` fits any message."""
    return sum(ch.isalnum() for s in matcher(pattern).segments for ch in s) >= LOW_INFORMATION


def _wrapped(scored: dict[int, _Scored], records: dict[int, Record]) -> None:
    """A record that re-raises what it caught under its own class (``except LocationParseError
    as e: raise InvalidURL(*e.args)``) prints the caught error's message, which its own
    template (``{e}``) cannot tell from any other: where an informative template of the caught
    class fits the message, and the printed class is not that class but fits the wrapper's, the
    wrapper explains the message as well as that template does (the inner one stays beside it)."""
    wrappers = []
    for num, entry in scored.items():
        record = records.get(num)
        if record is None or not entry.pattern or entry.class_ < 0:
            continue
        if entry.class_ <= 0 and entry.package <= 0:
            continue  # nothing printed says the wrapper's package or class
        caught = {c.rpartition(".")[2] for g in record.facts.guards if g.kind == "except" for c in g.caught}
        if caught and not informative(record.message_pattern):
            wrappers.append((entry, caught))
    if not wrappers:
        return
    inner = [
        (name, entry.pattern)
        for num, entry in scored.items()
        if entry.pattern and entry.class_ < 1 and num in records
        if (name := (records[num].error_class or "").rpartition(".")[2])
        and informative(records[num].message_pattern)
    ]
    for entry, caught in wrappers:
        for name, value in inner:
            if name in caught:
                entry.pattern = max(entry.pattern, value)
            elif caught & _ANY_ERROR:
                entry.pattern = max(entry.pattern, 0.9 * value)


_OPEN = str.maketrans("", "", "([{")
_CLOSE = str.maketrans("", "", ")]}")


#: A line longer than this is minified code: no line of it tells where in the code it is.
_MINIFIED_LINE = 1000


def _minified(record: Record) -> bool:
    return len(_line_at(record, record.line_number) or "") > _MINIFIED_LINE


def _line_at(record: Record, line: int) -> str | None:
    """The line of the record's source window at ``line``, stripped; None outside it."""
    if not record.source_code_start <= line <= record.source_code_end:
        return None
    return record.source_code.split("\n")[line - record.source_code_start].strip()


def _continues(record: Record, start: int, line: int) -> bool:
    """Whether ``line`` is inside the statement starting at ``start`` (a record's site), as the
    record's source window shows: a bracket opened there and not yet closed, or a backslash
    ending each line before it.  False where the window does not cover both lines."""
    if start == line:
        return True
    first = record.source_code_start
    if not first <= start < line <= record.source_code_end:
        return False
    depth = 0
    for text in record.source_code.split("\n")[start - first : line - first]:
        depth += len(text) - len(text.translate(_OPEN)) - (len(text) - len(text.translate(_CLOSE)))
        if depth <= 0 and not text.rstrip().endswith("\\"):
            return False
    return True


def _neighbour(record: Record, entry: _Scored, frames: tuple[Frame, ...]) -> bool:
    """Whether a frame hit a raise that is not the one that ran, as more than the line says:
    the frame names another function (at another release's line numbers, a line of one
    function may be another's now); or it hit only near the line and is not the innermost
    frame (an outer frame's line is a call on the way, so a raise near it is another) or the
    raise's own text does not fit the message."""
    assert entry.hit is not None
    position, path, line = entry.hit
    frame = frames[position]
    site = next((s for s in record.sites if s.line_number == line and s.file_path == path), None)
    function = (site.function or "") if site is not None else ""
    if (frame.function or "").isidentifier() and function and function.rpartition(".")[2] != frame.function:
        return True
    if frame.line == line:
        return False
    if position < len(frames) - 1:
        return True
    return record.message_kind in ("literal", "template") and not entry.pattern


def _confirm(pattern: str, entry: _Scored, messages: list[str]) -> None:
    for message in messages:
        captures = matcher(pattern).match(message)
        if captures is not None:
            entry.pattern = _specificity(pattern, message)
            entry.captures = captures
            return


def _message_forms(error: ParsedError) -> list[tuple[str, str | None]]:
    """The message as printed, and the forms a raise site may have written it in: what each
    language's errors print around their message (``KeyError``'s quotes, an args tuple, a
    wrapped error's class), and the first line alone; each with the class it was raised as
    where a wrapper printed it (else None: the printed class)."""
    message = error.message
    if not message:
        return []
    forms: list[tuple[str, str | None]] = [(message, None)]
    for entry in LANGUAGES.values():
        forms += entry.paste.forms(error.error_class, message)
    # Libraries append notes on lines of their own ("[SQL: ...]", "(Background on ...)").
    forms += [(form.split("\n", 1)[0], cls) for form, cls in forms if "\n" in form]
    return list(dict.fromkeys(forms))


def _specificity(pattern: str, message: str) -> float:
    """How much of the message the template's own text explains: 0.4 (none) to 1 (all)."""
    literal = sum(len(s) for s in matcher(pattern).segments)  # cached: no re-splitting per query
    return 0.4 + 0.6 * min(1.0, literal / max(1, len(message)))


def _frame_file(frame: Frame) -> tuple[str, str]:
    """A frame's path as records name files (``/`` separated), and its file name."""
    path = (frame.relative or frame.path).replace("\\", "/")
    return path, path.rsplit("/", 1)[-1]


def _other_package(frame: Frame, record: Record) -> bool:
    """Whether a frame's path names a package (``node_modules/<pkg>/``) other than the record's."""
    return bool(frame.package and record.package and canonical(frame.package) != canonical(record.package))


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
    """1 for the same class, 0.7 for the same name in the same package (a re-export), 0.3 for
    the same name in another (``requests`` wraps ``json``'s ``JSONDecodeError``), 0 when
    unknown, -1 when they differ."""
    written = record.error_class or ""
    qualified = record.qualified_class or written
    if not printed or not written:
        return 0.0
    if printed == qualified:
        return 1.0
    language = find(record.language)
    if language is not None and language.unnamed_class_prints is not None:
        # The language prints a class by its name alone, and a subclass that names itself
        # nothing as its base (``Error: ...`` for ``class NotFound extends Error``).
        if printed == written.rpartition(".")[2]:
            return 1.0
        return 0.0 if printed == language.unnamed_class_prints else -1.0
    if printed.rpartition(".")[2] == written.rpartition(".")[2]:
        same_package = "." not in printed or printed.partition(".")[0] == qualified.partition(".")[0]
        return 0.7 if same_package else 0.3
    return -1.0


def _package_agreement(printed: str | None, record: Record) -> float:
    """Whether the record's file lies in the package a printed ``pkg.module.Class`` names."""
    if not printed or "." not in printed:
        return 0.0
    root = printed.partition(".")[0]
    language = find(record.language)
    if language is None or root in language.unlocated_modules:
        return 0.0
    package = language.package_of(record.file_path)
    if package is None:
        return 0.0
    return 1.0 if package == root else -1.0


#: How likely a record's copy is the one that ran, by how Node loads its file.
_LOADED = {"require": 2, "import": 1}

#: Directories that hold another project's code, copied in: its raises are twins of the original's.
_COPIED = frozenset(
    {"_vendor", "vendor", "vendored", "_vendored", "externals", "_externals", "extern", "_extern"}
    | {"third_party", "_compat", "compat", "backports"}
)


@functools.lru_cache(maxsize=65536)
def _copy_rank(file_path: str) -> int:
    """2 for a file in a directory of copied code, 1 for a private module (``click/_textwrap``
    reimplements ``textwrap``), 0 for a public one: of twins, the lower is the likelier raiser."""
    parts = file_path.replace("\\", "/").split("/")
    if any(part in _COPIED for part in parts[:-1]):
        return 2
    if any(part.startswith("_") and not part.startswith("__") for part in parts):
        return 1
    return 0


def _enclosing(function: str) -> str | None:
    """The function a nested one is defined in (``handleResult`` of
    ``handleResult.<locals>.error``, ``Z._parse`` of ``Z._parse.<anonymous>``), else None."""
    for marker in (".<locals>.", ".<anonymous>"):
        head, found, _ = function.rpartition(marker)
        if found and head:
            return head
    return None


def _version_key(version: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in _VERSION_PART.findall(version or ""))
