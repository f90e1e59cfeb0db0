"""Deterministic enrichment: every sentence built from a fact the miner found.

The facts are the message (and the advice it gives), the class, the guard conditions on the
path to the raise, the enclosing function's signature and docstring, its callers and the
tests that expect the error.  A field with no fact behind it stays empty, and each filled
field lists its facts in ``provenance``.  Because the function, file and line are part of
the prose, two records in different functions never share a sentence: nothing is filler.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace

from pydantic.alias_generators import to_camel

from errdex import languages
from errdex.enrich.advice import Advice, advice
from errdex.enrich.conditions import (
    INVERSE,
    Condition,
    a_type,
    circumstances,
    classes_of,
    either,
    read_guard,
)
from errdex.enrich.taxonomy import classify_record, transient
from errdex.languages import CodeWriter
from errdex.patterns import split_pattern
from errdex.record import CONDITION_KINDS, EntryPoint, Guard, HandlingStrategy, Parameter, Record

#: A call quoted in a message: `fabric.setup()`.
_CALL_CODE = re.compile(r"`([\w.]+\([^`]*\))`")


@dataclass(slots=True)
class _Fields:
    values: dict[str, object] = field(default_factory=dict)
    provenance: dict[str, list[str]] = field(default_factory=dict)

    def set(self, name: str, value: object, facts: list[str]) -> None:
        if value in (None, "", []):
            return
        self.values[name] = value
        self.provenance[name] = list(dict.fromkeys(facts))


def enrich_record(record: Record) -> Record:
    """The record with its prose and code written from its facts (``enrichment="static"``)."""
    ctx = _Context.of(record)
    out = _Fields()
    documentation, documentation_facts = _documentation(ctx)
    out.set("documentation", documentation, documentation_facts)
    triggers, trigger_facts = _triggers(ctx)
    out.set("trigger_scenarios", triggers, trigger_facts)
    situations, situation_facts = _situations(ctx)
    out.set("common_situations", situations, situation_facts)
    solutions, solution_facts = _solutions(ctx)
    out.set("solutions", solutions, solution_facts)
    if ctx.language is not None:  # code only in a language errdex reads and writes
        fix, fix_facts = _example_fix(ctx)
        out.set("example_fix", fix, fix_facts)
        out.set("validation_code", _validation(ctx), ["conditions"])
        out.set("type_guard", _type_guard(ctx), ["conditions"])
        out.set("try_catch_pattern", _try_catch(ctx), ["class", "site"])
    strategy, strategy_facts = _strategy(ctx)
    out.set("handling_strategy", strategy, strategy_facts)
    out.set("prevention_tips", _prevention(ctx), ctx.used("conditions", "raises_doc", "tests"))
    family = classify_record(record)
    tags = record.tags[:1]  # the package, a fact of the path
    if family is not None:
        out.set("background_tag", family.tag, [f"taxonomy:{e}" for e in family.evidence])
        out.values["background_confidence"] = family.confidence
        tags.append(family.kind)
    out.set("tags", list(dict.fromkeys(tags)), ["module", *(["taxonomy"] if family else [])])
    cleared: dict[str, object] = {
        "documentation": "",
        "trigger_scenarios": "",
        "common_situations": "",
        "solutions": [],
        "example_fix": None,
        "validation_code": None,
        "type_guard": None,
        "try_catch_pattern": None,
        "handling_strategy": None,
        "prevention_tips": [],
        "background_tag": None,
        "background_confidence": None,
    }
    provenance = {to_camel(name): facts for name, facts in out.provenance.items()}
    update = {**cleared, **out.values, "provenance": provenance, "enrichment": "static"}
    return record.model_copy(update=update)


@dataclass(slots=True)
class _Context:
    record: Record
    function: str | None
    #: How callers refer to the function: ``fabric.backward`` for a method of ``Fabric``.
    call_name: str | None
    receiver: str | None
    conditions: list[Condition]
    #: The guards the conditions are read from, one each, in order: those whose test must hold.
    tested: list[Guard]
    advice: list[Advice]
    #: The parameters a caller passes (not the object a method is called on).
    params: list[Parameter]
    #: The record's language: how code calls the function, and how to write code.  None for a
    #: language errdex does not read (an imported record): then no code is written.
    language: languages.Language | None

    @classmethod
    def of(cls, record: Record) -> _Context:
        function = record.function
        language = languages.find(record.language)
        call_name, receiver = language.call_of(function) if language else (None, None)
        receivers = language.receivers if language else frozenset()
        params = [p for p in record.facts.parameters if p.name not in receivers]
        by_name = {p.name: p for p in params}
        tested = [guard for guard in record.facts.guards if guard.kind in CONDITION_KINDS]
        code = language.code if language else None
        conditions = [read_guard(guard, by_name, receiver, code) for guard in tested]
        return cls(
            record,
            function,
            call_name,
            receiver,
            conditions,
            tested,
            advice(record.error_message, record.message_pattern),
            params,
            language,
        )

    @property
    def code(self) -> CodeWriter:
        """The record's language's code writer (code is written only where there is one)."""
        assert self.language is not None, "code is written only in a language errdex reads"
        return self.language.code

    def used(self, *facts: str) -> list[str]:
        """The facts among ``facts`` this record has."""
        r = self.record
        have = {
            "site": True,
            "conditions": bool(r.conditions),
            "docstring": bool(r.facts.docstring),
            "raises_doc": bool(r.facts.raises_doc),
            "signature": bool(r.facts.signature),
            "tests": bool(r.facts.tests),
            "callers": bool(r.facts.callers),
            "entry_points": bool(r.facts.entry_points),
            "class_doc": bool(r.facts.class_doc),
            "parameter_docs": bool(r.facts.parameter_docs),
        }
        return [f for f in facts if have.get(f)]


def _code(text: str) -> str:
    return f"`{text}`"


def _named(ctx: _Context) -> str:
    """The function and its file: classes are copied between modules, and prose must say which.
    A function a user's code does not call itself is named with the public call it is reached
    from (``facts.entry_points``)."""
    r = ctx.record
    entry = _public_entries(ctx)[:1]
    if not entry:
        return f"`{ctx.function}` ({r.file_path})"
    e = entry[0]
    how = "as" if e.function == ctx.function else "reached from"
    return f"`{ctx.function}` ({r.file_path}, {how} `{e.name or e.function}`)"


def _where(ctx: _Context) -> str:
    r = ctx.record
    place = f"`{ctx.function}`" if ctx.function else "module-level code"
    site = r.sites[0] if r.sites else None
    if site is not None and site.via_file_path and site.via_line_number:
        # A raise helper's call: the helper's own line is the one a traceback ends on.
        helper = f"{site.via_file_path}:{site.via_line_number}"
        return f"{place} ({r.file_path}, line {r.line_number}, through the helper at {helper})"
    return f"{place} ({r.file_path}, line {r.line_number})"


def _verb(record: Record) -> str:
    """What the site does with its message: ``raises``, ``issues`` (a warning), ``logs``."""
    return {"warn": "issues", "log": "logs"}.get(_site_kind(record), "raises")


def _site_kind(record: Record) -> str:
    """The kind of the record's first site (``raise``, ``warn``, ``log``); ``raise`` where it lists none."""
    return record.sites[0].kind if record.sites else "raise"


def _what(record: Record) -> str:
    kind = _site_kind(record)
    cls = f"`{record.error_class}`" if record.error_class else "an error"
    article = "an" if record.severity[:1] in "aeiou" else "a"
    return {
        "warn": f"the warning {cls}",
        "log": f"{article} {record.severity}-level log message",
        "exit": "an exit with this message",
        "http": f"an HTTP {record.http_status or 'error'} response",
        "assert": f"a failed `assert` ({cls})",
    }.get(kind, cls)


def _public_entries(ctx: _Context) -> list[EntryPoint]:
    """The public calls a user's code reaches the raise from, where the raising function is not
    itself one: its callers' (or, for a method of a private class, its public subclasses')."""
    entries = ctx.record.facts.entry_points
    if not ctx.function or not entries:
        return []
    own = ctx.language.named_as(ctx.function) if ctx.language else ctx.function
    first = entries[0]
    shown = first.name or first.function
    if first.function == ctx.function and (shown == own or shown.endswith(f".{own}")):
        return []  # the raising function is public: it is the call
    return entries


def _when(ctx: _Context) -> str:
    """Every guard on the site's path, in words (``conditions.circumstances``): "when" what holds
    there, then the loops and blocks it stands in; "whenever" only where errdex found none."""
    held, around = circumstances(ctx.record.facts.guards, {p.name: p for p in ctx.params})
    if not held and not around:
        inside = f"in `{ctx.function}`" if ctx.function else "around it"
        return f"whenever that line is reached (no test {inside} guards it; its callers may test first)"
    return ", ".join([*(["when " + _join(held)] if held else []), *around])


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _documentation(ctx: _Context) -> tuple[str, list[str]]:
    """What the error means for the caller: the public call that reaches it, where it is raised
    and when, then what the code's documentation says of it, each docstring sentence once."""
    r = ctx.record
    what = _what(r)
    facts = ["site", *ctx.used("conditions")]
    entries = _public_entries(ctx)
    if entries:
        ways = either([_entry(ctx, e) for e in entries])
        text = f"When you {ways}, {what} can come from {_where(ctx)}, which {_verb(r)} it {_when(ctx)}."
        facts.append("entry_points")
        passing = _passing(ctx)
        if passing is not None:
            entry, passes = passing
            said = _join([_code(n) if n == p else f"{_code(n)} as {_code(p)}" for p, n in passes.items()])
            text += f" `{entry.name or entry.function}` passes its own {said} on to it unchanged."
    elif (special := _special(ctx)) is not None:
        words, code = special
        text = (
            f"When your code runs `{code}` ({words}), {what} can come from {_where(ctx)},"
            f" which {_verb(r)} it {_when(ctx)}."
        )
    else:
        text = f"{what[:1].upper()}{what[1:]} raised by {_where(ctx)} {_when(ctx)}."
    quoted = _Quoted(ctx)
    if r.error_class and (said := quoted(r.facts.class_doc)):
        text += f" The docstring of `{r.error_class.rpartition('.')[2]}` says: {said}"
        facts.append("class_doc")
    if r.facts.raises_doc and (said := quoted(r.facts.raises_doc)):
        text += f" The function's docstring says it raises `{r.error_class}` {_lower_first(said)}"
        facts.append("raises_doc")
    if ctx.function and (said := quoted(r.facts.docstring)):
        text += f" The docstring of `{ctx.function}` says: {said}"
        facts.append("docstring")
    # What it says of the parameters the guards read is quoted once, in ``solutions``.
    others = r.sites[1:]
    if others:
        shown = ", ".join(f"{s.file_path}:{s.line_number}" for s in others[:5])
        text += f" The same message is also raised at {shown}{' and more' if len(others) > 5 else ''}."
    return text, facts


def _entry(ctx: _Context, entry: EntryPoint) -> str:
    """What a user's code does to run a public entry, as prose with its verb: "call `X`", or
    for a special method the statement that runs it ("run `class Child(Base): ...`"); then
    where it calls down the chain (``via``)."""
    special = ctx.language.special_use(entry.function) if ctx.language else None
    name = f"call `{entry.name or entry.function}`" if special is None else f"run `{special[1]}`"
    if entry.function == ctx.function:
        return name  # the raising function itself, inherited by a public class
    what = f"{special[0]}, " if special is not None else ""
    through = f", through {_join([_code(v) for v in entry.via])}" if entry.via else ""
    return f"{name} ({what}{entry.file_path}:{entry.line_number}{through})"


class _Quoted:
    """Docstring text as prose quotes it: markup reduced to plain code (the record's language
    reads its markup), a closing full stop, and nothing already quoted for this record."""

    def __init__(self, ctx: _Context) -> None:
        self.language = ctx.language
        #: The words quoted so far, each sentence on its own, and all of them in a row.
        self.said: set[str] = set()
        self.words = ""

    def __call__(self, text: str | None) -> str:
        if not text:
            return ""
        plain = (self.language.plain(text) if self.language else text).strip()
        sentences = {_words(s) for s in _SENTENCE_END.split(plain)} - {""}
        if not sentences or sentences <= self.said or f" {_words(plain)} " in self.words:
            return ""
        self.said |= sentences
        self.words += f" {_words(plain)} "
        return plain if plain.endswith((".", "?", "!", ":")) else plain + "."


def _words(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


_WORD = re.compile(r"\w+")


#: Where one sentence of documentation ends and the next begins.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")


def _lower_first(text: str) -> str:
    """A docstring's "If ..." or "When ..." as the rest of a sentence; anything else after "when"."""
    text = text.strip()
    if text[:1].islower():
        return text
    if text[:2].lower() in ("if", "wh"):
        return text[:1].lower() + text[1:]
    return "when " + text[:1].lower() + text[1:]


def _triggers(ctx: _Context) -> tuple[str, list[str]]:
    r = ctx.record
    facts = ["site", *ctx.used("conditions")]
    if not ctx.function:
        return f"Importing the module that holds {r.file_path}, {_when(ctx)}.", facts
    special = _special(ctx)
    entries = _public_entries(ctx)
    if special is not None:
        words, code = special
        parts = [f"{words[:1].upper()}{words[1:]} (`{code}`), which runs {_named(ctx)}, {_when(ctx)}."]
    elif entries and entries[0].function != ctx.function:
        # The user's call first, then the function that raises, in its own words.
        way = _entry(ctx, entries[0])
        parts = [f"When you {way}, it can reach {_where(ctx)}, which {_verb(r)} it {_when(ctx)}."]
    else:
        parts = [f"Calling {_named(ctx)} {_when(ctx)}."]
    translated = _translated(ctx)
    if translated is not None:
        entry, held = translated
        parts.append(f"That is, calling `{entry.name or entry.function}` when {_join(held)}.")
        facts.append("entry_points")
    if _generator(ctx):
        short = ctx.function.rpartition(".")[2] if ctx.function else ""
        parts.append(
            f"`{short}` is a generator function: calling it runs none of its body, and the error comes"
            " once the result is iterated (a `for` loop, `list(...)`)."
        )
    test = r.facts.tests[0] if r.facts.tests else None
    if test is not None and test.call:
        parts.append(
            f"The test `{test.name}` ({test.file_path}:{test.line_number}) triggers it with `{test.call}`."
        )
        facts.append("tests")
    elif ctx.call_name and ctx.params and not _public_entries(ctx):  # else `_named` names the public call
        # A call a user can make, passing what the guards read: a call left at the defaults
        # (``run()`` where ``capture_output=True`` raises) would not reach the raise.
        target = _target(ctx)
        values = _reaching(ctx, target) if target is not None else None
        if target is not None and values is not None:
            reaching = _invocation(ctx, target, values=values, omit=_missing(ctx))
            parts.append(f"A call that can reach it: `{reaching}`.")
            facts.append("signature")
    return " ".join(parts), facts


def _passing(ctx: _Context) -> tuple[EntryPoint, dict[str, str]] | None:
    """The first public call that calls the raising function itself, and what it passes on
    unchanged of the parameters the guards test (``EntryPoint.passes``)."""
    entries = _public_entries(ctx)
    if not entries or entries[0].via or entries[0].function == ctx.function:
        return None
    subjects = {c.subject for c in ctx.conditions if c.subject} - set(ctx.record.facts.rebound)
    receivers = ctx.language.receivers if ctx.language else frozenset()
    # What a method is called on is no argument its caller passes (``cls`` to ``cls``).
    passes = {p: n for p, n in entries[0].passes.items() if p in subjects and {p, n}.isdisjoint(receivers)}
    return (entries[0], passes) if passes else None


def _renamed(text: str, passes: dict[str, str]) -> str:
    """Prose about the raising function's parameters said of the caller's: each backticked name
    ``passes`` maps, replaced whole (```cols``` by ```columns```), nothing inside other code."""
    return re.sub(r"`([A-Za-z_]\w*)`", lambda m: f"`{passes.get(m.group(1), m.group(1))}`", text)


#: Conditions whose words name their subject alone, in backticks: said of a caller's argument,
#: they stay true.
_ABOUT_SUBJECT = frozenset({
    "absent", "present", "isinstance", "not-isinstance", "in", "not-in", "compare", "truthy", "falsy",
})  # fmt: skip


def _translated(ctx: _Context) -> tuple[EntryPoint, list[str]] | None:
    """Every guard on the path said of what a public caller passes (``_passing``), where each
    one is a test of a parameter it passes on unchanged: the raise in the caller's terms."""
    passing = _passing(ctx)
    if passing is None or not ctx.conditions or len(ctx.tested) != len(ctx.record.facts.guards):
        return None  # no test, or a block (a loop, a handler) on the path besides the tests
    entry, passes = passing
    if any(
        c.kind not in _ABOUT_SUBJECT or c.subject not in passes or _local_operand(ctx, c, passes)
        for c in ctx.conditions
    ):
        return None
    return entry, [_renamed(c.words, passes) for c in ctx.conditions]


def _local_operand(ctx: _Context, c: Condition, passes: dict[str, str]) -> bool:
    """Whether a condition compares with a parameter the caller does not pass on unchanged
    (``target == source`` where only ``target`` is): said of the caller, it would name a
    value the caller never sees."""
    return c.target is not None and c.target not in passes and any(p.name == c.target for p in ctx.params)


def _entry_fixes(ctx: _Context, entry: EntryPoint, passes: dict[str, str]) -> list[str]:
    """What a caller of ``entry`` can pass so that a condition of the raise does not hold: the
    fixes of the conditions on parameters it passes on unchanged (``_fixes``'s, renamed)."""
    chained, out = _accepted(ctx, passes.keys())
    out = [_renamed(fix, passes) for fix in out]
    for n, (c, guard) in enumerate(zip(ctx.conditions, ctx.tested, strict=True)):
        if guard.kind == "while" or c.subject not in passes or c.subject in chained:
            continue
        if _local_operand(ctx, c, passes):
            continue
        if _rebound(ctx, guard) or not _the_cause(ctx, n):
            continue
        # A fix that quotes the test's code would name the raising function's own values.
        if c.fix and not c.fix.startswith("make sure `" + (c.text or "")):
            out.append(_renamed(c.fix, passes))
        elif (fix := _argument_fix(c, None)) is not None:
            out.append(_renamed(fix, passes))
    return list(dict.fromkeys(out))


def _argument_fix(c: Condition, param: Parameter | None) -> str | None:
    """What to pass instead, for a condition on an argument (``param``, where its default is
    known) that its words alone do not fix: a false value for a truth test, a value outside a
    collection, another type."""
    if c.kind == "truthy":
        return f"pass a false or empty `{c.subject}`"
    if c.kind == "falsy":
        return f"pass a true or non-empty `{c.subject}`"
    if c.kind == "present" and param is not None:
        return f"leave `{c.subject}` out" if param.default == "None" else f"pass `None` as `{c.subject}`"
    if c.kind == "in" and c.target:
        return f"pass a `{c.subject}` that is not in `{c.target}`"
    if c.kind == "isinstance" and c.target:
        return f"pass something other than {a_type(c.target)} as `{c.subject}`"
    return None


def _special(ctx: _Context) -> tuple[str, str] | None:
    """For a method the language runs by no name (``__setattr__``), what a user's code does to
    run it, where no public call is named instead (``_public_entries``)."""
    if ctx.language is None or _public_entries(ctx):
        return None
    return ctx.language.special_use(ctx.function)


def _generator(ctx: _Context) -> bool:
    """Whether the source window shows the raising function as a generator function."""
    r = ctx.record
    return bool(
        ctx.function
        and ctx.language is not None
        and not r.facts.is_async
        and ctx.code.yields(r.source_code, r.source_code_start, r.line_number, ctx.function)
    )


def _missing(ctx: _Context) -> set[str]:
    """Parameters whose absence is a guard condition (``model is None`` with ``model=None``)."""
    return {c.subject for c in ctx.conditions if c.kind == "absent" and c.subject}


def _situations(ctx: _Context) -> tuple[str, list[str]]:
    r = ctx.record
    # The docstring is quoted once, in ``documentation``.
    if not r.facts.callers:
        return "", []
    # A test of a parameter, rebound or not (``arrays = list(arrays)``): what a caller passes decides it.
    passed = {p.name for p in ctx.params}
    decided = any(set(g.names) & passed for g in ctx.tested)
    forwarding = all(c.forwards for c in r.facts.callers)
    if decided and not forwarding:
        # A caller that computes the values itself may never fail the test (``from_tuples`` builds
        # arrays of one length): where none is known to pass its own on, none is cited as a way in.
        return "", []
    shown = _join([f"`{c.function}` ({c.file_path}:{c.line_number})" for c in r.facts.callers])
    text = f"Code that reaches {_named(ctx)} through {shown}"
    if decided:
        text += ": each can lead to it, passing on its own arguments or literals under which its tests hold"
    return text + ".", ["callers"]


def _solutions(ctx: _Context) -> tuple[list[str], list[str]]:
    """What to do, in order: the message's own advice; what the guards say a caller can change
    (for a function a caller calls); an internal check said to be one; a method left to
    subclasses; an optional module to install; the call a test makes to raise it."""
    r = ctx.record
    out: list[str] = []
    facts: list[str] = []
    for item in ctx.advice:
        text = _standard_install(ctx, item.text) if item.kind == "install" else item.text
        out.append(text if text.endswith((".", "?", "!")) else text + ".")
        facts.append("message")
    target = _target(ctx)
    fixes = _fixes(ctx, target) if target is not None else []
    if fixes:
        out.append(f"Before calling {_named(ctx)}, {', or '.join(fixes)}.")
        facts.append("conditions")
    passing = _passing(ctx)
    if target is None and passing is not None and (through := _entry_fixes(ctx, *passing)):
        entry = passing[0]
        out.append(f"Before calling `{entry.name or entry.function}`, {', or '.join(through)}.")
        facts += ["conditions", "entry_points"]
    documented = _documented(ctx, target) if target is not None else []
    if documented:
        out += documented
        facts.append("parameter_docs")
    if r.facts.raises_doc and ctx.function:  # the docstring's words are quoted in ``documentation``
        out.append(
            f"Avoid the case the docstring of {_named(ctx)} gives for `{r.error_class}`:"
            " see its `Raises` section."
        )
        facts.append("raises_doc")
    if _internal(ctx, target):
        package = r.package or r.repo
        home = "" if r.repo.startswith(("pypi/", "local/")) else f" (github.com/{r.repo})"
        out.append(
            f"This is an internal check of {_where(ctx)}: its failing is likely a bug in `{package}` or an"
            f" unsupported use; report it to the issue tracker of `{package}`{home} with the traceback."
        )
        facts.append("conditions" if r.conditions else "site")
    abstract = _left_to_subclasses(ctx)
    if abstract is not None:
        owner, name = abstract
        note = f" (its docstring: {r.facts.override_note})" if r.facts.override_note else ""
        out.append(
            f"`{owner}.{name}` ({r.file_path}) is left to subclasses{note}: call `{name}` on a subclass"
            f" of `{owner}` that implements it, or implement it in your own subclass."
        )
        facts.append("site")
    module = _optional_module(ctx)
    said = any(a.kind == "install" or a.text.lower().startswith(("install ", "run `pip")) for a in ctx.advice)
    if module is not None and not said:
        where = _where(ctx)
        if ctx.code.is_standard(module) and ctx.language is not None and ctx.language.name == "python":
            fix = (
                f"use a Python built with `{module}` (part of the standard library, left out of some builds)"
            )
        else:
            fix = f"install the distribution that provides `{module}`"
        out.append(
            f"{where[:1].upper()}{where[1:]} needs the optional module `{module}`, which could not be"
            f" imported: {fix}."
        )
        facts.append("guards")
    handled = _failing_call(ctx, target)
    if handled is not None:
        out.append(handled)
        facts.append("guards")
    if _is_warning(r) and (ignored := _ignore_warning(ctx)) is not None:
        out.append(ignored)
        facts += ["class", "message"]
    if (quiet := _quiet_log(ctx)) is not None:
        out.append(quiet)
        facts.append("site")
    test = next((t for t in r.facts.tests if t.call), None)
    if test is not None and ctx.function:
        out.append(
            f"Compare your call with `{test.call}`, which `{test.name}` uses to make {_named(ctx)} raise it."
        )
        facts.append("tests")
    return list(dict.fromkeys(out)), facts


#: "Install the zlib module", "Install `zlib`": the module an install step names.
_INSTALLED = re.compile(r"^Install (?:the )?[`'\"]?([A-Za-z_][\w.]*)[`'\"]?(?: (?:module|package|library))?$")


def _standard_install(ctx: _Context, text: str) -> str:
    """An install step for a module of the language's own library (``zlib``) said as what it
    takes: such a module comes with the interpreter's build, not from a package index."""
    m = _INSTALLED.match(text)
    if m is None or ctx.language is None or not ctx.code.is_standard(m.group(1)):
        return text
    return (
        f"Use a Python build that includes the standard library's `{m.group(1)}` module: it comes with"
        " the interpreter, not from a package index"
    )


def _failing_call(ctx: _Context, target: _Target | None) -> str | None:
    """For a raise in an ``except`` handler, innermost on its path: the call the ``try`` guards,
    when it is a public call on an argument the caller passes unchanged (``int(value)``), as
    what to pass: a value that call accepts."""
    r = ctx.record
    if target is None or target.how != "call" or not r.error_class:
        return None
    guards = [g for g in r.facts.guards if g.kind not in ("loop", "with")]
    if not guards or guards[-1].kind != "except" or not guards[-1].caught:
        return None  # more tests after the handler decide it, or no class caught
    guard = guards[-1]
    if not all(_VALUE_ERRORS.search(c.rpartition(".")[2]) for c in guard.caught):
        return None  # an OSError says more of the system than of the value passed
    called = _one_call(guard.guarded or "")
    if called is None or not ctx.code.is_public(called[0]) or called[0].startswith("self."):
        return None
    callee, arguments = called
    passed = {p.name for p in target.params if p.kind in ("positional", "keyword")} - set(r.facts.rebound)
    args = set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", arguments))
    used = [p.name for p in target.params if p.name in passed and p.name in args]
    if not used or not ctx.code.reads_only(arguments, passed):
        return None  # it reads more than what the caller passed (and builtins: ``str(v).strip()``)
    caught = either([f"`{c}`" for c in guard.caught])
    names = _join([_code(n) for n in used])
    return (
        f"Pass {'a ' + names if len(used) == 1 else names + ' values'} that `{callee}` accepts:"
        f" {_named(ctx)} raises `{r.error_class}` when `{guard.guarded}` raises {caught}."
    )


#: Classes that say a value was refused, not that the system failed (``OSError``) or anything
#: at all (``Exception``).
_VALUE_ERRORS = re.compile(
    r"^(?:Invalid\w*|\w*(?:Value|Type|Key|Index|Lookup|Unicode\w*|Decode|Parse|Parsing|Syntax|Format|Arithmetic|"
    r"Conversion|Validation|Version)\w*(?:Error|Exception))$"
)


def _one_call(code: str) -> tuple[str, str] | None:
    """A call the ``try`` guards, on one line: its dotted name and the text of its arguments,
    where the bracket after the name closes at the end (``Decimal(str(v).strip())``, not
    ``f(a).g(b)``)."""
    m = re.match(r"([A-Za-z_][\w.]*)\(", code)
    if m is None or "\n" in code or not code.endswith(")"):
        return None
    depth = 0
    for i, ch in enumerate(code[m.end() - 1 :], m.end() - 1):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return (m.group(1), code[m.end() : -1]) if i == len(code) - 1 else None
    return None


#: Warning classes too general to filter on alone: a filter on them without a message would
#: hide every other warning of that class.
_GENERAL_WARNINGS = frozenset({
    "Warning", "UserWarning", "DeprecationWarning", "PendingDeprecationWarning", "FutureWarning",
    "RuntimeWarning", "SyntaxWarning", "ImportWarning", "UnicodeWarning", "BytesWarning",
    "ResourceWarning", "EncodingWarning",
})  # fmt: skip
#: The shortest start of a message a filter may match on, and the longest it quotes.
_FILTER_START = (24, 80)


def _reached(ctx: _Context) -> str:
    """The raising function (or the module) as prose names it: what a caller's call reaches."""
    return _named(ctx) if ctx.function else f"the import of {ctx.record.file_path}"


def _ignore_warning(ctx: _Context) -> str | None:
    """How to ignore just this warning, once the caller has decided to: a filter on its class
    and the literal start of its message (what ``warnings`` matches), where the class can be
    named and the filter would not hide other warnings."""
    r = ctx.record
    if ctx.language is None or not r.error_class or _other_category(ctx):
        return None
    code = ctx.code
    qualified = r.qualified_class or r.error_class
    catchable = code.catchable(qualified)
    if catchable is None or not code.is_public(qualified):
        return None
    imports, caught = catchable
    opening = split_pattern(r.message_pattern)[0] if r.message_pattern else r.error_message
    start = opening.lstrip()
    if start != opening:
        return None  # a message opening with white space: the filter would have to say so
    shortest, longest = _FILTER_START
    start = start.partition("`")[0].rstrip()  # quoted code inside quoted code would end it
    if len(start) > longest:
        cut = start.rfind(" ", 0, longest)
        start = start[: cut if cut > shortest else longest]
    if len(start.strip()) < shortest or len(start.split()) < 4:
        if caught.rpartition(".")[2] in _GENERAL_WARNINGS:
            return None
        start = ""
    where = f", after `{imports[0]}`" if imports else ""
    matched = (
        f"every `{caught}`" if not start else f"the `{caught}` warnings whose message starts with that text"
    )
    return (
        "To silence it once you have decided to accept it, run"
        f" `{code.ignore_warning(caught, start)}` before the call that reaches {_reached(ctx)}{where}:"
        f" it ignores {matched}"
        + (f"; {ctx.language.warning_scope}." if ctx.language and ctx.language.warning_scope else ".")
    )


def _quiet_log(ctx: _Context) -> str | None:
    """How to stop seeing a log line once the caller has decided to accept it: the level of the
    logger it is written to (``Site.logger``), raised above the line's own."""
    site = ctx.record.sites[0] if ctx.record.sites else None
    # Not the root logger's: its level is every other logger's too.
    if site is None or site.kind != "log" or not site.logger or ctx.language is None:
        return None
    call = ctx.code.quiet_logger(site.logger, ctx.record.severity)
    if call is None:
        return None
    return (
        f"To stop seeing this line of {_reached(ctx)} once you have decided to accept it, run"
        f" `import logging` and `{call}`: the `{site.logger}` logger then drops"
        f" {ctx.record.severity} lines and those below, its other lines of those levels too."
    )


@dataclass(frozen=True, slots=True)
class _Target:
    """The raising function as a caller's code calls it: a public name, its real parameters."""

    #: The call as code names it: ``fabric.backward``, ``Version``, ``ip_address``.
    name: str
    #: The object a method is called on: a name the caller has (``fabric``); None for a function.
    receiver: str | None
    #: What the snippet imports to name it (a function or class; nothing for a method).
    imports: tuple[str, ...]
    #: ``call``, or for a property ``get`` (read it) and ``set`` (assign it).
    how: str
    awaited: bool
    #: The parameters a caller passes, in order (the receiver left out).
    params: tuple[Parameter, ...]


#: Decorators after which the function is no longer called as it is defined.
_NOT_CALLED = re.compile(r"(?:^|\.)(?:contextmanager|asynccontextmanager|overload|deleter)$")
_PROPERTY = re.compile(r"^(?:property|(?:functools\.)?cached_property|\w+\.getter)$")
_SETTER = re.compile(r"^\w+\.setter$")


def _target(ctx: _Context) -> _Target | None:
    """How a caller's code calls the raising function; None where none can: a private name (any
    part starting with ``_``), a function local to another, a special method, a decorator that
    changes how it is called, or one errdex cannot name the module of."""
    r = ctx.record
    language, function = ctx.language, ctx.function
    if language is None or not function or not ctx.call_name or "<locals>" in function:
        return None
    module = _module(ctx)
    # A method is called on an object the caller has: only a function imported by name needs
    # the module (which an npm package's files do not tell: ``imports_by_path``).
    if (module is None and language.imports_by_path) or not language.is_public(function, module):
        return None
    decorators = r.facts.decorators
    if any(_NOT_CALLED.search(d) for d in decorators):
        return None
    how = "get" if any(_PROPERTY.match(d) for d in decorators) else "call"
    if any(_SETTER.match(d) for d in decorators):
        how = "set"
    owner, _, name = function.rpartition(".")
    params = [
        p for p in r.facts.parameters if p.kind in ("positional", "keyword", "var-positional", "var-keyword")
    ]
    method = bool(owner) and "staticmethod" not in decorators
    receiver_parameter = ctx.language is None or ctx.language.receiver_parameter
    if method and params and params[0].kind == "positional" and receiver_parameter:
        params = params[1:]  # the object (or class) it is called on
    if how == "set" and len(params) != 1:
        return None
    code = ctx.code
    on_class = any(d in ("classmethod", "staticmethod") for d in decorators)
    constructor = name in ("__init__", "__new__")  # both run on a call of the class
    if owner and not constructor and on_class and how == "call":
        # Called on the class, imported by name: ``MultiIndex.from_arrays(arrays)``.
        if "." in owner or not code.is_public(function) or module is None:
            return None
        imported = code.import_of(module, owner)
        return _Target(function, None, (imported,), how, r.facts.is_async, tuple(params))
    if owner and not constructor:
        if not ctx.receiver or not code.is_public(ctx.call_name):
            return None
        receiver, call_name = ctx.receiver, ctx.call_name
        if receiver == owner.rpartition(".")[2]:
            # A class named in lower case (distutils' ``build``): its instance needs another
            # name, or the snippet would call the method on the class.
            receiver = f"{receiver}_obj"
            call_name = f"{receiver}{ctx.call_name[len(ctx.receiver) :]}"
        return _Target(call_name, receiver, (), how, r.facts.is_async, tuple(params))
    if how != "call":
        return None
    called = owner if constructor else function  # a class (nested ones by their outer class)
    if not code.is_public(called) or module is None:
        return None
    imported = code.import_of(module, called.split(".")[0])
    return _Target(called, None, (imported,), how, r.facts.is_async, tuple(params))


def _module(ctx: _Context) -> str | None:
    """The module a user's code imports the raising function from: its public name where the
    facts give one (``lightning`` for ``lightning.Fabric``), else the module its file is."""
    r = ctx.record
    language = ctx.language
    if language is None or not ctx.function or not language.imports_by_path:
        return None
    named = language.named_as(ctx.function)
    for entry in r.facts.entry_points:
        own = entry.function == ctx.function and entry.file_path == r.file_path
        if own and entry.name and entry.name.endswith("." + named):
            return entry.name[: -len(named) - 1]
    if r.facts.entry_points and not any(e.function == ctx.function for e in r.facts.entry_points):
        return None  # reached only through other public functions: not called by name itself
    parts = r.file_path.replace("\\", "/").split("/")
    if len(parts) > 1 and parts[0] in ("src", "Lib", "lib"):
        parts = parts[1:]
    return language.module_name(parts)[0]


def _arguments(
    target: _Target, values: dict[str, str] | None = None, omit: Collection[str] = ()
) -> tuple[list[str], list[tuple[str, str]]]:
    """The arguments of a call by the real signature: the required positional parameters in
    their places (each a name the caller has, or a value from ``values``), the required
    keyword-only ones by name, an optional one only where ``values`` gives it, by name.  No
    argument is given twice."""
    values = values or {}
    positional: list[str] = []
    keywords: list[tuple[str, str]] = []
    for p in target.params:
        value = values.get(p.name)
        if p.kind == "var-positional" and value is not None and p.name not in omit:
            positional.append(f"*{value}")  # ``safe_range(*args)``: what the raise reads
            continue
        if p.kind not in ("positional", "keyword") or p.name in omit:
            continue
        if p.default is None:
            (
                positional.append(value or p.name)
                if p.kind == "positional"
                else keywords.append((p.name, value or p.name))
            )
        elif value is not None:
            keywords.append((p.name, value))
    return positional, keywords


def _invocation(
    ctx: _Context, target: _Target, values: dict[str, str] | None = None, omit: Collection[str] = ()
) -> str:
    """The statement that calls the function (reads or sets the property)."""
    code = ctx.code
    if target.how == "get":
        return ("await " if target.awaited else "") + target.name
    if target.how == "set":
        value = target.params[0].name
        return code.assign(target.name, (values or {}).get(value, value))
    positional, keywords = _arguments(target, values, omit)
    called = code.call(target.name, positional, keywords, awaited=target.awaited)
    if not target.awaited and _generator(ctx):
        return code.consumed(called)  # a generator's body runs only as it is iterated
    return called


def _checked_guards(ctx: _Context) -> list[tuple[Condition, Guard]] | None:
    """Each condition with its guard; None where the path has a block no caller can test first
    (a loop, a handler, a ``case``): the raise then depends on more than the call."""
    guards = ctx.record.facts.guards
    if any(g.kind not in ("if", "elif", "else", "assert", "early-exit", "with") for g in guards):
        return None
    return list(zip(ctx.conditions, ctx.tested, strict=True))


def _caller_test(ctx: _Context, target: _Target, guard: Guard) -> str | None:
    """A guard's condition as the caller's own check: it may read only the call's arguments (as
    passed: none the function rebinds before the raise), the public attributes of the object a
    method is called on, builtins and literals."""
    if guard.code is None or guard.kind == "while" or not guard.names:
        return None  # a loop's test, or a constant one (``while True``): nothing a caller sets
    code = ctx.code
    receiver = target.receiver
    test = code.caller_side(guard.code, guard.names, [p.name for p in target.params], receiver)
    if test is None or _rebound(ctx, guard):
        return None
    allowed = {p.name for p in target.params if p.kind in ("positional", "keyword")}
    if receiver:
        allowed.add(receiver)
    return test if code.reads_only(test, allowed) else None


def _rebound(ctx: _Context, guard: Guard) -> bool:
    """Whether a guard reads a name its function assigns before the raise (the function's own
    value then, not the caller's)."""
    rebound = set(ctx.record.facts.rebound)
    if not rebound:
        return False
    code = guard.code or guard.text
    return bool(rebound & set(guard.names)) or any(
        "." in name and re.search(rf"\b{re.escape(name)}\b", code) is not None for name in rebound
    )


def _fixes(ctx: _Context, target: _Target) -> list[str]:
    """What a caller can change so that a condition of the raise does not hold; each one alone
    avoids it.  Only conditions on what the caller passes (none the function rebinds first) or
    on public state of the object it calls."""
    passed = {p.name: p for p in target.params if p.kind in ("positional", "keyword")}
    chained, out = _accepted(ctx, passed.keys())
    for n, (c, guard) in enumerate(zip(ctx.conditions, ctx.tested, strict=True)):
        if guard.kind == "while" or c.subject in chained or _rebound(ctx, guard) or not _the_cause(ctx, n):
            continue
        param = passed.get(c.subject or "")
        if c.fix and param is not None:
            out.append(c.fix)
            continue
        test = _caller_test(ctx, target, guard)
        if test is None:
            continue
        if param is not None and (fix := _argument_fix(c, param)) is not None:
            out.append(fix)
        elif len(test) > _QUOTED_TEST:
            continue  # a test that long tells a caller nothing it can act on
        elif c.kind == "truthy":
            out.append(f"make sure `{test}` is false")
        elif (inverse := _inverse(test)) is not None:
            out.append(f"make sure `{inverse}`")
        elif (held := _without_not(test)) is not None:
            out.append(f"make sure `{held}` holds")
        else:
            out.append(f"make sure `{test}` does not hold")
    return list(dict.fromkeys(out))


def _accepted(ctx: _Context, names: Collection[str]) -> tuple[set[str], list[str]]:
    """Where several tests on the path read one argument, each holding only while it is none of
    some values (or classes), as the ``else`` of ``if axis is None: … elif axis == 1: …`` is:
    those values, any of which avoids the raise, as one fix ("pass `axis` as `None`, `0` or
    `1`").  The arguments so read, and the fixes."""
    by_subject: dict[str, list[Condition]] = {}
    for c, guard in zip(ctx.conditions, ctx.tested, strict=True):
        if c.subject in names and guard.kind != "while" and not _rebound(ctx, guard):
            by_subject.setdefault(c.subject or "", []).append(c)
    chained: set[str] = set()
    out = []
    for subject, conditions in by_subject.items():
        if len(conditions) < 2:
            continue
        values = [
            _code(c.target)
            for c in conditions
            if c.operator == "!=" and c.target and ctx.code.is_literal(c.target)
        ]
        values += ["`None`" for c in conditions if c.kind == "present" and c.text.endswith(" is not None")]
        classes = [c.target for c in conditions if c.kind == "not-isinstance" and c.target]
        if values and len(values) == len(conditions):
            out.append(f"pass `{subject}` as {either(list(dict.fromkeys(values)))}")
        elif classes and len(classes) == len(conditions):
            kinds = [n for t in classes for n in classes_of(t)]
            out.append(
                f"pass an instance of {either([_code(k) for k in dict.fromkeys(kinds)])} as `{subject}`"
            )
        else:
            continue
        chained.add(subject)
    return chained, out


def _the_cause(ctx: _Context, n: int) -> bool:
    """Whether condition ``n`` says why the raise happens, not only which way the code went: the
    innermost test (nearest the raise), or one on something the message itself names.  Where
    ``weights is None`` only picks the branch whose ``if not n`` raises, passing ``weights``
    avoids this raise only to reach another."""
    if n == len(ctx.conditions) - 1:
        return True
    subject = (ctx.conditions[n].subject or "").removeprefix("self.").partition(".")[0].partition("(")[0]
    return bool(subject) and re.search(rf"\b{re.escape(subject)}\b", ctx.record.error_message) is not None


#: The longest test a solution quotes.
_QUOTED_TEST = 80


#: One comparison of a name (or attribute, call, item) with one operand, nothing else.
_ONE_COMPARISON = re.compile(
    r"^([\w.]+(?:\([^()]*\)|\[[^\[\]]*\])?) (is not|is|==|!=|not in|in) ([\w.'\"-]+|\([^()]*\)|\[[^\[\]]*\])$"
)


def _inverse(test: str) -> str | None:
    """The test that holds where a single comparison fails (``x is None``: ``x is not None``)."""
    m = _ONE_COMPARISON.match(test)
    if m is None or re.search(r"\b(?:and|or|not|if)\b", m.group(1) + " " + m.group(3)):
        return None
    return f"{m.group(1)} {INVERSE[m.group(2)]} {m.group(3)}"


def _without_not(test: str) -> str | None:
    """``x`` for a test written ``not x`` (``not (a and b)``: ``a and b``), where ``not`` applies
    to all of it; None for any other test."""
    if not test.startswith("not "):
        return None
    rest = test[4:].strip()
    if rest.startswith("(") and rest.endswith(")") and _balanced(rest[1:-1]):
        return rest[1:-1]
    return None if re.search(r"\b(?:and|or|if)\b", rest) else rest


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _documented(ctx: _Context, target: _Target) -> list[str]:
    """What the function's docstring says of the parameters its guards test, as passed."""
    docs = ctx.record.facts.parameter_docs
    if not docs:
        return []
    passed = {p.name for p in target.params if p.kind in ("positional", "keyword")}
    rebound = set(ctx.record.facts.rebound)
    read = [n for g in ctx.tested for n in g.names]
    out = []
    for name in dict.fromkeys(read):
        doc = docs.get(name, "").strip()
        doc = ctx.language.plain(doc) if ctx.language else doc  # reST and Markdown as plain code
        if name in passed and name not in rebound and doc:
            doc = doc if doc.endswith((".", "?", "!")) else doc + "."
            out.append(f"Pass `{name}` as the docstring of {_named(ctx)} describes it: {doc}")
    return out


def _own_error(ctx: _Context) -> str:
    """The class a caller's own check raises: the record's when it is a builtin error, else
    ``ValueError`` (``TypeError`` for a type)."""
    cls = ctx.record.error_class or ""
    builtin = ctx.language is not None and cls in ctx.language.builtin_classes
    if builtin and cls.endswith("Error") and cls not in ("AssertionError", "NotImplementedError"):
        return cls
    return "TypeError" if any(c.kind == "not-isinstance" for c in ctx.conditions) else "ValueError"


def _example_fix(ctx: _Context) -> tuple[str | None, list[str]]:
    """Before and after for the common shapes: a wrong state the message says how to leave, a
    missing argument, an invalid choice from a literal collection, a wrong builtin type.  Each
    call is one a caller can make, by the function's real signature."""
    target = _target(ctx)
    if target is None or target.how != "call":
        return None, []
    code = ctx.code
    comment = code.comment
    rebound = set(ctx.record.facts.rebound)
    names = {p.name for p in target.params if p.kind in ("positional", "keyword")} - rebound
    call = _invocation(ctx, target)
    # A wrong state the message says how to leave ("Did you forget to call `fabric.setup()`?").
    # The guard nearest the raise is the state it complains about.
    state = next((c for c in reversed(ctx.conditions) if (c.subject or "").startswith("self.")), None)
    step = _step(ctx, target)
    if state is not None and step is not None and target.receiver and not target.awaited:
        body = "\n".join([comment(f"before: {state.words}"), call, comment("after"), step, call])
        return code.program(target.imports, body, target.awaited), ["conditions", "message", "signature"]
    optional = {p.name for p in target.params if p.default == "None"}
    absent = [
        c
        for n, c in enumerate(ctx.conditions)
        if c.kind == "absent" and c.subject in names & optional and _the_cause(ctx, n)
    ]
    if absent:
        name = absent[0].subject or ""
        before = _invocation(ctx, target, omit={name})
        after = _invocation(ctx, target, values={name: name})
        body = "\n".join([comment(f"before: `{name}` left out"), before, comment("after"), after])
        return code.program(target.imports, body, target.awaited), ["conditions", "signature"]
    # An invalid choice or a wrong type: the argument replaced by a value the guard accepts.
    for n, c in enumerate(ctx.conditions):
        if c.subject not in names or not c.target or not _the_cause(ctx, n):
            continue
        if c.kind == "not-in":
            value, problem = code.first_choice(c.target), f"is not in `{c.target}`"
        elif c.kind == "not-isinstance":
            value, problem = code.converted(c.subject, c.target), f"is not {a_type(c.target)}"
        else:
            continue
        if value is None:
            continue
        before = _invocation(ctx, target, values={c.subject: c.subject})
        after = _invocation(ctx, target, values={c.subject: value})
        body = "\n".join([comment(f"before: `{c.subject}` {problem}"), before, comment("after"), after])
        return code.program(target.imports, body, target.awaited), ["conditions", "signature"]
    avoided = _avoiding_call(ctx, target)
    if avoided is not None:
        before, after, how = avoided
        body = "\n".join([comment("before: this call can raise it"), before, comment(f"after: {how}"), after])
        return code.program(target.imports, body, target.awaited), ["conditions", "signature"]
    return None, []


def _avoiding_call(ctx: _Context, target: _Target) -> tuple[str, str, str] | None:
    """A call that can reach the raise and one that cannot, told apart by evaluating the guards
    (``CallReader.holds``), not by their words.  The argument changed is one a condition that
    causes the raise tests (``_the_cause``): left at its default where that condition is about
    passing it (``storage_options`` given) or the default is a value of its own (``world_size=1``),
    not ``None``, which often only leads to another raise; else given the literal the condition
    names (``timeout=0`` where ``timeout < 0`` raises).  The before and after calls, and what
    changed."""
    reader = ctx.language.call_reader if ctx.language is not None else None
    reaching = _reaching(ctx, target)
    if reader is None or reaching is None or target.how != "call":
        return None
    params = {p.name: p for p in target.params if p.kind in ("positional", "keyword")}
    for n, (c, guard) in enumerate(zip(ctx.conditions, ctx.tested, strict=True)):
        name = c.subject or ""
        if name not in params or not guard.code or _rebound(ctx, guard) or not _the_cause(ctx, n):
            continue
        default = params[name].default
        tried: list[tuple[str | None, str]] = []
        if default is not None and (
            c.kind in ("present", "truthy") or (default != "None" and ctx.code.is_literal(default))
        ):
            tried.append((None, default))
        if c.target and ctx.code.is_literal(c.target):
            tried.append((c.target, c.target))
        # Not into an early exit of the function either (``length_bound=0`` where ``if
        # length_bound == 0: return``): a fix that makes the call do nothing is none.
        exits = [
            g.code for g in ctx.record.facts.guards if g.kind == "early-exit" and g.code and name in g.names
        ]
        # A value at the edge of an order (``0`` for ``length_bound < 0``) must pass that test and
        # stay on the same path: where it turns another test (``length_bound != 0``, whose branch
        # returns at once), it only goes elsewhere.
        ordered = c.operator in ("<", ">", "<=", ">=")
        others = [g.code for g in ctx.tested if g is not guard and g.code and name in g.names]
        for given, text in tried:
            values = {name: reader.value_of(text)}
            if reader.holds(guard.code, values) is not False:
                continue
            if any(reader.holds(code, values) is False for code in exits):
                continue
            if given is not None and ordered and any(reader.holds(code, values) is False for code in others):
                continue
            before = _invocation(ctx, target, values={**reaching, name: name})
            if given is None:
                after = _invocation(ctx, target, values=reaching, omit={name})
                return before, after, f"`{name}` left at its default, `{default}`"
            after = _invocation(ctx, target, values={**reaching, name: given})
            return before, after, f"`{name}={given}`"
    return None


def _step(ctx: _Context, target: _Target) -> str | None:
    """A call the message says to make first, on the same object (``fabric.setup()``)."""
    code = ctx.code
    steps = (a.text for a in ctx.advice if a.kind == "forgot" or a.text.startswith("Call "))
    for text in steps:
        for m in _CALL_CODE.finditer(text):
            step = m.group(1)
            if target.receiver and step.startswith("self."):
                step = target.receiver + step[4:]
            if code.quoted_call(step) and target.receiver and step.startswith(target.receiver + "."):
                return step
    return None


def _validation(ctx: _Context) -> str | None:
    """The guards as the caller's check before the call, raising its own error where the call
    would raise: only where every guard on the path is one the caller can test with what it
    passes, so the check fires exactly where the call would raise."""
    target = _target(ctx)
    checked = _checked_guards(ctx)
    if target is None or not checked or not ctx.function:
        return None
    tests = []
    for _condition, guard in checked:
        test = _caller_test(ctx, target, guard)
        if test is None:
            return None
        tests.append(test)
    exits = [g for g in ctx.record.facts.guards if g.kind == "early-exit"]
    for guard in exits:
        test = _caller_test(ctx, target, guard)
        if test is None:
            return None
        tests.append(test)
    code = ctx.code
    error = ctx.record.error_class or "an error"
    head = code.comment(f"`{ctx.function}` raises {error} when this holds")
    words = _join([c.words for c, _ in checked])
    check = code.if_block(code.all_of(tests), code.raise_error(_own_error(ctx), words))
    values = _reaching(ctx, target)
    if values is None:
        return None
    body = "\n".join([head, check, _invocation(ctx, target, values=values)])
    return code.program(target.imports, body, target.awaited)


def _type_guard(ctx: _Context) -> str | None:
    """Call only with a value of the type the guard wants: for builtin types, which a caller's
    code names without an import."""
    target = _target(ctx)
    if target is None or target.how != "call":
        return None
    code = ctx.code
    names = {p.name for p in target.params if p.kind in ("positional", "keyword")} - set(
        ctx.record.facts.rebound
    )
    typed = [
        c
        for c in ctx.conditions
        if c.kind == "not-isinstance" and c.subject in names and c.target and code.builtin_types(c.target)
    ]
    if not typed:
        return None
    c = typed[0]
    body = code.if_block(code.is_instance(c.subject or "", c.target or ""), _invocation(ctx, target))
    return code.program(target.imports, body, target.awaited)


def _try_catch(ctx: _Context) -> str | None:
    """The call in a ``try`` catching the record's class, imported by name; a warning is caught
    where a filter makes it an error (it is warned, not raised).  None for a log line, or where
    the class or the call cannot be named."""
    r = ctx.record
    target = _target(ctx)
    kind = _site_kind(r)
    # An error handed to a callback or returned is caught by no ``try``.
    if target is None or not r.error_class or kind == "log" or r.facts.delivery in ("callback", "return"):
        return None
    if r.facts.delivery == "reject" and not target.awaited:
        target = replace(target, awaited=True)  # the promise it returns rejects: awaited, it throws
    code = ctx.code
    catchable = code.catchable(r.qualified_class or r.error_class)
    if catchable is None:
        return None
    imports, caught = catchable
    values = _reaching(ctx, target)
    if values is None:
        return None  # no call written from the signature reaches the raise
    call = _invocation(ctx, target, values=values)
    handler = code.report(target.name)
    if _is_warning(r):
        if _other_category(ctx):
            return None  # the call warns another class than the one the record names
        body = code.catch_warning(caught, call, handler)
        imports = [*imports, code.import_module("warnings")]
    else:
        body = code.try_except(caught, call, handler)
    return code.program([*target.imports, *imports], body, target.awaited)


def _other_category(ctx: _Context) -> bool:
    """Whether the warning call at the site names a category other than the record's class
    (``rank_zero_warn(msg, category=RuntimeWarning)`` read as the helper's ``UserWarning``): the
    call's own text, from the source window, over the class the record was given."""
    r = ctx.record
    lines = r.source_code.split("\n")[r.line_number - r.source_code_start :]
    depth, text = 0, []
    for line in lines[:30]:
        text.append(line)
        depth += line.count("(") - line.count(")")
        if depth <= 0 and "(" in "".join(text):
            break
    m = re.search(r"\bcategory\s*=\s*([A-Za-z_][\w.]*)", "\n".join(text))
    return m is not None and m.group(1).rpartition(".")[2] != (r.error_class or "").rpartition(".")[2]


def _reaching(ctx: _Context, target: _Target) -> dict[str, str] | None:
    """The optional arguments a call must pass for the raise to be reachable: each parameter a
    guard on the path reads, passed by name (``simple_cycles(G, length_bound=length_bound)``),
    unless a guard needs it left at its default (``model is None``); the ``*args`` of a function
    that takes its values so (``safe_range(*args)``).  None where a guard reads what
    ``**kwargs`` holds (``kwargs.get('stdout')``): a keyword no signature names, which no call
    written from the signature passes; and where an early exit tests several parameters at once."""
    guards = [g for g in ctx.record.facts.guards if g.kind in CONDITION_KINDS or g.kind == "early-exit"]
    if any(p.kind == "var-keyword" and p.name in g.names for g in guards for p in target.params):
        return None
    # An early exit on one parameter (``if length is None: return``) needs it passed; one on
    # several (``if [hex, bytes, int].count(None) != 4: raise``: exactly one of them) says how
    # many to pass, which no call written from the names can tell.
    named = {p.name for p in target.params}
    if any(g.kind == "early-exit" and len(named.intersection(g.names)) > 1 for g in guards):
        return None
    read = {n for g in guards for n in g.names}
    left = {c.subject for c in ctx.conditions if c.kind in ("absent", "falsy") and c.subject}
    values = {}
    for p in target.params:
        if p.kind in ("positional", "keyword") and p.default is not None and p.name in read - left:
            values[p.name] = p.name
    if any(p.kind == "var-positional" for p in target.params) and not any(
        p.kind == "positional" and p.default is None for p in target.params
    ):
        star = next(p for p in target.params if p.kind == "var-positional")
        values[star.name] = star.name
    return values


def _is_warning(record: Record) -> bool:
    """Whether the record is a warning: warned (directly or by a helper that warns a warning
    class), not raised."""
    kind = _site_kind(record)
    return kind == "warn" or (kind == "helper" and (record.error_class or "").endswith("Warning"))


def _internal(ctx: _Context, target: _Target | None) -> bool:
    """Whether the raise is an internal check: an ``assert`` (or ``raise AssertionError``), unless
    it only tests what a caller passed to a public function; or a raise in a private function,
    reached from no public caller, guarded only by the object's private state (``self._x``)."""
    r = ctx.record
    kind = _site_kind(r)
    if kind in ("warn", "log"):
        return False
    cls = (r.error_class or "").rpartition(".")[2]
    if _SAYS_INTERNAL.search(r.error_message):
        return True  # the message says so itself ("internal error", "should not happen")
    if kind == "assert" or cls == "AssertionError":
        checked = _checked_guards(ctx) if target is not None else None
        # An argument check is said by the conditions' fixes; any other assert is internal.
        return not (target is not None and checked and all(_caller_test(ctx, target, g) for _, g in checked))
    language = ctx.language
    if language is None or not ctx.function or target is not None:
        return False
    if language.is_public(ctx.function, _module(ctx)) or r.facts.entry_points:
        return False
    if any(language.is_public(c.function, None) for c in r.facts.callers):
        return False
    guards = [g for g in r.facts.guards if g.kind in CONDITION_KINDS or g.kind == "early-exit"]
    return bool(guards) and all(_private_state(g) for g in guards)


#: A message that calls its own raise a failure of the library: "internal error", "this should
#: never happen", "please report this bug".
_SAYS_INTERNAL = re.compile(
    r"\binternal (?:error|inconsistency)\b|\bshould (?:not|never) (?:happen|occur|be reached|get here)\b|"
    r"\bthis is a bug\b|\breport (?:this |it )?as a bug\b|\bunreachable\b",
    re.IGNORECASE,
)


def _private_state(guard: Guard) -> bool:
    """Whether a guard tests only the object's private attributes (``self._x``) and constants."""
    code = guard.code or guard.text
    if set(guard.names) - {"self", "cls", "None", "True", "False", "len", "isinstance"}:
        return False
    attributes = re.findall(r"\b(?:self|cls)\.(\w+)", code)
    return bool(attributes) and all(a.startswith("_") for a in attributes)


def _left_to_subclasses(ctx: _Context) -> tuple[str, str] | None:
    """A method that raises whatever it is given, as a base class leaves a method to its
    subclasses: ``NotImplementedError``, or any error where its docstring says to override it
    (``facts.override_note``): (its class, its name)."""
    r = ctx.record
    # A note that says the base raises ("Unless overridden in a subclass, this raises an error"),
    # not one that invites customising ("you should override this method").
    noted = bool(r.facts.override_note and _RAISES_UNLESS.search(r.facts.override_note)) and not _is_warning(
        r
    )
    if ((r.error_class or "").rpartition(".")[2] != "NotImplementedError" and not noted) or r.facts.guards:
        return None
    if not ctx.function or "<locals>" in ctx.function or "." not in ctx.function:
        return None
    if _site_kind(r) not in (("raise", "helper") if noted else ("raise",)):
        return None
    owner, _, name = ctx.function.rpartition(".")
    if name.startswith("__") and name != "__call__":
        return None
    if noted:
        return owner, name
    message = r.error_message
    if (
        r.message_kind not in ("none", "dynamic")
        and message.strip() != name
        and not re.search(r"implement|subclass|overrid|abstract", message, re.IGNORECASE)
    ):
        return None
    return owner, name


_RAISES_UNLESS = re.compile(r"\braises?\b|\b(?:must|have to|has to)\b", re.IGNORECASE)


#: The module an ``import`` statement imports: ``import a.b as c``, ``from a.b import c``.
_IMPORTED = re.compile(r"^(?:import|from)\s+([A-Za-z_]\w*)")


def _optional_module(ctx: _Context) -> str | None:
    """The module an import error is about, where the raise is in the handler of a ``try`` that
    imports one module (``try: import pulp`` / ``except ImportError: raise ...``)."""
    language = ctx.language
    r = ctx.record
    if language is None or not language.is_import_error((r.error_class or "").rpartition(".")[2]):
        return None
    for guard in r.facts.guards:
        if guard.kind != "except" or not guard.guarded:
            continue
        if not any(language.is_import_error(c.rpartition(".")[2]) for c in guard.caught):
            continue
        m = _IMPORTED.match(guard.guarded)
        # Not the library's own parts (its package, a private compiled module) nor the language's:
        # nothing to install.
        module = m.group(1) if m is not None else None
        if module and module != language.package_of(r.file_path) and ctx.code.installable(module):
            return module
    return None


def _strategy(ctx: _Context) -> tuple[HandlingStrategy | None, list[str]]:
    # retry only where the class, message, guards or site say the failure is transient
    # (``taxonomy.transient``): a timeout, a connection refused, reset or aborted, 429, 503.
    retry = transient(ctx.record)
    if retry:
        return "retry", retry
    cls = (ctx.record.error_class or "").rpartition(".")[2]
    if ctx.language is not None and ctx.language.is_import_error(cls):
        return "fallback", ["class"]
    if any(c.kind == "not-isinstance" for c in ctx.conditions):
        return "type-guard", ["conditions"]
    if ctx.conditions and all(c.caller_text for c in ctx.conditions):
        return "validation", ["conditions"]
    if ctx.record.error_class:
        return "try-catch", ["class"]
    return None, []


def _prevention(ctx: _Context) -> list[str]:
    r = ctx.record
    tips = []
    if ctx.conditions and ctx.function:
        tips.append(f"{_named(ctx)} checks {_join([_code(c.text) for c in ctx.conditions])} before raising.")
    if r.facts.raises_doc and ctx.function:
        tips.append(f"Read the `Raises` section of the docstring of {_named(ctx)}.")
    if r.facts.tests and ctx.function:
        t = r.facts.tests[0]
        tips.append(
            f"`{t.name}` ({t.file_path}:{t.line_number}) shows a call that makes {_named(ctx)} raise it."
        )
    return tips
