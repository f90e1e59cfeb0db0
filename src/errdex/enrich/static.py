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
from dataclasses import dataclass, field

from pydantic.alias_generators import to_camel

from errdex import languages
from errdex.enrich.advice import Advice, advice
from errdex.enrich.conditions import Condition, read_guard
from errdex.enrich.taxonomy import classify
from errdex.languages import CodeWriter
from errdex.record import CONDITION_KINDS, HandlingStrategy, Parameter, Record

#: A call quoted in a message: `fabric.setup()`.
_CALL_CODE = re.compile(r"`([\w.]+\([^`]*\))`")
_NETWORK_CLASS = re.compile(r"Timeout|Connect|Network|Temporar|Unavailable|RateLimit|TooManyRequests")


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
    out.set("documentation", _documentation(ctx), ctx.used("site", "conditions", "docstring", "raises_doc"))
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
    family = classify(record.error_message, record.error_class, record.conditions)
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
        conditions = [
            read_guard(guard, by_name, receiver, language.code if language else None)
            for guard in record.facts.guards
            if guard.kind in CONDITION_KINDS
        ]
        return cls(
            record, function, call_name, receiver, conditions, advice(record.error_message), params, language
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
        }
        return [f for f in facts if have.get(f)]


def _code(text: str) -> str:
    return f"`{text}`"


def _named(ctx: _Context) -> str:
    """The function and its file: classes are copied between modules, and prose must say which."""
    return f"`{ctx.function}` ({ctx.record.file_path})"


def _where(ctx: _Context) -> str:
    r = ctx.record
    place = f"`{ctx.function}`" if ctx.function else "module-level code"
    return f"{place} ({r.file_path}, line {r.line_number})"


def _what(record: Record) -> str:
    kind = record.sites[0].kind if record.sites else "raise"
    cls = f"`{record.error_class}`" if record.error_class else "an error"
    return {
        "warn": f"the warning {cls}",
        "log": f"a {record.severity}-level log message",
        "exit": "an exit with this message",
        "http": f"an HTTP {record.http_status or 'error'} response",
        "assert": f"a failed `assert` ({cls})",
    }.get(kind, cls)


def _when(ctx: _Context) -> str:
    if not ctx.conditions:
        return "whenever that line is reached (no `if` guards it)"
    return "when " + _join([c.words for c in ctx.conditions])


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _documentation(ctx: _Context) -> str:
    r = ctx.record
    what = _what(r)
    text = f"{what[:1].upper()}{what[1:]} raised by {_where(ctx)} {_when(ctx)}."
    if r.facts.raises_doc:
        text += (
            f" The function's docstring says it raises `{r.error_class}` {_lower_first(r.facts.raises_doc)}"
        )
        text += "" if text.endswith(".") else "."
    if r.facts.docstring and ctx.function:
        text += f" `{ctx.function}`: {r.facts.docstring}"
    others = r.sites[1:]
    if others:
        shown = ", ".join(f"{s.file_path}:{s.line_number}" for s in others[:5])
        text += f" The same message is also raised at {shown}{' and more' if len(others) > 5 else ''}."
    return text


def _lower_first(text: str) -> str:
    text = text.strip()
    if text[:2].lower() in ("if", "wh") or text[:1].islower():
        return text
    return "when " + text[:1].lower() + text[1:]


def _triggers(ctx: _Context) -> tuple[str, list[str]]:
    r = ctx.record
    facts = ["site", *ctx.used("conditions")]
    if not ctx.function:
        return f"Importing the module that holds {r.file_path}, {_when(ctx)}.", facts
    parts = [f"Calling {_named(ctx)} {_when(ctx)}."]
    test = r.facts.tests[0] if r.facts.tests else None
    if test is not None and test.call:
        parts.append(
            f"The test `{test.name}` ({test.file_path}:{test.line_number}) triggers it with `{test.call}`."
        )
        facts.append("tests")
    elif ctx.call_name and ctx.params:
        parts.append(f"A call that can reach it: `{_call(ctx, omit=_missing(ctx))}`.")
        facts.append("signature")
    return " ".join(parts), facts


def _missing(ctx: _Context) -> set[str]:
    """Parameters whose absence is a guard condition (``model is None`` with ``model=None``)."""
    return {c.subject for c in ctx.conditions if c.kind == "absent" and c.subject}


def _call(ctx: _Context, omit: Collection[str] = (), add: dict[str, str] | None = None) -> str:
    """A call of the function built from its parameters: the required ones by name."""
    assert ctx.call_name is not None, "a call needs the name code calls the function by"
    positional = [
        p.name for p in ctx.params if p.kind == "positional" and p.default is None and p.name not in omit
    ]
    keywords = [
        (p.name, p.name)
        for p in ctx.params
        if p.kind == "keyword" and p.default is None and p.name not in omit
    ]
    return ctx.code.call(ctx.call_name, positional, [*keywords, *(add or {}).items()])


def _situations(ctx: _Context) -> tuple[str, list[str]]:
    r = ctx.record
    if r.facts.callers:
        shown = [f"`{c.function}` ({c.file_path}:{c.line_number})" for c in r.facts.callers]
        return f"Code that reaches {_named(ctx)} through {_join(shown)}.", ["callers"]
    if r.facts.docstring and ctx.function:
        return f"Uses of {_named(ctx)}, which the library describes as: {r.facts.docstring}", ["docstring"]
    return "", []


def _solutions(ctx: _Context) -> tuple[list[str], list[str]]:
    r = ctx.record
    out: list[str] = []
    facts: list[str] = []
    for item in ctx.advice:
        out.append(item.text if item.text.endswith((".", "?", "!")) else item.text + ".")
        facts.append("message")
    if r.facts.raises_doc and ctx.function:
        out.append(
            f"Avoid what the docstring of {_named(ctx)} names for `{r.error_class}`: {r.facts.raises_doc}"
        )
        facts.append("raises_doc")
    fixes = [c.fix for c in ctx.conditions if c.fix]
    if fixes and ctx.function:
        out.append(f"Before calling {_named(ctx)}, {_join(fixes)}.")
        facts.append("conditions")
    test = next((t for t in r.facts.tests if t.call), None)
    if test is not None and ctx.function:
        out.append(
            f"Compare your call with `{test.call}`, which `{test.name}` uses to make {_named(ctx)} raise it."
        )
        facts.append("tests")
    return list(dict.fromkeys(out)), facts


def _example_fix(ctx: _Context) -> tuple[str | None, list[str]]:
    """Before and after for the common shapes: a missing argument, a wrong state the message says
    how to leave, an invalid choice, a wrong type."""
    if not ctx.call_name or not ctx.params:
        return None, []
    comment = ctx.code.comment
    names = {p.name for p in ctx.params}
    # A wrong state the message says how to leave ("Did you forget to call `fabric.setup()`?").
    # The guard nearest the raise is the state it complains about.
    state = next((c for c in reversed(ctx.conditions) if (c.subject or "").startswith("self.")), None)
    steps = (a.text for a in ctx.advice if a.kind == "forgot" or a.text.startswith("Call "))
    step = next((m.group(1) for text in steps if (m := _CALL_CODE.search(text))), None)
    if state is not None and step is not None:
        call = _call(ctx)
        return "\n".join([comment(f"before: {state.words}"), call, comment("after"), step, call]), [
            "conditions",
            "message",
            "signature",
        ]
    absent = [c for c in ctx.conditions if c.kind == "absent" and c.subject in names]
    if absent:
        name = absent[0].subject or ""
        before = _call(ctx, omit={name})
        after = _call(ctx, omit={name}, add={name: name})
        lines = [comment(f"before: `{name}` left out"), before, comment("after"), after]
        return "\n".join(lines), ["conditions", "signature"]
    # An invalid choice or a wrong type: the argument replaced by what the guard accepts.
    for kind, wanted, problem in (("not-in", "one of", "outside"), ("not-isinstance", "a", "is not a")):
        c = next((c for c in ctx.conditions if c.kind == kind and c.subject in names), None)
        if c is not None and c.subject:
            after = _call(ctx, omit={c.subject}, add={c.subject: f"<{wanted} {c.target}>"})
            lines = [comment(f"before: {c.subject} {problem} {c.target}"), comment("after"), after]
            return "\n".join(lines), ["conditions", "signature"]
    return None, []


def _validation(ctx: _Context) -> str | None:
    """The guard as a check the caller can run first."""
    usable = [c.caller_text for c in ctx.conditions if c.caller_text]
    if not usable or len(usable) != len(ctx.conditions) or not ctx.function:
        return None
    code = ctx.code
    error = ctx.record.error_class or "an error"
    head = code.comment(f"`{ctx.function}` raises {error} when this holds")
    check = code.if_block(code.all_of(usable), code.placeholder("change the arguments or state first"))
    return f"{head}\n{check}"


def _type_guard(ctx: _Context) -> str | None:
    typed = [c for c in ctx.conditions if c.kind == "not-isinstance" and c.caller_text]
    if not typed or not ctx.call_name:
        return None
    c = typed[0]
    code = ctx.code
    return code.if_block(code.is_instance(c.subject_caller or "", c.target or ""), _call(ctx))


def _try_catch(ctx: _Context) -> str | None:
    r = ctx.record
    if not r.error_class or (r.sites and r.sites[0].kind in ("warn", "log")):
        return None
    code = ctx.code
    call = _call(ctx) if ctx.call_name else code.placeholder(f"code that reaches {_where(ctx)}")
    return code.try_except(
        r.qualified_class or r.error_class, call, code.placeholder(_first_line(r.error_message))
    )


def _first_line(message: str) -> str:
    line = message.split("\n", 1)[0]
    return line if len(line) <= 100 else line[:97] + "..."


def _strategy(ctx: _Context) -> tuple[HandlingStrategy | None, list[str]]:
    cls = (ctx.record.error_class or "").rpartition(".")[2]
    if _NETWORK_CLASS.search(cls):
        return "retry", ["class"]
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
