"""Facts around each record, joined across the tree once every file is read.

The enclosing function's signature, parameters and docstring (and what its ``Raises`` section
says of this class, and of the parameters its guards read), the exception class's docstring,
the functions that call it, the public functions a user's code reaches it from, and the tests
that expect it; the guards came with the record's site.  Enrichment writes prose from these
facts only, so each one is kept on the record where a reader can check it.  How a function is
called, which functions are public and what documentation says are the record's language's to
read (:mod:`errdex.languages`).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from errdex import languages
from errdex.languages.ir import ClassDef, FileResult, FunctionInfo, Trigger
from errdex.mine.callers import Calls
from errdex.record import Caller, EntryPoint, Facts, Parameter, Record, TriggerTest

#: Callers and tests kept per record, nearest first.
MAX_CALLERS = 5
MAX_TESTS = 5
#: Public entry points kept per record, and how many calls up from the raise they are sought.
MAX_ENTRY_POINTS = 3
MAX_HOPS = 3
#: Re-exports followed from one package to the next (``lightning`` → ``lightning.fabric``).
_MAX_ALIAS_HOPS = 5
#: Bases followed up from a class.
_MAX_ANCESTORS = 12
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


def call_names(records: Iterable[Record], results: Iterable[FileResult] = ()) -> set[str]:
    """The names the raising functions are called by, and those of every function of
    ``results`` that is not public (the way up to a public entry point goes through them):
    what ``scan_calls`` looks for."""
    names = {name for r in records if (name := languages.get(r.language).called_as(r.function)[0])}
    for result in results:
        language = languages.get(result.language)
        for function in result.functions:
            if not language.is_public(function.name, result.module) and (
                name := language.called_as(function.name)[0]
            ):
                names.add(name)
    return names


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
    tree = _Tree(files, spans)
    callers = _Callers(calls, spans, tree)
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
        parameter_docs: dict[str, str] = {}
        is_async, decorators, rebound = False, [], []
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
            passed = {p.name for p in parameters} - language.receivers
            read = (n for g in record.facts.guards for n in g.names if n in passed)
            parameter_docs = language.parameter_docs(function.docstring, read)
            is_async, decorators = function.is_async, list(function.decorators)
            rebound = [name for name, line in function.assigned if line < record.line_number]
        declared = tree.classes.get(record.qualified_class or "")
        # Built from the miner's own values: model_construct skips re-validating them.
        facts = Facts.model_construct(
            signature=signature,
            parameters=parameters,
            guards=record.facts.guards,
            docstring=summary,
            raises_doc=raises_doc,
            callers=callers.of(record, language),
            tests=tests.of(record, language),
            entry_points=callers.entry_points(record, language),
            class_doc=language.summary(declared[2].docstring) if declared is not None else None,
            parameter_docs=parameter_docs,
            is_async=is_async,
            decorators=decorators,
            rebound=rebound,
        )
        out.append(record.model_copy(update={"facts": facts}))
    return out


class _Tree:
    """The tree's modules and classes: which functions are public, and how a user's code names
    them.  A package (its ``__init__``) that imports a name re-exports it, under the package's
    shorter name; a public class that inherits a method makes the method public on it."""

    def __init__(self, files: dict[str, FileResult], spans: dict[str, _Spans]) -> None:
        self.modules = {path: r.module for path, r in files.items()}
        self.by_module = {r.module: r for r in files.values() if r.module}
        packages = {
            r.module: r
            for r in files.values()
            if r.module and r.path.rpartition("/")[2] == languages.get(r.language).package_file
        }
        #: Each class of the tree by its qualified name: its module and its name there.
        self.classes: dict[str, tuple[str, str, ClassDef]] = {}
        for result in files.values():
            for decl in result.classes:
                if result.module and decl.qualified.startswith(result.module + "."):
                    self.classes[decl.qualified] = (
                        result.module,
                        decl.qualified[len(result.module) + 1 :],
                        decl,
                    )
        #: The methods each class defines.
        self.methods: dict[str, set[str]] = defaultdict(set)
        for path, result in files.items():
            if result.module:
                for function in spans[path].functions:
                    owner, _, name = function.name.rpartition(".")
                    if owner and "<locals>" not in owner:
                        self.methods[f"{result.module}.{owner}"].add(name)
        self._ancestors: dict[str, list[str]] = {}
        self.subclasses: dict[str, list[str]] = defaultdict(list)
        for qualified in self.classes:
            for ancestor in self.ancestors(qualified)[1:]:
                self.subclasses[ancestor].append(qualified)
        #: What each defined name is also imported as, by packages whose names are public.
        self.aliases: dict[str, str] = {}
        for module, result in packages.items():
            language = languages.get(result.language)
            for local, target in result.imports.items():
                if local == target or not language.is_public(local, module):
                    continue
                defined = self._followed(target, packages)
                if defined.rpartition(".")[0] not in self.by_module:
                    continue  # not the tree's own: a standard or third-party module
                alias = f"{module}.{local}"
                known = self.aliases.get(defined)
                if known is None or (alias.count("."), alias) < (known.count("."), known):
                    self.aliases[defined] = alias

    def _followed(self, target: str, modules: dict[str, FileResult]) -> str:
        """Where an imported name comes from, through the ``modules`` that import it in turn."""
        for _ in range(_MAX_ALIAS_HOPS):
            if target in self.classes:
                break
            module, _, name = target.rpartition(".")
            result = modules.get(module)
            further = result.imports.get(name) if result is not None else None
            if further is None or further == target:
                break
            target = further
        return target

    def class_of(self, function: str, path: str) -> str | None:
        """The class of the tree a method belongs to; None for a module function."""
        owner = function.rpartition(".")[0]
        module = self.modules.get(path)
        if not owner or not module or "<locals>" in owner:
            return None
        qualified = f"{module}.{owner}"
        return qualified if qualified in self.classes else None

    def ancestors(self, qualified: str) -> list[str]:
        """The class, then its bases in the tree, nearest first."""
        found = self._ancestors.get(qualified)
        if found is not None:
            return found
        found, pending = [], [qualified]
        while pending and len(found) < _MAX_ANCESTORS:
            name = self._followed(pending.pop(0), self.by_module)
            if name in self.classes and name not in found:
                found.append(name)
                pending.extend(self.classes[name][2].bases)
        self._ancestors[qualified] = found
        return found

    def related(self, one: str, other: str) -> bool:
        """Whether an instance of one class can be an instance of the other."""
        return other in self.ancestors(one) or one in self.ancestors(other)

    def overrides(self, cls: str, base: str, method: str) -> bool:
        """Whether ``cls`` (a subclass of ``base``), or a class between them, defines ``method``."""
        return any(
            method in self.methods[c] for c in self.ancestors(cls) if c != base and base in self.ancestors(c)
        )

    def public_names(
        self, function: str, path: str, language: languages.Language, on: str | None = None
    ) -> list[str]:
        """How a user's code names a call of ``function`` (defined in ``path``) on an instance of
        the class ``on`` (by default its own): by its public name, else by those of the public
        subclasses that inherit it.  Empty where none is public."""
        target = on or self.class_of(function, path)
        if target is None:
            name = self._named(self.modules.get(path), function, language)
            return [name] if name else []
        method = function.rpartition(".")[2]
        found = []
        for cls in [target, *sorted(self.subclasses[target])]:
            if cls != target and self.overrides(cls, target, method):
                continue
            module, qualified, _ = self.classes[cls]
            name = self._named(module, f"{qualified}.{method}", language)
            if name is not None:
                if cls == target:
                    return [name]
                found.append(name)
        return found[:MAX_ENTRY_POINTS]

    def _named(self, module: str | None, function: str, language: languages.Language) -> str | None:
        """A function of ``module`` as a user's code names it where it is public, else None."""
        head, dot, rest = function.partition(".")
        alias = self.aliases.get(f"{module}.{head}") if module else None
        if alias is not None and language.is_public(
            f"{alias.rpartition('.')[2]}{dot}{rest}", alias.rpartition(".")[0]
        ):
            return language.named_as(f"{alias}{dot}{rest}")
        if not language.is_public(function, module):
            return None
        return language.named_as(f"{module}.{function}" if module else function)


class _Callers:
    def __init__(self, calls: Calls, spans: dict[str, _Spans], tree: _Tree) -> None:
        self.calls = calls
        self.spans = spans
        self.tree = tree
        self._found: dict[tuple[str, str], list[tuple[Caller, bool]]] = {}
        self._entries: dict[tuple[str, str], list[EntryPoint]] = {}

    def of(self, record: Record, language: languages.Language) -> list[Caller]:
        if not record.function:
            return []
        return [c for c, _ in self.calling(record.function, record.file_path, language)[:MAX_CALLERS]]

    def calling(
        self, function: str, file_path: str, language: languages.Language
    ) -> list[tuple[Caller, bool]]:
        """Every function that calls ``function`` (of ``file_path``), nearest first, and whether
        it calls it on its own object (``self.name(...)``)."""
        key = (function, file_path)
        if key in self._found:
            return self._found[key]
        name, receivers = language.called_as(function)
        sites = self.calls.get(name or "", [])
        if not sites or len(sites) > MAX_CALL_SITES:
            self._found[key] = []
            return []
        folder = file_path.rpartition("/")[0]
        cls = self.tree.class_of(function, file_path)
        found = []
        for path, line, receiver in sites:
            if receivers is not None and receiver not in receivers:
                continue
            spans = self.spans.get(path)
            caller = spans.at(line) if spans is not None else None
            if caller is None or caller == function:
                continue  # module-level code, or the function's own text (recursion, docstring)
            own = receiver in language.receivers
            if own and not self._dispatches(function, cls, caller, path):
                continue
            found.append((Caller.model_construct(function=caller, file_path=path, line_number=line), own))
        # Nearest first: the same file, then the same package folder, then the rest.
        found.sort(
            key=lambda c: (
                c[0].file_path != file_path,
                c[0].file_path.rpartition("/")[0] != folder,
                c[0].file_path,
            )
        )
        unique = list({(c.function, c.file_path): (c, own) for c, own in found}.values())
        self._found[key] = unique
        return unique

    def _dispatches(self, function: str, cls: str | None, caller: str, path: str) -> bool:
        """Whether ``self.name(...)`` in ``caller`` can run ``function``: a module function is
        never called on an object; a method is, from its own class, a base class (on an
        instance of this one) or a subclass that does not define its own."""
        if cls is None:
            return "." in function  # a method of a class unknown here, not a module function
        other = self.tree.class_of(caller, path)
        if other is None:
            return True  # ``self`` in a function of no class of the tree: nothing to tell
        if cls in self.tree.ancestors(other):
            return not self.tree.overrides(other, cls, function.rpartition(".")[2]) or other == cls
        return other in self.tree.ancestors(cls)

    def entry_points(self, record: Record, language: languages.Language) -> list[EntryPoint]:
        """The nearest public functions on the way to the raise: the raising function itself
        when it is public (or inherited by public classes), else callers, then their callers,
        up to ``MAX_HOPS`` calls away, each through functions that are not public."""
        function, path = record.function, record.file_path
        if not function:
            return []
        key = (function, path)
        if key not in self._entries:
            names = self.tree.public_names(function, path, language)
            if names:
                line = record.line_number
                self._entries[key] = [_entry(function, path, line, name, ()) for name in names]
            else:
                self._entries[key] = self._walk(function, path, language)
        found = self._entries[key]
        if found and found[0].function == function:  # the raise itself: at this record's line
            return [e.model_copy(update={"line_number": record.line_number}) for e in found]
        return found

    def _walk(self, function: str, path: str, language: languages.Language) -> list[EntryPoint]:
        # Breadth first.  Each frontier entry is a function that is not public, the chain a
        # caller of it reaches the raise through, and the class the object must be of when the
        # chain runs through calls on ``self`` (a base class's method calling an override).
        frontier: list[tuple[str, str, tuple[str, ...], str | None]] = [
            (function, path, (), self.tree.class_of(function, path))
        ]
        seen = {(function, path)}
        found: list[EntryPoint] = []
        for _ in range(MAX_HOPS):
            below: list[tuple[str, str, tuple[str, ...], str | None]] = []
            for callee, callee_path, via, on in frontier:
                for caller, own in self.calling(callee, callee_path, language):
                    key = (caller.function, caller.file_path)
                    if key in seen:
                        continue
                    cls = self.tree.class_of(caller.function, caller.file_path)
                    if own and on is not None and cls is not None and not self.tree.related(cls, on):
                        continue  # ``self`` there is no instance of the class the chain needs
                    seen.add(key)
                    # Called on its own object from a base class: the object is the subclass's.
                    needs = (
                        on
                        if own and on is not None and cls is not None and cls in self.tree.ancestors(on)
                        else cls
                    )
                    names = self.tree.public_names(caller.function, caller.file_path, language, needs)
                    if not names:
                        below.append((caller.function, caller.file_path, (caller.function, *via), needs))
                    for name in names[: MAX_ENTRY_POINTS - len(found)]:
                        found.append(_entry(caller.function, caller.file_path, caller.line_number, name, via))
            if len(found) >= MAX_ENTRY_POINTS or not below:
                break
            frontier = below
        return found


def _entry(function: str, path: str, line: int, name: str, via: tuple[str, ...]) -> EntryPoint:
    return EntryPoint.model_construct(
        function=function, file_path=path, line_number=line, name=name, via=list(via)
    )


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
