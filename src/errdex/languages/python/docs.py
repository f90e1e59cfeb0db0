"""What a Python function says of itself: its signature as written, its docstring's summary, what
its docstring's ``Raises`` section says of a class and what it says of each parameter (Google,
NumPy and Sphinx styles); and docstring text with its reST and Markdown markup reduced to plain
text and backticked code."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from functools import lru_cache

import docstring_parser

_SPACES = re.compile(r"\s+")
_DEF = re.compile(r"\bdef\s+(.*)")
_OPENING_SPACE = re.compile(r"([\[(])\s+")
_CLOSING_SPACE = re.compile(r",?\s*([\])])")


def signature(lines: list[str], start: int, body: int) -> str | None:
    """The ``def`` line(s) as written, on one line: ``backward(self, tensor, *args, model=None)``."""
    text = " ".join(lines[start - 1 : max(start, body - 1)])
    m = _DEF.search(text)
    if m is None:
        return None
    head = _SPACES.sub(" ", m.group(1)).strip()
    # Up to the colon that opens the body: the last one, since annotations hold colons too.
    head = head[: head.rfind(":")] if head.rfind(":") > head.find(")") else head
    # Undo the line breaks of a long signature: "( a, b, )" reads "(a, b)".
    head = _OPENING_SPACE.sub(r"\1", head)
    head = _CLOSING_SPACE.sub(r"\1", head)
    return head or None


#: A docstring section that lists raised exceptions: Google ``Raises:``, NumPy ``Raises`` with
#: an underline, Sphinx ``:raises X:``.  Prose that merely says "raises" needs no parser.
_RAISES_SECTION = re.compile(r"^\s*Raises\s*:?\s*$|:raises?\b", re.MULTILINE)


#: The head of a docstring section (Google ``Args:``, NumPy ``Parameters`` with its underline,
#: Sphinx ``:param x:``): a docstring that opens with one has no summary of its own.
_SECTION = re.compile(
    r"^(?:(?:Args|Arguments|Parameters|Params|Keyword Args|Returns?|Yields?|Raises|Examples?|Notes?"
    r"|Warnings?|See Also|Attributes|Todo)\s*:|(?:Parameters|Returns|Raises|Examples?|Notes?)\s*\n\s*-{3,}"
    r"|:(?:param|type|returns?|rtype|raises?)\b)",
    re.IGNORECASE,
)


def summary(doc: str | None) -> str | None:
    """The docstring's first paragraph, on one line; None where it opens with a section."""
    if not doc:
        return None
    cleaned = inspect.cleandoc(doc)
    first = cleaned.split("\n\n", 1)[0].strip()
    if _SECTION.match(first):
        return None
    return _SPACES.sub(" ", first) or None


def override_note(doc: str | None) -> str | None:
    """The docstring's sentence that leaves the function to subclasses to override ("Unless
    overridden in a subclass, this raises an error."), if it has one."""
    if not doc or not _OVERRIDE.search(doc):
        return None
    text = " ".join(inspect.cleandoc(doc).split())
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if _OVERRIDE.search(sentence) and _TO_SUBCLASSES.search(sentence):
            return sentence
    return None


_OVERRIDE = re.compile(r"\boverrid(?:e|den|ing)\b", re.IGNORECASE)
_TO_SUBCLASSES = re.compile(r"\bsubclass|\bthis method\b", re.IGNORECASE)


def raises(doc: str | None, error_class: str | None) -> str | None:
    """What a docstring's ``Raises`` section (Google, NumPy or Sphinx style) says of this class."""
    if not doc or not error_class or not _RAISES_SECTION.search(doc):
        return None
    return _parsed(doc)[0].get(error_class.rpartition(".")[2])


def parameters(doc: str | None, names: Iterable[str]) -> dict[str, str]:
    """What a docstring (Google ``Args:``, NumPy ``Parameters``, Sphinx ``:param x:``) says of
    each of ``names``, in their order: its description's first paragraph, on one line."""
    wanted = [n for n in dict.fromkeys(names) if doc and n in doc]
    if not wanted or doc is None:
        return {}  # a name the text never mentions is not described: no parse needed
    described = _parsed(doc)[1]
    return {n: described[n] for n in wanted if n in described}


@lru_cache(maxsize=4096)
def _parsed(doc: str) -> tuple[dict[str, str], dict[str, str]]:
    """Exception name to description, from a docstring's ``Raises`` section, and parameter
    name (without its ``*``) to description."""
    try:
        parsed = docstring_parser.parse(inspect.cleandoc(doc))
    except (docstring_parser.ParseError, ValueError, IndexError):
        return {}, {}
    raised = {
        entry.type_name.rpartition(".")[2]: _SPACES.sub(" ", entry.description).strip()
        for entry in reversed(parsed.raises)  # the first entry for a name wins
        if entry.type_name and entry.description
    }
    params = {}
    for entry in reversed(parsed.params):
        name = entry.arg_name.lstrip("*").strip()
        text = _SPACES.sub(" ", (entry.description or "").split("\n\n", 1)[0]).strip()
        # ``x, y: ...`` (NumPy) describes both; a name with spaces is no parameter's.
        for one in (n.strip() for n in name.split(",")):
            if text and one.isidentifier():
                params[one] = text
    return raised, params


#: reST and Sphinx markup: ````code````, ``:role:`target` `` (``~`` shows the last part,
#: ``text <target>`` shows the text), ```text <url>`_`` and ```name`_`` references, Markdown
#: ``[text](url)`` links, and a paragraph's closing ``::`` (a literal block follows).
_LITERAL = re.compile(r"``(.+?)``")
_ROLE = re.compile(r"(?::[\w.+-]+)+:`(~?)([^`<]*?)\s*(?:<([^`>]*)>)?`")
_REFERENCE_WITH_URL = re.compile(r"`([^`<]+?)\s*<[^`>]*>`__?")
_REFERENCE = re.compile(r"`([^`]+)`__?(?![\w`])")
_MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\([^)\s]*\)")
_LITERAL_BLOCK = re.compile(r"(?<=\S)::$")
_BACKTICKS = re.compile(r"``+")


def plain(text: str) -> str:
    """Docstring text as prose quotes it: markup reduced to plain text and backticked code
    (````x````, ``:class:`~a.X``` and ```x`_`` become ```x```, ```X```, ```x```; a link, its text)."""
    if "`" not in text and "](" not in text and not text.endswith("::"):
        return text
    text = _LITERAL.sub(lambda m: f"`{m.group(1)}`", text)
    text = _ROLE.sub(_role, text)
    text = _REFERENCE_WITH_URL.sub(r"\1", text)
    text = _REFERENCE.sub(r"`\1`", text)
    text = _MARKDOWN_LINK.sub(r"\1", text)
    text = _BACKTICKS.sub("`", text)  # what a typo left over: ````int````` reads `int`
    return _LITERAL_BLOCK.sub(":", text)


def _role(m: re.Match[str]) -> str:
    short, shown, target = m.group(1), m.group(2).strip(), m.group(3)
    if not shown:  # ``:class:`<a.X>``` names only its target
        shown = (target or "").strip()
    if short:
        shown = shown.rpartition(".")[2]
    return f"`{shown}`" if shown else ""
