"""The record: schema v2 of the existing error knowledge base, plus errdex's extensions.

Field order is the order of the published example, so the ``errlookup`` export writes keys
exactly as the existing dataset does.  Everything after ``schemaVersion`` is an extension.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from urllib.parse import quote

from packaging.version import InvalidVersion, Version
from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from errdex.patterns import MessageKind

SCHEMA_VERSION: Literal[2] = 2
#: The version of errdex's own fields (those after ``schemaVersion``).  A record without
#: ``extensionVersion`` was written by an errdex that kept guards and signatures as text only
#: (version 1); ``errdex import`` reads those too.
EXTENSION_VERSION: Literal[2] = 2
SOURCE_WINDOW_RADIUS = 18
SOURCE_WINDOW_MAX_LINES = 40

ErrorType = Literal["exception", "error_code", "console", "http", "validation", "panic"]
Severity = Literal["critical", "error", "warning", "info"]
HandlingStrategy = Literal["try-catch", "type-guard", "validation", "retry", "fallback"]
SiteKind = Literal["raise", "assert", "warn", "log", "exit", "http", "helper"]
GuardKind = Literal[
    "if", "elif", "else", "while", "assert", "early-exit", "loop", "except", "match-case", "with",
    "loop-else", "try-else",
]  # fmt: skip
#: The guards whose test must hold for the site to run (``conditions`` lists them as text); the
#: other kinds say which block the site stands in (a loop, a handler, a ``with``, a ``case``,
#: the ``else`` of a loop or of a ``try``) or what returned before it (an early exit).
CONDITION_KINDS: frozenset[str] = frozenset({"if", "elif", "else", "while", "assert"})
#: The guards that are tests the site needs to hold (``Guard.needed``): those above, and what
#: returned before the site (an early exit's test must have failed).
TEST_KINDS: frozenset[str] = CONDITION_KINDS | {"early-exit"}
ParameterKind = Literal["positional", "keyword", "var-positional", "var-keyword"]

#: A full commit id and a GitHub ``owner/name``: one definition each, for the record's fields
#: and for every option or file that gives one.  An owner is a letter or digit, then up to 38
#: letters, digits, hyphens (and the underscore of enterprise-managed users); a name is letters,
#: digits, ``.``, ``-``, ``_`` but not dots alone: ``../..`` would climb out of a permalink.
COMMIT = re.compile(r"^[0-9a-f]{40}$")
REPO_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,38}/[A-Za-z0-9_.-]*[A-Za-z0-9_-][A-Za-z0-9_.-]*$")

Kebab = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
Sha = Annotated[str, Field(pattern=COMMIT.pattern)]
Timestamp = Annotated[str, Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$")]
Permalink = Annotated[str, Field(pattern=r"^https://github\.com/[^/]+/[^/]+/blob/[^/]+/.+#L\d+-L\d+$")]
RepoName = Annotated[str, Field(pattern=REPO_NAME.pattern)]

#: The schema v2 keys, in the example's order.
SCHEMA_V2_KEYS = (
    "id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType",
    "errorClass", "httpStatus", "severity", "filePath", "lineNumber", "sourceCode",
    "sourceCodeStart", "sourceCodeEnd", "githubUrl", "documentation", "triggerScenarios",
    "commonSituations", "solutions", "exampleFix", "handlingStrategy", "validationCode",
    "typeGuard", "tryCatchPattern", "preventionTips", "tags", "backgroundTag", "analyzedSha",
    "analyzedAt", "schemaVersion",
)  # fmt: skip


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True)


class Site(_Model):
    """One place that raises a record's message. A record keeps every one of them."""

    file_path: str
    line_number: int = Field(ge=1)
    kind: SiteKind
    function: str | None = None
    conditions: list[str] = []
    error_class: str | None = None
    qualified_class: str | None = None
    #: Set only where this site's message differs from the record's (records keyed by code).
    error_message: str | None = None
    #: For a call of a raise helper (``self.fail(...)``): where the helper itself raises, which
    #: is the line a traceback's innermost frame shows.
    via_file_path: str | None = None
    via_line_number: int | None = None
    #: For a log line: the name of the logger it is written to (``pandas.io.sql``; ``""`` for
    #: the root logger), where the file says which (``logging.getLogger(__name__)``).
    logger: str | None = None


class ModelProse(_Model):
    """Who wrote one field a language model wrote (``errdex enrich --llm``): kept only once
    the field passed every check against the record's facts (``errdex.enrich.verify``)."""

    model: str
    #: What the server says of the model's build (its ``system_fingerprint``), where it says.
    model_version: str | None = None
    prompt_version: str
    #: ``errdex.enrich.prompt.content_key``: what the model was asked; prose whose key no
    #: longer matches the record's facts is stale.
    key: str


class Caller(_Model):
    """A call of the raising function elsewhere in the mined tree, resolved through the calling
    file's own names (never by name alone), that can reach the raise."""

    function: str
    file_path: str
    line_number: int = Field(ge=1)
    #: Whether the call passes what the raise's guards read from its own parameters unchanged
    #: (or literals under which they hold): its user decides, so it can reach the raise.
    #: False where that is not known: a caller that computes the values may never fail the test.
    forwards: bool = False


class EntryPoint(_Model):
    """A public function on the way from a user's code to the raise: the raising function
    itself when it is public, else the nearest public callers up the call chain."""

    #: Its qualified name in its module (``Fabric.setup``, ``Fabric.__init__``).
    function: str
    file_path: str
    #: Where it calls down the chain (the raise itself, for the raising function).
    line_number: int = Field(ge=1)
    #: How a user's code names it: the shortest public import path (``lightning.Fabric.setup``,
    #: ``lightning.Fabric`` for the constructor); None where the file is no known module.
    name: str | None = None
    #: The functions it reaches the raise through, in call order, the raising one left out.
    via: list[str] = []
    #: Where it calls the raising function itself (``via`` empty): each parameter of that
    #: function the raise's guards read that it passes one of its own parameters to,
    #: unchanged, and which (``cols`` is ``columns`` for ``ExcelFormatter(df, cols=columns)``).
    passes: dict[str, str] = {}


class TriggerTest(_Model):
    """A test in the mined tree that expects this error: ``pytest.raises`` or ``assertRaises``."""

    name: str
    file_path: str
    line_number: int = Field(ge=1)
    #: The statement the test runs inside the block (or the callable it passes).
    call: str | None = None
    #: The ``match=`` / ``assertRaisesRegex`` pattern, when the test gives one.
    match: str | None = None


#: What the record's own small facts forbid, as its models do: fields no errdex writes.
_FACT = ConfigDict(extra="forbid")


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of the function that raises, as its definition declares it.

    Guards and parameters are plain frozen dataclasses, not models: the extractor makes
    thousands of them in its workers, where a dataclass costs a fraction of a model, and the
    record validates and writes them as objects like its other fields.
    """

    __pydantic_config__ = _FACT

    name: str
    kind: ParameterKind
    #: The default as the source writes it (``None``, ``"utf-8"``); None when there is none.
    default: str | None = None


@dataclass(frozen=True, slots=True)
class Guard:
    """One guard on the path to a site, read from the syntax tree, outermost first.

    ``text`` is the test as written (``model is None``; for ``except`` the classes caught, for
    a loop and the ``else`` of a ``for`` ``target in iterable``, for the ``else`` of a ``while``
    its test, for a ``case`` its pattern, for ``with`` its items; empty for a bare ``except``
    and the ``else`` of a ``try``).  Where the test has the shape, it is also read as
    ``subject operator operand``: a comparison (``is``, ``is not``, ``==``, ``<``, ``in`` ...);
    a call, whose operator is the name called (``isinstance()``, ``hasattr()``) and whose
    subject and operand are its first two arguments; ``truth`` (the subject is the test
    itself); ``in`` for a loop (and the ``else`` of a ``for``: the loop ran out without a
    ``break``); ``matches`` for a ``case`` (subject the value matched, operand the pattern), or
    ``otherwise`` for a ``case`` that matches anything (``case _``: reached when no earlier case
    matched).  For ``except``, ``subject`` is the name the handler binds (``as exc``).  A
    leading ``not`` is folded into ``negated``.
    """

    __pydantic_config__ = _FACT

    kind: GuardKind
    text: str
    #: The site is reached when the reading (``subject operator operand``, else ``text``) is
    #: false: an ``else`` branch, an ``assert`` that fails, the code after an early exit, or a
    #: test that says ``not``.
    negated: bool = False
    subject: str | None = None
    operator: str | None = None
    operand: str | None = None
    #: The names the test reads, in alphabetical order: whether a caller, who has none of the
    #: function's locals, can write the same check.
    names: tuple[str, ...] = ()
    #: The condition under which the site is reached, as code (``not isinstance(x, str)``), its
    #: negation folded where that is exact (``x is not None`` for ``not (x is None)``).
    code: str | None = None
    #: For ``except``: the classes the handler catches, each as written (``ValueError``,
    #: ``click.BadParameter``); empty for a bare ``except`` or where what is caught is not
    #: named as a class (``except _ERRORS``, a tuple kept in a name).
    caught: tuple[str, ...] = ()
    #: For ``except`` and the ``else`` of a ``try``: the code the ``try`` guards, where its body
    #: is one statement (leaving out ``pass`` and names bound to constants): the expression
    #: of an expression statement, a ``return`` or an assignment to plain names
    #: (``self._number_class(value)``), else the statement (``import numpy``, ``d[k] = v``).
    #: None when the body runs several statements or a compound one: any of them may raise.
    guarded: str | None = None

    @property
    def false_branch(self) -> bool:
        """Met where its test fails: an ``else`` branch, a failed ``assert``, past an early exit."""
        return self.kind in _FALSE_BRANCH

    @property
    def condition(self) -> str:
        """The test as ``conditions`` writes it: ``not (x)`` where the site needs it false."""
        return f"not ({self.text})" if self.false_branch else self.text

    @property
    def needed(self) -> str:
        """The condition under which the site runs, as code: ``code`` (its negation folded),
        else ``condition``.  The one reading of a guard's test every reader uses: ``negated``
        says how the reading relates to ``text``'s own ``not``, not how the text relates to the
        site, so ``not (text)`` where ``negated`` is set inverts ``if not x:`` and early exits."""
        return self.code if self.code is not None else self.condition


_FALSE_BRANCH = frozenset({"else", "assert", "early-exit"})


def conditions_of(guards: Iterable[Guard]) -> tuple[str, ...]:
    """The tests that must hold for a site to run, as text (a record's ``conditions``)."""
    return tuple(g.condition for g in guards if g.kind in CONDITION_KINDS)


class Facts(_Model):
    """What the code says around a raise, gathered while mining: enrichment's only sources."""

    signature: str | None = None
    parameters: list[Parameter] = []
    #: The guards of the record's first site.
    guards: list[Guard] = []
    #: The enclosing function's docstring, first paragraph.
    docstring: str | None = None
    #: What the docstring's ``Raises`` section says of this class.
    raises_doc: str | None = None
    callers: list[Caller] = []
    tests: list[TriggerTest] = []
    #: The nearest public functions a user's code reaches the raise from, nearest first.
    entry_points: list[EntryPoint] = []
    #: The exception class's own docstring, first paragraph, when the mined tree defines it.
    class_doc: str | None = None
    #: What the docstring says of the parameters the guards read, by parameter name.
    parameter_docs: dict[str, str] = {}
    #: How the function is defined: ``async``, and its decorators as written (``property``,
    #: ``name.setter``, ``staticmethod``): how a caller's code calls it.
    is_async: bool = False
    decorators: list[str] = []
    #: The names the function's body binds before the raise (a parameter, or ``self.x``): a
    #: guard reading one tests the function's own value, not the one its caller passed.
    rebound: list[str] = []
    #: The docstring's sentence leaving the function to subclasses to override ("Unless
    #: overridden in a subclass, this raises an error.").
    override_note: str | None = None
    #: For a record of an npm package, how Node loads its file: ``require`` (the package's
    #: CommonJS entry reaches it), ``import`` (only its ES module entry does); None where
    #: neither does (a TypeScript source, a browser bundle) or the package is not known.
    loaded: Literal["require", "import"] | None = None
    #: How the error reaches the caller where it is not thrown (JavaScript builds errors as
    #: values): ``reject`` (the promise the function returns rejects with it), ``callback``
    #: (handed to a callback or an event), ``return`` (returned); None where it is thrown.
    delivery: Literal["reject", "callback", "return"] | None = None


class Record(_Model):
    id: Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]
    repo: RepoName
    slug: Kebab
    error_code: str | None
    error_message: str
    message_pattern: str
    error_type: ErrorType
    error_class: str | None
    http_status: int | None = Field(ge=100, le=599)
    severity: Severity
    file_path: str = Field(min_length=1)
    line_number: int = Field(ge=1)
    source_code: str
    source_code_start: int = Field(ge=1)
    source_code_end: int = Field(ge=1)
    #: None where the source is on no known GitHub repository (``pypi/<name>``).
    github_url: Permalink | None
    documentation: str
    trigger_scenarios: str
    common_situations: str
    solutions: list[str]
    example_fix: str | None
    handling_strategy: HandlingStrategy | None
    validation_code: str | None
    type_guard: str | None
    try_catch_pattern: str | None
    prevention_tips: list[str]
    tags: list[Kebab]
    background_tag: str | None
    #: None for an installed distribution whose commit nothing on disk records.
    analyzed_sha: Sha | None
    analyzed_at: Timestamp
    schema_version: Literal[2] = SCHEMA_VERSION

    # errdex extensions
    extension_version: Literal[2] = EXTENSION_VERSION
    #: Set by the extractor that read the file (``python``); for an imported schema v2 record,
    #: by the file's extension.
    language: str
    package: str | None = None
    version: str | None = None
    function: str | None = None
    qualified_class: str | None = None
    conditions: list[str] = []
    placeholders: list[str] = []
    message_kind: MessageKind = "literal"
    sites: list[Site] = []
    facts: Facts = Field(default_factory=Facts)
    #: Who wrote the prose: ``none`` (mined only), ``static`` (errdex's rules) or a model's name.
    enrichment: str = "none"
    #: For each enriched field, the facts behind it (``message``, ``conditions``, ``tests`` ...).
    provenance: dict[str, list[str]] = {}
    #: The fields a language model wrote (by schema v2 name), and who wrote them; the rest
    #: are errdex's rules' or, for an import, the source dataset's.
    model_prose: dict[str, ModelProse] = {}
    background_confidence: float | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _consistent(self) -> Record:
        if not self.source_code_start <= self.line_number <= self.source_code_end:
            raise ValueError("lineNumber must lie inside the source window")
        if self.source_code_end - self.source_code_start + 1 > SOURCE_WINDOW_MAX_LINES:
            raise ValueError(f"the source window is longer than {SOURCE_WINDOW_MAX_LINES} lines")
        key = identity(self.error_code, self.error_message, self.message_kind, self.error_class)
        if self.id != record_id(self.repo, key, self.file_path):
            raise ValueError("id does not match repo, message or code, and filePath")
        return self

    @property
    def fits_schema_v2(self) -> bool:
        """Schema v2 requires a commit and a permalink; an installed distribution may have neither."""
        return self.analyzed_sha is not None and self.github_url is not None

    def to_errlookup(self) -> dict[str, Any]:
        """The schema v2 record exactly as the existing dataset publishes it (see ``fits_schema_v2``).

        Its prose fields must not be empty; where no fact gave errdex anything to say, they get
        the one sentence every record's facts support (where it is raised, under which guards),
        never filler.
        """
        full = self.model_dump(by_alias=True, mode="json")
        for key in ("documentation", "triggerScenarios", "commonSituations"):
            if not full[key]:
                full[key] = self.where_when()
        return {key: full[key] for key in SCHEMA_V2_KEYS}

    def where_when(self) -> str:
        """Where the error is raised and under which conditions, from the site alone."""
        place = f"`{self.function}`" if self.function else "module-level code"
        where = f"Raised in {place} ({self.file_path}, line {self.line_number})"
        if not self.conditions:
            return f"{where}."
        return f"{where} when {' and '.join(f'`{c}`' for c in self.conditions)}."

    def model_authors(self) -> list[str]:
        """Which fields a model wrote and who it was, a line per model and prompt, as every
        front end marks them (``written by model smollm2 (b5), prompt 1: documentation``)."""
        by: dict[tuple[str, str | None, str], list[str]] = {}
        for name, written in sorted(self.model_prose.items()):
            by.setdefault((written.model, written.model_version, written.prompt_version), []).append(name)
        lines = []
        for (model, version, prompt), names in by.items():
            built = f" ({version})" if version else ""
            lines.append(f"written by model {model}{built}, prompt {prompt}: {', '.join(names)}")
        return lines

    def to_errdex(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, mode="json")


def dumps(value: Any) -> str:
    """Compact JSON any UTF-8 file or database (and any strict JSON reader) accepts.

    A Python string can hold a lone surrogate (mined from a ``"\\udc80"`` escape in source)
    that UTF-8 cannot: such a character is written as the escape text the source showed.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(_escaped(value), ensure_ascii=False, separators=(",", ":"))
    return text


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return utf8(value)
    if isinstance(value, dict):
        return {utf8(k): _escaped(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_escaped(v) for v in value]
    return value


def utf8(text: str) -> str:
    """Text UTF-8 can hold: a lone surrogate becomes its escape text (``\\udc80``).

    The miner applies it to every string it reads from a syntax tree, so records never hold
    what no file, database or id hash could take.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def site_kind(error_type: ErrorType) -> SiteKind:
    """The kind of site a record's type stands for, for a record that lists none of its own
    (a schema v2 record has no ``sites``): an http error's, a console message's, else a raise."""
    return _SITE_KINDS.get(error_type, "raise")


_SITE_KINDS: dict[ErrorType, SiteKind] = {"http": "http", "console": "log"}


def identity(error_code: str | None, message: str, kind: MessageKind, error_class: str | None) -> str:
    """What identifies a record besides repo and file: its code, else its message, else its class.

    A message with no text of its own (``{msg}``) tells nothing apart, so errdex adds the class:
    ``raise ParseError(msg)`` and ``raise TypeError(msg)`` in one file stay two records.  The
    miner groups sites by this key and the record's validator checks its id against it.
    """
    if error_code:
        return error_code
    if kind == "dynamic" and error_class:
        return f"{error_class}: {message}"
    return message or error_class or ""


def is_commit(text: str) -> bool:
    return COMMIT.match(text) is not None


def is_repo_name(text: str) -> bool:
    return REPO_NAME.match(text) is not None


def record_id(repo: str, message_or_code: str, file_path: str) -> str:
    """The existing dataset's id: 16 hex of SHA-256 over the three parts joined by 0x01."""
    key = "\x01".join((repo, message_or_code, file_path)).encode()
    return hashlib.sha256(key).hexdigest()[:16]


_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def kebab(text: str) -> str:
    return _NON_ALNUM.sub("-", text.lower()).strip("-")


def base_slug(error_code: str | None, message: str, fallback: str = "error") -> str:
    return kebab(error_code or message[:50]) or kebab(fallback) or "error"


def unique_slugs(bases: list[str]) -> list[str]:
    """Suffix repeats with -2, -3 ... in the order given, so slugs are unique within a repo."""
    seen: dict[str, int] = {}
    taken = set(bases)
    out = []
    for base in bases:
        count = seen.get(base, 0) + 1
        seen[base] = count
        slug = base
        if count > 1:
            n = count
            while (slug := f"{base}-{n}") in taken:
                n += 1
            taken.add(slug)
        out.append(slug)
    return out


def source_window(lines: list[str], line_number: int) -> tuple[str, int, int]:
    """The lines around a site (18 either side, clipped to the file), and their 1-based bounds."""
    start = max(1, line_number - SOURCE_WINDOW_RADIUS)
    end = min(len(lines), line_number + SOURCE_WINDOW_RADIUS)
    end = max(end, line_number)
    return "\n".join(lines[start - 1 : end]), start, end


def permalink(repo: str, sha: str, file_path: str, start: int, end: int) -> str:
    """The GitHub page of lines start..end; the ref and path are percent-encoded, so a ``#`` or
    ``?`` in a file name, or a ``/`` in a release tag, cannot cut the address short."""
    ref, path = quote(sha, safe=""), quote(file_path, safe=_PATH_SAFE)
    return f"https://github.com/{repo}/blob/{ref}/{path}#L{start}-L{end}"


#: What a URL path keeps as is (RFC 3986 ``pchar`` and ``/``): all else is percent-encoded.
_PATH_SAFE = "/!$&'()*+,;=:@~"


_NAME_SEPARATORS = re.compile(r"[-_.]+")


def canonical(name: str) -> str:
    """A distribution name as PyPI compares them (PEP 503): ``SQLAlchemy`` and ``sqlalchemy``,
    ``zope.interface`` and ``zope-interface`` are one."""
    return _NAME_SEPARATORS.sub("-", name).lower()


def release_key(version: str | None) -> tuple[int, Version | str]:
    """How releases sort, oldest first: by PEP 440, with versions it cannot read before all
    others (by their text), and no version at all first of those."""
    try:
        return (1, Version(version or ""))
    except InvalidVersion:
        return (0, version or "")


def utc_now() -> str:
    """An ISO-8601 UTC timestamp with milliseconds, as the existing dataset writes them."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def json_schema() -> dict[str, Any]:
    return Record.model_json_schema(by_alias=True)


#: ``npm``: a package directory or tarball mined on its own; ``node``: a package of a project's
#: ``node_modules``, owned by its index (``errdex.nodeindex``) as ``installed`` and ``stdlib``
#: are by the Python environment's.
SourceKind = Literal[
    "checkout", "directory", "wheel", "sdist", "import", "installed", "stdlib", "npm", "node"
]


class RepoInfo(_Model):
    """One mined source as the store lists it: where records came from, and what was counted."""

    repo: RepoName
    sha: Sha | None
    analyzed_at: Timestamp
    kind: SourceKind
    package: str | None = None
    version: str | None = None
    #: For an installed distribution: what changes when it is reinstalled (see ``errdex index``).
    fingerprint: str | None = None
    files: int = 0
    skipped: int = 0
    sites: int = 0
    records: int = 0
