"""Facts around each record, joined across the tree once every file is read.

The enclosing function's signature, parameters and docstring (and what its ``Raises`` section
says of this class, and of the parameters its guards read), the exception class's docstring,
the functions that call it, the public functions a user's code reaches it from, and the tests
that expect it; the guards came with the record's site.  Enrichment writes prose from these
facts only, so each one is kept on the record where a reader can check it.  How a function is
called, which functions are public and what documentation says are the record's language's to
read (:mod:`errdex.languages`).

Who reaches a raise is told by evidence, never by a name alone.  A call the scan finds counts
where the calling file's own names resolve it to the raising function: a bare ``name(`` in the
defining module or where the file imports it (through the packages that re-export it), and
``x.name(`` where ``x`` is that module or the class; a call on an object counts only in a file
that knows the class (its module, an import of it, its module or a subclass).  A caller that
cannot reach the raise is dropped where its text says so for certain: it passes a value (or
leaves a default) under which a guard fails, or it stands under a test the raise's contradicts.
A test is cited when its ``match`` fits this message and no other, or when it calls the
raising function (resolved through its imports) and that function has one raise of the class.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any, NamedTuple

from errdex import languages
from errdex.languages.base import CallReader
from errdex.languages.ir import DEFAULT, ClassDef, FileResult, FunctionInfo, Trigger
from errdex.mine.callers import SUPER, UNNAMED, Calls, CallSite, in_long_string
from errdex.patterns import split_pattern
from errdex.record import Caller, EntryPoint, Facts, Guard, Parameter, Record, TriggerTest

#: Callers and tests kept per record, nearest first.
MAX_CALLERS = 5
MAX_TESTS = 5
#: Public entry points kept per record, and how many calls up from the raise they are sought.
MAX_ENTRY_POINTS = 3
MAX_HOPS = 4
#: Re-exports followed from one package to the next (``lightning`` → ``lightning.fabric``).
_MAX_ALIAS_HOPS = 5
#: Bases followed up from a class.
_MAX_ANCESTORS = 12
#: A name called from more places than this is too common to say who calls *this* function.
MAX_CALL_SITES = 200
_WORDS = re.compile(r"[A-Za-z_]{3,}")
#: Literal runs of a ``match=`` regex: the text between its special characters.
_REGEX_SPECIAL = re.compile(r"\\[AbBdDsSwWZ]|[\\^$.|?*+()\[\]{}]")
#: A character class of a regex (``[Cc]``): no literal text of it is certain.
_CHAR_CLASS = re.compile(r"(?<!\\)\[(?:\\.|[^\]\\])*\]")
#: The guards whose condition a caller's arguments or enclosing tests can make fail.
_EVALUATED = frozenset({"if", "elif", "else", "while", "assert", "early-exit"})
#: Decorators that leave a function's arguments as its callers pass them.
_PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "property", "override", "typing.override", "typing_extensions.override",
     "abstractmethod", "abc.abstractmethod", "abstractproperty", "functools.cache", "cache", "lru_cache",
     "functools.lru_cache", "functools.lru_cache()", "lru_cache()"}
)  # fmt: skip


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
    # A function imported under another name (``import parse as _parse``) is called by that one.
    for original, local in imported_as(results).items():
        if original in names:
            names |= local
    # A module's default export is called as ``default`` where compiled code calls it
    # (``(0, _parse.default)(s)``).
    if any(DEFAULT in result.imports for result in results):
        names.add(DEFAULT)
    return names


def imported_as(results: Iterable[FileResult]) -> dict[str, set[str]]:
    """The other names each imported name is bound to somewhere in ``results`` (``_bound`` for
    ``from .x import bound as _bound``)."""
    found: dict[str, set[str]] = defaultdict(set)
    for result in results:
        for local, imported in result.imports.items():
            original = imported.rpartition(".")[2]
            if local != original and local.isidentifier() and original.isidentifier():
                found[original].add(local)
    return found


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
    tests = _Tests(triggers, prefix, tree, records)
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
        is_async, decorators, rebound, override = False, [], [], None
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
            override = language.override_note(function.docstring)
            rebound = [name for name, line in function.assigned if line < record.line_number]
        declared = tree.classes.get(record.qualified_class or "")
        reach = _Reach(record, function, tree, language)
        entry_points = callers.entry_points(record, language, reach)
        # Validated in pydantic's core, which costs less than model_construct's Python loop.
        facts = Facts(
            signature=signature,
            parameters=parameters,
            guards=record.facts.guards,
            delivery=record.facts.delivery,
            docstring=summary,
            raises_doc=raises_doc,
            callers=callers.of(record, language, reach),
            tests=tests.of(record, language, reach, entry_points),
            entry_points=entry_points,
            class_doc=language.summary(declared[2].docstring) if declared is not None else None,
            parameter_docs=parameter_docs,
            is_async=is_async,
            decorators=decorators,
            rebound=rebound,
            override_note=override,
        )
        out.append(record.model_copy(update={"facts": facts}))
    return out


class _Tree:
    """The tree's modules and classes: which functions are public, how a user's code names
    them, and what a name in one of its files stands for.  A package (its ``__init__``) that
    imports a name re-exports it, under the package's shorter name; a public class that
    inherits a method makes the method public on it."""

    def __init__(self, files: dict[str, FileResult], spans: dict[str, _Spans]) -> None:
        self.files = files
        self.spans = spans
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
        #: The functions and classes each module defines at its top level.
        self.defined: dict[str, set[str]] = defaultdict(set)
        for path, result in files.items():
            if result.module:
                self.defined[result.module].update(n for n in spans[path].by_name if "." not in n)
        for module, name, _ in self.classes.values():
            self.defined[module].add(name)
        self._provides: dict[tuple[str, str], str | None] = {}
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
                if local == target or local.startswith("*") or not language.is_public(local, module):
                    continue
                defined = self._followed(target, packages)
                if defined.rpartition(".")[0] not in self.by_module:
                    continue  # not the tree's own: a standard or third-party module
                alias = f"{module}.{local}"
                known = self.aliases.get(defined)
                if known is None or (alias.count("."), alias) < (known.count("."), known):
                    self.aliases[defined] = alias
        self._resolved: dict[str, str] = {}
        self._knows: dict[tuple[str, str], bool] = {}

    def _followed(self, target: str, modules: dict[str, FileResult]) -> str:
        """Where an imported name comes from, through the ``modules`` that import it in turn."""
        for _ in range(_MAX_ALIAS_HOPS):
            if target in self.classes:
                break
            module, _, name = target.rpartition(".")
            result = modules.get(module)
            if result is None or name in self.defined.get(module, ()):
                break
            further = result.imports.get(name) or self._starred(module, name, _MAX_ALIAS_HOPS)
            if further is None or further == target:
                break
            target = further
        return target

    def _starred(self, module: str, name: str, depth: int) -> str | None:
        """``module.name`` where ``module`` has it only through ``from other import *``: the
        ``other.name`` it comes from (a public name, bound there or star-imported in turn)."""
        if name.startswith("_") or depth <= 0:
            return None
        key = (module, name)
        if key in self._provides:
            return self._provides[key]
        self._provides[key] = None  # a cycle of star imports provides nothing
        found = None
        modules = self.by_module
        result = modules.get(module)
        for local, star in result.imports.items() if result is not None else ():
            if not local.startswith("*") or star not in modules:
                continue
            bound = name in self.defined.get(star, ()) or name in modules[star].imports
            if bound or self._starred(star, name, depth - 1) is not None:
                found = f"{star}.{name}"
                break
        self._provides[key] = found
        return found

    def resolve(self, dotted: str) -> str:
        """What a dotted name (``lightning.fabric.Fabric.backward``) reaches in the tree, through
        the modules that import its parts in turn: ``lightning.fabric.fabric.Fabric.backward``;
        as given where the tree does not define its head."""
        found = self._resolved.get(dotted)
        if found is not None:
            return found
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            current = ".".join(parts[:i])
            if current in self.by_module:
                break
        else:
            self._resolved[dotted] = dotted
            return dotted
        for attr in parts[i:]:
            inner = f"{current}.{attr}"
            if current in self.by_module and inner not in self.by_module:
                inner = self._followed(inner, self.by_module)
            current = inner
        self._resolved[dotted] = current
        return current

    def canonical(self, qualified: str) -> str:
        """The function a qualified name runs: a class's constructor for the class, a method
        where the class (or the nearest base that defines it) has it."""
        if qualified in self.classes:
            return self.member(qualified, "__init__") or f"{qualified}.__init__"
        owner, _, name = qualified.rpartition(".")
        if owner in self.classes:
            return self.member(owner, name) or qualified
        return qualified

    def member(self, cls: str, name: str) -> str | None:
        """``name`` of the nearest of ``cls`` and its bases that defines it."""
        return next((f"{c}.{name}" for c in self.ancestors(cls) if name in self.methods[c]), None)

    def bound(self, path: str, name: str) -> list[str]:
        """What a name of the file ``path`` may stand for, resolved: a function or class it
        defines, and what it imports (both where it does both: a fallback ``def f`` beside
        ``try: from ._impl import f``, or an import in one function of a name the module
        defines); empty where it binds neither."""
        result = self.files.get(path)
        if result is None:
            return []
        found = []
        if result.module:
            qualified = f"{result.module}.{name}"
            if qualified in self.classes or name in self.spans[path].by_name:
                found.append(qualified)
        target = result.imports.get(name)
        if target is not None:
            found.append(self.resolve(target))
        return found

    def meaning(self, path: str, name: str) -> str | None:
        """What a name a guard reads stands for in ``path``: its import, else the module's own."""
        result = self.files.get(path)
        if result is None:
            return None
        target = result.imports.get(name)
        if target is not None:
            return self.resolve(target)
        return f"{result.module}.{name}" if result.module else None

    def knows(self, path: str, cls: str) -> bool:
        """Whether code in ``path`` can hold an instance of ``cls`` by what it names: it is the
        class's module, imports the class (or a subclass), the class's module or a package that
        re-exports it, or defines a subclass."""
        key = (path, cls)
        known = self._knows.get(key)
        if known is not None:
            return known
        module, name, _ = self.classes[cls]
        result = self.files.get(path)
        known = self.modules.get(path) == module
        if not known and result is not None:
            for target in result.imports.values():
                found = self.resolve(target)
                if found in self.classes:
                    known = cls in self.ancestors(found)
                elif found in self.by_module:
                    known = self.resolve(f"{found}.{name}") == cls
                if known:
                    break
        if not known and result is not None:
            known = any(self.classes[c][0] == result.module for c in self.subclasses[cls])
        self._knows[key] = known
        return known

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


class _Found(NamedTuple):
    """A call of a function, resolved to it."""

    caller: Caller
    #: Called on its own object (``self.name(...)``, ``super().name(...)``).
    own: bool
    site: CallSite
    #: Whether the call's receiver binds the function's first parameter (``self``, ``cls``).
    implicit: bool


class _Callers:
    def __init__(self, calls: Calls, spans: dict[str, _Spans], tree: _Tree) -> None:
        self.calls = calls
        self.spans = spans
        self.tree = tree
        self._found: dict[tuple[str, str], list[_Found]] = {}
        #: The same, each call of the function (``_found`` keeps one per calling function).
        self._every: dict[tuple[str, str], list[_Found]] = {}
        #: Each walk's entry points, with the call a public caller makes of the raising function
        #: itself (None for one reached through others): the walk is the function's, what the
        #: call passes on is read for each record's guards.
        self._entries: dict[
            tuple[str, str, frozenset[tuple[str, str]]], list[tuple[EntryPoint, _Found | None]]
        ] = {}
        self._lines: dict[str, list[str]] = {}
        #: What a bare name of a file runs (``_Tree.bound``, made ``canonical``), by file and
        #: name: the same for every function of that name whose callers are sought.
        self._runs: dict[tuple[str, str], list[str]] = {}
        #: The other names a function's name is imported as somewhere in the tree (``_bound``
        #: for ``from .x import bound as _bound``): each call by one is resolved like any other.
        self.imported_as = imported_as(tree.files.values())

    def of(self, record: Record, language: languages.Language, reach: _Reach) -> list[Caller]:
        if not record.function:
            return []
        found = [c for c in self.calling(record.function, record.file_path, language) if reach.can(c, self)]
        if reach.read:
            # Where the raise is the arguments' doing, a caller that passes its own parameters
            # on unchanged can reach it (its user picks them); one that computes them may never
            # (``from_tuples`` builds equal-length arrays).  Those cited, where there are any.
            through = [t for c in found if (t := self._through(c, reach)) is not None]
            if through:
                return [t.caller.model_copy(update={"forwards": True}) for t in through][:MAX_CALLERS]
        return [c.caller for c in found][:MAX_CALLERS]

    def _through(self, call: _Found, reach: _Reach) -> _Found | None:
        """The first call the function of ``call`` makes of the raising function that reaches
        it at its user's choice or for certain: passing every parameter the raise's guards read
        from its own unchanged parameters, or literals under which they hold (``_deep(None)``
        where ``x is None`` raises)."""
        for c in self._calls_by(call, reach):
            passed = self._forwarded(c, reach)
            if passed is not None and reach.read <= passed.keys():
                return c
            if reach.certain(c, self):
                return c
        return None

    def _calls_by(self, call: _Found, reach: _Reach) -> list[_Found]:
        """Every call of the raising function the function of ``call`` makes, first first."""
        caller = call.caller
        every = self._every.get((reach.function, reach.path), [call])
        return sorted(
            (
                c
                for c in every
                if c.caller.function == caller.function and c.caller.file_path == caller.file_path
            ),
            key=lambda c: c.site.offset,
        )

    def _forwarded(self, call: _Found, reach: _Reach) -> dict[str, str] | None:
        """What one call passes the raising function of its caller's unchanged parameters, by
        parameter, of those the raise's guards read (``_Reach.read``); None where its text or its
        caller's cannot be read."""
        reader, site = reach.reader, call.site
        spans = self.spans.get(site.path)
        defined = spans.by_name.get(call.caller.function) if spans is not None else None
        if reader is None or defined is None:
            return None
        parsed = reader.call_at(self.calls.texts.get(site.path, ""), site.offset)
        if parsed is None:
            return None
        implicit = 1 if call.implicit and not reach.static else 0
        # Only what the guards read: the caller's text is parsed again for those alone.
        names = reader.forwarded(parsed, reach.parameters, implicit)
        names = {param: name for param, name in names.items() if param in reach.read}
        if not names:
            return {}
        own = reader.unchanged_parameters(self.lines(site.path), defined.line, defined.end_line, site.line)
        return {param: name for param, name in names.items() if name in own}

    def _in_string(self, site: CallSite, caller: str) -> bool:
        """Whether a call found stands in a string that spans lines (a template of code)."""
        spans = self.spans.get(site.path)
        defined = spans.by_name.get(caller) if spans is not None else None
        if defined is None:
            return False
        text = self.calls.texts.get(site.path, "")
        # From the line after the docstring (which ``_Spans.at`` leaves out), else the ``def``.
        doc = defined.docstring
        first = defined.body_line + doc.count("\n") + 1 if doc is not None else defined.line
        if first > site.line:
            return False
        begin = site.offset
        for _ in range(site.line - first + 1):  # back to the start of that line
            begin = text.rfind("\n", 0, begin)
            if begin < 0:
                break
        return in_long_string(text, begin + 1, site.offset, site.path)

    def lines(self, path: str) -> list[str]:
        """The lines of a file a call was found in."""
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = self.calls.texts.get(path, "").split("\n")
        return lines

    def calling(self, function: str, file_path: str, language: languages.Language) -> list[_Found]:
        """Every function that calls ``function`` (of ``file_path``), nearest first: each call
        the scan found whose calling file's names resolve it to this function."""
        key = (function, file_path)
        if key in self._found:
            return self._found[key]
        name, receivers = language.called_as(function)
        sites = [(name or "", site) for site in self.calls.of(name or "")]
        module = self.tree.modules.get(file_path)
        if name and "." not in function:  # a module function is also called by the names it is imported as
            aliases = self.imported_as.get(name, ())
            sites += [(alias, site) for alias in aliases for site in self.calls.of(alias)]
            result = self.tree.files.get(file_path)
            if module and result is not None and result.imports.get(DEFAULT) == f"{module}.{function}":
                sites += [(name, site) for site in self.calls.of(DEFAULT) if site.receiver]
        if not sites or len(sites) > MAX_CALL_SITES or not name or not module:
            self._found[key] = []
            return []
        target = f"{module}.{function}"
        cls = self.tree.class_of(function, file_path)
        folder = file_path.rpartition("/")[0]
        found = []
        for called, site in sites:
            if called != name and site.receiver:
                continue  # an alias is a bare name of the file that imports it
            spans = self.spans.get(site.path)
            caller = spans.at(site.line) if spans is not None else None
            if caller is None or (caller == function and site.path == file_path):
                continue  # module-level code, or the function's own text (recursion, docstring)
            how = self._resolves(site, caller, called, target, cls, receivers, language)
            if how is None or self._in_string(site, caller):
                continue
            own, implicit = how
            found.append(
                _Found(Caller(function=caller, file_path=site.path, line_number=site.line),
                       own, site, implicit)
            )  # fmt: skip
        # Nearest first: the same file, then the same package folder, then the rest.
        found.sort(
            key=lambda c: (
                c.caller.file_path != file_path,
                c.caller.file_path.rpartition("/")[0] != folder,
                c.caller.file_path,
            )
        )
        first: dict[tuple[str, str], _Found] = {}
        for c in found:
            first.setdefault((c.caller.function, c.caller.file_path), c)
        unique = list(first.values())
        self._found[key] = unique
        self._every[key] = found
        return unique

    def _resolves(
        self,
        site: CallSite,
        caller: str,
        name: str,
        target: str,
        cls: str | None,
        receivers: set[str] | None,
        language: languages.Language,
    ) -> tuple[bool, bool] | None:
        """Whether a call runs ``target`` (a module's ``function``, of class ``cls`` if a
        method), by what its file's names say, as (on its own object, receiver binds the first
        parameter); None where it does not or the file cannot tell."""
        receiver, path = site.receiver, site.path
        tree = self.tree
        constructor = target.endswith(".__init__")
        method = cls is not None and not constructor
        if receiver == "":  # a bare ``name(``: what the name is bound to in that file
            runs = self._runs.get((path, name))
            if runs is None:
                runs = self._runs[(path, name)] = [tree.canonical(b) for b in tree.bound(path, name)]
            if not runs or any(run != target for run in runs):
                return None  # another function, or one of two the name may stand for
            return False, constructor
        if receiver == UNNAMED or (constructor and receiver in language.receivers):
            return None
        if receiver in language.receivers or receiver == SUPER:
            if not method or not self._dispatches(target, cls, caller, path, receiver == SUPER):
                return None
            return True, True
        head, _, rest = receiver.partition(".")
        if head not in language.receivers:
            owners = [tree.resolve(f"{b}.{rest}") if rest else b for b in tree.bound(path, head)]
            if owners:  # a module or class the file names: resolved, not guessed
                if any(tree.canonical(f"{o}.{name}") != target for o in owners):
                    return None
                # ``module.function(a)`` passes ``a`` first; ``Class.method(obj, a)`` too, but
                # a method on an object the module holds binds the object first.
                return False, constructor or (method and owners[0] not in tree.classes)
        # A call on an object: a method, on a receiver named for its class, in a file that knows it.
        if not method or cls is None:
            return None
        if receivers is not None and receiver.rpartition(".")[2] not in receivers:
            return None
        if not tree.knows(path, cls):
            return None
        if head in language.receivers and rest and "." not in rest:
            # ``self.x.name(``: where ``x`` is a method or property of the caller's own class, the
            # object is whatever it returns, which no name here tells.
            own = tree.class_of(caller.partition(".<locals>.")[0], path)
            if own is not None and any(rest in tree.methods[c] for c in tree.ancestors(own)):
                return None
        return False, True

    def _dispatches(self, target: str, cls: str | None, caller: str, path: str, parent: bool) -> bool:
        """Whether ``self.name(...)`` in ``caller`` can run ``target``: a module function is
        never called on an object; a method is, from its own class, a base class (on an
        instance of this one) or a subclass that does not define its own.  ``super().name(...)``
        (``parent``) runs the nearest base's."""
        # In a function nested in a method, ``self`` is the method's.
        other = self.tree.class_of(caller.partition(".<locals>.")[0], path)
        method = target.rpartition(".")[2]
        if cls is None or other is None:
            return False  # ``self`` in a function of no class of the tree: no evidence of its class
        if parent:
            return (
                next((c for c in self.tree.ancestors(other)[1:] if method in self.tree.methods[c]), None)
                == cls
            )
        if cls in self.tree.ancestors(other):
            return not self.tree.overrides(other, cls, method) or other == cls
        return other in self.tree.ancestors(cls)

    def entry_points(self, record: Record, language: languages.Language, reach: _Reach) -> list[EntryPoint]:
        """The nearest public functions on the way to the raise: the raising function itself
        when it is public (or inherited by public classes), else callers, then their callers,
        up to ``MAX_HOPS`` calls away, each through functions that are not public; the first
        call up is one that can reach the raise."""
        function, path = record.function, record.file_path
        if not function:
            return []
        names = self.tree.public_names(function, path, language)
        if names:  # the raise itself: at this record's line
            line = record.line_number
            return [_entry(function, path, line, name, ()) for name in names]
        first = self.calling(function, path, language)
        blocked = frozenset((c.caller.function, c.caller.file_path) for c in first if not reach.can(c, self))
        key = (function, path, blocked)
        if key not in self._entries:
            self._entries[key] = self._walk(function, path, language, blocked)
        return [
            entry.model_copy(update={"passes": passes})
            if call is not None and (passes := self._passes(call, reach))
            else entry
            for entry, call in self._entries[key]
        ]

    def _walk(
        self,
        function: str,
        path: str,
        language: languages.Language,
        blocked: frozenset[tuple[str, str]],
    ) -> list[tuple[EntryPoint, _Found | None]]:
        # Breadth first.  Each frontier entry is a function that is not public, the chain a
        # caller of it reaches the raise through, and the class the object must be of when the
        # chain runs through calls on ``self`` (a base class's method calling an override).
        frontier: list[tuple[str, str, tuple[str, ...], str | None]] = [
            (function, path, (), self.tree.class_of(function, path))
        ]
        seen = {(function, path)} | blocked
        found: list[tuple[EntryPoint, _Found | None]] = []
        for _ in range(MAX_HOPS):
            below: list[tuple[str, str, tuple[str, ...], str | None]] = []
            for callee, callee_path, via, on in frontier:
                for call in self.calling(callee, callee_path, language):
                    caller, own = call.caller, call.own
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
                        entry = _entry(caller.function, caller.file_path, caller.line_number, name, via)
                        found.append((entry, None if via else call))
            if len(found) >= MAX_ENTRY_POINTS or not below:
                break
            frontier = below
        return found

    def _passes(self, call: _Found, reach: _Reach) -> dict[str, str]:
        """What a public caller passes the raising function unchanged, parameter by parameter
        (``EntryPoint.passes``): arguments that are the caller's own parameters, which no
        statement of it above the call binds.  Read only for a raise a guard on its arguments
        decides, so that prose can say that guard in the caller's terms."""
        if not reach.by_arguments:
            return {}
        # Every call the caller makes of it (``b64decode`` decodes ``s``, then ``altchars``):
        # what all of them pass alike.
        common: dict[str, str] | None = None
        for c in self._calls_by(call, reach):
            passed = self._forwarded(c, reach)
            if not passed:
                return {}
            common = passed if common is None else {p: n for p, n in common.items() if passed.get(p) == n}
        return common or {}


def _entry(function: str, path: str, line: int, name: str, via: tuple[str, ...]) -> EntryPoint:
    return EntryPoint(function=function, file_path=path, line_number=line, name=name, via=list(via))


class _Reach:
    """Whether a call can reach one record's raise, where the call's text says so for certain:
    the values its arguments (or the defaults of those it leaves out) give the parameters the
    raise's guards read, and the tests that hold where it stands.  Unknown is reachable."""

    def __init__(
        self, record: Record, function: FunctionInfo | None, tree: _Tree, language: languages.Language
    ) -> None:
        self.reader: CallReader | None = language.call_reader
        self.tree = tree
        self.function = record.function or ""
        self.path = record.file_path
        self.parameters: list[Parameter] = list(function.parameters) if function is not None else []
        self.static = function is not None and "staticmethod" in function.decorators
        guards = [g for g in record.facts.guards if g.kind in _EVALUATED and g.code]
        # A parameter bound again only below the raise still holds what the caller passed there,
        # unless a loop around the raise runs that binding before the test comes round again.
        looped = any(g.kind in ("loop", "while") for g in record.facts.guards)
        assigned = (
            {name for name, line in function.assigned if looped or line < record.line_number}
            if function is not None
            else set()
        )
        free = {p.name for p in self.parameters} - assigned - language.receivers
        plain = function is not None and all(d in _PLAIN_DECORATORS for d in function.decorators)
        #: Guards a caller's arguments decide: they read parameters the function never rebinds.
        self.by_arguments = [c for g in guards if (c := g.code) and plain and set(g.names) & free]
        #: The parameters the guards read that the function never rebinds, decorated or not:
        #: what a caller must pass on for its user to decide the raise.
        self.read = frozenset(n for g in guards if g.code for n in g.names if n in free)
        #: Guards on module-level constants (``_RICH_AVAILABLE``), which a caller's tests decide.
        self.by_tests = [
            g for g in guards if g.names and all(_constant(n) and n not in free for n in g.names)
        ]
        if self.reader is None:
            self.by_arguments, self.by_tests = [], []
        self._known: dict[tuple[str, int], bool] = {}

    def can(self, call: _Found, callers: _Callers) -> bool:
        """Whether ``call`` may reach the raise."""
        if not self.by_arguments and not self.by_tests:
            return True
        key = (call.site.path, call.site.offset)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = self._can(call, callers)
        return known

    def _can(self, call: _Found, callers: _Callers) -> bool:
        reader = self.reader
        assert reader is not None
        site = call.site
        text = callers.calls.texts.get(site.path, "")
        if self.by_arguments:
            parsed = reader.call_at(text, site.offset)
            if parsed is not None and not self.passes(parsed, call.implicit and not self.static):
                return False
        if self.by_tests:
            spans = callers.spans.get(site.path)
            defined = spans.by_name.get(call.caller.function) if spans is not None else None
            column = site.offset - text.rfind("\n", 0, site.offset) - 1
            first = defined.line if defined is not None else site.line
            tests = reader.tests_at(callers.lines(site.path), site.line, column, first)
            for test, must in tests:
                for guard in self.by_tests:
                    if reader.contradicts(test, must, guard.code or "") and self._same(guard, site.path):
                        return False
        return True

    def certain(self, call: _Found, callers: _Callers) -> bool:
        """Whether the arguments of ``call`` make every guard its arguments decide hold."""
        reader = self.reader
        if reader is None or not self.by_arguments:
            return False
        parsed = reader.call_at(callers.calls.texts.get(call.site.path, ""), call.site.offset)
        if parsed is None:
            return False
        values = reader.bound(parsed, self.parameters, 1 if call.implicit and not self.static else 0)
        return all(reader.holds(code, values) is True for code in self.by_arguments)

    def passes(self, parsed: Any, implicit: bool) -> bool:
        """Whether the guards can hold under the arguments of a parsed call (False: certainly not)."""
        reader = self.reader
        if reader is None or not self.by_arguments:
            return True
        values = reader.bound(parsed, self.parameters, 1 if implicit else 0)
        return all(reader.holds(code, values) is not False for code in self.by_arguments)

    def _same(self, guard: Guard, path: str) -> bool:
        """Whether each name the guard reads stands for the same thing in the calling file."""
        meaning = self.tree.meaning
        return all(
            (here := meaning(self.path, name)) is not None and here == meaning(path, name)
            for name in guard.names
        )


def _constant(name: str) -> bool:
    """A module-level constant by the naming convention (``_RICH_AVAILABLE``): set once, on import."""
    core = name.strip("_")
    return bool(core) and core.upper() == core and any(c.isalpha() for c in core)


class _Tests:
    """Tests by what ties them to a record: their ``match`` pattern, when it fits this message
    and no other, or the function they call, resolved through the test file's imports, when it
    has one raise of the class.  A big suite (pandas ships thousands of ``pytest.raises
    (ValueError)``) is looked up, never scanned per record."""

    def __init__(self, triggers: Iterable[Trigger], prefix: str, tree: _Tree, records: list[Record]) -> None:
        self.prefix = prefix
        self.tree = tree
        by_word: dict[str, list[tuple[Trigger, str, list[str]]]] = defaultdict(list)
        #: The calls of each function, by the function they resolve to: (trigger, call as written).
        self.by_target: dict[str, list[tuple[Trigger, str]]] = defaultdict(list)
        #: The same, by trigger: the functions its code calls, each with its first call.
        self.targets: dict[int, dict[str, str]] = {}
        matched = []
        for trigger in triggers:
            targets = self.targets[id(trigger)] = {}
            for called, text in zip(trigger.called, trigger.calls or trigger.called, strict=False):
                targets.setdefault(tree.canonical(tree.resolve(called)), text)
            for target, text in targets.items():
                self.by_target[target].append((trigger, text))
            if trigger.match is not None:
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
        #: How many raises of each class (by its name) each function has.
        self.raises: Counter[tuple[str, str | None, str]] = Counter()
        for record in records:
            for site in record.sites:
                name = (site.error_class or record.error_class or "").rpartition(".")[2]
                self.raises[(site.file_path, site.function, name)] += 1
        #: The match-tied tests each record's message fits, and how many messages each fits.
        self.fitting = {id(r): self._fitting(r) for r in records}
        self.fits = Counter(id(t) for found in self.fitting.values() for t in found)

    def _fitting(self, record: Record) -> list[Trigger]:
        if not record.error_class or not self.by_word:
            return []
        name = record.error_class.rpartition(".")[2]
        text = record.error_message
        segments: list[str] | None = None
        chosen: dict[int, Trigger] = {}
        for word in set(_WORDS.findall(text)):
            for trigger, literal, words in self.by_word.get(word, ()):
                if id(trigger) in chosen or not _same_class(trigger, name):
                    continue
                if not _is_about(literal, words, text):
                    continue
                segments = segments if segments is not None else split_pattern(record.message_pattern)
                if _fits(trigger.match or "", segments):
                    chosen[id(trigger)] = trigger
        return list(chosen.values())

    def of(
        self, record: Record, language: languages.Language, reach: _Reach, entry_points: list[EntryPoint]
    ) -> list[TriggerTest]:
        if not record.error_class or not record.function:
            return []
        name = record.error_class.rpartition(".")[2]
        module = self.tree.modules.get(record.file_path)
        target = f"{module}.{record.function}" if module else None
        # The calls that run the raising function, or a public function on the way to it.
        ways = {target} | {self.tree.canonical(self.tree.resolve(e.name)) for e in entry_points if e.name}
        found: dict[int, TriggerTest] = {}
        for trigger in self.fitting.get(id(record), ()):
            calls = self.targets.get(id(trigger), {})
            call = next((calls[way] for way in ways if way in calls), None)
            if call is None and (self.fits[id(trigger)] > 1 or not _specific(trigger.match or "", record)):
                # The pattern fits other messages too (or is short enough to fit an error from
                # outside the tree: "argument must be a"), and the test calls none of this one's ways.
                continue
            found[id(trigger)] = self._cited(trigger, call or trigger.call)
        single = self.raises[(record.file_path, record.function, name)] == 1
        for trigger, text in self.by_target.get(target or "", ()) if single else ():
            if trigger.match is not None or id(trigger) in found:
                continue  # a test whose pattern does not fit this message expects another one
            if not _same_class(trigger, name):
                continue
            if not self._reaches(text, reach, record):
                continue
            found[id(trigger)] = self._cited(trigger, text)
        tests = list(found.values())
        # Tests that name the message come before tests that only call the function.
        tests.sort(key=lambda t: (t.match is None, t.file_path, t.line_number))
        return tests[:MAX_TESTS]

    def _cited(self, trigger: Trigger, call: str | None) -> TriggerTest:
        return TriggerTest(
            name=trigger.test,
            file_path=self.prefix + trigger.path,
            line_number=trigger.line,
            call=call,
            match=trigger.match,
        )

    def _reaches(self, text: str, reach: _Reach, record: Record) -> bool:
        """Whether a test's call (as written) can reach the raise, by its literal arguments."""
        reader = reach.reader
        open_at = text.find("(")
        if reader is None or open_at < 0 or not reach.by_arguments:
            return True
        parsed = reader.call_at(text, open_at)
        if parsed is None:
            return True
        # Called through its class (``MultiIndex.from_arrays``): a class method's ``cls`` and a
        # constructor's ``self`` are bound; an instance method's ``self`` would be passed.
        function = record.function or ""
        cls = self.tree.class_of(function, record.file_path)
        implicit = cls is not None and (function.endswith(".__init__") or self._classmethod(record))
        return reach.passes(parsed, implicit)

    def _classmethod(self, record: Record) -> bool:
        spans = self.tree.spans.get(record.file_path)
        function = spans.by_name.get(record.function or "") if spans is not None else None
        return function is not None and "classmethod" in function.decorators


def _same_class(trigger: Trigger, name: str) -> bool:
    """Whether a test expects the class named ``name``; one that names none (JavaScript's
    ``toThrow(/text/)``) expects any, and its message decides."""
    return not trigger.error_class or trigger.error_class.rpartition(".")[2] == name


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


#: The literal text a pattern must hold to tie a test to a message on its own (or half the
#: message's, for a short one).
_SPECIFIC = 25


def _specific(pattern: str, record: Record) -> bool:
    """Whether a test's pattern says enough of the message to stand for it alone."""
    longest = max((len(run) for run in _literal_runs(pattern)), default=0)
    literal = sum(len(s) for s in split_pattern(record.message_pattern))
    return longest >= min(_SPECIFIC, literal // 2)


#: Characters of each run of a pattern that must fall on the message's literal text (all of a
#: shorter run): a run a placeholder's value could hold whole says nothing of the message.
_LITERAL = 10


def _fits(pattern: str, segments: list[str]) -> bool:
    """Whether every literal run of a test's ``match`` pattern can stand in a message made of
    ``segments`` (the record's literal text, a placeholder between each two, taking any text),
    with ``_LITERAL`` of its characters on the literal text: the pattern may match this
    message, as ``re.search`` would look for it."""
    tokens: list[str | None] = []
    for i, segment in enumerate(segments):
        if i:
            tokens.append(None)
        tokens.extend(segment)
    fold = pattern.startswith("(?i)")
    masks: dict[str, int] = defaultdict(int)
    wild = 0
    for i, token in enumerate(tokens):
        if token is None:
            wild |= 1 << i
        else:
            masks[token.lower() if fold else token] |= 1 << i
    every = (1 << (len(tokens) + 1)) - 1
    for run in _literal_runs(_CHAR_CLASS.sub("\x01", pattern)):
        # Bit ``p`` of ``layers[k]``: the run so far ends just before token ``p``, with ``k`` of
        # its characters (at most ``_LITERAL``) on literal text; a placeholder takes any text.
        need = min(len(run), _LITERAL)
        layers = [_past_placeholders(every, wild)] + [0] * need
        for ch in run.lower() if fold else run:
            mask = masks.get(ch, 0)
            moved = [_past_placeholders(layer & wild, wild) for layer in layers]
            for k, layer in enumerate(layers):
                moved[min(k + 1, need)] |= _past_placeholders((layer & mask) << 1, wild)
            layers = moved
            if not any(layers):
                return False
        if not layers[need]:
            return False
    return True


def _past_placeholders(state: int, wild: int) -> int:
    """A position before a placeholder may also stand after it (the value may be empty)."""
    while True:
        moved = state | ((state & wild) << 1)
        if moved == state:
            return state
        state = moved
