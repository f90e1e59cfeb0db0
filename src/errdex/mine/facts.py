"""Facts around each record, joined across the tree once every file is read.

The enclosing function's signature, parameters and docstring (and what its ``Raises`` section
says of this class), the functions that call it, and the tests that expect it; the guards
came with the record's site.  Enrichment writes prose from these facts only, so each one is
kept on the record where a reader can check it.  How a function is called and what its
documentation says are the record's language's to read (:mod:`errdex.languages`).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from errdex import languages
from errdex.languages.ir import FileResult, FunctionInfo, Trigger
from errdex.mine.callers import Calls
from errdex.record import Caller, Facts, Parameter, Record, TriggerTest

#: Callers and tests kept per record, nearest first.
MAX_CALLERS = 5
MAX_TESTS = 5
#: A name called from more places than this is too common to say who calls *this* function.
MAX_CALL_SITES = 200
_WORDS = re.compile(r"[A-Za-z_]{3,}")
#: Literal runs of a ``match=`` regex: the text between its special characters.
_REGEX_SPECIAL = re.compile(r"\\[AbBdDsSwWZ]|[\\^$.|?*+()\[\]{}]")


class _Spans:
    """Which function each line of a file lies in (the innermost, for nested ones)."""

    def __init__(self, functions: list[FunctionInfo]) -> None:
        self.functions = sorted(functions, key=lambda f: f.line)
        self.starts = [f.line for f in self.functions]
        self.by_name = {f.name: f for f in functions}

    def at(self, line: int) -> str | None:
        """The function whose code holds ``line``; None at module level or in a docstring
        (an example there, ``fabric.backward(loss)``, calls nothing)."""
        i = bisect.bisect_right(self.starts, line) - 1
        while i >= 0:
            f = self.functions[i]
            if f.line <= line <= f.end_line:
                doc = f.docstring
                in_doc = doc is not None and f.body_line <= line <= f.body_line + doc.count("\n")
                return None if in_doc else f.name
            i -= 1
        return None


def call_names(records: Iterable[Record]) -> set[str]:
    """The names the raising functions are called by: what ``scan_calls`` looks for."""
    return {name for r in records if (name := languages.get(r.language).called_as(r.function)[0])}


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
    # One function often raises many records: its signature, summary and parameters are read once.
    described: dict[tuple[str, str], tuple[str | None, str | None, list[Parameter]]] = {}
    out = []
    for record in records:
        language = languages.get(record.language)
        result = files.get(record.file_path)
        function = spans[record.file_path].by_name.get(record.function or "") if result else None
        raises_doc = signature = summary = None
        parameters: list[Parameter] = []
        if result is not None and function is not None:
            key = (record.file_path, function.name)
            if key not in described:
                described[key] = (
                    language.signature(result.lines, function),
                    language.summary(function.docstring),
                    list(function.parameters),
                )
            signature, summary, parameters = described[key]
            raises_doc = language.raises(function.docstring, record.error_class)
        # Built from the miner's own values: model_construct skips re-validating them.
        facts = Facts.model_construct(
            signature=signature,
            parameters=parameters,
            guards=record.facts.guards,
            docstring=summary,
            raises_doc=raises_doc,
            callers=callers.of(record, language),
            tests=tests.of(record, language),
        )
        out.append(record.model_copy(update={"facts": facts}))
    return out


class _Callers:
    def __init__(self, calls: Calls, spans: dict[str, _Spans]) -> None:
        self.calls = calls
        self.spans = spans

    def of(self, record: Record, language: languages.Language) -> list[Caller]:
        name, receivers = language.called_as(record.function)
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

    def of(self, record: Record, language: languages.Language) -> list[TriggerTest]:
        if not record.error_class:
            return []
        name = record.error_class.rpartition(".")[2]
        function = language.called_as(record.function)[0]  # a constructor is called by its class name
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
