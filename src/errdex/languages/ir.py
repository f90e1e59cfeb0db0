"""What a language's extractor hands the rest of mining: sites and declarations, per file.

The vocabulary of the extractor's side of the language interface (``errdex.languages.base``):
every entry answers in it, and mining reads nothing else of a file.  A file is extracted on its
own (in a worker process), so everything here is plain data that pickles cheaply: no syntax
tree crosses this line.  Facts that need the whole tree (exception classes that build their
message, raise helpers, re-exported classes) are declarations that :mod:`errdex.mine.resolve`
joins once every file is read; :mod:`errdex.mine.build` then turns sites into records.
Nothing here depends on the language the file was written in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from errdex.patterns import Placeholder, Template
from errdex.record import Guard, Parameter
from errdex.symbols import FileSymbols

#: The name a module's default export has among its ``FileResult.imports`` and after the
#: module's name (``lib/errors.default``): what ``require`` returns, or ``export default`` exports.
DEFAULT = "default"
#: A literal ``null`` passed for a message: a value like any other, shown as a placeholder,
#: save where the parameter falls back to a default for it (``ClassDef.nullish``).
NULL = Template((Placeholder("null", "${null}"),))


@dataclass(slots=True)
class RawSite:
    """A place that raises, warns, logs or exits, before cross-file resolution."""

    line: int
    kind: str
    function: str | None
    #: The guard conditions as text, outermost first (``model is None``, ``not (x)``).
    conditions: tuple[str, ...]
    template: Template | None
    #: Every guard on the path, conditions and the blocks around the site, as structure.
    guards: tuple[Guard, ...] = ()
    class_written: str | None = None
    class_qualified: str | None = None
    severity: str = "error"
    #: For a log line: the logger's name, where the file says it (``""`` for the root logger).
    logger: str | None = None
    http_status: int | None = None
    error_code: str | None = None
    #: A library class called here, which may build its own message (``raise NotFound(name)``,
    #: ``raise StreamConsumed()``); its argument templates are kept to fill that message in.
    constructed: bool = False
    args: tuple[Template | None, ...] = ()
    kwargs: tuple[tuple[str, Template | None], ...] = ()
    #: For a call of a warning helper: the category it passes (``category=RuntimeWarning``),
    #: as written and qualified, which the warning is rather than the helper's default.
    class_passed: tuple[str, str | None] | None = None
    #: For a call that is a site only if the callee turns out to be a raise helper.
    callee: str | None = None
    callee_qualified: str | None = None
    callee_is_attr: bool = False
    #: What the callee is called on, as written (``self.cursor`` for ``self.cursor.execute(``).
    callee_head: str = ""
    #: For a helper call: the helper's own raise, where a traceback's innermost frame points.
    via_path: str | None = None
    via_line: int | None = None
    #: For a message another function builds, resolved once every file is read.
    message_ref: MessageRef | None = None
    #: For a message looked up by key in the enclosing class's messages dict.
    message_key: str | None = None
    #: The message is known (found by its key); a factory may still tell the class.
    message_settled: bool = False
    #: How an error built here reaches the caller where it is not thrown (a language whose
    #: errors are values): ``reject`` (a promise's), ``callback`` (handed to a function),
    #: ``return`` (returned); None where it is thrown, or raised as the language raises.
    delivery: str | None = None


@dataclass(slots=True)
class Sink:
    """What a raise helper does with its message parameter."""

    kind: str
    class_written: str | None
    class_qualified: str | None
    template: Template
    severity: str = "error"
    http_status: int | None = None
    #: Where the helper raises: the innermost frame of every error it produces.
    path: str | None = None
    line: int | None = None

    @classmethod
    def of(cls, site: RawSite, kind: str, template: Template, path: str) -> Sink:
        """What a helper does with its parameter, as the site in it that raises does."""
        return cls(
            kind,
            site.class_written,
            site.class_qualified,
            template,
            site.severity,
            site.http_status,
            path,
            site.line,
        )


class Forward(NamedTuple):
    """A helper's call passing its message parameter on to another function."""

    callee: str
    is_attr: bool
    #: Where the parameter goes: a position, or a keyword.
    position: int | str
    template: Template
    #: What the callee is called on, as written (``self.cursor``); empty for a bare name.
    head: str = ""


@dataclass(slots=True)
class HelperDef:
    """A function that raises (warns, logs, exits) with a message built from one of its parameters."""

    name: str
    module: str | None
    is_method: bool
    #: Parameters callers pass (``self``/``cls`` left out), and how many of them are positional.
    params: tuple[str, ...]
    positional: int
    param: str = ""
    index: int | None = None
    sink: Sink | None = None
    forwards: list[Forward] = field(default_factory=list)
    #: Other raises of the same parameter, each a site of its own at every call: ``fail(msg)``
    #: throws ``Error(msg)`` where a handler asks for it, ``new YError(msg)`` else.
    others: list[Sink] = field(default_factory=list)
    #: The helper as its module names it (``Connection.execute``): what a call on an object
    #: other than its own must be named after to be one of it.
    qualname: str = ""
    #: For a rest parameter (``...args``): what its values are joined with into the message
    #: (@hapi/hoek's ``assert(ok, 'Invalid rule', name)`` says ``Invalid rule <name>``).
    joined: str | None = None
    #: For a helper outside the mined tree: its file as an import names it
    #: (``@hapi/hoek/lib/assert``), where its raise is found when that package is installed
    #: beside the mined one (``mine/installed.py``).
    defined_in: str | None = None


@dataclass(slots=True)
class ClassDef:
    """An exception class candidate: its bases, and the message its constructor or ``__str__`` builds."""

    qualified: str
    bases: tuple[str, ...]
    #: The constructor's parameters (``self`` left out), the literal defaults among them, and
    #: the attributes it sets from them (``self.description = description``).
    has_init: bool = False
    params: tuple[str, ...] = ()
    defaults: dict[str, Template] = field(default_factory=dict)
    #: The parameters whose default also stands for a ``null`` given, being a fallback
    #: (``msg || 'x'``, ``msg == null ? 'x' : msg``), as a parameter's own default is not.
    nullish: set[str] = field(default_factory=set)
    attr_params: dict[str, str] = field(default_factory=dict)
    #: What the constructor passes up to its base's (``super().__init__(message, ctx)``): per
    #: positional argument, the parameter it passes (None for any other value); None where it
    #: calls no base constructor that errdex reads.
    super_args: tuple[str | None, ...] | None = None
    #: Class-level text (``description = "The requested URL was not found"``), which
    #: ``self.description`` in a message reads unless the constructor set it.
    attributes: dict[str, Template] = field(default_factory=dict)
    #: What ``str()`` of an instance may give: every message ``__str__`` returns, else the one
    #: the constructor passes up.
    templates: list[Template] = field(default_factory=list)
    #: Beside those, a message computed at run time from what the constructor is given
    #: (``super(path.length ? `At path: ${path} -- ${message}` : message)``, ``message`` read
    #: off an argument): the class may print any text.
    computed: Template | None = None
    from_str: bool = False
    #: ``__str__`` may also return the message it was given (``return self.message``).
    keeps_message: bool = False
    #: ``__str__`` returns ``self.args[0] % self.args[1:]``: the raise passes a ``%`` template
    #: and its values, logging-style.
    formats_args: bool = False
    #: Messages kept by key in a class-level dict (``default_error_messages = {"invalid": ...}``),
    #: which ``raise self.make_error("invalid")`` or ``self.error_messages["invalid"]`` look up.
    messages: dict[str, Template] = field(default_factory=dict)
    #: Its docstring as written, if it has one.
    docstring: str | None = None


@dataclass(slots=True)
class MessageFunc:
    """A function, method or property that returns a message: ``def _msg(self, v): return f"..."``."""

    #: ``module:Class.method`` or ``module:function``, the key a call site looks it up by.
    key: str
    params: tuple[str, ...]
    templates: list[Template] = field(default_factory=list)
    #: For a factory (``def err(msg): return ParseError(f"{msg} at ...")``), the class it returns.
    class_written: str | None = None
    class_qualified: str | None = None


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A site whose message another function returns: ``raise X(self._format_error(value))``."""

    #: Keys to try, most specific first (the enclosing class, then the module).
    keys: tuple[str, ...]
    args: tuple[Template | None, ...] = ()
    kwargs: tuple[tuple[str, Template | None], ...] = ()


class FunctionInfo(NamedTuple):
    """One function of a file: where its code is, and what it declares."""

    #: The qualified name (``Fabric.backward``, ``outer.<locals>.inner``).
    name: str
    #: The line of its ``def``, of the first statement of its body, and its last line.
    line: int
    body_line: int
    end_line: int
    #: Its docstring as written, if it has one.
    docstring: str | None
    #: Its parameters: read only for a function that encloses a site (enrichment's facts), since
    #: a library has far more functions than sites.
    parameters: tuple[Parameter, ...] = ()
    #: Read with the parameters, for the same functions: whether it is ``async``, its
    #: decorators as code (``property``, ``name.setter``), and each name (``x``, ``self.x``)
    #: its body assigns, with the first line that does (how a caller calls it, and which of
    #: its guards test a value the caller passed).
    is_async: bool = False
    decorators: tuple[str, ...] = ()
    assigned: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Trigger:
    """One expectation of an error in a test (``pytest.raises``, ``assertRaises``)."""

    #: The class as the test writes it (``click.BadParameter``, ``ValueError``); empty where the
    #: test names none (``expect(fn).toThrow(/text/)``): any class, its message decides.
    error_class: str
    #: The message pattern the test checks, when it checks one.
    match: str | None
    test: str
    path: str
    line: int
    #: What the test runs to get the error, as written.
    call: str | None
    #: The functions that code calls, qualified through the test file's imports where it
    #: imports them (``pandas.MultiIndex.from_arrays`` for ``pd.MultiIndex.from_arrays``), else
    #: as written: how a test finds the function it calls.
    called: tuple[str, ...]
    #: Each of those calls as written, beside ``called``.
    calls: tuple[str, ...] = ()


@dataclass(slots=True)
class FileResult:
    """One file's extraction, or the reason it could not be read (``error``)."""

    path: str
    module: str | None
    #: The language the file is written in, as the registry names it.
    language: str
    sites: list[RawSite] = field(default_factory=list)
    candidates: list[RawSite] = field(default_factory=list)
    helpers: list[HelperDef] = field(default_factory=list)
    classes: list[ClassDef] = field(default_factory=list)
    message_funcs: list[MessageFunc] = field(default_factory=list)
    #: Each imported name and what it stands for; ``*module`` for ``from module import *``.
    imports: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    functions: list[FunctionInfo] = field(default_factory=list)
    #: For a test file: the errors its tests expect.
    triggers: list[Trigger] = field(default_factory=list)
    error: str | None = None
    #: What was left out of a file otherwise read, as (line, reason): a statement, or a fact of
    #: a site (a guard's reading, a function's parameters) nested deeper than the reader follows.
    omitted: list[tuple[int, str]] = field(default_factory=list)
    #: What the file defines (``errdex.symbols``), for the release's symbol table; None for a
    #: file not read, or a test file.
    symbols: FileSymbols | None = None
