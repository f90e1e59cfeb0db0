"""Message templates: literal text with placeholders, and the patterns built from them.

A template is kept as parts (literal strings and placeholders) rather than as a rendered
string, because the rendered message is ambiguous: an f-string's ``{{x}}`` renders as the
literal ``{x}``, which reads exactly like a placeholder.  The schema v2 ``messagePattern``
(JavaScript-style escaping, ``(.+?)`` per placeholder, no anchors) is derived from the parts,
and so is errdex's own matcher regex, which is built to run in linear time.

Nothing here reads a syntax tree: a language's extractor evaluates its own string-building
expressions into templates, with the format-string splitters below (``printf``-style ``%``
and brace-style ``{}`` fields), and the matcher reads patterns without importing any miner.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

#: The one group every placeholder becomes in a schema v2 pattern.
PLACEHOLDER_GROUP = "(.+?)"

# Exactly the characters the existing format escapes; spaces, quotes and backticks stay as they are.
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_JS_SPECIAL = str.maketrans({c: "\\" + c for c in ".*+?^${}()|[]\\"})


@dataclass(frozen=True, slots=True)
class Placeholder:
    """A value interpolated at run time.

    ``name`` is the source expression (``model``, ``self.name``, ``type(x).__name__``);
    ``written`` is how the template shows it (``{model}`` for f-strings and ``str.format``,
    ``%s`` or ``%(name)s`` for ``%`` formatting).
    """

    name: str
    written: str


Part = str | Placeholder


@dataclass(frozen=True, slots=True)
class Template:
    """A message as the source writes it."""

    parts: tuple[Part, ...]

    @staticmethod
    def literal(text: str) -> Template:
        return Template((text,) if text else ())

    @staticmethod
    def dynamic(name: str) -> Template:
        """A message computed at run time that errdex cannot read statically."""
        return Template((Placeholder(name, "{" + name + "}"),))

    def __add__(self, other: Template) -> Template:
        return Template(_merge(self.parts + other.parts))

    @property
    def message(self) -> str:
        return "".join(p if isinstance(p, str) else p.written for p in self.parts)

    @property
    def placeholders(self) -> list[str]:
        return [p.name for p in self.parts if isinstance(p, Placeholder)]

    @property
    def is_static(self) -> bool:
        """True when at least some of the message is known text."""
        return any(isinstance(p, str) and p.strip() for p in self.parts)

    @property
    def pattern(self) -> str:
        """The schema v2 ``messagePattern``."""
        return "".join(js_escape(p) if isinstance(p, str) else PLACEHOLDER_GROUP for p in self.parts)

    def substitute(self, values: Mapping[str, Template]) -> Template:
        """Replace placeholders whose name is in ``values`` by those templates' parts."""
        parts: list[Part] = []
        for part in self.parts:
            if isinstance(part, Placeholder) and part.name in values:
                parts.extend(values[part.name].parts)
            else:
                parts.append(part)
        return Template(_merge(tuple(parts)))


MessageKind = Literal["literal", "template", "dynamic", "none"]


def message_kind(template: Template | None) -> MessageKind:
    """``none`` (no message), ``dynamic`` (computed at run time: no known text), ``template``
    (known text with placeholders) or ``literal``."""
    if template is None or not template.parts:
        return "none"
    if not template.is_static:
        return "dynamic"
    return "template" if template.placeholders else "literal"


def _merge(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """Join adjacent literals and drop empty ones so equal messages have equal parts."""
    out: list[Part] = []
    for part in parts:
        if isinstance(part, str):
            if not part:
                continue
            if out and isinstance(out[-1], str):
                out[-1] = out[-1] + part
                continue
        out.append(part)
    return tuple(out)


def js_escape(text: str) -> str:
    return text.translate(_JS_SPECIAL)


def split_pattern(pattern: str) -> list[str]:
    """The literal segments of a schema v2 pattern, unescaped, in order.

    There is one more segment than there are placeholders; a segment may be empty.  Splitting
    on the group's text is safe: escaped literal text never contains it, since every ``(`` and
    ``.`` of a literal is preceded by a backslash.
    """
    return [_UNESCAPE.sub(r"\1", segment) for segment in pattern.split(PLACEHOLDER_GROUP)]


@dataclass(frozen=True)
class MessageMatcher:
    """Full-match a runtime message against a pattern, in time linear in the message.

    A plain ``re`` full match of ``A(.+?)B(.+?)C`` backtracks polynomially when ``B`` occurs
    many times and ``C`` never does.  Placing each literal at its earliest position is always
    safe here (every placeholder absorbs any text), so ``match`` places them with ``str.find``
    and never revisits one.  ``regex`` is the same rule as a Python pattern (every segment but
    the last in an atomic group), for tools that want a regex.

    A value may be empty, unlike the schema v2 ``(.+?)``: optional parts are often
    interpolated as ``""`` (``f"{prefix}Textual SQL expression {expr!r}{hint}"``).
    """

    pattern: str

    @cached_property
    def segments(self) -> list[str]:
        return split_pattern(self.pattern)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        segments = self.segments
        if len(segments) == 1:
            return re.compile(re.escape(segments[0]), re.DOTALL)
        body = [re.escape(segments[0])]
        for literal in segments[1:-1]:
            body.append(f"(?>(.*?){re.escape(literal)})")
        body.append(f"(.*?){re.escape(segments[-1])}")
        return re.compile("".join(body), re.DOTALL)

    def match(self, message: str) -> tuple[str, ...] | None:
        """The captured placeholder values, or None when the message does not fit."""
        segments = self.segments
        first, last = segments[0], segments[-1]
        if len(segments) == 1:
            return () if message == first else None
        if not message.startswith(first) or not message.endswith(last):
            return None
        end = len(message) - len(last)  # where the last placeholder's value must stop
        pos = len(first)
        captures = []
        for literal in segments[1:-1]:
            found = message.find(literal, pos, end) if literal else pos
            if found < 0:
                return None
            captures.append(message[pos:found])
            pos = found + len(literal)
        if end < pos:
            return None
        captures.append(message[pos:end])
        return tuple(captures)


_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])"
)


def percent_template(fmt: str, args: list[str] | None) -> Template:
    """Split a ``%`` format string into literals and placeholders named after their arguments."""
    parts: list[str | Placeholder] = []
    pos = 0
    index = 0
    for m in _PERCENT.finditer(fmt):
        parts.append(fmt[pos : m.start()])
        pos = m.end()
        if m["conv"] == "%":
            parts.append("%")
            continue
        key = m["key"]
        if key is not None:
            name = key
        elif args is not None and index < len(args):
            name = args[index]
        else:
            name = f"arg{index}"
        index += 1
        parts.append(Placeholder(name, m.group(0)))
    parts.append(fmt[pos:])
    return Template(()) + Template(tuple(parts))


def format_template(fmt: str, args: list[str], kwargs: dict[str, str]) -> Template | None:
    """Split a ``str.format`` string; None when the string is not a valid format."""
    parts: list[str | Placeholder] = []
    auto = 0
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return None
    for literal, field_name, _spec, _conv in parsed:
        parts.append(literal)
        if field_name is None:
            continue
        head = re.split(r"[.\[]", field_name, maxsplit=1)[0]
        if head == "":
            name = args[auto] + field_name if auto < len(args) else f"arg{auto}"
            auto += 1
        elif head.isdigit():
            i = int(head)
            # "{0.status_code}" of format(self) reads self.status_code.
            name = args[i] + field_name[len(head) :] if i < len(args) else field_name
        else:
            name = kwargs.get(head, field_name)
        parts.append(Placeholder(name, "{" + name + "}"))
    return Template(()) + Template(tuple(parts))


def fields_of(template: Template) -> Template:
    """A kept message whose named fields are filled in later (``msg.format(**kwargs)``,
    ``msg % params``): its fields are placeholders, not literal braces."""
    if len(template.parts) != 1 or not isinstance(text := template.parts[0], str):
        return template
    if "{" in text and (fields := format_template(text, [], {})) is not None and fields.placeholders:
        return fields
    if "%(" in text and any(m["key"] for m in _PERCENT.finditer(text)):
        return percent_template(text, None)
    return template
