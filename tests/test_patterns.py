"""Properties of message templates: every message a format string can produce matches its pattern.

Format strings and values are generated; the message is produced by Python itself (``%``,
``str.format``, an evaluated f-string), never from errdex's template, and must fit the schema v2
``messagePattern`` both under ``re`` and under errdex's linear-time ``MessageMatcher``.
"""

from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from errdex.languages.python.extract import extract
from errdex.patterns import (
    MessageMatcher,
    Placeholder,
    Template,
    format_template,
    percent_template,
    split_pattern,
)

# Separators, quotes and regex metacharacters: drawn from this alphabet, values often contain the
# very text that surrounds them in the template.
TRICKY = ": ,.;=-'\"()[]{}|\\^$*+?\n\t%éx"


def texts(min_size: int = 0) -> st.SearchStrategy[str]:
    return st.text(alphabet=TRICKY, min_size=min_size, max_size=8) | st.text(min_size=min_size, max_size=8)


literals = texts()
# Values may be empty (tested on their own below); most real ones are not.
words = texts(min_size=1)
ints = st.integers(min_value=-(10**12), max_value=10**12)
floats = st.floats(allow_nan=True, allow_infinity=True)


def rebuilt(template: Template, captures: tuple[str, ...]) -> str:
    """The message again, from the template's literal text and the captured values."""
    values = iter(captures)
    text = "".join(part if isinstance(part, str) else next(values) for part in template.parts)
    assert next(values, None) is None, "more captures than placeholders"
    return text


def assert_matches(template: Template, message: str) -> None:
    pattern = template.pattern
    assert re.fullmatch(pattern, message, re.DOTALL), f"{pattern!r} does not match {message!r}"
    matcher = MessageMatcher(pattern)
    captures = matcher.match(message)
    assert captures is not None, f"MessageMatcher({pattern!r}) rejects {message!r}"
    assert rebuilt(template, captures) == message
    regex = matcher.regex.fullmatch(message)
    assert regex is not None and regex.groups() == captures


# -- % formatting ---------------------------------------------------------------------------------

PERCENT_SPECS = {
    "s": words,
    "r": words,
    "a": words,
    "-8s": words,
    "d": ints,
    "5d": ints,
    "x": ints,
    ".2f": floats,
}
# In a mapping format each key keeps one value, so each key takes one kind of conversion.
PERCENT_KEYS = {
    "s": "name",
    "r": "name",
    "a": "path",
    "-8s": "path",
    "d": "count",
    "5d": "count",
    "x": "size",
}


def escape_percent(text: str) -> str:
    return text.replace("%", "%%")


@st.composite
def percent_formats(draw: st.DrawFn) -> tuple[str, list[str] | None, object]:
    """A ``%`` format string, the argument names errdex is told, and the right-hand operand."""
    named = draw(st.booleans())
    specs = sorted(PERCENT_KEYS if named else PERCENT_SPECS)
    pieces = draw(st.lists(st.tuples(literals, st.sampled_from(specs)), max_size=5))
    fmt = ""
    positional: list[object] = []
    mapping: dict[str, object] = {}
    for literal, spec in pieces:
        fmt += escape_percent(literal)
        if named:
            key = PERCENT_KEYS[spec]
            fmt += f"%({key}){spec}"
            if key not in mapping:
                mapping[key] = draw(PERCENT_SPECS[spec])
        else:
            fmt += f"%{spec}"
            positional.append(draw(PERCENT_SPECS[spec]))
    fmt += escape_percent(draw(literals))
    if named:
        return fmt, None, mapping
    return fmt, [f"arg_{i}" for i in range(len(positional))], tuple(positional)


@settings(max_examples=300, deadline=None)
@given(percent_formats())
@example(("%s: %s", ["a", "b"], ("x: y", "z")))
@example(("100%% of %(name)r (%(count)d)", None, {"name": "a (b)", "count": 3}))
@example(("%s%s", ["a", "b"], ("x", "y")))
def test_percent_format_messages_match_their_pattern(case: tuple[str, list[str] | None, object]) -> None:
    fmt, names, operand = case
    assert_matches(percent_template(fmt, names), fmt % operand)


# -- str.format -------------------------------------------------------------------------------------

TEXT_SPECS = ["", "!r", "!s", ":>6", "!r:^12"]
INT_SPECS = ["", ":d", ":+d", ":x", ":,", ":08d"]
MANUAL_TYPES = ["text", "text", "int"]  # the types of positional arguments {0}, {1}, {2}
NAMED_TYPES = {"name": "text", "path": "text", "count": "int"}


def escape_braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


@st.composite
def format_calls(draw: st.DrawFn) -> tuple[str, list[object], dict[str, object]]:
    """A ``str.format`` string and its arguments: ``{}`` or ``{0}`` numbering, and ``{name}`` fields."""
    automatic = draw(st.booleans())
    manual_values = [draw(words), draw(words), draw(ints)]
    kwargs: dict[str, object] = {"name": draw(words), "path": draw(words), "count": draw(ints)}
    args: list[object] = [] if automatic else manual_values
    fmt = ""
    for _ in range(draw(st.integers(0, 5))):
        fmt += escape_braces(draw(literals))
        if draw(st.booleans()):
            field = draw(st.sampled_from(sorted(NAMED_TYPES)))
            kind = NAMED_TYPES[field]
        elif automatic:
            field = ""
            kind = draw(st.sampled_from(["text", "int"]))
            args.append(draw(words if kind == "text" else ints))
        else:
            index = draw(st.integers(0, 2))
            field, kind = str(index), MANUAL_TYPES[index]
        spec = draw(st.sampled_from(TEXT_SPECS if kind == "text" else INT_SPECS))
        fmt += "{" + field + spec + "}"
    fmt += escape_braces(draw(literals))
    return fmt, args, kwargs


@settings(max_examples=300, deadline=None)
@given(format_calls())
@example(("{}: {}", ["x: y", "z"], {}))
@example(("{{literal}} {0!r} and {0} at {name:>6}", ["a}b"], {"name": "n"}))
def test_str_format_messages_match_their_pattern(case: tuple[str, list[object], dict[str, object]]) -> None:
    fmt, args, kwargs = case
    template = format_template(fmt, [f"arg_{i}" for i in range(len(args))], {k: k for k in kwargs})
    assert template is not None, f"{fmt!r} is a valid format string"
    assert_matches(template, fmt.format(*args, **kwargs))


# -- f-strings, read from source by extract --------------------------------------------------------

TEXT_EXPRESSIONS = ["name", "path", "items[0]", "mapping['key']", "obj.attr", "name.upper()"]
INT_EXPRESSIONS = ["count", "count + 1", "len(items)"]
DEBUG_SPECS = ["=", " = ", "=!s"]


def f_string_literal(text: str, triple_quoted: bool) -> str:
    """``text`` as it is written between the quotes of a ``"`` or ``\"\"\"`` f-string."""
    written = []
    for char in text:
        if char == "\\":
            written.append("\\\\")
        elif char == '"':
            written.append('\\"')
        elif char in "{}":
            written.append(char * 2)
        elif char.isprintable() or (char == "\n" and triple_quoted):
            written.append(char)
        else:
            written.append(char.encode("unicode_escape").decode("ascii"))
    return "".join(written)


@st.composite
def f_strings(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    """The source of an f-string, and the variables it reads."""
    triple_quoted = draw(st.booleans())
    body = ""
    for _ in range(draw(st.integers(0, 5))):
        body += f_string_literal(draw(literals), triple_quoted)
        if draw(st.booleans()):
            expression = draw(st.sampled_from(TEXT_EXPRESSIONS))
            spec = draw(st.sampled_from(TEXT_SPECS + DEBUG_SPECS))
        else:
            expression = draw(st.sampled_from(INT_EXPRESSIONS))
            spec = draw(st.sampled_from(INT_SPECS + DEBUG_SPECS))
        body += "{" + expression + spec + "}"
    body += f_string_literal(draw(literals), triple_quoted)
    quote = '"""' if triple_quoted else '"'
    variables = {
        "name": draw(words),
        "path": draw(words),
        "count": draw(ints),
        "items": [draw(words)],
        "mapping": {"key": draw(words)},
        "obj": SimpleNamespace(attr=draw(words)),
    }
    return f"f{quote}{body}{quote}", variables


def raised_template(source: str) -> Template:
    """The template errdex reads from ``raise ValueError(<source>)``."""
    result = extract(f"raise ValueError({source})\n", "module.py", "module")
    assert result.error is None
    [site] = result.sites
    assert site.template is not None
    return site.template


@settings(max_examples=200, deadline=None)
@given(f_strings())
@example(('f"{name}: {path}"', {"name": "x: y", "path": "z"}))
@example(('f"{{not a placeholder}} {name!r}\\n{count=}"', {"name": "{x}", "count": 1}))
def test_f_string_messages_match_their_pattern(case: tuple[str, dict[str, object]]) -> None:
    source, variables = case
    message = eval(source, {}, dict(variables))
    assert_matches(raised_template(source), message)


# -- values that contain the template's own literal text -------------------------------------------


@pytest.mark.parametrize(
    "template, message",
    [
        (format_template("{a}: {b}", ["a", "b"], {}), "x: y: z"),
        (format_template("{a}: {b}", ["a", "b"], {}), ": : : "),
        (percent_template("%s, %s, %s", ["a", "b", "c"]), "a, b, c, d, e"),
        (percent_template("key %(key)r not in %(table)s.", None), "key 'not in' not in a. b.."),
        (raised_template('f"{key}={value}"'), "a=b=c=d"),
    ],
)
def test_values_may_contain_the_separators(template: Template, message: str) -> None:
    assert_matches(template, message)


@st.composite
def values_made_of_separators(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A ``{}`` format string, and values pieced together from its own literal text."""
    pieces = draw(st.lists(literals, min_size=2, max_size=5))
    fmt = "{}".join(escape_braces(piece) for piece in pieces)
    value = st.lists(st.sampled_from([*pieces, "x"]), min_size=1).map("".join).filter(bool)
    return fmt, [draw(value) for _ in pieces[1:]]


@settings(max_examples=200, deadline=None)
@given(values_made_of_separators())
def test_values_built_from_the_template_literals_still_match(case: tuple[str, list[str]]) -> None:
    fmt, values = case
    template = format_template(fmt, [f"arg_{i}" for i in range(len(values))], {})
    assert template is not None
    assert_matches(template, fmt.format(*values))


# -- linear time -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "template, separator",
    [
        (format_template("{}: {}: {}!", ["a", "b", "c"], {}), ": "),
        (percent_template("expected %s, %s, %s or %s.", ["a", "b", "c", "d"]), ", "),
        (raised_template('f"{a}{b}/{c}/{d} not found"'), "/"),
    ],
)
def test_matcher_rejects_an_adversarial_message_in_linear_time(template: Template, separator: str) -> None:
    matcher = MessageMatcher(template.pattern)
    # A backtracking full match of A(.+?)B(.+?)C on B * 100_000 takes hours; placing each
    # literal once (str.find in match, atomic groups in regex) does not.
    message = separator * 100_000
    start = time.perf_counter()
    assert matcher.match(message) is None
    assert matcher.regex.fullmatch(message) is None
    assert time.perf_counter() - start < 2.0


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(["a", "ab", ": ", "b", "", "x"]), min_size=1, max_size=5),
    text=st.lists(st.sampled_from(["a", "b", ": ", "x", "ab", "\n"]), max_size=12).map("".join),
)
def test_matcher_accepts_exactly_what_a_regex_full_match_accepts(pieces: list[str], text: str) -> None:
    parts: list[str | Placeholder] = []
    for piece in pieces:
        parts += [piece, Placeholder("v", "{v}")]
    pattern = (Template(()) + Template(tuple(parts[:-1]))).pattern  # + merges adjacent literals
    # errdex lets a value be empty: the schema's (.+?) read as (.*?).
    expected = re.fullmatch(pattern.replace("(.+?)", "(.*?)"), text, re.DOTALL) is not None
    assert (MessageMatcher(pattern).match(text) is not None) == expected


def test_an_optional_part_interpolated_as_empty_text_still_matches() -> None:
    # SQLAlchemy writes "%(extra)sTextual SQL expression %(expr)r %(hint)sshould be ..." and
    # passes extra="" and hint="" most of the time.
    template = percent_template("%(extra)sTextual SQL expression %(expr)r %(hint)sshould be declared", None)
    values = {"extra": "", "expr": "id = 5", "hint": ""}
    message = "%(extra)sTextual SQL expression %(expr)r %(hint)sshould be declared" % values  # noqa: UP031
    captures = MessageMatcher(template.pattern).match(message)
    assert captures is not None and captures[0] == ""
    assert rebuilt(template, captures) == message


# -- split_pattern -----------------------------------------------------------------------------------

placeholders = st.builds(
    Placeholder,
    name=st.sampled_from(["a", "self.b", "x[0]"]),
    written=st.sampled_from(["%s", "{a}", "%(a)r"]),
)


def literal_segments(template: Template) -> list[str]:
    """The literal text before, between and after the placeholders; empty where two placeholders touch."""
    segments = [""]
    for part in template.parts:
        if isinstance(part, str):
            segments[-1] += part
        else:
            segments.append("")
    return segments


@settings(max_examples=300, deadline=None)
@given(st.lists(literals | placeholders, max_size=8).map(lambda parts: Template(()) + Template(tuple(parts))))
@example(Template(("literal (.+?) text ", Placeholder("a", "%s"))))
@example(Template(("ends in a backslash \\", Placeholder("a", "%s"), "\\(.+?)")))
@example(Template((Placeholder("a", "%s"), Placeholder("b", "%s"))))
def test_split_pattern_returns_the_literal_segments(template: Template) -> None:
    assert split_pattern(template.pattern) == literal_segments(template)
