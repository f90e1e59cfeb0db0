"""Facts around each record, joined across the tree once every file is read.

The enclosing function's signature and docstring (and what its ``Raises`` section says of
this class), the functions that call it, and the tests that expect it.  Enrichment writes
prose from these facts only, so each one is kept on the record where a reader can check it.
"""

from __future__ import annotations

import bisect
import difflib
import inspect
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache

import docstring_parser

from errdex.mine.callers import Calls
from errdex.mine.python import FileResult
from errdex.mine.triggers import Trigger
from errdex.record import Caller, Facts, Record, TriggerTest, instance_name, owner_and_name

#: Callers and tests kept per record, nearest first.
MAX_CALLERS = 5
MAX_TESTS = 5
#: A name called from more places than this is too common to say who calls *this* function.
MAX_CALL_SITES = 200
_SPACES = re.compile(r"\s+")
_WORDS = re.compile(r"[A-Za-z_]{3,}")
#: Literal runs of a ``match=`` regex: the text between its special characters.
_REGEX_SPECIAL = re.compile(r"\\[AbBdDsSwWZ]|[\\^$.|?*+()\[\]{}]")


class _Spans:
    """Which function each line of a file lies in (the innermost, for nested ones)."""

    def __init__(self, functions: list[tuple[str, int, int, int, str | None]]) -> None:
        self.functions = sorted(functions, key=lambda f: f[1])
        self.starts = [f[1] for f in self.functions]
        self.by_name = {f[0]: f for f in functions}

    def at(self, line: int) -> str | None:
        """The function whose code holds ``line``; None at module level or in a docstring
        (an example there, ``fabric.backward(loss)``, calls nothing)."""
        i = bisect.bisect_right(self.starts, line) - 1
        while i >= 0:
            name, start, body, end, doc = self.functions[i]
            if start <= line <= end:
                in_doc = doc is not None and body <= line <= body + doc.count("\n")
                return None if in_doc else name
            i -= 1
        return None


def call_names(records: Iterable[Record]) -> set[str]:
    """The names the raising functions are called by: what ``scan_calls`` looks for."""
    return {name for r in records if (name := _called_as(r.function)[0])}


def attach_facts(
    records: list[Record],
    results: list[FileResult],
    triggers: list[Trigger],
    calls: Calls,
    prefix: str = "",
) -> list[Record]:
    """The records with their ``facts`` filled in."""
    files = {prefix + r.path: r for r in results}
    spans = {path: _Spans(r.functions) for path, r in files.items()}
    callers = _Callers(calls, spans)
    tests = _Tests(triggers, prefix)
    documented: dict[tuple[str, str], tuple[str | None, str | None, str | None]] = {}
    out = []
    for record in records:
        result = files.get(record.file_path)
        span = spans[record.file_path].by_name.get(record.function or "") if result else None
        raises_doc = None
        if result is not None and span is not None:
            key = (record.file_path, span[0])
            if key not in documented:  # one function often raises many records
                documented[key] = (_signature(result.lines, span[1], span[2]), _summary(span[4]), span[4])
            signature, summary, doc = documented[key]
            raises_doc = _raises(doc, record.error_class)
        else:
            signature = summary = None
        # Built from the miner's own values: model_construct skips re-validating them.
        facts = Facts.model_construct(
            signature=signature,
            docstring=summary,
            raises_doc=raises_doc,
            callers=callers.of(record),
            tests=tests.of(record),
        )
        out.append(record.model_copy(update={"facts": facts}))
    return out


def _called_as(function: str | None) -> tuple[str | None, set[str] | None]:
    """The name a function is called by, and the receivers a call may have (None: any).

    A method is called on ``self`` or on an object named after its class (``fabric.backward``
    for ``Fabric.backward``), not on any object that has a method of that name.
    """
    split = owner_and_name(function)
    if split is None:
        return None, None
    owner, name = split
    if name == "__init__":  # a constructor is called by its class's name
        return owner or None, None
    if not name or name.startswith("__"):
        return None, None
    if not owner:
        return name, None
    snake = instance_name(owner)
    return name, {"self", "cls", snake, snake.rpartition("_")[2], owner}


def _signature(lines: list[str], start: int, body: int) -> str | None:
    """The ``def`` line(s) as written, on one line: ``backward(self, tensor, *args, model=None)``."""
    text = " ".join(lines[start - 1 : max(start, body - 1)])
    m = re.search(r"\bdef\s+(.*)", text)
    if m is None:
        return None
    head = _SPACES.sub(" ", m.group(1)).strip()
    # Up to the colon that opens the body: the last one, since annotations hold colons too.
    head = head[: head.rfind(":")] if head.rfind(":") > head.find(")") else head
    # Undo the line breaks of a long signature: "( a, b, )" reads "(a, b)".
    head = re.sub(r"([\[(])\s+", r"\1", head)
    head = re.sub(r",?\s*([\])])", r"\1", head)
    return head or None


def _summary(doc: str | None) -> str | None:
    if not doc:
        return None
    cleaned = inspect.cleandoc(doc)
    first = cleaned.split("\n\n", 1)[0].strip()
    return _SPACES.sub(" ", first) or None


#: A docstring section that lists raised exceptions: Google ``Raises:``, NumPy ``Raises`` with
#: an underline, Sphinx ``:raises X:``.  Prose that merely says "raises" needs no parser.
_RAISES_SECTION = re.compile(r"^\s*Raises\s*:?\s*$|:raises?\b", re.MULTILINE)


@lru_cache(maxsize=4096)
def _raises_section(doc: str) -> dict[str, str]:
    """Exception name to description, from a docstring's ``Raises`` section."""
    try:
        parsed = docstring_parser.parse(inspect.cleandoc(doc))
    except (docstring_parser.ParseError, ValueError, IndexError):
        return {}
    return {
        entry.type_name.rpartition(".")[2]: _SPACES.sub(" ", entry.description).strip()
        for entry in reversed(parsed.raises)  # the first entry for a name wins
        if entry.type_name and entry.description
    }


def _raises(doc: str | None, error_class: str | None) -> str | None:
    """What a docstring's ``Raises`` section (Google, NumPy or Sphinx style) says of this class."""
    if not doc or not error_class or not _RAISES_SECTION.search(doc):
        return None
    return _raises_section(doc).get(error_class.rpartition(".")[2])


class _Callers:
    def __init__(self, calls: Calls, spans: dict[str, _Spans]) -> None:
        self.calls = calls
        self.spans = spans

    def of(self, record: Record) -> list[Caller]:
        name, receivers = _called_as(record.function)
        sites = self.calls.get(name or "", [])
        if not sites or len(sites) > MAX_CALL_SITES:
            return []
        folder = record.file_path.rpartition("/")[0]
        found = []
        for path, line, receiver in sites:
            if receivers is not None and receiver not in receivers:
                continue
            spans = self.spans.get(path)
            caller = spans.at(line) if spans is not None else None
            if caller is None or caller == record.function:
                continue  # module-level code, or the function's own text (recursion, docstring)
            found.append(Caller.model_construct(function=caller, file_path=path, line_number=line))
        # Nearest first: the same file, then the same package folder, then the rest.
        found.sort(
            key=lambda c: (
                c.file_path != record.file_path,
                c.file_path.rpartition("/")[0] != folder,
                c.file_path,
            )
        )
        unique = list({(c.function, c.file_path): c for c in found}.values())
        return unique[:MAX_CALLERS]


class _Tests:
    """Tests by what ties them to a record: the rare words of their ``match`` pattern, or the
    functions they call.  A big suite (pandas ships thousands of ``pytest.raises(ValueError)``)
    is looked up, never scanned per record."""

    def __init__(self, triggers: Iterable[Trigger], prefix: str) -> None:
        self.prefix = prefix
        by_word: dict[str, list[tuple[Trigger, str, list[str]]]] = defaultdict(list)
        self.by_call: dict[tuple[str, str], list[Trigger]] = defaultdict(list)
        matched = []
        for trigger in triggers:
            name = trigger.error_class.rpartition(".")[2]
            if trigger.match is None:
                for called in trigger.called:
                    self.by_call[(name, called)].append(trigger)
            else:
                literal = "".join(_literal_runs(trigger.match))
                words = _WORDS.findall(literal)
                if len(words) >= 2:
                    matched.append((trigger, literal, words))
        counts = Counter(w for _, _, words in matched for w in set(words))
        for trigger, literal, words in matched:
            # ``_is_about`` lets a fifth of the words be missing: file under one more than that.
            keys = sorted(set(words), key=lambda w: (counts[w], w))[: len(words) // 5 + 1]
            for key in keys:
                by_word[key].append((trigger, literal, words))
        self.by_word = by_word

    def of(self, record: Record) -> list[TriggerTest]:
        if not record.error_class:
            return []
        name = record.error_class.rpartition(".")[2]
        function = _called_as(record.function)[0]  # a constructor is called by its class name
        text = record.error_message
        chosen: dict[int, Trigger] = {}
        for word in set(_WORDS.findall(text)):
            for trigger, literal, words in self.by_word.get(word, ()):
                if trigger.error_class.rpartition(".")[2] == name and _is_about(literal, words, text):
                    chosen[id(trigger)] = trigger
        for trigger in self.by_call.get((name, function), ()) if function else ():
            chosen[id(trigger)] = trigger
        found = [
            TriggerTest.model_construct(
                name=t.test,
                file_path=self.prefix + t.path,
                line_number=t.line,
                call=t.call,
                match=t.match,
            )
            for t in chosen.values()
        ]
        # Tests that name the message come before tests that only call the function.
        found.sort(key=lambda t: (t.match is None, t.file_path, t.line_number))
        return found[:MAX_TESTS]


def _is_about(literal: str, words: list[str], template: str) -> bool:
    """Whether the plain text of a test's ``match`` pattern (and its ``words``, two or more:
    "default" alone is in too many messages) is about this message: they share a long stretch
    of text (the pattern often holds a value where the template has a placeholder)."""
    # Nearly every word of it (a value the test expects may stand where the template has a
    # placeholder), and a long stretch verbatim: "should be a dict" is not "should be a list".
    if sum(w in template for w in words) < 0.8 * len(words):
        return False
    found = difflib.SequenceMatcher(None, literal, template, autojunk=False).find_longest_match()
    return found.size >= min(len(literal), 10)


def _literal_runs(pattern: str) -> list[str]:
    """The plain text of a regex, piece by piece: ``r"Invalid value \\(x\\)"`` gives ``Invalid value (x)``."""
    # Escaped punctuation is literal; keep it, and split at everything else that is special.
    marked = re.sub(r"\\([^A-Za-z0-9])", lambda m: "\x00" + m.group(1), pattern)
    runs, current = [], ""
    i = 0
    while i < len(marked):
        ch = marked[i]
        if ch == "\x00":
            current += marked[i + 1]
            i += 2
            continue
        if _REGEX_SPECIAL.match(marked, i):
            runs.append(current)
            current = ""
            i += 2 if ch == "\\" else 1
            continue
        current += ch
        i += 1
    runs.append(current)
    return [r for r in runs if r.strip()]
