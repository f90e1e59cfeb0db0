"""What a JavaScript or TypeScript function says of itself: its signature as written, and its
JSDoc (or TSDoc) comment's summary, ``@throws`` entries, ``@param`` entries and override note;
and comment text with its JSDoc, HTML and Markdown markup reduced to plain text and backticked
code.

A ``doc`` may come as written (``/** ... */``, each line led by ``*``) or already stripped of
that frame: every function here accepts both, stripping the frame itself, so that it does not
matter which the extractor hands on.  Nothing here parses JavaScript: a signature is read off
the source lines by a scanner that knows brackets, strings and comments, which is all it needs.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

_SPACES = re.compile(r"\s+")

# --- Signatures --------------------------------------------------------------------------------

#: Words before a function's name that say how it is declared, not what it is called: each only
#: where more of the header follows (``get(url)`` is a method named ``get``, ``get size()`` a getter).
_MODIFIER = re.compile(
    r"(?:export|default|declare|abstract|public|private|protected|static|readonly|override|async|get"
    r"|set|accessor)\s+(?=[\w$#*\[\"'])"
)
_FUNCTION = re.compile(r"function\b\s*(?:\*\s*)?([\w$]*)\s*")
#: A name a function is bound to: ``f``, ``exports.parse``, ``this.#run``, ``[Symbol.iterator]``,
#: ``"quoted-name"``; ``const``, ``let`` or ``var`` before it, ``*`` (a generator method) too.
_NAME = re.compile(
    r"(?:(?:const|let|var)\s+)?\*?\s*(#?[\w$]+(?:\s*\.\s*#?[\w$]+)*|\[[^\]]*\]|\"[^\"]*\"|'[^']*')\s*"
)
#: Words that open a statement, not a function: ``if (x) {`` is no method named ``if``.
_STATEMENTS = frozenset(
    {"if", "for", "while", "switch", "catch", "with", "return", "do", "else", "new", "typeof"}
)
_ARROW_PARAMETER = re.compile(r"(?:async\s+)?([\w$]+)\s*=>")
_DECORATOR = re.compile(r"@[\w$.]+\s*")
_OPENING_SPACE = re.compile(r"([\[(])\s+")
_CLOSING_SPACE = re.compile(r",?\s+([\])])|,([\])])")
_CLOSERS = {"(": ")", "[": "]", "{": "}", "<": ">"}


def signature(lines: list[str], line: int, body_line: int) -> str | None:
    """A function's or method's signature as written, on one line: its name, type parameters,
    parameters and return type (``get<T>(url: string, config?: Config): Promise<T>``), without
    the words that declare it (``export``, ``async``, ``static``, ``function``, ``const ... =``).
    ``line`` is its declaration's first line (1-based), ``body_line`` the line of its body's
    first statement: the header ends at the body's ``{`` or the arrow's ``=>``.  None where the
    lines hold no function header."""
    if line < 1 or line > len(lines):
        return None
    # The body's line too: a one-line function opens its body on its header's line.
    text = _uncommented("\n".join(lines[line - 1 : max(line, min(body_line, len(lines)))]))
    text = _SPACES.sub(" ", text).strip()
    return _header(text)


def _header(text: str) -> str | None:
    while text.startswith("@"):  # decorators: ``@Get(':id')``
        m = _DECORATOR.match(text)
        if m is None:
            return None
        text = text[m.end() :]
        if text.startswith("("):
            end = _closing(text, 0)
            if end is None:
                return None
            text = text[end + 1 :].lstrip()
    while m := _MODIFIER.match(text):
        text = text[m.end() :]
    name = ""
    m = _FUNCTION.match(text)
    if m is None:
        m = _NAME.match(text)
        if m is None:
            return None
        name = _last_name(m.group(1))
        if name in _STATEMENTS:
            return None  # ``if (x) {``: no function's head
        rest = text[m.end() :].removeprefix("?").lstrip()  # ``name?(``: an optional method
        if not rest.startswith(("(", "<")):
            bound = _bound_function(rest, declared=text.startswith(("const ", "let ", "var ")))
            if bound is None:
                return None
            rest = bound
            own = _FUNCTION.match(rest)
            if own is not None:
                name = own.group(1) or name
                rest = rest[own.end() :]
            elif single := _ARROW_PARAMETER.match(rest):
                return f"{name}({single.group(1)})"
    else:
        name, rest = m.group(1), text[m.end() :]
    return _parameters(name, rest)


def _bound_function(rest: str, declared: bool) -> str | None:
    """What follows a name a function is bound to (``= async (a) =>``, ``: function (``), from
    the function on; None where the name is bound to no function."""
    if declared and rest.startswith(":"):
        # ``const f: Handler = (req) => ...``: the variable's type, up to its ``=``.
        depth = 0
        for i, ch in enumerate(rest):
            depth += (ch in "([{<") - (ch in ")]}>")
            if ch == "=" and depth == 0 and rest[i + 1 : i + 2] not in ("=", ">"):
                rest = rest[i:]
                break
        else:
            return None
    if not rest.startswith(("=", ":")) or rest.startswith(("==", "=>")):
        return None
    rest = rest[1:].lstrip()
    rest = re.sub(r"^async\b\s*", "", rest)
    return rest if rest.startswith(("function", "(", "<")) or _ARROW_PARAMETER.match(rest) else None


def _last_name(bound: str) -> str:
    """The name a caller calls a function bound to ``bound`` by: ``parse`` of ``exports.parse``."""
    bound = bound.replace(" ", "")
    if bound.startswith(("[", '"', "'")):
        return bound
    return bound.rpartition(".")[2]


def _parameters(name: str, rest: str) -> str | None:
    """``name``, then the type parameters, parameters and return type at the start of ``rest``."""
    generics = ""
    if rest.startswith("<"):
        end = _closing(rest, 0)
        if end is None:
            return None
        generics, rest = rest[: end + 1], rest[end + 1 :].lstrip()
    if not rest.startswith("("):
        return None
    end = _closing(rest, 0)
    if end is None:
        return None
    params, rest = rest[: end + 1], rest[end + 1 :].lstrip()
    if rest and not rest.startswith((":", "{", "=>")):
        return None  # ``app.get('/', handler);``: a call, no header
    returned = _return_type(rest[1:]) if rest.startswith(":") else ""
    head = f"{name}{generics}{params}" + (f": {returned}" if returned else "")
    head = _OPENING_SPACE.sub(r"\1", head)
    return _CLOSING_SPACE.sub(r"\1\2", head).strip() or None


def _return_type(text: str) -> str:
    """A return type, up to the body's ``{`` (an object type's ``{`` where a type is due), the
    arrow's ``=>`` or the end of the header."""
    i, due = 0, True
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if text.startswith("=>", i) or ch in ",;" or (ch == "{" and not due):
            break
        if ch in "([{<\"'`":
            end = _closing(text, i)
            if end is None:
                break
            i, due = end + 1, False
            continue
        due = ch in "|&"
        i += 1
    return text[:i].strip()


def _closing(text: str, start: int) -> int | None:
    """The index of the bracket (or quote) that closes the one at ``start``; None if none does.
    An arrow's ``>`` closes no ``<``."""
    opener = text[start]
    if opener in "\"'`":
        i = start + 1
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            if text[i] == opener:
                return i
            i += 1
        return None
    stack = [_CLOSERS[opener]]
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch in "\"'`":
            end = _closing(text, i)
            if end is None:
                return None
            i = end + 1
            continue
        if ch == "=" and text.startswith("=>", i):
            i += 2
            continue
        if ch in _CLOSERS and (ch != "<" or stack[-1] == ">"):
            stack.append(_CLOSERS[ch])
        elif ch == stack[-1]:
            stack.pop()
            if not stack:
                return i
        elif ch in ")]}":
            return None  # unbalanced
        i += 1
    return None


#: What opens a string or a comment: the text between two of these is copied as it stands.
_STRING_OR_COMMENT = re.compile(r"[\"'`]|//|/\*")


def _uncommented(text: str) -> str:
    """Source text without its comments, strings kept as they are."""
    out: list[str] = []
    i = 0
    while (found := _STRING_OR_COMMENT.search(text, i)) is not None:
        at = found.start()
        out.append(text[i:at])
        if found[0] == "//":
            newline = text.find("\n", at)
            i = len(text) if newline < 0 else newline
        elif found[0] == "/*":
            close = text.find("*/", at + 2)
            i = len(text) if close < 0 else close + 2
            out.append(" ")
        else:
            end = _closing(text, at)
            end = len(text) - 1 if end is None else end
            out.append(text[at : end + 1])
            i = end + 1
    out.append(text[i:])
    return "".join(out)


# --- Doc comments ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Comment:
    """A doc comment read: its free description and its block tags, in order, each as its name
    (``throws``) and its text (``{TypeError} When ...``), lines kept."""

    description: str
    tags: tuple[tuple[str, str], ...]

    def tagged(self, *names: str) -> list[str]:
        return [text for name, text in self.tags if name in names]


#: A block tag opening a line: ``@param``, ``@throws``.  Not a decorator in an example
#: (``@Component``): tag names are lower case.
_TAG = re.compile(r"^\s*@([a-z][\w-]*)\b\s?(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
#: A line of a comment's frame: the leading ``*`` (not the closing ``*/``) and one space after it.
_STAR = re.compile(r"^\s*\*(?!/) ?")


@lru_cache(maxsize=4096)
def _read(doc: str) -> _Comment:
    """A doc comment, as written or stripped of its frame, split into description and tags."""
    text = doc.strip()
    framed = text.startswith("/*")
    if framed:
        text = re.sub(r"^/\*\*?", "", text)
        text = re.sub(r"\*+/$", "", text)
    lines = text.split("\n")
    rest = [line for line in lines[1:] if line.strip()]
    if framed or (rest and all(_STAR.match(line) for line in rest)):
        lines = [_STAR.sub("", line, count=1) for line in lines]
    lines = inspect.cleandoc("\n".join(lines)).split("\n")
    description: list[str] = []
    tags: list[tuple[str, list[str]]] = []
    fenced = False
    for line in lines:
        m = None if fenced else _TAG.match(line)
        if _FENCE.match(line):
            fenced = not fenced
        if m is not None:
            tags.append((m.group(1), [m.group(2)]))
        elif tags:
            tags[-1][1].append(line)
        else:
            description.append(line)
    return _Comment(
        "\n".join(description).strip(), tuple((name, "\n".join(body).strip()) for name, body in tags)
    )


def _paragraph(text: str) -> str:
    """The first paragraph, on one line."""
    return _SPACES.sub(" ", re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0]).strip()


def summary(doc: str | None) -> str | None:
    """The comment's summary, on one line: its ``@summary``, else its description's first
    paragraph, else its ``@description``'s; None where it has none (tags alone)."""
    if not doc:
        return None
    comment = _read(doc)
    for text in [*comment.tagged("summary"), comment.description, *comment.tagged("description", "desc")]:
        if first := _paragraph(text):
            return first
    return None


_OVERRIDE = re.compile(r"\boverrid(?:e|den|ing)\b", re.IGNORECASE)
_TO_SUBCLASSES = re.compile(r"\bsubclass|\bthis method\b|\binherit", re.IGNORECASE)


def override_note(doc: str | None) -> str | None:
    """The comment's sentence that leaves the function to subclasses to override ("Subclasses must
    override this method."), if it has one, in its description or a tag's text."""
    if not doc or not _OVERRIDE.search(doc):
        return None
    comment = _read(doc)
    texts = [comment.description, *(_untyped(text) for _, text in comment.tags)]
    for sentence in re.split(r"(?<=[.!?])\s+", " ".join(" ".join(texts).split())):
        if _OVERRIDE.search(sentence) and _TO_SUBCLASSES.search(sentence):
            return sentence
    return None


#: An untyped ``@throws`` whose text opens with a class all the same: ``@throws TypeError if ...``.
_NAMED_CLASS = re.compile(
    r"^(?:\{@link(?:code|plain)?\s+([^}|\s]+)[^}]*\}|`([\w$.]+)`|([A-Z][\w$]*(?:\.[\w$]+)*(?:Error|Exception)))"
    r"[\s:,-]*"
)


def raises(doc: str | None, error_class: str | None) -> str | None:
    """What the comment's ``@throws`` (``@throw``, ``@exception``) entry for ``error_class`` says,
    on one line: one typed with the class (``{TypeError|RangeError}``, ``{errors.AxiosError}``,
    or naming it first: ``@throws TypeError if ...``), else an entry that names no class."""
    if not doc or not error_class or "@" not in doc:
        return None
    wanted = _last_part(error_class)
    untyped = None
    for entry in _read(doc).tagged("throws", "throw", "exception", "exceptions"):
        kinds, text = _typed(entry)
        if kinds is None and (m := _NAMED_CLASS.match(text)):
            kinds, text = [m.group(1) or m.group(2) or m.group(3)], text[m.end() :]
        text = _SPACES.sub(" ", text.strip().removeprefix("-").strip())
        if not text:
            continue
        if kinds is None:
            untyped = untyped or text
        elif wanted in {_last_part(k) for k in kinds}:
            return text
    return untyped


def _typed(entry: str) -> tuple[list[str] | None, str]:
    """A tag's ``{type}`` as the names in it (None where it has none), and the text after it."""
    entry = entry.strip()
    if not entry.startswith("{"):
        return None, entry
    end = _closing(entry, 0)
    if end is None:
        return None, entry
    inner = entry[1:end].strip()
    inner = re.sub(r"^@link(?:code|plain)?\s+", "", inner).split("|")[0] if inner.startswith("@") else inner
    names = [n.strip(" ()!?=") for n in inner.split("|")]
    return [n for n in names if n], entry[end + 1 :]


def _last_part(name: str) -> str:
    """``AxiosError`` of ``module:axios.AxiosError``, ``errors~AxiosError``, ``lib/errors.AxiosError``."""
    return re.split(r"[.~#:/]", name.strip().strip("`"))[-1]


def _untyped(text: str) -> str:
    """A tag's text without its ``{type}``."""
    return _typed(text)[1]


#: A ``@param`` entry's name: ``name``, ``options.timeout``, ``[name]``, ``[name=default]``.
_PARAM_NAME = re.compile(r"^(\[)?\s*([\w$]+(?:\[\])?(?:\.[\w$]+(?:\[\])?)*)")


def parameters(doc: str | None, names: Iterable[str]) -> dict[str, str]:
    """What the comment's ``@param`` (``@arg``, ``@argument``) entries say of each of ``names``,
    in their order: the description's first paragraph, on one line.  A property's entry
    (``@param {Object} options.timeout``) is ``options.timeout``'s, given only where asked."""
    wanted = [n for n in dict.fromkeys(names) if doc and n in doc]
    if not wanted or doc is None:
        return {}  # a name the text never mentions is not described: no parse needed
    described = _described(doc)
    return {n: described[n] for n in wanted if n in described}


@lru_cache(maxsize=4096)
def _described(doc: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for entry in _read(doc).tagged("param", "arg", "argument"):
        _, rest = _typed(entry)
        rest = rest.strip()
        m = _PARAM_NAME.match(rest)
        if m is None:
            continue
        name, after = m.group(2), rest[m.end() :]
        if m.group(1):  # ``[name=default]``: the default may hold brackets of its own
            bracket = rest.find("[")
            end = _closing(rest, bracket) if bracket >= 0 else None
            after = rest[end + 1 :] if end is not None else after
        text = _paragraph(after.strip().removeprefix("-").strip())
        if text and name not in out:  # the first entry for a name wins
            out[name] = text
    return out


# --- Markup ------------------------------------------------------------------------------------

#: ``{@link target}``, ``{@link target|label}``, ``{@link target label}``, ``{@linkcode ...}``,
#: ``{@linkplain ...}``, ``[label]{@link target}``.
_LINK = re.compile(r"(?:\[([^\]]*)\])?\{@link(code|plain)?\s+([^}|\s]+)\s*(?:\|\s*|\s+)?([^}]*)\}")
#: Other inline tags: ``{@code x}`` is code; ``{@inheritDoc X}`` says nothing of its own.
_CODE_TAG = re.compile(r"\{@code\s+([^}]*)\}")
_INHERIT = re.compile(r"\{@inheritDoc\b[^}]*\}\s*", re.IGNORECASE)
_OTHER_TAG = re.compile(r"\{@\w+\s+([^}]*)\}")
_HTML_CODE = re.compile(r"<code>(.*?)</code>", re.IGNORECASE | re.DOTALL)
_HTML_BREAK = re.compile(r"\s*<(?:br|p|/p)\s*/?>\s*", re.IGNORECASE)
_HTML_STYLE = re.compile(r"</?(?:b|i|em|strong|u|var|kbd|tt)>", re.IGNORECASE)
_MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\([^)\s]*\)")
_BACKTICKS = re.compile(r"``+")
_URL = re.compile(r"^[a-z][\w+.-]*://")


def plain(text: str) -> str:
    """Comment text as prose quotes it: JSDoc's inline tags, HTML and Markdown reduced to plain
    text and backticked code.  ``{@link Foo}`` is ```Foo```, ``{@link Foo|label}`` and
    ``[label]{@link Foo}`` read ``label``, ``{@linkcode Foo}`` and ``{@code x}`` are code, a
    Markdown link its text, ``<code>x</code>`` is ```x```."""
    if "{@" not in text and "<" not in text and "](" not in text and "``" not in text:
        return text
    text = _INHERIT.sub("", text)
    text = _LINK.sub(_link, text)
    text = _CODE_TAG.sub(lambda m: f"`{m.group(1).strip()}`", text)
    text = _OTHER_TAG.sub(lambda m: m.group(1).strip(), text)
    text = _HTML_CODE.sub(lambda m: f"`{m.group(1).strip()}`", text)
    text = _HTML_BREAK.sub(" ", text)
    text = _HTML_STYLE.sub("", text)
    text = _MARKDOWN_LINK.sub(r"\1", text)
    return _BACKTICKS.sub("`", text)


def _link(m: re.Match[str]) -> str:
    before, kind, target, label = m.group(1), m.group(2), m.group(3), (m.group(4) or "").strip()
    shown = (before or "").strip() or label
    target = target.removeprefix("module:")
    if kind == "code":
        return f"`{shown or target}`"
    if shown:
        return shown
    return target if kind == "plain" or _URL.match(target) else f"`{target}`"
