"""The interface a language's entry fills: everything errdex needs that depends on the language.

Mining asks it which files are sources and which are tests, how to decode them, and to extract
their error sites and test expectations; enrichment asks it how code calls a function and how
to write code; matching asks it how its tracebacks read when pasted.  An entry imports its
heavy parts (parsers, syntax-tree walkers) only when a method needs them, so that looking an
entry up costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from errdex.languages.ir import FileResult, FunctionInfo, HelperDef, Trigger
    from errdex.languages.pastes import Lines, ParsedError, Read, Scan
    from errdex.languages.snippets import Snippet, Test
    from errdex.record import Parameter
    from errdex.symbols import Vocabulary


class CodeWriter(Protocol):
    """How enrichment's code is spelled in a language: whole snippets, every statement real (no
    placeholder for code left out), importing what they name; the caller's values are free names."""

    def comment(self, text: str) -> str: ...

    def call(
        self,
        function: str,
        positional: Sequence[str] = (),
        keywords: Sequence[tuple[str, str]] = (),
        awaited: bool = False,
    ) -> str: ...

    def assign(self, target: str, value: str) -> str: ...

    def import_of(self, module: str, name: str) -> str: ...

    def import_module(self, module: str) -> str: ...

    def all_of(self, tests: Sequence[str]) -> str: ...

    def if_block(self, test: str, body: str) -> str: ...

    def indent(self, code: str) -> str: ...

    def is_instance(self, subject: str, classes: str) -> str: ...

    def raise_error(self, error_class: str, message: str) -> str: ...

    def report(self, what: str) -> str: ...

    def program(self, imports: Sequence[str], body: str, awaited: bool = False) -> str: ...

    def catchable(self, qualified_class: str) -> tuple[list[str], str] | None: ...

    def try_except(self, caught: str, body: str, handler: str) -> str: ...

    def catch_warning(self, caught: str, body: str, handler: str) -> str: ...

    def ignore_warning(self, caught: str, message_start: str) -> str: ...

    def quiet_logger(self, logger: str, severity: str) -> str | None: ...

    def is_standard(self, module: str) -> bool: ...

    def yields(self, source: str, first_line: int, line: int, function: str) -> bool: ...

    def consumed(self, call: str) -> str: ...

    def is_public(self, name: str) -> bool: ...

    def installable(self, module: str) -> bool: ...

    def quoted_call(self, text: str) -> bool: ...

    def first_choice(self, collection: str) -> str | None: ...

    def is_literal(self, code: str) -> bool: ...

    def converted(self, value: str, type_name: str) -> str | None: ...

    def builtin_types(self, classes: str) -> bool: ...

    def reads_only(self, code: str, allowed: Collection[str]) -> bool: ...

    def caller_side(
        self, code: str, names: Collection[str], params: Collection[str], receiver: str | None
    ) -> str | None: ...


class ClaimReader(Protocol):
    """How code someone else wrote (a model's fix, a code span in its prose) reads in the
    language: what it asks of a library, what it would do, and its tests as structure
    (``errdex.enrich.verify`` checks each against the record and the symbol tables)."""

    #: The language's names that no release's table holds: built-in classes, the standard library.
    VOCABULARY: Vocabulary
    #: The classes every error class of the language is (Python's ``Exception``).
    ERROR_ROOTS: tuple[str, ...]
    #: Names that stand for the object code is inside of (``self``, ``this``), and the name a
    #: constructor is defined by (``__init__``): written about any record, they name none.
    RECEIVERS: frozenset[str]
    CONSTRUCTORS: frozenset[str]
    #: Standard modules whose names are more often a variable's (Python's ``cmd``, Node's
    #: ``path``): in prose, ``cmd.callback`` is a user's object, not the module.
    VARIABLE_MODULES: frozenset[str]
    #: The language's calls that act on the system, as text anywhere (prose names them too),
    #: each with what it does; and those that dump the environment (``print(os.environ)``).
    SYSTEM_CALLS: tuple[tuple[re.Pattern[str], str], ...]
    ENVIRONMENT_DUMPS: re.Pattern[str]
    #: What makes a code span a test rather than a name or a call (``x is None``, ``!x``).
    TEST_SHAPE: re.Pattern[str]
    #: The language's ways of comparing versions (``Version(...)``, ``semver.satisfies``): a
    #: line with one claims a version, not a value.
    VERSION_CHECKS: re.Pattern[str]

    def snippet(self, code: str) -> Snippet | None:
        """A whole snippet read; None where it does not parse as the language."""
        ...

    def span(self, text: str) -> Snippet | None:
        """A code span of prose read as an expression; None for one that is none."""
        ...

    def test(self, code: str) -> Test | None:
        """A test read as atoms; None where it is no expression."""
        ...

    def instance_of(self, class_name: str) -> str:
        """What code usually calls an instance of a class (``fabric`` for ``Fabric``)."""
        ...


class CallReader(Protocol):
    """What a call site's text says of the raise it may reach (``errdex.mine.facts`` drops a
    caller only where this is certain): its arguments' values, whether a guard holds under
    them, and the tests that hold where the call stands."""

    def call_at(self, text: str, open_at: int) -> Any | None: ...

    def bound(self, call: Any, parameters: Sequence[Parameter], implicit: int) -> dict[str, Any]: ...

    def holds(self, code: str, values: Mapping[str, Any]) -> bool | None: ...

    def value_of(self, code: str) -> Any: ...

    def tests_at(
        self, lines: Sequence[str], line: int, column: int, first: int
    ) -> list[tuple[str, bool]]: ...

    def contradicts(self, test: str, must: bool, needed: str) -> bool: ...

    def names_of(self, code: str) -> tuple[str, ...]: ...

    def forwarded(self, call: Any, parameters: Sequence[Parameter], implicit: int) -> dict[str, str]: ...

    def unchanged_parameters(
        self, lines: Sequence[str], first: int, last: int, line: int
    ) -> frozenset[str]: ...


class PasteReader(Protocol):
    """How a language's errors read when pasted: its tracebacks, and its one-line forms."""

    def read(self, scan: Scan, lines: Lines, i: int, depth: int) -> Read | None:
        """The errors in the block starting at line ``i`` and the index after it, or None."""
        ...

    def summary(self, line: str) -> ParsedError | None:
        """A one-line digest of a failure (pytest's ``FAILED x - ValueError: bad``)."""
        ...

    def bare(self, text: str) -> ParsedError | None:
        """A paste of one line that is an error of this language, though no block reads it."""
        ...

    def raises(self, source: str) -> bool:
        """Whether a source line a traceback prints under a frame may be a statement that
        raises (or its start): where no language's may, an operation raised the error."""
        ...

    def forms(self, error_class: str | None, message: str) -> list[tuple[str, str | None]]:
        """Other forms a raise may have written a printed message in (the language prints
        some errors with more than their message: quotes, an arguments tuple, a prefix), each
        with the class it was raised as where that is not the printed one (a wrapper prints
        the wrapped error's class before its message)."""
        ...


class Language:
    """One language errdex reads.  Entries subclass it; a method an entry lacks fails loudly."""

    #: The registry's key, and ``record.language``.
    name: str = ""
    #: Its source files' extensions.
    extensions: tuple[str, ...] = ()
    #: Globs of files and directories that hold no library code of its own (``__pycache__``,
    #: ``conftest.py``), besides those no language's library holds (docs, examples, vendored).
    excludes: tuple[str, ...] = ()
    #: Directories that hold none of the library's tests.
    not_tests: tuple[str, ...] = ()
    #: The file that makes a directory a package (``__init__.py``), if the language has one.
    package_file: str | None = None
    #: Parameters that stand for the object a method is called on: no caller passes them.
    receivers: frozenset[str] = frozenset()
    #: Words that make ``name(`` a definition, not a call (``def name(``), and what opens a
    #: comment to the end of the line: the call scan reads text, not syntax trees.
    defining_words: frozenset[str] = frozenset()
    line_comment: str | None = None
    #: The quotes that open a string which may span lines (``"""``): text inside one calls nothing.
    long_strings: tuple[str, ...] = ()
    #: Classes whose errors are about an argument's value (``errorType: validation``).
    validation_class: re.Pattern[str] = re.compile(r"(?!)")
    #: Classes that come with the language: their names need no import and no resolution.
    builtin_classes: frozenset[str] = frozenset()
    #: Modules a printed qualified class may name that say nothing of which library raised it.
    unlocated_modules: frozenset[str] = frozenset()
    #: Whether a user's code imports a library's function by its file's module path (Python's
    #: ``pkg.sub.mod``); where not (npm packages export what their entry point chooses), no
    #: snippet imports a function it has no public name for.
    imports_by_path: bool = True
    #: Whether a method's first parameter is the object it is called on (Python's ``self``);
    #: JavaScript's methods get theirs as ``this``, declared by no parameter.
    receiver_parameter: bool = True
    #: Where the language prints an error's class by its bare name (never a module's), the
    #: class a subclass that names itself nothing prints as (JavaScript's ``Error``); None
    #: where printed classes are qualified (Python's ``pkg.errors.NotFound``).
    unnamed_class_prints: str | None = None
    #: What a snippet that silences a warning adds about its scope, where the language has a
    #: block that limits it (Python's ``with warnings.catch_warnings():``); empty where not.
    warning_scope: str = ""

    def is_test_name(self, name: str) -> bool:
        """Whether a file of this name is a test wherever it lies."""
        raise NotImplementedError(f"{self.name}: is_test_name")

    def module_name(self, parts: Sequence[str]) -> tuple[str | None, bool]:
        """The module a file is, from its path below the import root, and whether it is a package."""
        raise NotImplementedError(f"{self.name}: module_name")

    def package_of(self, file_path: str) -> str | None:
        """The top-level package a file (a record's ``filePath``) belongs to, as a traceback's
        qualified class names it; None where the path says none."""
        raise NotImplementedError(f"{self.name}: package_of")

    def module_of(self, file_path: str) -> str | None:
        """The whole module a file (a record's ``filePath``) is, as its qualified classes name it
        (``src/pkg/sub/mod.py`` is ``pkg.sub.mod``); None where the path says none."""
        raise NotImplementedError(f"{self.name}: module_of")

    def read_source(self, path: Path, limit: int) -> str:
        """The file's text, decoded as the language would; raises ``OSError`` (also for what is
        no regular file, or over ``limit`` bytes: ``errdex.reading.read_regular`` reads it),
        ``ValueError`` (``UnicodeDecodeError``) or ``SyntaxError`` when it cannot be."""
        raise NotImplementedError(f"{self.name}: read_source")

    def extract(self, text: str, path: str, module: str | None, is_package: bool) -> FileResult:
        """The file's error sites and declarations, or in ``error`` why there are none."""
        raise NotImplementedError(f"{self.name}: extract")

    def extract_triggers(self, text: str, path: str) -> list[Trigger]:
        """The errors a test file's tests expect."""
        raise NotImplementedError(f"{self.name}: extract_triggers")

    def known_helpers(self) -> Mapping[str, HelperDef]:
        """Functions outside most mined trees that raise with the message they are given."""
        return {}

    def called_as(self, function: str | None) -> tuple[str | None, set[str] | None]:
        """The name a function is called by, and the receivers a call of it may have (None: any)."""
        raise NotImplementedError(f"{self.name}: called_as")

    def call_of(self, function: str | None) -> tuple[str | None, str | None]:
        """How a user's code calls a function (``fabric.backward``), and on what (``fabric``)."""
        raise NotImplementedError(f"{self.name}: call_of")

    def special_use(self, function: str | None) -> tuple[str, str] | None:
        """What a user's code does that runs a method the language calls by no name (Python's
        ``__setattr__`` runs on ``obj.name = value``): in words, and as code; None for others."""
        raise NotImplementedError(f"{self.name}: special_use")

    def signature(self, lines: list[str], function: FunctionInfo) -> str | None:
        """A function's signature as written, on one line."""
        raise NotImplementedError(f"{self.name}: signature")

    def summary(self, doc: str | None) -> str | None:
        """A docstring's (or doc comment's) summary."""
        raise NotImplementedError(f"{self.name}: summary")

    def override_note(self, doc: str | None) -> str | None:
        """The sentence of a function's documentation that leaves it to subclasses to override."""
        raise NotImplementedError(f"{self.name}: override_note")

    def raises(self, doc: str | None, error_class: str | None) -> str | None:
        """What a function's documentation says of when it raises ``error_class``."""
        raise NotImplementedError(f"{self.name}: raises")

    def parameter_docs(self, doc: str | None, names: Iterable[str]) -> dict[str, str]:
        """What a function's documentation says of each of the parameters ``names``."""
        raise NotImplementedError(f"{self.name}: parameter_docs")

    def plain(self, text: str) -> str:
        """Documentation text with the language's markup reduced to plain text and backticked code."""
        raise NotImplementedError(f"{self.name}: plain")

    def is_public(self, function: str, module: str | None) -> bool:
        """Whether a function (qualified within ``module``) is one a library's users call, by the
        language's naming conventions."""
        raise NotImplementedError(f"{self.name}: is_public")

    def named_as(self, function: str) -> str:
        """A function's qualified name as a user's code names it (a constructor by its class)."""
        raise NotImplementedError(f"{self.name}: named_as")

    def import_entries(
        self, package: str, entries: Mapping[str, str], modules: Collection[str]
    ) -> dict[str, str]:
        """What a user's import of a release's names loads, where that is not a module of the
        same name (``express`` loads ``./index``): from its name, the files its runtime starts
        from (``Source.entries``) and its modules.  Empty where imports name modules."""
        return {}

    def is_import_error(self, error_class: str) -> bool:
        """Whether the class says a module or package is missing."""
        return False

    @property
    def code(self) -> CodeWriter:
        """How enrichment writes code in this language."""
        raise NotImplementedError(f"{self.name}: code")

    @property
    def claims(self) -> ClaimReader | None:
        """How code someone else wrote reads in this language; None where errdex cannot read it
        (a model's code in it is then never kept)."""
        return None

    @property
    def call_reader(self) -> CallReader | None:
        """How a call's text bears on the raise it may reach; None where the language cannot
        tell (every caller found is kept)."""
        return None

    @property
    def paste(self) -> PasteReader:
        """How this language's errors read when pasted."""
        raise NotImplementedError(f"{self.name}: paste")

    def upgrade_facts(self, conditions: list[str], signature: str | None) -> dict[str, Any]:
        """Structured ``guards`` and ``parameters`` for a record written when facts were text."""
        raise NotImplementedError(f"{self.name}: upgrade_facts")
