"""Fuzzing what people and programs feed errdex: pastes, and ``explain --batch`` lines.

The paste parser may refuse a paste (``PasteError``) and must otherwise return errors; a batch
must answer every non-blank line with exactly one JSON object, whatever bytes the line holds.
Runs are derandomized without an example database, so every run tries the same inputs.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.cli import _explain_batch
from errdex.match.parse import ParsedError, PasteError, parse
from errdex.session import Session

FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Every character, surrogates and controls included.
ANY_CHAR = st.characters(exclude_categories=())
ANY_TEXT = st.text(ANY_CHAR, max_size=60)
CONTROLS = st.text(
    st.sampled_from("\x00\x07\x08\t\x0b\x0c\r\x1b\x7f\x85\x9b\u202e\u2066\ufeff\xa0\ud800\udcff")
)

#: Lines real tracebacks are made of: plain, chained, exception groups, IPython, pytest, Rich, logs.
FRAGMENTS = [
    "Traceback (most recent call last):",
    '  File "x.py", line 3, in f',
    '  File "<stdin>", line 1, in <module>',
    '  File "/usr/lib/python3.11/ipaddress.py", line 54, in ip_address',
    "    raise ValueError(f'{address!r} does not appear to be an IPv4 or IPv6 address')",
    "    ^^^^^^^^^^^^^^^^^^",
    "    ~~~~^^^",
    "ValueError: 'bogus' does not appear to be an IPv4 or IPv6 address",
    "ValueError: Invalid literal for Fraction: 'x'",
    "ValueError",
    "KeyError: 'a'",
    "pkg.errors.Problem: it failed",
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
    "  + Exception Group Traceback (most recent call last):",
    '  |   File "x.py", line 3, in f',
    "  | ExceptionGroup: boom (2 sub-exceptions)",
    "  +-+---------------- 1 ----------------",
    "    | Traceback (most recent call last):",
    "    | ValueError: one",
    "    +---------------- 2 ----------------",
    "    +---------------- ... ----------------",
    "    | and 3 more exceptions",
    "    +------------------------------------",
    "  | ",
    "  |",
    "  [Previous line repeated 996 more times]",
    "---------------------------------------------------------------------------",
    "ValueError                                Traceback (most recent call last)",
    "Cell In[1], line 1",
    "----> 1 f()",
    "      2 g()",
    "FAILED tests/test_x.py::test_a - ValueError: bad",
    "E       ValueError: bad",
    "E   ",
    "tests/test_x.py:3: ValueError",
    "_____________________________ test_a _____________________________",
    "ERROR:root:boom",
    "2024-01-01 00:00:00,000 ERROR pkg: failed",
    "╭───────────────────── Traceback (most recent call last) ─────────────────────╮",
    "│ /x.py:3 in f                                                                 │",
    "│ ╭──────────────── locals ────────────────╮                                  │",
    "╰──────────────────────────────────────────────────────────────────────────────╯",
    "╭──────────────── Sub-exception #1 ────────────────╮",
    "```",
    "```python",
    "In [1]: f()",
]
LINE_BREAKS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def traceback_like(draw: st.DrawFn) -> str:
    """Real traceback lines in any order and nesting, mixed with arbitrary text and controls."""
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 30))):
        kind = draw(st.integers(0, 9))
        if kind < 6:
            line = draw(st.sampled_from(FRAGMENTS))
            if draw(st.booleans()):  # nested inside exception groups, as deep as one likes
                line = "    | " * draw(st.integers(0, 40)) + line
            if kind == 0:
                line = draw(ANY_TEXT) + line + draw(CONTROLS)
        elif kind < 8:
            line = draw(ANY_TEXT)
        elif kind == 8:
            line = draw(CONTROLS) + draw(st.sampled_from(FRAGMENTS))
        else:  # long lines
            line = draw(st.sampled_from(FRAGMENTS)) * draw(st.integers(1, 400))
        parts.append(line)
        parts.append(draw(LINE_BREAKS))
    return "".join(parts)


def assert_parses_or_is_refused(text: str) -> None:
    try:
        paste = parse(text)
    except PasteError:
        return
    assert paste.errors and all(isinstance(e, ParsedError) for e in paste.errors)
    assert 0 <= paste.primary < len(paste.errors)


@FUZZ
@given(st.text(ANY_CHAR))
def test_any_text_parses_or_is_refused(text: str) -> None:
    assert_parses_or_is_refused(text)


@FUZZ
@given(traceback_like())
def test_any_traceback_like_text_parses_or_is_refused(text: str) -> None:
    assert_parses_or_is_refused(text)


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_decoded_as_the_cli_decodes_them_parse_or_are_refused(data: bytes) -> None:
    assert_parses_or_is_refused(data.decode("utf-8", "surrogateescape"))


# --- explain --batch -------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(ANY_CHAR, max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def batch_line(draw: st.DrawFn) -> bytes:
    """One line of batch input: well-formed requests, odd JSON, text, bytes; never a newline."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        text = draw(traceback_like() | st.text(ANY_CHAR))
        ascii_only = draw(st.booleans())
        # Raw surrogates cannot be UTF-8: "surrogatepass" writes the bytes a careless writer would.
        line = json.dumps({"text": text}, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    elif kind == 1:
        line = json.dumps(draw(JSON_VALUES)).encode()
    elif kind == 2:
        line = json.dumps({"text": draw(JSON_VALUES), draw(st.text(max_size=5)): 1}).encode()
    elif kind == 3:
        line = draw(st.text(ANY_CHAR)).encode("utf-8", "surrogatepass")
    elif kind == 4:
        line = draw(st.binary(max_size=80))
    else:
        line = draw(
            st.sampled_from([b"", b"   ", b"\r", b"[" * 5000, b'{"text": "\\ud800"}', b"\xef\xbb\xbf{}"])
        )
    return line.replace(b"\n", b" ")


@pytest.fixture(scope="module")
def session(stdlib_db: Path) -> Iterator[Session]:
    with Session(stdlib_db, readonly=False) as opened:
        yield opened


@contextmanager
def batch_stdio(data: bytes) -> Iterator[io.BytesIO]:
    """stdin holding ``data`` and stdout into bytes, as a strict UTF-8 locale would set them up."""
    stdout = io.BytesIO()
    saved = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict")
    sys.stdout = io.TextIOWrapper(stdout, encoding="utf-8", errors="strict", write_through=True)
    try:
        yield stdout
    finally:
        sys.stdin.detach(), sys.stdout.detach()  # a wrapper collected later would close stdout
        sys.stdin, sys.stdout = saved


@FUZZ
@given(st.lists(batch_line(), min_size=1, max_size=8))
def test_a_batch_answers_each_non_blank_line_once(session: Session, lines: list[bytes]) -> None:
    with batch_stdio(b"\n".join(lines) + b"\n") as stdout:
        _explain_batch(session, 2)
    wanted = [number for number, line in enumerate(lines, 1) if line.strip()]
    answers = [json.loads(line) for line in stdout.getvalue().decode("utf-8").splitlines()]
    assert len(answers) == len(wanted)
    for number, answer in zip(wanted, answers, strict=True):
        assert isinstance(answer, dict)
        assert answer["error"].startswith(f"line {number}: ") if "error" in answer else "matches" in answer


def test_a_batch_object_without_text_is_an_error_line(session: Session) -> None:
    """Found by fuzzing: ``{}`` ended the batch with a KeyError."""
    with batch_stdio(b'{}\n{"other": 1}\n{"text": "x"}\n') as stdout:
        _explain_batch(session, 1)
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [a.get("error", "")[:7] for a in answers] == ["line 1:", "line 2:", ""]
