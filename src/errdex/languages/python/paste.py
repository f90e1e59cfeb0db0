"""Python's errors as people paste them: tracebacks, IPython and Rich displays, pytest, logs.

A paste is rarely one clean traceback: it is a notebook's coloured output, a Typer app's Rich
panel, a pytest failure, an excerpt of a log file or a line copied out of a terminal, often
several of these at once and often cut short.  The driver (:mod:`errdex.match.parse`) walks the
lines once; at each line it asks ``READER.read``, which tries the readers in ``_READERS`` in
turn, and the first that recognises the line consumes the block that starts there.

Every regex is anchored (or tiny) with no nested quantifiers, lines longer than ``_MAX_LINE``
are never taken for structure, and nesting (exception groups, Rich panels) is followed to a
fixed depth, so the time spent stays linear in the size of the paste whatever it holds.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from errdex.languages.pastes import Format, Frame, Lines, ParsedError, Read, Scan
from errdex.languages.python.names import BUILTIN_EXCEPTIONS

__all__ = ["READER", "relative"]

#: Longer lines are only ever message text: this bounds what any one match can cost.
_MAX_LINE = 5_000
#: Python stops printing nested exception groups at depth 10; deeper nesting is not a traceback.
_MAX_DEPTH = 12

Reader = Callable[[Scan, Lines, int, int], Read | None]


def _segment(scan: Scan, lines: Lines, depth: int) -> list[ParsedError]:
    """Errors in one sub-exception of a group, whose first line is an error even if oddly named."""
    start = _skip_blank(lines, 0)
    if start == len(lines) or _is_structure(lines[start]):
        return scan(lines[start:], depth)
    cls, message, end = _error_at(lines, start)
    return [_error(cls, message, [], "python"), *scan(lines[end:], depth)]


# --- Python and IPython tracebacks ---------------------------------------------------------------

_TRACEBACK = re.compile(r"^\s*(?:Exception Group )?Traceback \(most recent call last\):$")
_GROUP_START = re.compile(r"^\s*\+ Exception Group Traceback \(most recent call last\):$")
_GROUP_LINE = re.compile(r"^\s*[|+]")
_GROUP_PIPE = re.compile(r"^\s*\| ?")
_GROUP_SUFFIX = re.compile(r" \(\d+ sub-exceptions?\)$")
_PY_FRAME = re.compile(r'^\s*File "(.*)", line (\d{1,9})(?:, in (.*))?$')
_IPY_HEADER = re.compile(r"^([A-Za-z_][\w.]*) +Traceback \(most recent call last\)$")
_IPY_FILE = re.compile(r'^\s*File ([^"\s].*):(\d{1,9})(?:, in (.*))?$')
_IPY_CELL = re.compile(r"^\s*Cell (In ?\[\d+\]), line (\d{1,9})(?:, in (.*))?$")
_IPY_ARROW = re.compile(r"^-*> ")
_RULE = re.compile(r"^-{20,}$")
_CARETS = re.compile(r"^[\^~]+$")
_RAISES = re.compile(r"(?:^|[:;]\s*)(?:raise|assert)\b")
_ERROR_LINE = re.compile(r"^([A-Za-z_][\w.<>]*)(?::(?: (.*))?)?$")
_CHAIN = frozenset(
    {
        "The above exception was the direct cause of the following exception:",
        "During handling of the above exception, another exception occurred:",
    }
)


def _read_group(scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
    """An exception group: its ``|``-prefixed lines, unprefixed, hold one traceback or error per
    ``+---- n ----`` section, nested groups included, so one level of unprefixing flattens them."""
    if depth >= _MAX_DEPTH or not _group_start(lines[i]):
        return None
    end = i
    sections: list[list[str]] = [[]]
    while end < len(lines) and _GROUP_LINE.match(lines[end]):
        line = lines[end]
        if _GROUP_START.match(line):
            sections[-1].append(line.strip()[2:])
        elif pipe := _GROUP_PIPE.match(line):
            sections[-1].append(line[pipe.end() :])
        else:
            sections.append([])
        end += 1
    # The first section is the group's own traceback; each later one is a sub-exception.
    errors = [
        replace(e, format="python", in_group=n > 0)
        for n, section in enumerate(sections)
        for e in _segment(scan, section, depth + 1)
    ]
    return errors, end


def _group_start(line: str) -> bool:
    if len(line) > _MAX_LINE:
        return False
    if _GROUP_START.match(line):
        return True
    # A group printed without being raised has no header: its first line is the group itself.
    pipe = _GROUP_PIPE.match(line)
    if pipe is None:
        return False
    content = line[pipe.end() :]
    return _ERROR_LINE.match(content) is not None and _GROUP_SUFFIX.search(content) is not None


def _read_traceback(scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
    """A traceback as Python or IPython prints it, or its tail from the first frame on."""
    start = _traceback_start(lines, i)
    if start is None:
        return None
    fmt, cls, i = start
    frames: list[Frame] = []
    # Python prints a frame's source line under it (then carets); IPython numbers its lines.
    sourced = True
    while i < len(lines):
        found = _frame(lines[i])
        if found is not None:
            frames.append(found[0])
            fmt = found[1] if found[1] == "ipython" else fmt
            sourced = found[1] != "python"
        elif not (_filler(lines[i]) or _noise(lines[i])):
            break
        elif not sourced and lines[i][:1].isspace() and (source := lines[i].strip()):
            sourced = True
            if not _CARETS.match(source) and not source.startswith("[Previous line repeated"):
                frames[-1] = replace(frames[-1], source=source)
        i += 1
    message = ""
    if i < len(lines) and not _is_structure(lines[i]):
        cls, message, i = _error_at(lines, i)
    if cls is None and not message and not frames:
        return [], i
    return [_error(cls, message, frames, fmt)], i


def _traceback_start(lines: Lines, i: int) -> tuple[Format, str | None, int] | None:
    """Format, class named by the header (IPython names it) and the index of the first frame."""
    line = lines[i]
    if len(line) > _MAX_LINE:
        return None
    if _TRACEBACK.match(line):
        return "python", None, i + 1
    header = _IPY_HEADER.match(lines[i + 1]) if _RULE.match(line) and i + 1 < len(lines) else None
    if header:
        return "ipython", header[1], i + 2
    header = _IPY_HEADER.match(line)
    if header:
        return "ipython", header[1], i + 1
    found = _frame(line)
    return None if found is None else (found[1], None, i)


def _frame(line: str) -> tuple[Frame, Format] | None:
    if len(line) > _MAX_LINE:
        return None
    if m := _PY_FRAME.match(line):
        return _make_frame(m[1], m[2], m[3]), "python"
    if m := _IPY_FILE.match(line):
        return _make_frame(m[1], m[2], _callee(m[3])), "ipython"
    if m := _IPY_CELL.match(line):
        return _make_frame(f"Cell {m[1]}", m[2], _callee(m[3])), "ipython"
    return None


def _filler(line: str) -> bool:
    """Source lines, carets, IPython's arrows and notes on hidden or repeated frames."""
    return not line or line[0].isspace() or bool(_IPY_ARROW.match(line)) or line.startswith("[... ")


def _noise(line: str) -> bool:
    """Text typed into a traceback: Python's error line always starts with a class name."""
    return _ERROR_LINE.match(line) is None and not _is_structure(line)


def _callee(text: str | None) -> str | None:
    """IPython prints ``f(a, b)``: the name is what a raise site knows."""
    return text.split("(", 1)[0] if text else None


def _error_at(lines: Lines, i: int) -> tuple[str | None, str, int]:
    """The ``Class: message`` line at ``i`` and the message lines after it."""
    line = lines[i]
    m = _ERROR_LINE.match(line)
    cls, first = (m[1], m[2] or "") if m else (None, line)
    rest, end = _continuation(lines, i + 1)
    return cls, _join([first, *rest]), end


def _continuation(lines: Lines, i: int) -> tuple[list[str], int]:
    """Lines that go on a message: up to a blank line or the start of something else.

    A blank line ends it, although a message may hold one, because text typed after a pasted
    error is far more common than a message with an empty line in it.
    """
    start = i
    while i < len(lines) and lines[i] and not _starts_block(lines[i]):
        i += 1
    return list(lines[start:i]), i


# --- Rich ----------------------------------------------------------------------------------------

_RICH_FRAME = re.compile(r"^(.+):(\d{1,9}) in (\S+)$")
_RICH_NO_FILE = re.compile(r"^in (\S+):(\d{1,9})$")
_RICH_TITLE = "Traceback (most recent call last)"
#: Starts of lines in a Rich frame that are not its header: code, the current-line marker, locals.
_RICH_NOT_HEADER = "❱╭│╰+|"
#: At most this many lines of one frame header wrapped by Rich are joined back together.
_MAX_WRAPPED = 8


@dataclass(frozen=True, slots=True)
class _Box:
    """The top of a Rich panel, in Unicode or in the ASCII Rich falls back to."""

    indent: int
    title: str
    width: int  # of the whole panel, which Rich draws as wide as the console
    side: str
    bottom: str


_CORNERS = {"╭": ("╮", "─", "│", "╰"), "+": ("+", "-", "|", "+")}


def _box_top(line: str) -> _Box | None:
    body = line.lstrip()
    corners = _CORNERS.get(body[:1])
    if corners is None or len(body) < 4 or len(line) > _MAX_LINE or body[-1] != corners[0]:
        return None
    dash = corners[1]
    inner = body[1:-1]
    title = inner.strip(dash)
    if not (inner.startswith(dash) and inner.endswith(dash)):
        return None
    if title and not (title.startswith(" ") and title.endswith(" ")):
        return None
    return _Box(len(line) - len(body), title.strip(), len(body), corners[2], corners[3])


def _box_content(lines: Lines, i: int, box: _Box) -> tuple[list[str], int]:
    """The text inside the panel that starts at ``i``, and the index after its bottom line."""
    content: list[str] = []
    i += 1
    while i < len(lines):
        line = lines[i]
        body = line[box.indent :]
        if line[: box.indent].strip() or not body:
            break
        if body[0] == box.bottom:
            return content, i + 1
        if body[0] != box.side:
            break
        inner = body[1:-1] if body.endswith(box.side) and len(body) > 1 else body[1:]
        content.append(inner.removeprefix(" ").rstrip())
        i += 1
    return content, i


def _read_rich(scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
    box = _box_top(lines[i])
    if box is None:
        return None
    content, end = _box_content(lines, i, box)
    if box.title == _RICH_TITLE:
        return _rich_traceback(lines, end, box, _rich_frames(content, box.width - 4))
    if box.title.startswith("Sub-exception") and depth < _MAX_DEPTH:
        return [replace(e, format="rich") for e in _segment(scan, content, depth + 1)], end
    message = "\n".join(content).strip()
    # Typer shows a usage error in a panel titled "Error"; other panels hold code or locals.
    if box.title == "Error" and message:
        return [ParsedError(None, message, (), "rich")], end
    return [], end


def _rich_traceback(lines: Lines, i: int, box: _Box, frames: list[Frame]) -> Read:
    """The error after a traceback panel, past Rich's untitled panel of a SyntaxError's code."""
    while i < len(lines):
        code = _box_top(lines[i])
        if code is not None and not code.title:
            i = _box_content(lines, i, code)[1]
        elif not lines[i]:
            i += 1
        else:
            break
    cls, message = None, ""
    if i < len(lines) and not _is_structure(lines[i]):
        rest, end = _continuation(lines, i + 1)
        text = _unwrap([lines[i], *rest], box.width + box.indent)
        cls, message, _ = _error_at(text, 0)
        i = end
    return [_error(cls, message, frames, "rich")], i


def _rich_frames(content: list[str], width: int) -> list[Frame]:
    """Frame headers, ``path:line in function``, which Rich folds when the path is too long."""
    frames: list[Frame] = []
    pending: list[str] = []
    for line in content:
        if not line or line[0].isspace() or line[0] in _RICH_NOT_HEADER:
            pending = []
            continue
        pending = [*pending[-_MAX_WRAPPED:], line]
        frame = _rich_frame(_unwrap(pending, width)[-1])
        if frame is not None:
            frames.append(frame)
            pending = []
    return frames


def _rich_frame(text: str) -> Frame | None:
    if m := _RICH_FRAME.match(text):
        return _make_frame(m[1], m[2], m[3])
    # Rich names no file for frames whose source it cannot find.
    if m := _RICH_NO_FILE.match(text):
        return _make_frame("", m[2], m[1])
    return None


def _unwrap(lines: Sequence[str], width: int) -> list[str]:
    """Undo Rich's wrapping, which moves a word that does not fit to the next line and cuts a
    word wider than the console into lines of their own.  Other line breaks are the text's own."""
    out = [lines[0]]
    for previous, line in pairwise(lines):
        if len(previous) >= width and " " not in previous:
            out[-1] += line
        elif len(previous) + 1 + len(line.split(" ", 1)[0]) > width:
            out[-1] += " " + line
        else:
            out.append(line)
    return out


# --- pytest --------------------------------------------------------------------------------------

_PYTEST_E = re.compile(r"^E(?: (.*))?$")
_PYTEST_E_START = re.compile(r"^E   ")
_PYTEST_LOCATION = re.compile(r"^(\S.*?):(\d{1,9}):(?: (.*))?$")
_PYTEST_DEF = re.compile(r"^[> ]\s*(?:async )?def ([A-Za-z_]\w*)\(")
_SOURCE_FILE = re.compile(r"(?:\.pyx?|\.pyi|\.pyw|>)$")
_SUMMARY = re.compile(r"^(?:FAILED|ERROR) (\S+) - (.*)$")


@dataclass(slots=True)
class _Pytest:
    """A pytest failure being read: frames from location lines, the exception from ``E`` lines.

    With ``--tb=long`` the ``E`` lines come before the last location, which names the class
    (``mod.py:2: ValueError``), and a frame's function is only in the source shown above its
    location; with ``--tb=short`` the ``E`` lines come last and end the error themselves.
    """

    errors: list[ParsedError] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    excerpt: list[str] = field(default_factory=list)
    function: str | None = None

    def feed(self, line: str) -> None:
        if line in _CHAIN or _section(line):
            self.close()
        elif e := _PYTEST_E.match(line):
            self.excerpt.append(e[1] or "")
        elif location := _location(line):
            self.locate(*location)
        elif self.function is None and (source := _PYTEST_DEF.match(line)):
            self.function = source[1]

    def locate(self, frame: Frame, suffix: str) -> None:
        """A ``path:line:`` line: a frame, and the end of the error if it names the class."""
        named = None if suffix.startswith("in ") else _ERROR_LINE.match(suffix)
        if named is None:
            if self.excerpt:  # --tb=short: the E lines closed the error before this frame
                self.close()
            function = suffix[3:] if suffix.startswith("in ") else self.function
            self.frames.append(replace(frame, function=function))
            self.function = None
            return
        self.frames.append(replace(frame, function=self.function))
        self.close(named[1], named[2] or "")

    def close(self, located: str | None = None, located_message: str = "") -> None:
        """End the error read so far; ``located`` is the class a location line names."""
        if self.excerpt or located or self.frames:
            cls, message = _excerpt_error(_dedent(self.excerpt), located)
            self.errors.append(_error(cls, message or located_message, self.frames, "pytest"))
        self.frames = []
        self.excerpt = []
        self.function = None


def _read_pytest(scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
    line = lines[i]
    if not (_section(line) or _PYTEST_E_START.match(line) or _location(line)):
        return None
    failure = _Pytest()
    failure.feed(line)
    i += 1
    while i < len(lines) and not _pytest_ends(lines[i]):
        failure.feed(lines[i])
        i += 1
    failure.close()
    return failure.errors, i


def _pytest_ends(line: str) -> bool:
    if line.startswith("==="):
        return True
    return line not in _CHAIN and not _section(line) and _starts_block(line)


def _section(line: str) -> bool:
    """``____ test_name ____``, which heads each failure."""
    return len(line) > 6 and line.startswith("___") and line.endswith("___") and " " in line


def _location(line: str) -> tuple[Frame, str] | None:
    m = _PYTEST_LOCATION.match(line) if len(line) <= _MAX_LINE else None
    if m is None or not _SOURCE_FILE.search(m[1]):
        return None
    return _make_frame(m[1], m[2], None), m[3] or ""


def _excerpt_error(excerpt: list[str], located: str | None) -> tuple[str | None, str]:
    """Class and message from ``E`` lines, whose first line repeats the class pytest located,
    qualified (``requests.exceptions.MissingSchema`` where the location says ``MissingSchema``)."""
    first = _ERROR_LINE.match(excerpt[0]) if excerpt else None
    if first is not None and (
        (located is None and _looks_like_class(first[1]))
        or (located is not None and (first[1] == located or first[1].endswith("." + located)))
    ):
        return first[1], _join([first[2] or "", *excerpt[1:]])
    return located, _join(excerpt)


def _dedent(lines: list[str]) -> list[str]:
    margin = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[margin:] for line in lines]


def _summary(line: str) -> ParsedError | None:
    """``FAILED test_x.py::test_y - ValueError: bad``, pytest's one-line digest of a failure."""
    m = _SUMMARY.match(line) if len(line) <= _MAX_LINE else None
    if m is None:
        return None
    named = _ERROR_LINE.match(m[2])
    if named is not None:
        return _error(named[1], named[2] or "", [], "pytest")
    return ParsedError(None, m[2], (), "pytest")


# --- logging -------------------------------------------------------------------------------------

_TIMESTAMP = re.compile(
    r"^\[?(?:\d{4}[-/]\d\d[-/]\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?(?=[\s\]|:-])"
)
_LEVEL_FIRST = re.compile(r"^(CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG):")
_WORD = re.compile(r"\S+")
_LEVELS = frozenset({"CRITICAL", "FATAL", "ERROR", "EXCEPTION", "WARNING", "WARN", "INFO", "DEBUG", "TRACE"})
#: Levels at which a library reports an error, the levels errdex mines log calls at.
_ERROR_LEVELS = frozenset({"CRITICAL", "FATAL", "ERROR", "EXCEPTION", "WARNING", "WARN"})
#: The level comes within this many words of the timestamp (``- app.db - ERROR``).
_LEVEL_WORDS = 5
_FLASK_PREFIX = re.compile(r"^in [\w.<>-]+: ")
_LOGURU_PREFIX = re.compile(r"^[\w.<>-]+:[\w.<>-]+:\d+ - ")
_LOGGER_PREFIX = re.compile(r"^([\w.<>-]+): ?")


def _read_log(scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
    """A log record; ``logger.exception`` puts its traceback, chained ones too, right under it."""
    record = _log_line(lines[i])
    if record is None:
        return None
    level, first = record
    rest, i = _continuation(lines, i + 1)
    message = _join([first, *rest])
    errors = [ParsedError(None, message, (), "logging")] if level in _ERROR_LEVELS and message else []
    logged, i = _chain(scan, lines, i, depth)
    return errors + [replace(e, format="logging") for e in logged], i


def _chain(scan: Scan, lines: Lines, i: int, depth: int) -> Read:
    """Tracebacks from ``i`` on, linked by "The above exception was the direct cause..." lines."""
    errors: list[ParsedError] = []
    while i < len(lines):
        read = _read_group(scan, lines, i, depth) or _read_traceback(scan, lines, i, depth)
        if read is None:
            break
        errors += read[0]
        i = read[1]
        link = _skip_blank(lines, i)
        if link == len(lines) or lines[link] not in _CHAIN:
            break
        i = _skip_blank(lines, link + 1)
    return errors, i


def _log_line(line: str) -> tuple[str, str] | None:
    """Level and message of a line the ``logging`` module (or a look-alike) wrote."""
    if len(line) > _MAX_LINE:
        return None
    stamp = _TIMESTAMP.match(line)
    if stamp is None:
        first = _LEVEL_FIRST.match(line)
        return (first[1], _without_logger(line[first.end() :])) if first else None
    rest = line[stamp.end() :]
    for n, word in enumerate(_WORD.finditer(rest)):
        if n == _LEVEL_WORDS:
            break
        level = word[0].strip("[]()|-").split(":", 1)[0]
        if level in _LEVELS:
            after = word.start() + word[0].index(level) + len(level)
            return level, _without_logger(rest[after:])
    return None


def _without_logger(text: str) -> str:
    """The message without the logger or module name that common formats put before it."""
    text = text.lstrip(" \t]|-:")
    for prefix in (_FLASK_PREFIX, _LOGURU_PREFIX):
        if m := prefix.match(text):
            return text[m.end() :]
    m = _LOGGER_PREFIX.match(text)
    # "KeyError: 'x'" is a message that names a class, not a logger called KeyError.
    return text[m.end() :] if m and not _looks_like_class(m[1]) else text


# --- bare lines ----------------------------------------------------------------------------------

_CLASS_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Fault")
_IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")


def _read_line(scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
    """``Class: message`` on its own, as copied from the last line of a traceback."""
    named = _class_line(lines[i])
    if named is None:
        return None
    rest, end = _continuation(lines, i + 1)
    return [_error(named[0], _join([named[1], *rest]), [], "line")], end


def _class_line(line: str) -> tuple[str, str] | None:
    m = _ERROR_LINE.match(line)
    return (m[1], m[2] or "") if m and _looks_like_class(m[1]) else None


def _looks_like_class(name: str) -> bool:
    """Whether a name outside a traceback is an exception class rather than a word and a colon.

    Builtins, CapWords names ending in Error and the like, and dotted ``module.Class`` names
    qualify; "Error: ..." alone does not, since command-line tools print that for their own.
    """
    *modules, last = name.split(".")
    if not all(_IDENTIFIER.match(part) for part in (*modules, last)):
        return False
    if last in BUILTIN_EXCEPTIONS:
        return True
    if last[0].isupper() and last.endswith(_CLASS_SUFFIXES) and last not in _CLASS_SUFFIXES:
        return True
    if modules and last.islower() and last.endswith("error"):
        return True  # C modules name theirs in lower case: re.error, socket.gaierror, zlib.error
    return bool(modules) and last[0].isupper() and not any(part[0].isupper() for part in modules)


def _camel(name: str) -> bool:
    return _IDENTIFIER.match(name) is not None and name[0].isupper() and any(c.isupper() for c in name[1:])


# --- shared --------------------------------------------------------------------------------------

_READERS: tuple[Reader, ...] = (_read_group, _read_traceback, _read_rich, _read_pytest, _read_log, _read_line)
_STDLIB = re.compile(r"/lib/(?:python|pypy)\d+(?:\.\d+)?t?/")


def _is_structure(line: str) -> bool:
    """Whether ``line`` opens a block of its own (a traceback, a frame, a panel, a log record)."""
    if len(line) > _MAX_LINE:
        return False
    return (
        line.startswith("```")
        or line in _CHAIN
        or _section(line)
        or line.startswith("===")
        or any(regex.match(line) for regex in (_TRACEBACK, _GROUP_START, _RULE, _IPY_HEADER, _SUMMARY))
        or _frame(line) is not None
        or _box_top(line) is not None
        or _log_line(line) is not None
    )


def _starts_block(line: str) -> bool:
    """Whether ``line`` cannot continue a message: it opens a block or is an error of its own."""
    return _is_structure(line) or _class_line(line) is not None


def _skip_blank(lines: Lines, i: int) -> int:
    while i < len(lines) and not lines[i]:
        i += 1
    return i


def _join(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n")


def _error(cls: str | None, message: str, frames: list[Frame], fmt: Format) -> ParsedError:
    """An error; a group's message loses the ``(2 sub-exceptions)`` Python adds to it."""
    first, newline, rest = message.partition("\n")
    return ParsedError(cls, _GROUP_SUFFIX.sub("", first) + newline + rest, tuple(frames), fmt)


def _make_frame(path: str, line: str, function: str | None) -> Frame:
    path = path.replace("\\", "/")
    return Frame(path, int(line), function or None, relative(path))


def relative(path: str) -> str | None:
    """The path below ``site-packages`` or the standard library, as a record's file is named."""
    padded = "/" + path
    for marker in ("/site-packages/", "/dist-packages/"):
        at = padded.rfind(marker)
        if at >= 0:
            return padded[at + len(marker) :] or None
    stdlib = _STDLIB.search(padded)
    if stdlib is not None:
        return padded[stdlib.end() :] or None
    # Windows keeps the standard library in ...\Lib\, capitalised.
    at = padded.rfind("/Lib/")
    if at < 0:
        return None
    return padded[at + len("/Lib/") :] or None


_CLASS_PREFIX = re.compile(r"\([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+\) ")
_TUPLE_HEAD = re.compile(r"""\((?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"), """)


def _first_tuple_item(message: str) -> str | None:
    """The first string of a printed args tuple, decoded: what the raise site wrote."""
    m = _TUPLE_HEAD.match(message)
    return None if m is None else _string_literal(m.group()[2:-3])


#: Escapes of a Python string literal (a lone ``\x``, ``\u``, ``\U`` or ``\N`` is malformed),
#: and a line break no backslash continues, which ends the literal too soon.
_ESCAPE = re.compile(
    r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|N\{([^}]*)\}|([0-7]{1,3})|(.))|(\n)",
    re.DOTALL,
)
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n"}
_SIMPLE_ESCAPES |= {"r": "\r", "t": "\t", "v": "\v", "\n": ""}


def _string_literal(body: str) -> str | None:
    """A string literal's text between its quotes, decoded as ``ast.literal_eval`` would (None
    where that fails).  Decoded here, not by ``ast``: reading a paste runs on server threads,
    where ``ast.parse`` is unsafe in CPython 3.11 (its recursion counter is shared across
    threads: ``SystemError: AST constructor recursion depth mismatch``), and it is no Python."""
    if "\0" in body or (not body.isprintable() and _unencodable(body)):
        return None  # what the tokenizer refuses: null bytes, lone surrogates
    body = body.replace("\r\n", "\n").replace("\r", "\n")  # as the tokenizer reads them
    failed = False

    def decoded(m: re.Match[str]) -> str:
        nonlocal failed
        hex2, hex4, hex8, name, octal, other, newline = m.groups()
        if newline is not None:
            failed = True
            return ""
        if octal is not None:
            return chr(int(octal, 8))
        if other is not None:
            if other in "xuUN":
                failed = True  # truncated or malformed
            return _SIMPLE_ESCAPES.get(other, m.group())
        if name is not None:
            try:
                found = unicodedata.lookup(name)
            except KeyError:
                found = ""
            failed = failed or len(found) != 1  # unknown, or a named sequence
            return found
        code = int(hex2 or hex4 or hex8, 16)
        if code > sys.maxunicode:
            failed = True
            return ""
        return chr(code)

    text = _ESCAPE.sub(decoded, body) if "\\" in body or "\n" in body else body
    return None if failed else text


def _unencodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class _Reader:
    """What the driver asks of Python's pastes (``errdex.languages.base.PasteReader``)."""

    def read(self, scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
        """The errors in the block that starts at line ``i``, and where it ends; None when no
        Python reader recognises the line."""
        for reader in _READERS:
            read = reader(scan, lines, i, depth)
            if read is not None:
                return read
        return None

    def summary(self, line: str) -> ParsedError | None:
        return _summary(line)

    def forms(self, error_class: str | None, message: str) -> list[tuple[str, str | None]]:
        """What the raise may have written, where Python prints more than the message."""
        forms: list[tuple[str, str | None]] = []
        # KeyError prints the repr of its argument: KeyError('x') shows as 'x'.
        cls = (error_class or "").rpartition(".")[2]
        if cls == "KeyError" and len(message) >= 2 and message[0] == message[-1] and message[0] in "'\"":
            forms.append((message[1:-1], None))
        # Wrappers prefix the wrapped error's class: "(sqlite3.OperationalError) no such table".
        if (m := _CLASS_PREFIX.match(message)) is not None:
            forms.append((message[m.end() :], message[1 : m.end() - 2].removeprefix("builtins.")))
        # BaseException prints the repr of its args when given several: ("msg", obj, 3).
        if (first := _first_tuple_item(message)) is not None:
            forms.append((first, None))
        return forms

    def raises(self, source: str) -> bool:
        """``raise`` and ``assert``, alone or after ``if x:`` or ``;`` on the line."""
        return _RAISES.search(source) is not None

    def bare(self, text: str) -> ParsedError | None:
        """A lone ``MissingSchema: ...`` is a class even without a telling suffix; ``Note: ...``
        is not."""
        single = _ERROR_LINE.match(text) if "\n" not in text else None
        if single and single[2] is not None and _camel(single[1]):
            return _error(single[1], single[2], [], "line")
        return None


READER = _Reader()
