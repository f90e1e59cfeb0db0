"""Checks a model's answer against the record it is about, field by field, before keeping any.

Each rule is deterministic and reads the record (its facts and source window), the release's
symbol table (``errdex.symbols``: what the package defines, with the standard library and the
language's built-ins beside it) and the answer; a field that breaks one is dropped with the
rule's reason, and the record keeps what it had for that field.  The rules, in order:

1. **A field errdex takes**, of the shape the schema gives (``errdex.enrich.prompt``).
2. **Nothing harmful** (``errdex.enrich.harm``): no system action, no install of what the error
   does not name, no request for secrets, no text addressed to a model; in code too, where the
   language says which calls act on the system.
3. **No URL or version the facts do not name**, and no claim of what a version changed that the
   facts do not make.
4. **Code that parses and asks only for what exists**: its imports are the standard library, the
   package's own modules (that exist) or its dependencies; every chain rooted in a table resolves
   (``fabric.setup_jointly`` does not), every keyword is in its callee's signature; it catches and
   raises only the record's class or one of its bases; its tests do not contradict the guards.
5. **Prose that names only what exists and says what the code does**: each identifier it quotes
   resolves as in 4; each exception class agrees with the record's; each condition it states
   agrees with the guards (``errdex.enrich.claims``); it calls nothing by the wrong kind (a
   function a class) and cites no docstring that is not there.
6. **Specific to this record**: documentation names the error; other prose speaks of its class,
   message, function or conditions; a solution is an instruction, not an expression or a path.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from errdex.enrich import claims
from errdex.enrich.harm import allowed_installs, harmful, upgrades_asked
from errdex.enrich.prompt import CODE_FIELDS, FIELDS, LIST_FIELDS, MAX_CODE, MAX_ITEM, MAX_ITEMS, MAX_TEXT
from errdex.languages import find
from errdex.languages.base import ClaimReader, Language
from errdex.languages.snippets import Atom, Chain, Snippet
from errdex.record import Record, canonical
from errdex.symbols import UNKNOWN, Resolved, Resolver, Symbol, SymbolTable

#: A link: with its scheme, ``www.``, or a bare host and path (``lightning.ai/docs``); a bare one
#: whose first name is code's (``trainer.fit/validate``) is no link (``_Known.is_code_name``).
_URL = re.compile(
    r"\b(?:https?|ftp|file|git|ssh)://[^\s`'\"<>)\]]+|\bwww\.[a-z0-9-]+\.[a-z]{2,}[^\s`'\"<>)\]]*|"
    r"(?<![\w@./-])"
    r"(?:[a-z0-9-]+\.)+(?:(?:com|org|ai|dev|app|cloud|edu|gov)(?:/[^\s`'\"<>)\]]*)?|[a-z]{2,6}/[^\s`'\"<>)\]]+)(?![\w.-])",
    re.I,
)
#: A version-like token: ``2025.5.0``, ``1.0.0rc1``, ``v2``, "version 3"; a two-part number
#: (``2.7``) or a whole one only after a package's name (``torch 2.0``, ``Express 5``): alone,
#: ``0.5`` is a value, not a version.
_VERSION = re.compile(
    r"(?<![\w.@/-])v?(\d+\.\d+\.\d+(?:\.\d+)*(?:(?:a|b|rc|dev|post)\d*)?)(?![\w.]*\w)|"
    r"(?<![\w.])v(\d+(?:\.\d+)*)(?![\w.]*\w)|\b(?:versions?|releases?)\s+(\d+(?:\.\d+)*)\b",
    re.I,
)
_NAMED_VERSION = r"(?<![\w.])(\d+(?:\.\d+)?(?:\.x)?)(?![\w.]*\w)"
_ADDRESS = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
#: Words that say what a version did: a claim the facts must make themselves, in the same words
#: (``since`` is what ``versionadded`` and ``versionchanged`` say).
_CHANGE = re.compile(
    r"\b(introduced|added\s+in|removed\s+in|deprecated\s+(?:in|since)|changed\s+in|fixed\s+in|broke|broken\s+in|"
    r"breaks|regress\w*|since|as\s+of|starting\s+(?:with|in|from)|released\s+in|backported|resolved\s+in|new\s+in)\b",
    re.I,
)
#: Words that compare an installed version with one: backed by a requirement the facts state.
_COMPARE_VERSION = re.compile(
    r"\b(older|newer|later|earlier|before|after|prior\s+to|until|up\s+to|below|above|at\s+least|"
    r"or\s+(?:newer|later|higher|above)|upgrad\w*|downgrad\w*|updat\w*|pin\w*|bump\w*|install\w*)\b",
    re.I,
)
_STEMS = {
    "added in": ("added", "versionadded", "new in"),
    "changed in": ("changed", "versionchanged"),
    "deprecated in": ("deprecat",),
    "deprecated since": ("deprecat",),
    "removed in": ("remov",),
    "since": ("since", "versionadded", "versionchanged", "added", "changed", "new in"),
    "as of": ("as of", "since", "versionadded", "versionchanged"),
    "starting": ("starting", "since", "versionadded", "versionchanged"),
    "new in": ("new in", "versionadded", "added"),
}
#: How facts state a version requirement: ``fsspec>=2025.5.0``, ``_TORCHMETRICS_GREATER_EQUAL_1_0_0``.
_REQUIRES = re.compile(
    r">=|<=|==|~=|>|<|\bor\s+(?:newer|later|above|higher)\b|\bat\s+least\b|\bminimum\b|\brequir\w*|"
    r"GREATER|LESS|_GE_|_LT_|\binstall\w*|\bupgrad\w*",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CLASS = re.compile(r"\b([A-Z][A-Za-z0-9]*(?:Error|Exception|Warning))\b")
#: Where prose says what this error is (``ValueError: ...``, "a `TypeError` with the message",
#: "this `RangeError`", "it is raised as a `UsageError`"): the record's own class, never its base.
_CLASS_WORD = r"`?(?P<cls>(?:[a-z_][\w]*\.)*[A-Z][\w]*)`?"
_THIS_ERROR = [
    re.compile(r"`(?P<cls>(?:[a-z_][\w]*\.)*[A-Z][\w]*):\s"),
    re.compile(r"`(?P<cls>(?:[a-z_][\w]*\.)*[A-Z][\w]*)`:\s*[\"'`]"),
    re.compile(rf"(?:^|[.!?]\s+)(?i:an?\s+|the\s+)?{_CLASS_WORD}\s+(?:\(|(?i:with\s+(?:the\s+)?message)\b)"),
    re.compile(rf"\b(?i:this|the)\s+{_CLASS_WORD}\s+(?i:is|gets|will\s+be|comes|appears|shows)\b"),
    re.compile(rf"\b(?i:this\s+is\s+(?:an?\s+)?){_CLASS_WORD}(?=[\s,.;:])"),
    re.compile(
        rf"\b(?i:raises|throws|raised|thrown|fails|rejects\s+\w+)\s+(?i:this\s+|with\s+)?(?i:an?\s+|the\s+)?"
        rf"(?i:plain\s+|generic\s+|bare\s+)?{_CLASS_WORD}\s+(?i:with\s+(?:the\s+)?message)\b"
    ),
    re.compile(
        rf"\b(?i:it|this\s+error|the\s+error|this\s+exception|the\s+exception|the\s+call)\s+(?i:is|gets)\s+"
        rf"(?i:raised|thrown|reported|shown)\s+(?i:as\s+)(?i:an?\s+)?{_CLASS_WORD}"
    ),
    re.compile(
        rf"\b(?i:reports\s+it|shows\s+it|surfaces\s+it|treats\s+it)\s+(?i:as\s+)(?i:an?\s+)?{_CLASS_WORD}"
    ),
    re.compile(rf"\b(?i:fails|errors)\s+(?i:with\s+)(?i:an?\s+)?{_CLASS_WORD}(?=[\s,.;:])"),
    re.compile(rf"\b(?i:an?\s+(?:plain|bare|generic|raw)\s+){_CLASS_WORD}"),
]
#: Prose that says what a handler catches: "catch `X`", "`except X`".
#: Words before a class that say the error is not it.
_CONTRAST = re.compile(
    r"\b(?:not|nor|never|rather\s+than|unlike|instead\s+of|than|no)\s+(?:an?\s+|the\s+)?`?$", re.I
)
_CATCHES = re.compile(
    rf"\b(?i:catch(?:es|ing)?|except|handle[sd]?|handling|rescue)\s+(?i:the\s+|a\s+|an\s+|only\s+)?{_CLASS_WORD}"
)
#: Code in prose: in backticks, or a call, a ``name=value``, a dotted or snake_case name outside them.
_BACKTICKED = re.compile(r"`([^`\n]{1,200})`")
_CALL = re.compile(r"(?<![\w.`/])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\([^()\n`]{0,120}\))")
#: A method written with its leading dot (``.alias()``, ``.setAliases([...])``).
_METHOD_SPAN = re.compile(r"\.([A-Za-z_$][\w$]*)\s*(?:\(|$)")
_KEYWORD_SPAN = re.compile(r"([A-Za-z_$][\w$]*)\s*=(?!=)\s*(?:[^\s=].*)?")
_KEYWORD = re.compile(r"(?<![\w.`/=])([a-z_][a-z0-9_]*=[\w'\".-]+)")
_IDENTIFIER = re.compile(
    r"(?<![\w.`/:@-])([A-Za-z_$][\w$]*_[\w$]*|[a-z]+[A-Z]\w*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]+)+)(?![\w`/(-])"
)
#: Dotted words of English or of files, never a chain: ``e.g.``, ``fabric.py``, ``node.js``.
_NOT_CODE = re.compile(
    r"^(?:e\.g|i\.e|etc|vs|cf|a\.k\.a)\b|\.(?:py|pyi|js|mjs|cjs|ts|tsx|json|md|txt|cfg|toml|yaml|yml|ini|html|"
    r"css|lock|sh|log|csv|whl|gz|zip|ckpt|pt|pth|bin|onnx)$|^\d",
    re.I,
)
#: What prose may say a name is, and what it is in the symbol table.
_KIND_WORDS = {
    "function": "function", "method": "function", "class": "class", "exception": "class",
    "parameter": "parameter", "argument": "parameter", "keyword": "parameter", "kwarg": "parameter",
    "module": "module", "package": "module", "attribute": "attribute", "property": "attribute",
    "field": "attribute", "decorator": "function",
}  # fmt: skip
_KIND_CLAIM = re.compile(
    r"\b(?:the\s+)?(?P<kind2>function|method|class|module|decorator)\s+`?(?P<name2>[A-Za-z_][\w.]*)`?\s+(?:is|was|does|raises|throws|takes|returns|checks)\b|"
    r"\b`?(?P<name3>[A-Za-z_][\w.]*)`?\s+is\s+an?\s+(?:\w+\s+){0,3}?(?P<kind3>function|method|class|parameter|"
    r"argument|module|decorator)\b",
    re.I,
)
_DOCSTRING = re.compile(
    r"\b(?:doc\s*strings?|docstrings?|documented|documentation\s+(?:says|states|notes))\b", re.I
)
#: Words a statement about something starts with, where an instruction starts with its verb.
_STATEMENT_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "there",
        "here",
        "which",
        "who",
        "what",
        "whose",
        "some",
        "any",
        "each",
        "every",
        "all",
        "both",
        "no",
        "none",
        "one",
        "we",
        "they",
        "he",
        "she",
        "i",
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "can",
        "could",
        "will",
        "would",
        "may",
        "might",
    ]
)
_MODAL = re.compile(
    r"\b(?:should|must|need(?:s)?\s+to|make\s+sure|be\s+sure|remember\s+to|it\s+is\s+best|prefer)\b", re.I
)
_LEADING = re.compile(
    r"^(?:(?:if|when|whenever|before|after|once|unless|while|where|for|in|to|with|on|instead\s+of)\b[^,]{0,200},\s*"
    r"|(?:always|never|also|then|first|finally|instead|alternatively|optionally|either|or|only)\b,?\s*)+",
    re.I,
)
#: Nouns a user's objects are named by (``config.get``, ``session.mount``): in prose, the object,
#: never a module of that name (the language's own such modules: ``ClaimReader.VARIABLE_MODULES``).
_OBJECT_NOUNS = frozenset(
    {"parser", "symbol", "config", "context", "command", "option", "path", "file", "request", "response",
     "session", "user"}
)  # fmt: skip
#: Prose that opens by describing a function's purpose, where it should describe the error.
_ABOUT_FUNCTION = re.compile(
    r"(?:this|the)\s+(?:function|method|class|module|helper)\b[^.]{0,40}?\b(?:allows|lets|enables|is\s+used|"
    r"helps|provides|is\s+responsible|is\s+designed|can\s+be\s+used)\b",
    re.I,
)
_TEXT_ONLY = ("documentation", "triggerScenarios", "commonSituations")


@dataclass(slots=True)
class Verdict:
    """What of an answer may be kept (by schema v2 field name) and why the rest may not."""

    kept: dict[str, Any] = field(default_factory=dict)
    rejected: dict[str, str] = field(default_factory=dict)


def verify(record: Record, answer: Mapping[str, Any], symbols: SymbolTable | None = None) -> Verdict:
    """Each field of ``answer`` kept, normalised, or rejected with the reason; ``symbols`` is the
    record's release's table, where the store has one."""
    return Checker.of(record.language, symbols).verify(record, answer)


class Checker:
    """The checks for one release's records: its table with the language's names beside it (and
    those of the other releases a store holds, ``others``), and what it works out of them once."""

    def __init__(self, language: Language | None, resolver: Resolver | None) -> None:
        self.language = language
        self.reader: ClaimReader | None = language.claims if language is not None else None
        self.resolver = resolver

    @classmethod
    def of(cls, language_name: str, table: SymbolTable | None, others: Any = None) -> Checker:
        language = find(language_name)
        reader = language.claims if language is not None else None
        resolver = Resolver(table, reader.VOCABULARY, others) if reader is not None else None
        return cls(language, resolver)

    def verify(self, record: Record, answer: Mapping[str, Any]) -> Verdict:
        verdict = Verdict()
        known = _Known(record, self)
        for name, value in answer.items():
            reason = self._check(known, name, value)
            if reason is None:
                verdict.kept[name] = _normalised(value)
            else:
                verdict.rejected[name] = reason
        return verdict

    # -- what the table says ---------------------------------------------------------------------

    @cached_property
    def class_names(self) -> frozenset[str]:
        """The own names of the release's classes: what prose may mention in passing."""
        table = self.resolver.own if self.resolver is not None else None
        return frozenset(
            key.rpartition(".")[2]
            for key, symbol in (table.symbols.items() if table else ())
            if symbol.kind == "class"
        )

    @cached_property
    def instances(self) -> dict[str, list[Resolved]]:
        """The package's public classes by what code calls an instance of each (``fabric``)."""
        found: dict[str, list[Resolved]] = {}
        resolver = self.resolver
        table = resolver.own if resolver is not None else None
        if resolver is None or table is None or self.reader is None:
            return found
        for key, symbol in table.symbols.items():
            if symbol.kind == "class" and symbol.public:
                name = self.reader.instance_of(key.rpartition(".")[2])
                found.setdefault(name, []).append(Resolved("found", key, symbol, table, instance=True))
        for module in table.entries.values():
            # The instances a package's entry hands out by name (commander's ``program``).
            for key, symbol in table.symbols.items():
                if symbol.kind == "instance" and symbol.public and key.rpartition(".")[0] == module:
                    made = resolver.target(Resolved("found", key, symbol, table))
                    if made.found and made.kind == "class":
                        instance = Resolved("found", made.key, made.symbol, made.table, instance=True)
                        found.setdefault(key.rpartition(".")[2], []).insert(0, instance)
        return found

    @cached_property
    def _subclasses(self) -> dict[str, list[Resolved]]:
        """Each class's own name -> the classes that name it among their bases."""
        found: dict[str, list[Resolved]] = {}
        table = self.resolver.own if self.resolver is not None else None
        for key, symbol in table.symbols.items() if table is not None else ():
            if symbol.kind == "class":
                for base in symbol.refers:
                    found.setdefault(base.rpartition(".")[2], []).append(
                        Resolved("found", key, symbol, table, instance=True)
                    )
        return found

    def _family(self, start: Resolved) -> list[Resolved]:
        """A class and every class below it in the release (what a user's object of it may be)."""
        out, queue, seen = [start], [start], {start.key}
        while queue and len(out) < 64:
            at = queue.pop()
            for sub in self._subclasses.get((at.key or "").rpartition(".")[2], []):
                if sub.key not in seen:
                    seen.add(sub.key)
                    out.append(sub)
                    queue.append(sub)
        return out

    # -- the field ---------------------------------------------------------------------------------

    def _check(self, known: _Known, name: str, value: Any) -> str | None:
        if name not in FIELDS:
            return "not a field errdex takes"
        if (shape := _shape(name, value)) is not None:
            return shape
        texts = value if isinstance(value, list) else [value]
        for text in texts:
            if (reason := harmful(text, known.installs, known.upgrades)) is not None:
                return reason
            if (reason := _text(known, text)) is not None:
                return reason
        if name in CODE_FIELDS:
            return self._code(known, value)
        for text in texts:
            if (reason := self._prose(known, name, text)) is not None:
                return reason
        return _specific(known, name, value)

    def _code(self, known: _Known, code: str) -> str | None:
        reader = self.reader
        if reader is None:
            return f"no reader for {known.record.language} code"
        read = reader.snippet(code)
        if read is None:
            return f"does not parse as {known.record.language}"
        for written, kind in read.dangerous:
            if kind == "network" and known.own_root(written):
                continue  # the package's own calls are its API (a requests record calls requests.get)
            return f"acts on the user's system ({written}: {kind})"
        for module in read.imports:
            if (reason := self._import(known, module)) is not None:
                return reason
        for chain in read.chains:
            if (reason := self._chain(known, chain, prose=False, defines=read.defines)) is not None:
                return reason
        for chain in (*read.caught, *read.raised):
            if (reason := self._class(known, chain)) is not None:
                return reason
        for test in read.tests:
            if (reason := self._test(known, test)) is not None:
                return reason
        return None

    def _import(self, known: _Known, module: str) -> str | None:
        """An import is the standard library, the package's own module (that exists), a
        dependency (declared, or imported by the package's own code), or what the facts name."""
        if module.startswith("."):
            return f"imports relatively ({module}): a user's code cannot"
        resolver = self.resolver
        root = module.split(".")[0].split("/")[0]
        if module.startswith("@"):
            root = "/".join(module.split("/")[:2])
        if resolver is not None:
            found = resolver.resolve(module)
            if found.state == "missing":
                return f"imports {module}, which {known.release} does not have"
            if found.found:
                return None
        if known.is_dependency(root) or root in known.words:
            return None
        return f"imports what the facts do not name ({module})"

    def _chain(
        self, known: _Known, chain: Chain, *, prose: bool, defines: frozenset[str] = frozenset()
    ) -> str | None:
        """Every step of a chain that reaches a symbol resolves, and every keyword a call passes
        is in its callee's signature; a name no table or fact knows is no name to call, and a
        method of an object no table follows is one some code calls (``defines``: the snippet's)."""
        resolver = self.resolver
        if resolver is None:
            return None
        starts = self._start(known, chain, prose)
        if isinstance(starts, str):
            return starts
        if not starts:
            steps = chain.steps
            if (
                not prose
                and chain.rooted in ("free", "local", "assigned")
                and len(steps) > 1
                and steps[0].name
                and not steps[0].name[:1].isupper()
                and steps[1].call
                and not known.has_method(steps[0].name, defines)
            ):
                # ``state.get_attr(...)`` on the user's object: a method nothing has.
                written = f"{chain.root}.{steps[0].name}()"
                return f"calls `{written}`, which neither {known.release} nor the language has"
            return None
        reasons = []
        for start in starts:
            reason = self._walk(known, chain, start, defines)
            if reason is None:
                return None
            reasons.append(reason)
        return reasons[0]

    def _start(self, known: _Known, chain: Chain, prose: bool) -> list[Resolved] | str:
        """Where a chain starts: what its first name stands for (several classes for an object
        named as any of them), or why it cannot start (a name nobody defines, called)."""
        resolver = self.resolver
        assert resolver is not None
        if chain.rooted == "import":
            found = resolver.resolve(chain.root)
            if found.state == "missing":
                return f"uses {chain.root}, which {known.release} does not have"
            return [found] if found.found else []
        if chain.rooted == "assigned":
            if chain.source is None:
                return []
            values = self._value(known, chain.source)
            return values if not isinstance(values, str) else []
        if chain.rooted in ("builtin", "literal"):
            found = resolver.resolve(chain.root)
            if chain.rooted == "literal" and found.found:
                found = Resolved(found.state, found.key, found.symbol, found.table, instance=True)
            return [found] if found.found else []
        if chain.rooted == "free":
            own = resolver.own
            if prose and own is not None and (keys := own.named(chain.root)):
                # Prose names the package's classes and functions without their import: any of
                # those of that name may be the one meant.
                return [Resolved("found", key, own.symbols[key], own) for key in keys[:16]]
            variables = self.reader.VARIABLE_MODULES if self.reader is not None else frozenset()
            if prose and chain.steps and chain.root not in _OBJECT_NOUNS and chain.root not in variables:
                module = resolver.resolve(chain.root)  # ``json.loads`` in prose: the standard library's
                if module.found and module.kind == "module":
                    return [module]
            instances = self.instances.get(chain.root, [])
            if instances:
                return [member for start in instances for member in self._family(start)]
            called_bare = prose and bool(chain.steps) and chain.steps[0].call and len(chain.steps) == 1
            if called_bare and _identifier_like(chain.root) and not known.knows(chain.root):
                return f"calls `{chain.root}`, which neither the package nor the facts define"
        return []

    def _value(self, known: _Known, chain: Chain) -> list[Resolved] | str:
        starts = self._start(known, chain, prose=False)
        if isinstance(starts, str):
            return starts
        out = []
        for start in starts:
            at: Resolved = start
            for step in chain.steps:
                at = self._step(at, step.name, step.call)
                if not at.found:
                    break
            if at.found:
                out.append(at)
        return out

    def _walk(self, known: _Known, chain: Chain, start: Resolved, defines: frozenset[str]) -> str | None:
        resolver = self.resolver
        assert resolver is not None
        at = start
        walked = chain.root
        steps = chain.steps
        for index, step in enumerate(steps):
            if not at.found:
                return None
            if step.call:
                if not step.spread and not at.instance:
                    for keyword in step.keywords:
                        if not resolver.takes(at, keyword, passed=frozenset(step.keywords)):
                            return f"passes `{keyword}=` to `{walked}`, which takes no such argument"
                at = self._step(at, None, True)
                walked += "()"
                continue
            name = step.name or ""
            nxt = resolver.member(at, name)
            if nxt.state == "missing":
                return f"`{walked}.{name}` does not exist in {known.owner_of(at)}"
            called = index + 1 < len(steps) and steps[index + 1].call
            if nxt.state == "unknown" and called and not known.has_method(name, defines):
                # An object no table follows (a class that is open: ``__getattr__``, a base outside
                # the tables; a function's result) may have any method, but one that no code of
                # the package calls nor the language has is an invention.
                return f"calls `{walked}.{name}()`, which {known.release} neither defines nor calls"
            at = nxt
            walked += f".{name}"
        return None

    def _step(self, at: Resolved, name: str | None, call: bool) -> Resolved:
        resolver = self.resolver
        assert resolver is not None
        if call:
            if at.kind == "class" and not at.instance:
                return Resolved("found", at.key, at.symbol, at.table, instance=True)
            return UNKNOWN
        return resolver.member(at, name or "")

    def _class(self, known: _Known, chain: Chain) -> str | None:
        """A class caught or raised is the record's own, one of its bases, or one its facts name."""
        name = self._class_name(chain)
        if name is None or name in known.classes:
            return None
        return f"catches or raises `{chain.written}`, which this error is not"

    def _class_name(self, chain: Chain) -> str | None:
        if chain.steps and any(s.call for s in chain.steps):
            return None
        resolver = self.resolver
        if chain.rooted == "import" and resolver is not None:
            dotted = ".".join([chain.root, *(s.name or "" for s in chain.steps)])
            found = resolver.resolve(dotted)
            if found.found and found.key is not None:
                return found.key.rpartition(".")[2]
            return dotted.rpartition(".")[2]
        return (chain.steps[-1].name if chain.steps else chain.root) or None

    def _test(self, known: _Known, code: str) -> str | None:
        """A test a snippet makes on what a guard tests agrees with the guard, or with its
        negation (code checks either way); never says more or less than the raise needs."""
        reader = self.reader
        if reader is None:
            return None
        test = reader.test(code)
        if test is None or not test.exact:
            return None
        for atom in test.atoms:
            claim = claims.Claim(atom, code, True)
            verdict, guard = claims.judge(claim, known.guard_atoms, either=True)
            if verdict in ("contradict", "partial") and guard is not None:
                return f"tests `{code}`, where the raise needs `{_shown(guard)}`"
        return None

    # -- prose ---------------------------------------------------------------------------------

    def _prose(self, known: _Known, name: str, text: str) -> str | None:
        reader = self.reader
        for span in _spans(known, text):
            read = reader.span(span) if reader is not None else None
            if read is None:
                continue
            if (reason := self._span(known, span, read)) is not None:
                return reason
        if (reason := _classes_said(known, text)) is not None:
            return reason
        if (reason := _kinds_said(known, text)) is not None:
            return reason
        if reader is None:
            return None
        for stated in claims.conditions(text, reader, known.calls()):
            claim = known.with_default(stated)
            if claim is None:
                continue
            verdict, guard = claims.judge(claim, known.guard_atoms)
            if verdict in ("contradict", "partial") and guard is not None:
                return f"says `{claim.text.strip('`')}`, where the raise needs `{_shown(guard)}`"
            if verdict == "unrelated" and claim.coded and known.testable(claim.atom.subject):
                return f"says `{claim.text.strip('`')}`, a condition the raise does not test"
        for claim in claims.coded_tests(text, reader):
            verdict, guard = claims.judge(claim, known.guard_atoms, either=True)
            if verdict in ("contradict", "partial") or (verdict == "unrelated" and guard is not None):
                shown = f", where the raise needs `{_shown(guard)}`" if guard is not None else ""
                return f"quotes the test `{claim.text}`, which the raise does not make{shown}"
        if name == "triggerScenarios":  # what the user did: the values their call passes
            exact = [g for g in known.guard_atoms if g.subject in known.parameters]
            for claim in claims.passed(text, known.parameters):
                verdict, guard = claims.judge(claim, exact)
                if verdict in ("contradict", "partial") and guard is not None:
                    return f"has the call pass `{claim.text}`, where the raise needs `{_shown(guard)}`"
        return None

    def _span(self, known: _Known, span: str, read: Snippet) -> str | None:
        """A code span of prose names only what exists: chains resolve, keywords are accepted, a
        lone identifier is one the package, the facts or the language define."""
        for written, kind in read.dangerous:
            if not (kind == "network" and known.own_root(written)):
                return f"names an action on the user's system ({written})"
        method = _METHOD_SPAN.match(span.strip())
        if method is not None and not known.has_method(method.group(1)):
            # ``.setAliases([...])``: a method of some object; no class here has one of that name.
            return f"calls `.{method.group(1)}()`, which no class of the package or the language has"
        keyword = _KEYWORD_SPAN.fullmatch(span.strip())
        if keyword is not None and not known.knows(keyword.group(1)):
            # ``fallback_to_cpu=True``: passed to something, so a parameter somewhere.
            return f"passes `{keyword.group(1)}=`, which no function of the package or the facts take"
        for chain in read.chains:
            if not chain.steps and chain.rooted == "free":
                continue
            if (reason := self._chain(known, chain, prose=True)) is not None:
                return reason
        return None


#: How a relation reads in a reason: as code would write it, or in a word.
_RELATION_WORDS = {
    "none": "is none", "not-none": "is not none", "truthy": "is true", "falsy": "is false",
    "is-a": "is a", "not-a": "is not a", "not-in": "not in", "has": "has", "lacks": "lacks",
}  # fmt: skip


def _shown(atom: Atom) -> str:
    """A guard's atom as a reason quotes it: ``denominator == 0``, ``model is none``."""
    relation = _RELATION_WORDS.get(atom.relation, atom.relation)
    return " ".join(x for x in (atom.subject, relation, atom.operand or "") if x)


def _spans(known: _Known, text: str) -> list[str]:
    """The code a piece of prose quotes: backticked spans, and calls, ``name=value``s, dotted
    and snake_case names written outside backticks (and outside links)."""
    found = [s for s in _BACKTICKED.findall(text) if not _NOT_CODE.search(s.strip())]
    outside = _BACKTICKED.sub(" ", text)
    for link in _links(known, outside):
        outside = outside.replace(link, " ")
    for pattern in (_CALL, _KEYWORD, _IDENTIFIER):
        for match in pattern.finditer(outside):
            span = match.group(1)
            if not _NOT_CODE.search(span):
                found.append(span)
    return found


def _identifier_like(name: str) -> bool:
    """A name only code would write: ``strict_mode``, ``setupJointly``, not an English word."""
    return bool(re.fullmatch(r"[A-Za-z_$][\w$]*", name)) and (
        "_" in name.strip("_") or bool(re.search(r"[a-z][A-Z]", name))
    )


def _shape(name: str, value: Any) -> str | None:
    if name in LIST_FIELDS:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            return "not a list of text"
        if len(value) > MAX_ITEMS:
            return f"more than {MAX_ITEMS} items"
        if any(not v.strip() for v in value):
            return "an empty item"
        if any(len(v) > MAX_ITEM for v in value):
            return f"an item over {MAX_ITEM} characters"
        return None
    if not isinstance(value, str) or not value.strip():
        return "empty" if isinstance(value, str) else "not text"
    limit = MAX_CODE if name in CODE_FIELDS else MAX_TEXT
    return f"over {limit} characters" if len(value) > limit else None


def _normalised(value: Any) -> Any:
    return [v.strip() for v in value] if isinstance(value, list) else value.strip("\n").rstrip()


class _Known:
    """What the record's facts name: the text a model may quote, the words it may use, the
    classes it may catch, the versions it may cite, the guards it must agree with."""

    def __init__(self, record: Record, checker: Checker) -> None:
        self.record = record
        self.checker = checker
        facts = record.facts
        said = [
            record.error_message,
            facts.docstring or "",
            facts.raises_doc or "",
            facts.class_doc or "",
            *facts.parameter_docs.values(),
        ]
        code = [
            record.source_code,
            record.function or "",
            record.qualified_class or "",
            record.file_path,
            facts.signature or "",
            *(g.text for g in facts.guards),
            *(c.function for c in facts.callers),
            *(e.function for e in facts.entry_points),
            *(e.name or "" for e in facts.entry_points),
            *(t.call or "" for t in facts.tests),
            *(p.name for p in facts.parameters),
        ]
        self.said = "\n".join(said)
        self.text = "\n".join(
            [*said, *code, record.github_url or "", record.package or "", record.version or ""]
        )
        self.words = set(re.findall(r"[A-Za-z_$][\w$]*", self.text))
        resolver = checker.resolver
        self.table = resolver.own if resolver is not None else None
        self.table_names: frozenset[str] = self.table.names if self.table is not None else frozenset()
        self.release = f"{record.package or record.repo} {record.version or ''}".strip()
        language = checker.language
        self.package = language.package_of(record.file_path) if language is not None else None
        deps = set(self.table.dependencies) if self.table is not None else set()
        self.dependencies = {canonical(d) for d in deps}
        self.imported = set(self.table.imported) if self.table is not None else set()
        self.installs = allowed_installs(
            record.package or self.package, record.error_message, deps | self.imported
        )
        self.upgrades = upgrades_asked(record.error_message)
        #: The packages a version may be written after (``lightning 2.6.6``), and the versions the facts give.
        self.version_names = frozenset(
            canonical(n) for n in {record.package or "", self.package or "", *deps, *self.imported} if n
        )
        self.versions = _versions(self.text, self.version_names) | (
            {record.version} if record.version else set()
        )
        self.versions |= {m for m in re.findall(r"\d+(?:\.\d+)+", self.text)}
        self.parameters = {p.name for p in facts.parameters}
        self.guard_names = {n for g in facts.guards for n in g.names}
        reader = checker.reader
        self.guard_atoms = claims.guard_atoms(facts.guards, reader) if reader is not None else []
        #: Classes the facts' own prose names (a docstring's ``Raises``): what they say is raised.
        self.said_classes = set(_CLASS.findall(self.said))
        self.classes = self._classes()
        #: Classes prose may mention in passing: the source window's, the package's own.
        self.mentionable = set(_CLASS.findall(record.source_code)) | checker.class_names

    def _classes(self) -> set[str]:
        """What a handler may catch: the record's class, its bases (through the tables), the
        classes every error is, and those the facts' own prose names."""
        record, checker = self.record, self.checker
        short = (record.error_class or "").rpartition(".")[2]
        found = {short} if short else set()
        qualified = record.qualified_class or record.error_class or ""
        if checker.resolver is not None and qualified:
            resolved = checker.resolver.class_named(qualified)
            if not resolved.found and short:
                resolved = checker.resolver.class_named(short)
            ancestors = checker.resolver.ancestors(resolved)
            found |= set(ancestors) if ancestors is not None else self._roots()
        else:
            found |= self._roots()
        return {f for f in found | self.said_classes if f}

    def is_class_name(self, name: str) -> bool:
        """Whether a name reads as an error class: one named so, or a built-in class of the language."""
        reader = self.checker.reader
        if _CLASS.fullmatch(name) or (reader is not None and name in reader.VOCABULARY.builtin_bases):
            return True
        return name in self.mentionable

    def calls(self) -> list[str]:
        """The names prose may call the raising function by: its own, its entry points'."""
        record = self.record
        found = [(record.function or "").rpartition(".")[2]]
        found += [e.function.rpartition(".")[2] for e in record.facts.entry_points]
        found += [e.name.rpartition(".")[2] for e in record.facts.entry_points if e.name]
        reader = self.checker.reader
        constructors = reader.CONSTRUCTORS if reader is not None else frozenset()
        return [f for f in found if f and f not in constructors]

    def with_default(self, claim: claims.Claim) -> claims.Claim | None:
        """A claim that a parameter is left at its default, with the default the facts give;
        None where they give none."""
        atom = claim.atom
        if atom.operand != claims.DEFAULT:
            return claim
        default = next((p.default for p in self.record.facts.parameters if p.name == atom.subject), None)
        if default is None:
            return None
        if default == "None":
            return claims.Claim(Atom(atom.subject, "none"), claim.text, True)
        return claims.Claim(Atom(atom.subject, "==", default), claim.text, True)

    def is_error_class(self, name: str) -> bool:
        """Whether a name is an error class: named so, a built-in one, or one of the package's
        whose bases reach the language's error classes."""
        reader, resolver = self.checker.reader, self.checker.resolver
        if _CLASS.fullmatch(name) or (reader is not None and name in reader.VOCABULARY.builtin_bases):
            return True
        if name not in self.mentionable or resolver is None or reader is None:
            return False
        found = resolver.class_named(name)
        ancestors = resolver.ancestors(found) if found.found else None
        return bool(ancestors and set(reader.ERROR_ROOTS) & set(ancestors))

    def _roots(self) -> set[str]:
        """The classes every error of the language is: a handler of these catches any error."""
        reader = self.checker.reader
        return set(reader.ERROR_ROOTS) if reader is not None else set()

    def knows(self, name: str) -> bool:
        """A bare name the facts, the package, the language or its standard library define."""
        if name in self.words or name in self.table_names or name in self.parameters:
            return True
        reader = self.checker.reader
        if reader is not None:
            vocabulary = reader.VOCABULARY
            if vocabulary.builtin_members(name) is not None or vocabulary.standard(name) is not None:
                return True
            if name in vocabulary.builtin_bases:
                return True
        return False

    def has_method(self, name: str, defines: frozenset[str] = frozenset()) -> bool:
        """Whether some class of the package or of the language (or the facts, or the snippet
        itself: ``defines``) has a member ``name``, or the package's code calls one: what
        ``.name()`` may be."""
        return (
            name in defines
            or name in self.words
            or name in self.table_names
            or (self.checker.reader is not None and name in self.checker.reader.VOCABULARY.members())
            or (self.table is not None and name in self.table.called)
        )

    def is_code_name(self, name: str) -> bool:
        """Whether ``name`` is one code gives a value: the receiver, an object named for one of
        the package's classes, a parameter, a module of the language's or one the package imports
        (never the package's own name: ``lightning.ai`` is a host)."""
        reader = self.checker.reader
        if reader is None:
            return False
        if name in reader.RECEIVERS or name in self.checker.instances or name in self.parameters:
            return True
        if self.own_root(name):
            return False
        return name in self.imported or reader.VOCABULARY.standard(name) is not None

    def own_root(self, dotted: str) -> bool:
        root = dotted.split(".")[0]
        table = self.table
        return bool(table is not None and root in table.roots) or canonical(root) == canonical(
            self.record.package or ""
        )

    def is_dependency(self, root: str) -> bool:
        """A module the package depends on: declared (by its distribution's name, or the same
        name), or imported by its own code."""
        return root in self.imported or canonical(root) in self.dependencies or self.own_root(root)

    def testable(self, subject: str) -> bool:
        """Whether a subject is one the raise could test: a parameter or a name its guards read."""
        head = re.split(r"[.(\[]", subject.strip())[0]
        return head in self.parameters or head in self.guard_names

    def owner_of(self, at: Resolved) -> str:
        if at.key is None:
            return self.release
        return f"`{at.key}`" if at.table is None or at.table is not self.table else self.release

    def anchors(self) -> list[str]:
        """What text about this record names: its class, function, entry points, the subjects
        of its guards, its parameters."""
        record = self.record
        found = [(record.error_class or "").rpartition(".")[2], (record.function or "").rpartition(".")[2]]
        found += [e.function.rpartition(".")[2] for e in record.facts.entry_points]
        found += [e.name.rpartition(".")[2] for e in record.facts.entry_points if e.name]
        found += [a.subject.rpartition(".")[2] for a in self.guard_atoms]
        found += list(self.parameters)
        if record.error_code:
            found.append(record.error_code)
        literal = re.sub(r"\{[^}]*\}|%[-#0 +]*\d*(?:\.\d+)?[a-z]|\$\{[^}]*\}", " ", record.error_message)
        found += [
            w for w in re.findall(r"[A-Za-z][A-Za-z0-9_]{3,}", literal) if w.lower() not in _COMMON_WORDS
        ]
        reader = self.checker.reader
        generic = reader.RECEIVERS | reader.CONSTRUCTORS if reader is not None else frozenset()
        return [a for a in found if a and len(a) > 1 and a not in generic]


#: Words too common to tie a text to a message.
_COMMON_WORDS = frozenset(
    [
        "that",
        "this",
        "with",
        "from",
        "have",
        "been",
        "were",
        "will",
        "would",
        "should",
        "could",
        "must",
        "when",
        "what",
        "which",
        "there",
        "their",
        "they",
        "your",
        "into",
        "than",
        "then",
        "them",
        "only",
        "also",
        "please",
        "make",
        "sure",
        "does",
        "used",
        "using",
        "value",
        "values",
        "found",
        "given",
    ]
)


def _text(known: _Known, text: str) -> str | None:
    """URLs and versions the facts name; a version's change claimed only where the facts claim it."""
    for url in _links(known, text):
        if url.rstrip(".,;:") not in known.text and not _no_page(url):
            return f"names a URL the facts do not ({url})"
    reader = known.checker.reader
    checks = reader.VERSION_CHECKS if reader is not None else None
    text = "\n".join(
        line if _COMPARES.search(line) or (checks and checks.search(line)) else _VALUE_VERSION.sub("''", line)
        for line in text.splitlines()
    )
    for sentence in _SENTENCE.split(text):
        versions = _versions(sentence, known.version_names)
        for version in versions:
            if version not in known.versions:
                return f"names a version the facts do not ({version})"
        if not versions:
            continue
        change = _CHANGE.search(sentence)
        if change is not None and not _backed(known, versions, change.group(1), claim=True):
            said = f"{change.group(1)} {sorted(versions)[0]}"
            return f"claims what a version did ({said}), which the facts do not"
        compared = _COMPARE_VERSION.search(sentence)
        if compared is not None and not _backed(known, versions, compared.group(1), claim=False):
            said = f"{compared.group(1)} {sorted(versions)[0]}"
            return f"compares with a version ({said}) the facts do not require"
    return None


#: A quoted version that is a value of the user's (``program.version('1.0.0')``), where the
#: line compares nothing: it claims nothing of a release.
_VALUE_VERSION = re.compile(r"""(['"])v?\d+(?:\.\d+)+\1""")
#: A line that compares or requires (the language's own version checks: ``VERSION_CHECKS``).
_COMPARES = re.compile(r"[<>]=?|[=!]==?|\b(?:compare|requires?)\b|[\w-]+==")
#: Hosts no page lives on: reserved for examples and tests (RFC 2606, 6761), the user's own
#: machine, a name without a domain, or a placeholder.
_EXAMPLE_HOST = re.compile(
    r"(?:^|\.)(?:example\.(?:com|net|org)|[^.]+\.(?:example|test|invalid|localhost|local|internal))$|^localhost$"
)


def _links(known: _Known, text: str) -> list[str]:
    """The links ``text`` writes: what ``_URL`` finds, but a bare host whose first name is one
    code gives a value (``trainer.fit/validate/test``) is code."""
    return [
        url
        for url in _URL.findall(text)
        if "://" in url or url.lower().startswith("www.") or not known.is_code_name(url.partition(".")[0])
    ]


def _no_page(url: str) -> bool:
    """Whether ``url`` names no page anyone could be sent to: an example, local or private
    host, one without a dot, or one written as a placeholder (``http://{host}:3128``)."""
    rest = url.split("://", 1)[1] if "://" in url else url
    host = re.split(r"[/?#]", rest, maxsplit=1)[0].rpartition("@")[2]
    if not host or any(c in host for c in "{}$<>%"):
        return True
    host = host.strip("[]").lower()
    if ":" in host and not host.count(":") > 1:
        host = host.rsplit(":", 1)[0]
    if not host or ("." not in host and ":" not in host):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return _EXAMPLE_HOST.search(host) is not None
    return address.is_private or address.is_loopback or address.is_unspecified or address.is_reserved


def _versions(text: str, names: frozenset[str] = frozenset()) -> set[str]:
    """The version-like tokens of ``text``; with ``names`` (packages), also a number written
    right after one of them (``torch 2.0``, ``Express 5``)."""
    found = {next(g for g in m.groups() if g) for m in _VERSION.finditer(text)}
    if names:
        for m in re.finditer(rf"([A-Za-z][\w.-]*)[\s@=v]+{_NAMED_VERSION}", text):
            if canonical(m.group(1)) in names:
                found.add(m.group(2))
    return {v for v in found if not _ADDRESS.match(v)}


def _backed(known: _Known, versions: set[str], word: str, *, claim: bool) -> bool:
    """Whether the facts say the same of a version: a sentence of theirs with that version and
    the same word (or what a docstring writes for it: ``versionadded``); for a comparison or an
    install, also a requirement of that version (``>=``, ``GREATER_EQUAL``)."""
    low = " ".join(word.lower().split())
    stems = _STEMS.get(low, (low.split()[0][:5],))
    for sentence in _SENTENCE.split(known.text):
        if not any(_holds_version(sentence, v) for v in versions):
            continue
        lowered = sentence.lower()
        if any(stem in lowered for stem in stems):
            return True
        if not claim and _REQUIRES.search(sentence):
            return True
    return False


def _holds_version(text: str, version: str) -> bool:
    """Whether ``text`` writes ``version``, with dots or as a name does (``1_0_0``)."""
    for form in {version, version.replace(".", "_")}:
        if re.search(rf"(?<![\d.]){re.escape(form)}(?![\d])", text):
            return True
    return False


def _classes_said(known: _Known, text: str) -> str | None:
    """Each exception class the prose names agrees with the record: what it says this error is,
    is the record's own class; any other it names is one of its bases, one the facts or the
    package have."""
    own = (known.record.error_class or "").rpartition(".")[2]
    if own:
        for pattern in _THIS_ERROR:
            for match in pattern.finditer(text):
                said = match.group("cls").rpartition(".")[2]
                if said != own and said not in known.said_classes and known.is_error_class(said):
                    return f"says this error is a `{said}`, where the record's class is `{own}`"
    for match in _CATCHES.finditer(text):
        said = match.group("cls").rpartition(".")[2]
        if known.is_class_name(said) and said not in known.classes:
            return f"says to catch `{said}`, which this error is not"
    for match in _CLASS.finditer(text):
        name = match.group(1)
        if name in known.classes or name in known.mentionable:
            continue
        if _CONTRAST.search(text[max(0, match.start() - 24) : match.start()]):
            continue  # "a ZeroDivisionError, not a ValueError": what it is not
        return f"names an exception class the record does not ({name})"
    return None


def _kinds_said(known: _Known, text: str) -> str | None:
    """What prose calls a name agrees with what it is: the function is no class, a parameter is
    no function; and no docstring is cited that the facts do not have."""
    facts = known.record.facts
    if _DOCSTRING.search(text) and not (
        facts.docstring or facts.class_doc or facts.raises_doc or facts.parameter_docs
    ):
        return "cites a docstring the function does not have"
    for match in _KIND_CLAIM.finditer(text):
        name = match.group("name2") or match.group("name3") or ""
        said = _KIND_WORDS[(match.group("kind2") or match.group("kind3") or "").lower()]
        actual = _kind_of(known, name)
        if actual is not None and not _compatible(said, actual):
            return f"calls `{name}` a {said}, which is a {actual}"
    return None


def _kind_of(known: _Known, name: str) -> str | None:
    """What a name is, where the facts say for certain: the function that raises (by its own
    name), a parameter of it, the record's class."""
    record = known.record
    function = (record.function or "").rpartition(".")[2]
    if name in (record.function, function) and function and function != "__init__":
        return "function"
    if name and name == (record.error_class or "").rpartition(".")[2]:
        return "class"
    return None


def _compatible(said: str, actual: str) -> bool:
    if said == actual:
        return True
    # A class is called like a function, and a decorator is a function.
    return {said, actual} <= {"function", "class"} and said == "function"


def _specific(known: _Known, name: str, value: Any) -> str | None:
    """A model's field replaces errdex's only where it speaks of this record, and a list item
    only where it tells the user what to do."""
    if name in LIST_FIELDS:
        for item in value:
            if not _instruction(item):
                return f"an item that tells the user nothing to do ({item[:60]!r})"
        return None
    text = value.lower()
    if name == "documentation":
        if not _names_error(known, value):
            return "never names the error: its class, its message or its code"
        return None
    if _ABOUT_FUNCTION.match(value.strip()):
        return "describes what the function does, not the error"
    anchors = known.anchors()
    if not any(
        re.search(rf"(?<![\w$]){re.escape(a.lower())}(?![\w$])", text) for a in anchors
    ) and not _names_error(known, value):
        return "speaks of nothing of this record (its class, message, function or conditions)"
    return None


def _names_error(known: _Known, text: str) -> bool:
    record = known.record
    low = text.lower()
    short = (record.error_class or "").rpartition(".")[2]
    if short and re.search(rf"\b{re.escape(short)}\b", text):
        return True
    if record.error_code and record.error_code.lower() in low:
        return True
    literal = re.split(r"\{[^}]*\}|%[-#0 +]*\d*(?:\.\d+)?[a-z]|\$\{[^}]*\}", record.error_message)
    message_words = [re.findall(r"[a-z0-9]+", part.lower()) for part in literal]
    for part in message_words:
        for n in range(len(part) - 2):
            if " ".join(part[n : n + 3]) in " ".join(re.findall(r"[a-z0-9]+", low)):
                return True
    short_message = [w for part in message_words for w in part]
    return 0 < len(short_message) <= 3 and " ".join(short_message) in " ".join(re.findall(r"[a-z0-9]+", low))


def _instruction(item: str) -> bool:
    """Whether a list item tells the user what to do: a sentence of words, not an expression or a
    path, that does not start as a statement about something (``The function ...``, ``It ...``)."""
    prose = _BACKTICKED.sub(" x ", item)
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", prose)
    if len(words) < 3:
        return False
    if _MODAL.search(prose):
        return True
    rest = _LEADING.sub("", prose.strip()).strip()
    first = re.match(r"[A-Za-z][A-Za-z'-]*", rest)
    if first is None:
        return False
    return first.group().lower() not in _STATEMENT_WORDS


__all__ = ["Checker", "Symbol", "Verdict", "verify"]
