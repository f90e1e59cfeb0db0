"""JavaScript's errors as people paste them: Node's uncaught and logged errors, browsers' stacks.

Node prints an uncaught error as the line that threw it (``path:line``, the source, a caret),
then the error's ``stack`` (``Class: message``, then ``    at`` frames, innermost first), then
what ``util.inspect`` shows of the error's own properties in braces (``code``, a ``[cause]``, an
AggregateError's ``[errors]``, each nested error indented under its key), then ``Node.js v20``.
``console.log(err)`` prints the same without the caret block and the trailer.  Chrome prints V8's
frames with URLs; Firefox and Safari print ``function@url:line:column`` lines.

Nested errors are read here, by their indentation, rather than through the driver's ``scan``.
Each is an error of its own, and its causes come before it, the order Python prints a chain in.
That makes the error that was thrown the last one outside a group, which is ``Paste.primary``.

The regexes are anchored and have no nested quantifiers, and lines longer than ``_MAX_LINE``
are never taken for structure.  A stack is looked for at most ``_MAX_MESSAGE`` lines below its
header and never past the next header, and nesting stops at ``_MAX_DEPTH``, so the time spent
stays linear in the size of the paste.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import unquote, urlsplit

from errdex.languages.javascript.names import BUILTIN_ERRORS
from errdex.languages.pastes import Frame, Lines, ParsedError, Read, Scan

__all__ = ["READER", "where"]

#: Longer lines are only ever message text: this bounds what any one match can cost.
_MAX_LINE = 5_000
#: Causes of causes, errors in groups: deeper nesting than this is read as text.
_MAX_DEPTH = 12
#: Frames kept per error, innermost first (Node prints 10 unless told otherwise).
_MAX_FRAMES = 100
#: Lines of message looked through for the first frame.
_MAX_MESSAGE = 100

# ``> `` is the REPL's prompt, ``<ref *1>`` marks an error that refers to itself, and ``Uncaught``
# is what the REPL and the browsers' consoles put before an error nothing caught.
_HEADER = re.compile(
    r"^(?:> )?(?:<ref \*\d{1,9}> )?(Uncaught (?:\(in promise\) )?)?"
    r"([A-Za-z_$][\w$.]*)(?: \[([\w.:-]+)\])?(?::(?: (.*))?)?$"
)
#: ``[Error: message]``: how ``util.inspect`` shows an error whose stack has no frames.
_BRACKETED = re.compile(r"^(?:<ref \*\d{1,9}> )?\[([A-Za-z_$][\w$.]*)(?: \[([\w.:-]+)\])?(\]|: )(.*)$")
_REJECTION = re.compile(r"^\(node:\d{1,9}\) UnhandledPromiseRejectionWarning: ")
_CARET_AT = re.compile(r"^(\S.*):(\d{1,9})$")
_CARETS = re.compile(r"^ *\^+$")
_TRAILER = re.compile(r"^Node\.js v\d")
_PROMPT = re.compile(r"^>(?: |$)")
_NOTE = re.compile(r"^\.\.\. \d{1,9} lines? matching cause stack trace \.\.\.$")
_EMITTED = re.compile(r"^Emitted '[^']*' event .* at:$")
_DIGITS = re.compile(r"\d{1,9}")
_SCHEME = re.compile(r"^[A-Za-z][\w+.-]*://")
_DRIVE = re.compile(r"^/[A-Za-z]:/")
_CODE = re.compile(r"""^code: (?:'([^'\\]*)'|"([^"\\]*)"|(-?\d{1,12})),?$""")
_INLINE_CODE = re.compile(r"""(?:^|[{,] )code: (?:'([^'\\]*)'|"([^"\\]*)"|(-?\d{1,12}))""")
#: Jest's excerpt of the test's code (``> 4 |   undefined.x;``, ``  |   ^``) under the message.
_EXCERPT = re.compile(r"^(?:(>) +)?(\d{1,9}) \|(?: (.*))?$")
_EXCERPT_MARK = re.compile(r"^\|[ ^~]*$")
_CAUSE_KEYS = ("[cause]: ", "cause: ")
_CAUSED_BY = "caused by: "
_PREFIXES = (*_CAUSE_KEYS, _CAUSED_BY)
_ERRORS_KEYS = ("[errors]: [", "errors: [")
_RAISES = re.compile(
    r"(?<![\w$.])throw\b|\bnew\s+[\w$.]*(?:Error|Exception)\s*\(|\.emit\(\s*['\"]error['\"]"
    r"|(?<![\w$])(?:reject|assert(?:\.\w+)?|invariant|process\.exit|console\.error)\s*\("
)


@dataclass(frozen=True, slots=True)
class _Found:
    """Errors read from one header on (causes first, then the error, then its group's errors),
    which of them the header's own error is, and the index of the line after them."""

    errors: list[ParsedError]
    own: int
    end: int


# --- errors --------------------------------------------------------------------------------------


def _error(lines: Lines, i: int, base: int, prefix: str, depth: int) -> _Found | None:
    """The error whose header is line ``i``, indented by ``base`` and ``prefix`` (a cause's
    key), with its frames and what the braces after them hold; None where no error starts."""
    if depth > _MAX_DEPTH:
        return None
    text = lines[i][base + len(prefix) :]
    head = _HEADER.match(text)
    if head is not None and _class_like(head[2]):
        return _headed(lines, i, base, head, depth)
    bracket = _BRACKETED.match(text)
    if bracket is not None and _class_like(bracket[1]):
        return _bracketed(lines, i, base, bracket, depth)
    return None


def _headed(lines: Lines, i: int, base: int, head: re.Match[str], depth: int) -> _Found | None:
    """``Class: message`` and the message's further lines, then the stack; without a stack only
    an error no other language prints (``Uncaught``, a ``[CODE]``) is one."""
    cls, code, first = head[2], head[3], head[4] or ""
    message = _message(lines, i + 1, base)
    if message is None:
        if not (head[1] or code):
            return None
        rest, end = _paragraph(lines, i + 1, base)
        return _Found([ParsedError(cls, _join([first, *rest]), (), "line", code=code)], 0, end)
    text, excerpt, start = message
    return _stacked(lines, start, base, cls, code, _join([first, *text]), excerpt, depth)


def _stacked(
    lines: Lines,
    i: int,
    base: int,
    cls: str | None,
    code: str | None,
    message: str,
    excerpt: tuple[int, str] | None,
    depth: int,
) -> _Found:
    """The error whose first frame is line ``i``, the errors nested in its braces and those that
    ``Caused by:`` lines chain to it."""
    frames, browser, ending, end = _frames(lines, i)
    if excerpt is not None:  # Jest showed the source of the innermost frame at that line
        at = next((n for n, f in enumerate(frames) if f.line == excerpt[0]), None)
        if at is not None:
            frames[at] = replace(frames[at], source=excerpt[1])
    causes: list[ParsedError] = []
    members: list[ParsedError] = []
    if ending == "{":
        found, causes, members, end = _properties(lines, end, base, depth)
        code = code or found
    line = lines[end] if end < len(lines) else ""
    if line.startswith(" " * base) and line[base : base + len(_CAUSED_BY)].lower() == _CAUSED_BY:
        chained = _error(lines, end, base, _CAUSED_BY, depth + 1)
        if chained is not None:
            causes += chained.errors
            end = chained.end
    own = ParsedError(cls, message, tuple(reversed(frames)), "browser" if browser else "node", code=code)
    return _Found([*causes, own, *members], len(causes), end)


def _bracketed(lines: Lines, i: int, base: int, m: re.Match[str], depth: int) -> _Found | None:
    """``[Class: message]``, the message maybe over several lines, then maybe braces, on the
    same line (``[Error: x] { code: 'ENOENT' }``) or below."""
    cls, code = m[1], m[2]
    end = i + 1
    if m[3] == "]":
        text, tail = "", m[4]
    else:
        parts = [m[4]]
        split = _after_bracket(m[4])
        while split is None:
            if end >= min(len(lines), i + _MAX_MESSAGE) or len(lines[end]) > _MAX_LINE:
                return None
            if _starts_error(lines[end]):
                return None
            parts.append(_dedent(lines[end], base))
            split = _after_bracket(parts[-1])
            end += 1
        text, tail = _join([*parts[:-1], split[0]]), split[1]
    causes: list[ParsedError] = []
    members: list[ParsedError] = []
    if tail == " {":
        found, causes, members, end = _properties(lines, end, base, depth)
        code = code or found
    elif tail.startswith(" { ") and tail.rstrip(",").endswith(" }"):
        code = code or _inline_code(tail)
    elif tail not in ("", ","):
        return None
    elif not text and base == 0:
        return None  # ``[Warning]`` alone is a word in brackets, not an error
    own = ParsedError(cls, text, (), "node", code=code)
    return _Found([*causes, own, *members], len(causes), end)


def _after_bracket(text: str) -> tuple[str, str] | None:
    """A bracketed error's last line cut at its ``]``: the message's end and what follows."""
    for tail in ("", ",", " {"):
        if text.endswith("]" + tail):
            return text[: len(text) - len(tail) - 1], tail
    at = text.find("] { ")
    if at >= 0 and text.rstrip(",").endswith(" }"):
        return text[:at], text[at + 1 :]
    return None


def _message(lines: Lines, i: int, base: int) -> tuple[list[str], tuple[int, str] | None, int] | None:
    """The message's lines after its header, Jest's excerpt of the source (the line it marks),
    and the index of the first frame; None where no frame comes before another error does."""
    text: list[str] = []
    excerpt: tuple[int, str] | None = None
    for j in range(i, min(len(lines), i + _MAX_MESSAGE)):
        line = lines[j]
        if len(line) > _MAX_LINE or _TRAILER.match(line):
            return None
        stripped = line.strip()
        if _frame_line(_ending(stripped)[0]) is not None:
            return text, excerpt, j
        if _starts_error(line):
            return None
        if shown := _EXCERPT.match(stripped):
            if shown[1]:
                excerpt = (int(shown[2]), (shown[3] or "").strip())
        elif not _EXCERPT_MARK.match(stripped):
            text.append(_dedent(line, base))
    return None


def _paragraph(lines: Lines, i: int, base: int) -> tuple[list[str], int]:
    """Lines that go on a message no stack follows: up to a blank line or another error."""
    end = i
    while end < min(len(lines), i + _MAX_MESSAGE) and lines[end] and len(lines[end]) <= _MAX_LINE:
        if _starts_error(lines[end]) or _TRAILER.match(lines[end]) or _PROMPT.match(lines[end]):
            break
        end += 1
    return [_dedent(line, base) for line in lines[i:end]], end


def _starts_error(line: str) -> bool:
    """Whether a line is an error's header, after a key or a prefix (``[cause]: ``, ``Caused
    by: ``) where it has one.  A message stops at every line an error could start at, so no
    line is read past more than once and reading stays linear."""
    text = line.lstrip()
    rejection = _REJECTION.match(text)
    if rejection is not None:
        text = text[rejection.end() :]
    elif prefix := next((p for p in _PREFIXES if text[: len(p)].lower() == p), None):
        text = text[len(prefix) :]
    head = _HEADER.match(text)
    if head is not None and _class_like(head[2]):
        return True
    bracket = _BRACKETED.match(text)
    return bracket is not None and _class_like(bracket[1])


def _class_like(name: str) -> bool:
    """Error classes are capitalised (``AxiosError``, ``YError``); ``at``, ``npm`` and ``Node.js``
    are not, and ``Uncaught`` belongs to the prefix."""
    last = name.rpartition(".")[2]
    return last in BUILTIN_ERRORS or (last[:1].isascii() and last[:1].isupper())


# --- what the braces after a stack hold ----------------------------------------------------------


def _properties(
    lines: Lines, i: int, base: int, depth: int
) -> tuple[str | None, list[ParsedError], list[ParsedError], int]:
    """The error's own properties ``util.inspect`` prints in braces from line ``i`` (the one
    after ``{``) to the ``}`` at the error's indentation: its ``code``, the errors of its
    ``[cause]`` and of its ``[errors]``; the keys of nested objects (axios's ``config``, its
    ``response``) are indented deeper and ignored."""
    close = " " * base + "}"
    key = " " * (base + 2)
    code: str | None = None
    causes: list[ParsedError] = []
    members: list[ParsedError] = []
    while i < len(lines):
        line = lines[i]
        if line in (close, close + ","):
            return code, causes, members, i + 1
        if len(line) > _MAX_LINE or not line.startswith(" " * (base + 1)):
            break  # cut short: the braces never close
        entry = line[base + 2 :] if line.startswith(key) and line[base + 2 : base + 3] != " " else ""
        if code is None and (m := _CODE.match(entry)):
            code = next(g for g in m.groups() if g is not None)
        elif prefix := next((k for k in _CAUSE_KEYS if entry.startswith(k)), None):
            found = _error(lines, i, base + 2, prefix, depth + 1)
            if found is not None:
                causes += found.errors
                i = found.end
                continue
        elif entry in _ERRORS_KEYS:
            group, i = _members(lines, i + 1, base + 2, depth + 1)
            members += group
            continue
        i += 1
    return code, causes, members, i


def _members(lines: Lines, i: int, indent: int, depth: int) -> tuple[list[ParsedError], int]:
    """The errors of an ``[errors]: [`` list, whose items are indented two more than its key."""
    close = " " * indent + "]"
    item = " " * (indent + 2)
    members: list[ParsedError] = []
    while i < len(lines):
        line = lines[i]
        if line in (close, close + ","):
            return members, i + 1
        if len(line) > _MAX_LINE or not line.startswith(" " * (indent + 1)):
            break
        if line.startswith(item) and line[indent + 2 : indent + 3] != " ":
            found = _error(lines, i, indent + 2, "", depth)
            if found is not None:
                members += [replace(e, in_group=True) for e in found.errors]
                i = found.end
                continue
        i += 1
    return members, i


def _inline_code(text: str) -> str | None:
    """The ``code`` among properties printed on one line, not a nested object's."""
    for m in _INLINE_CODE.finditer(text):
        before = text[: m.start() + 1]
        if before.count("{") - before.count("}") == 1:
            return next(g for g in m.groups() if g is not None)
    return None


# --- frames --------------------------------------------------------------------------------------


def _frames(lines: Lines, i: int) -> tuple[list[Frame], bool, str, int]:
    """The frames from line ``i`` on, innermost first as printed; whether a browser printed
    them; ``{`` or ``,`` where the last one ends so (braces follow, a list goes on); the end.

    Frames after ``Emitted 'error' event ... at:`` are where the error was emitted, not raised:
    they are read past, not kept."""
    frames: list[Frame] = []
    browser = False
    emitted = False
    while i < len(lines):
        line = lines[i]
        text = line.strip()
        if len(line) > _MAX_LINE:
            break
        if _NOTE.match(text) or _EMITTED.match(text):
            emitted = emitted or text.startswith("Emitted")
            i += 1
            continue
        text, ending = _ending(text)
        found = _frame_line(text)
        if found is None:
            return frames, browser, "", i
        frame, by_browser = found
        browser = browser or by_browser
        if frame is not None and not emitted and len(frames) < _MAX_FRAMES:
            frames.append(frame)
        i += 1
        if ending:
            return frames, browser, ending, i
    return frames, browser, "", i


def _ending(text: str) -> tuple[str, str]:
    """A stack line without the `` {`` that opens braces after it or the ``,`` of a list."""
    if text.endswith(" {"):
        return text[:-2], "{"
    if text.endswith(","):
        return text[:-1], ","
    return text, ""


def _frame_line(text: str) -> tuple[Frame | None, bool] | None:
    """The frame a stripped stack line prints and whether a browser printed it: V8's ``at``
    lines, Firefox's and Safari's ``function@url:line:column``.  A frame that points nowhere
    (``at Array.forEach (<anonymous>)``, ``[native code]``) gives None for the frame; a line
    that is no frame gives None."""
    if text.startswith("at "):
        return _v8_frame(text[3:])
    at = text.find("@")
    if at < 0:
        return None
    name, location = text[:at], text[at + 1 :]
    if "://" in name or ": " in name or "(" in name:
        return None
    if location == "[native code]":
        return None, True
    position = _position(location)
    if position is None or not _SCHEME.match(position[0]):
        return None
    if " > " in position[0]:  # Firefox's ``app.js line 2 > eval``: code that eval ran
        return None, True
    return _frame(position[0], position[1], _function(name)), True


def _v8_frame(body: str) -> tuple[Frame | None, bool] | None:
    """``fn (location)`` or a bare location, ``async`` before either."""
    body = body.removeprefix("async ")
    name: str | None = None
    open_at = body.find(" (")
    if body.endswith(")") and open_at > 0:
        name, body = body[:open_at], body[open_at + 2 : -1]
        if body in ("<anonymous>", "native") or body.startswith("index "):
            return None, False
        if body.startswith("eval at "):  # the eval's own code, at lines of no file
            return None, False
    position = _position(body)
    if position is None:
        return None
    if position[0].startswith("<"):  # ``<anonymous>:1:5``: code of no file
        return None, False
    browser = _SCHEME.match(position[0]) is not None and not position[0].startswith("file:")
    return _frame(position[0], position[1], _function(name)), browser


def _position(location: str) -> tuple[str, int] | None:
    """``path:line:column`` as the path and the line; the column is of no use to a record."""
    rest, sep, column = location.rpartition(":")
    path, sep2, line = rest.rpartition(":")
    if not (sep and sep2 and path and _DIGITS.fullmatch(line) and _DIGITS.fullmatch(column)):
        return None
    return path, int(line)


def _frame(location: str, line: int, function: str | None, source: str | None = None) -> Frame:
    path = where(location)
    package, below = _package(path)
    return Frame(path, line, function, below, source, package)


def where(location: str) -> str:
    """A frame's location as a path: a ``file://`` URL's path decoded, a web URL's path (query
    dropped), a webpack URL's path in the project (``./src/x.js`` is ``src/x.js``), and ``/``
    for Windows' ``\\``; ``node:`` locations, Node's own modules, as printed."""
    if not _SCHEME.match(location):
        return location.replace("\\", "/")
    try:
        url = urlsplit(location)
    except ValueError:  # a malformed host, as in ``http://[::1``
        return location
    path = unquote(url.path)
    if url.scheme == "file":
        return path[1:] if _DRIVE.match(path) else path
    if url.scheme.startswith("webpack"):
        return path.lstrip("/").removeprefix("./") or location
    return path or location


def _package(path: str) -> tuple[str | None, str | None]:
    """The package a path lies in, by its last ``node_modules/`` (pnpm nests the package
    in ``node_modules/.pnpm/name@1.0.0/node_modules/name/``), and the path below its directory."""
    padded = "/" + path
    at = padded.rfind("/node_modules/")
    if at < 0:
        return None, None
    parts = padded[at + len("/node_modules/") :].split("/")
    size = 2 if parts[0].startswith("@") else 1
    if len(parts) <= size or not all(parts[: size + 1]):
        return None, None
    return "/".join(parts[:size]), "/".join(parts[size:])


def _function(name: str | None) -> str:
    """The name a record's function goes by, as ``errdex.store.common.function_name`` cuts it:
    V8's ``Layer.handle [as handle_request]`` is ``handle``, ``Object.get size`` is ``size``,
    Firefox's ``promise callback*run`` is ``run``.  ``new Foo`` stays whole, since it may be a
    class's ``constructor`` or a function ``Foo``; ``<anonymous>`` where none is printed, as
    V8 prints for code outside functions."""
    if not name:
        return "<anonymous>"
    name = name.rpartition("*")[2].partition(" [as ")[0].removeprefix("async ")
    if not name.startswith("new "):
        if ".." not in name:  # ``Module._extensions..js``: a property named ``.js``
            name = name.rpartition(".")[2]
        name = name.removeprefix("get ").removeprefix("set ")
    return name or "<anonymous>"


# --- the caret block and what surrounds a stack --------------------------------------------------


def _caret(lines: Lines, i: int) -> tuple[Frame, int] | None:
    """Node's ``path:line``, the source line and a caret under it: the frame of the line that
    threw, and the index after the blank line that follows it."""
    if i + 2 >= len(lines) or len(lines[i]) > _MAX_LINE or not _CARETS.match(lines[i + 2]):
        return None
    m = _CARET_AT.match(lines[i])
    if m is None or not (m[1].startswith(("node:", "[")) or any(c in m[1] for c in "/\\.")):
        return None
    end = i + 3
    while end < min(len(lines), i + 5) and not lines[end]:
        end += 1
    source = lines[i + 1].strip()
    # A minified bundle's line is no statement to show; the frame still says where.
    return _frame(m[1], int(m[2]), None, source if 0 < len(source) <= _MAX_LINE else None), end


def _thrown(lines: Lines, i: int) -> _Found:
    """What follows a caret block when something that is no error was thrown (``throw 'x'``
    prints the value as it is, then a hint to run with ``--trace-uncaught``)."""
    end = i
    while end < min(len(lines), i + _MAX_MESSAGE) and lines[end] and len(lines[end]) <= _MAX_LINE:
        if lines[end].startswith("(Use `node") or _TRAILER.match(lines[end]):
            break
        end += 1
    return _Found([ParsedError(None, _join(list(lines[i:end])), (), "node")], 0, end)


def _with_caret(found: _Found, caret: Frame) -> list[ParsedError]:
    """The thrown error with the caret block's line.  Where that line is the innermost frame's,
    it becomes that frame's source.  Otherwise it is a frame of its own, innermost and with no
    function, as Python's parse errors have: a SyntaxError's stack is the loader's, and a
    rethrow's stack is where the error was made.  Node's own rethrows are left out (an
    unhandled rejection, an ``'error'`` event nobody listens to, the loader's ``throw err``),
    since they say nothing of where the error was raised."""
    errors = list(found.errors)
    own = errors[found.own]
    frames = list(own.frames)
    if frames and (frames[-1].path, frames[-1].line) == (caret.path, caret.line):
        frames[-1] = replace(frames[-1], source=caret.source)
    elif not caret.path.startswith("node:"):
        frames.append(caret)
    errors[found.own] = replace(own, frames=tuple(frames))
    return errors


def _trailer(lines: Lines, i: int) -> int:
    """The index after Node's hints and its ``Node.js v20.20.2`` line, where they follow."""
    for j in range(i, min(len(lines), i + 4)):
        if _TRAILER.match(lines[j]):
            return j + 1
        if lines[j] and not lines[j].startswith("(Use `node"):
            break
    return i


def _top(lines: Lines, i: int, depth: int) -> _Found | None:
    """An error at line ``i``, at any indentation (Jest and mocha indent theirs); or a stack
    with no header (Firefox's ``err.stack`` is frames alone)."""
    line = lines[i]
    base = len(line) - len(line.lstrip(" "))
    rejection = _REJECTION.match(line)
    found = _error(lines, i, base, rejection[0] if rejection else "", depth)
    if found is not None:
        return found
    first = _frame_line(_ending(line.strip())[0])
    if first is None or first[0] is None:
        return None
    return _stacked(lines, i, base, None, None, "", None, depth)


def _dedent(line: str, base: int) -> str:
    return line[base:] if line.startswith(" " * base) else line.lstrip()


def _join(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n")


class _Reader:
    """What the driver asks of JavaScript's pastes (``errdex.languages.base.PasteReader``)."""

    def read(self, scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
        """The errors of the Node or browser error that starts at line ``i`` (its caret block,
        its header or its first frame) and the index after it; None where none starts there.
        Errors nested in the braces are read here, not by ``scan``."""
        if len(lines[i]) > _MAX_LINE:
            return None
        caret = _caret(lines, i)
        start = i if caret is None else caret[1]
        found = _top(lines, start, depth) if start < len(lines) else None
        if caret is not None:
            found = found or _thrown(lines, start)
            return _with_caret(found, caret[0]), _trailer(lines, found.end)
        if found is None:
            return None
        return found.errors, _trailer(lines, found.end)

    def summary(self, line: str) -> ParsedError | None:
        """None: Jest's ``● suite > test`` line and mocha's ``1) suite`` name a test, not an error,
        and both print the error's stack in full, which ``read`` reads."""
        return None

    def bare(self, text: str) -> ParsedError | None:
        """A lone ``TypeError [ERR_X]: ...``, ``Uncaught RangeError: ...`` or ``Error: ...``:
        a class every JavaScript runtime has, a code or the prefix say it is JavaScript's.  A
        message of several lines goes on under its header, as V8 prints it (yargs's
        ``Invalid values:`` then a line per argument)."""
        head, newline, rest = text.strip().partition("\n")
        m = _HEADER.match(head) if len(head) <= _MAX_LINE else None
        if m is None or not (m[4] or m[3]):
            return None
        if not (m[1] or m[3] or m[2].rpartition(".")[2] in BUILTIN_ERRORS):
            return None
        return ParsedError(m[2], (m[4] or "") + newline + rest, (), "line", code=m[3])

    def raises(self, source: str) -> bool:
        """``throw``, making an error (``new FooError(``), rejecting, asserting, emitting
        ``'error'``, exiting or printing an error: what a line that raises starts with."""
        return _RAISES.search(source) is not None

    def forms(self, error_class: str | None, message: str) -> list[tuple[str, str | None]]:
        """None: V8 prints ``Class: message`` and Node's ``[CODE]``, the prefix it adds, is
        read off the header already."""
        return []


READER = _Reader()
