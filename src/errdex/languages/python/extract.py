"""Extract error sites from one Python file with the standard ``ast`` module.

Nothing here imports or runs the code it reads.  The walk visits statements only and
descends into an expression just where a site can be (a ``raise``, an ``assert``, a call
statement), which keeps mining within a small margin of the bare parse.  Every statement type
is either handled or listed as holding no site (``IGNORED_STATEMENTS``); one errdex does not
know fails the file loudly instead of being skipped in silence.  Code nested deeper than the
walk or ``ast.unparse`` can follow costs only itself, counted in ``FileResult.omitted``: a guard
keeps its text without its reading, a function its sites without its parameters, any other
statement is left out with its sites.  Facts that need the whole tree (exception classes that
build their message, raise helpers, re-exported classes) are returned as declarations
(:mod:`errdex.languages.ir`) and resolved afterwards by :mod:`errdex.mine.resolve`.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any, ClassVar, NamedTuple

from errdex.errors import too_deep
from errdex.languages.ir import (
    ClassDef,
    FileResult,
    Forward,
    FunctionInfo,
    HelperDef,
    MessageFunc,
    MessageRef,
    RawSite,
    Sink,
)
from errdex.languages.python.evaluate import Evaluator, Scope, builds_text, inline, mentions
from errdex.languages.python.guards import code_of, condition_guard, names_in
from errdex.languages.python.names import BUILTIN_EXCEPTIONS, LANGUAGE, RECEIVERS
from errdex.languages.python.symbols import FileDefinitions
from errdex.languages.python.syntax import SourceText, dotted, is_int, is_none, split_lines
from errdex.patterns import Template, fields_of, percent_template
from errdex.record import Guard, GuardKind, Parameter, conditions_of, utf8
from errdex.symbols import BASES, OWN_CLASS, FileSymbols, member_uses

LOG_LEVELS = {
    "critical": "critical",
    "fatal": "critical",
    "error": "error",
    "exception": "error",
    "warning": "warning",
    "warn": "warning",
}
MESSAGE_KEYWORDS = ("msg", "message", "detail", "description", "reason")
HTTP_CLASSES = {"Http404": 404, "HttpResponseBadRequest": 400}
_LOGGER_NAME = re.compile(r"(^|[._])_*(log|logs|logger|logging)$", re.IGNORECASE)
#: Expression types that can build a message; a call passing none of them is no helper call.
_SINK_NAMES = frozenset({"warn", "warn_explicit", "exit", "quit", "abort", *LOG_LEVELS})
_STRINGISH = frozenset({ast.Constant, ast.JoinedStr, ast.BinOp, ast.Call})
#: Class names that say "exception"; only such classes (or subclasses of builtins) are searched
#: for a message-building constructor, which keeps ordinary classes off the hot path.
_MESSAGES_NAME = re.compile(r"messages$", re.IGNORECASE)
#: A message key rather than a message: ``make_error("invalid")``, ``fail("max_length")``.
_MESSAGE_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_EXCEPTION_NAME = re.compile(r"(Error|Exception|Warning|Exit|Failure|Fault|Interrupt)$")
#: Statements that hold no site and bind no message.  Named, not typed, so that a type a newer
#: Python adds is listed here when errdex learns of it.
IGNORED_STATEMENTS = frozenset({"Pass", "Break", "Continue", "Delete", "Global", "Nonlocal", "TypeAlias"})
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
#: Statements holding others: a ``try`` whose body is one of these guards all that it holds.
_COMPOUND = frozenset({
    ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match,
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
})  # fmt: skip
#: The longest code a guard quotes as what a ``try`` guards; longer reads as "the ``try`` block".
_GUARDED_LENGTH = 120


class UnknownStatement(Exception):
    """A statement type the walker neither handles nor knows to hold nothing."""


def extract(text: str, path: str, module: str | None, is_package: bool = False) -> FileResult:
    """Parse one file's text and return its sites and declarations, or the reason it can't be read."""
    result = FileResult(path=path, module=module, language=LANGUAGE)
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as exc:  # ValueError: null bytes
        result.error = f"does not parse: {type(exc).__name__}: {exc}".splitlines()[0]
        return result
    except (RecursionError, MemoryError) as exc:
        result.error = too_deep(exc)
        return result
    result.lines = split_lines(text)
    try:
        _Walker(result, is_package, ":=" in text).walk_module(tree)
    except RecursionError as exc:  # outside any one statement (each is read on its own)
        result.error = too_deep(exc)
    except UnknownStatement as exc:
        result.error = f"errdex does not know this statement: {exc}"
    except Exception as exc:  # a bug in errdex must cost one file, reported, not the whole run
        result.error = f"errdex could not analyse it: {type(exc).__name__}: {exc}"
    if result.error:
        result.sites.clear()
        result.candidates.clear()
        result.omitted.clear()
    elif result.symbols is not None:
        result.symbols.called, result.symbols.assigned = member_uses(text, RECEIVERS)
    return result


def _names_class(written: str) -> bool:
    last = written.rpartition(".")[2]
    return last[:1].isupper() or last in BUILTIN_EXCEPTIONS


class _Cond(NamedTuple):
    """A test on the path to a statement: it must hold (or, ``negated``, fail) to get there."""

    test: ast.expr
    negated: bool
    kind: GuardKind


class _Block(NamedTuple):
    """A block around a statement that is no test of its own (a loop, handler, ``with``,
    ``case``, the ``else`` of a loop or ``try``, or the rest of a body after an early exit);
    ``depth`` is how many tests enclose it.  ``subject`` is a ``match``'s subject; ``owner``
    the ``try`` statement whose handler the block is."""

    kind: GuardKind
    node: ast.AST
    depth: int
    subject: ast.expr | None = None
    owner: ast.Try | ast.TryStar | None = None


#: The guard conditions on the path to a statement, outermost first.
_Conds = tuple[_Cond, ...]


class _Walker(Evaluator):
    """One visitor over a module's statements, with a handler per statement type."""

    #: Statement type -> the name of its handler.
    _DISPATCH: ClassVar[dict[type[ast.stmt], str]] = {
        ast.Raise: "_raise",
        ast.Expr: "_expr",
        ast.If: "_branch",
        ast.While: "_branch",
        ast.Assign: "_assign",
        ast.AnnAssign: "_assign",
        ast.AugAssign: "_aug_assign",
        ast.Return: "_return",
        ast.FunctionDef: "_function",
        ast.AsyncFunctionDef: "_function",
        ast.ClassDef: "_class",
        ast.Assert: "_assert",
        ast.Try: "_try",
        ast.TryStar: "_try",
        ast.For: "_loop",
        ast.AsyncFor: "_loop",
        ast.With: "_with",
        ast.AsyncWith: "_with",
        ast.Match: "_match",
        ast.Import: "_local_import",
        ast.ImportFrom: "_local_import",
    }

    def __init__(self, result: FileResult, is_package: bool, walrus: bool = True) -> None:
        super().__init__(SourceText(result.lines), result.module)
        #: Whether the file's text holds ``:=`` (see ``assigned_names``).
        self.walrus = walrus
        self.result = result
        self.lines = result.lines
        self.package = result.module if is_package else (result.module or "").rpartition(".")[0] or None
        self.imports = result.imports
        self.module_classes: set[str] = set()
        self.module_functions: set[str] = set()
        #: Exception classes defined in this file, so a subclass with a plain name
        #: (``class MissingParameter(BadParameter)``) is known as one too.
        self.exception_classes: set[str] = set()
        self.helpers_by_name: dict[str, HelperDef] = {}
        #: The blocks around the statement being read that are no test (see ``_Block``).
        self.blocks: tuple[_Block, ...] = ()
        #: Each function's definition, beside its entry in ``result.functions``.
        self._defs: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        #: The module's own import statements, read before its body (``walk_module``).
        self._top_imports: set[int] = set()
        #: Guards already read, by node: every site under a test or after an early exit shares
        #: its guard (the nodes live as long as the walk, so their ids stay theirs).
        self._read_guards: dict[tuple[int, str, bool], Guard] = {}
        #: Each top-level function's parameters as declared, by node (None: nested too deep).
        self._parameters: dict[int, tuple[Parameter, ...] | None] = {}
        #: What the module defines, for the release's symbol table.
        result.symbols = FileSymbols()
        self.defs = FileDefinitions(result.symbols, result.module)

    # -- module, classes, functions -----------------------------------------------------------

    def walk_module(self, tree: ast.Module) -> None:
        for node in tree.body:
            t = type(node)
            if t is ast.ClassDef:
                self.module_classes.add(node.name)  # type: ignore[attr-defined]
            elif t is ast.FunctionDef or t is ast.AsyncFunctionDef:
                self.module_functions.add(node.name)  # type: ignore[attr-defined]
            elif (assigned := _assigned(node)) is not None and len(assigned[0]) == 1:
                target = assigned[0][0]
                if isinstance(target, ast.Name):
                    self.module_bindings[target.id] = assigned[1]
            elif t is ast.Import or t is ast.ImportFrom:
                self._import(node)  # type: ignore[arg-type]
                self._top_imports.add(id(node))
        for name, imported in self.imports.items():
            self.defs.alias(name, imported)
        self.scope.bindings = self.module_bindings
        self.body(tree.body, ())
        self._describe_functions()

    def _describe_functions(self) -> None:
        """Parameters of the functions that enclose a site: enrichment's facts, read once the
        whole module is walked, and only where a record may need them."""
        result = self.result
        wanted = {s.function for s in (*result.sites, *result.candidates)}
        walrus = walrus_lines(result.lines) if self.walrus else []
        for n, (info, node) in enumerate(zip(result.functions, self._defs, strict=True)):
            if info.name in wanted:
                try:
                    if id(node) in self._parameters:
                        known = self._parameters[id(node)]
                        if known is None:
                            continue  # left out when the symbol table read it: counted then
                        parameters = known
                    else:
                        parameters = parameters_of(node.args)
                    decorators = tuple(code_of(d) for d in node.decorator_list)
                    assigned = assigned_names(node, walrus)
                except RecursionError as exc:  # a default nested too deep: its sites lack the fact
                    self._omit(node.lineno, f"parameters of {info.name} left out", exc)
                    continue
                result.functions[n] = info._replace(
                    parameters=parameters,
                    is_async=isinstance(node, ast.AsyncFunctionDef),
                    decorators=decorators,
                    assigned=assigned,
                )

    def _omit(self, line: int, what: str, exc: RecursionError) -> None:
        """Count what is left out of a file otherwise read (``FileResult.omitted``), and why."""
        self.result.omitted.append((line, f"{what}: {too_deep(exc)}"))

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.defs.imported(alias.name)
                if alias.asname:
                    self.imports[alias.asname] = alias.name
                else:
                    head = alias.name.partition(".")[0]
                    self.imports[head] = head
            return
        base = node.module or ""
        if node.level:
            package = self.package or ""
            pieces = package.split(".") if package else []
            if node.level > 1:
                pieces = pieces[: len(pieces) - (node.level - 1)]
            base = ".".join([*pieces, base] if base else pieces)
        self.defs.imported(base)
        for alias in node.names:
            if alias.name == "*":  # kept under a key no name can be: what the module re-exports
                self.imports["*" + base] = base
                continue
            self.imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name

    def qualify(self, written: str | None) -> str | None:
        """The class as a traceback prints it, as far as this file alone can tell."""
        if written is None:
            return None
        head, dot, rest = written.partition(".")
        if head in self.imports:
            return self.imports[head] + dot + rest
        if head in self.module_classes and self.module:
            return f"{self.module}.{written}"
        return written

    def _class(self, node: ast.ClassDef, conds: _Conds = ()) -> None:
        outer = self.scope
        qual = outer.child(node.name)
        bases = tuple(q for b in node.bases if (q := self.qualify(dotted(b))) is not None)
        decl = ClassDef(qualified=f"{self.module}.{qual}" if self.module else qual, bases=bases)
        if outer.name is None:  # at a module's or a class's top: a name the module defines
            self.defs.klass(qual, node, bases)
        first = node.body[0]
        doc = first.value.value if type(first) is ast.Expr and isinstance(first.value, ast.Constant) else None
        if isinstance(doc, str):
            decl.docstring = utf8(doc)  # the class's own documentation: a fact of its records
        self.result.classes.append(decl)
        self.scope = Scope(qual, None, (), False, qual)
        blocks, self.blocks = self.blocks, ()
        try:
            decl.messages = self._keyed_messages(node)
            if _EXCEPTION_NAME.search(node.name) or any(
                _EXCEPTION_NAME.search(b) or b in BUILTIN_EXCEPTIONS or b in self.exception_classes
                for b in (dotted(b) or "" for b in node.bases)
            ):
                self.exception_classes.add(node.name)
                decl.attributes = self._class_attributes(node)
                for stmt in node.body:
                    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name in (
                        "__init__",
                        "__str__",
                    ):
                        self._message_builder(stmt, decl)
            self.body(node.body, ())
        finally:
            self.scope = outer
            self.blocks = blocks

    def _keyed_messages(self, node: ast.ClassDef) -> dict[str, Template]:
        found: dict[str, Template] = {}
        for name, value in _class_assignments(node):
            if isinstance(value, ast.Dict) and _MESSAGES_NAME.search(name):
                for key, item in zip(value.keys, value.values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        template = self.template(item)
                        if template is not None and template.is_static:
                            found[key.value] = fields_of(template)
        return found

    def _message_builder(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, decl: ClassDef) -> None:
        """Record the messages an exception class builds: what ``__str__`` returns (each branch
        its own), else what ``__init__`` passes to the base class; and how ``__init__`` maps
        its parameters onto attributes."""
        is_init = fn.name == "__init__"
        args = fn.args
        positional = args.posonlyargs + args.args
        params = tuple(a.arg for a in positional)[1:]
        defaults: dict[str, Template] = {}
        for arg, default in zip(reversed(positional), reversed(args.defaults), strict=False):
            if isinstance(default, ast.Constant) and isinstance(default.value, str) and default.value:
                defaults[arg.arg] = Template.literal(default.value)
        if is_init:
            decl.has_init, decl.params, decl.defaults = True, params, defaults
        saved = self.scope
        self.scope = Scope(None, fn.name, params, True, None)
        found: list[Template] = []
        try:
            for stmt in _statements(fn.body):
                expr: ast.expr | None = None
                if (assigned := _assigned(stmt)) is not None:
                    targets, value = assigned
                    if len(targets) == 1 and isinstance(targets[0], ast.Name):
                        self.scope.bindings[targets[0].id] = value
                    elif (
                        is_init
                        and len(targets) == 1
                        and (attr := dotted(targets[0])) is not None
                        and attr.startswith("self.")
                        and isinstance(value, ast.Name)
                        and value.id in params
                    ):
                        decl.attr_params[attr[5:]] = value.id
                elif isinstance(stmt, ast.Return) and not is_init:
                    expr = stmt.value
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                    call = stmt.value
                    if _is_super_init(call.func) and call.args:
                        explicit = isinstance(call.func, ast.Attribute) and not isinstance(
                            call.func.value, ast.Call
                        )
                        # Base.__init__(self, message) passes self first.
                        passed = call.args[1:] if explicit else call.args
                        if (
                            is_init
                            and decl.super_args is None
                            and not any(isinstance(a, ast.Starred) for a in passed)
                        ):
                            decl.super_args = tuple(
                                a.id if isinstance(a, ast.Name) and a.id in params else None for a in passed
                            )
                        if not found and passed:
                            expr = passed[0]
                if expr is None:
                    continue
                template = self.template(expr)
                if template is None and isinstance(expr, ast.Name) and expr.id in defaults:
                    template = Template.dynamic(expr.id)  # filled with the default when not passed
                elif template is None or not (template.is_static or _reads_attributes(template)):
                    if not is_init:
                        decl.keeps_message = True
                        decl.formats_args = decl.formats_args or self._prints_args(expr, decl)
                    continue
                if template not in found:
                    found.append(template)
        finally:
            self.scope = saved
        # What __str__ returns is what is printed, whatever __init__ passed up.
        if found and (not decl.from_str or not is_init):
            decl.templates = found
            decl.from_str = not is_init

    def _prints_args(self, expr: ast.expr, decl: ClassDef) -> bool:
        """``_formats_args``, taken as false where ``expr`` is nested too deep to read: the
        class's raises then keep the message they pass."""
        try:
            return _formats_args(expr)
        except RecursionError as exc:
            self._omit(expr.lineno, f"how {decl.qualified} prints its arguments left out", exc)
            return False

    def _class_attributes(self, node: ast.ClassDef) -> dict[str, Template]:
        found: dict[str, Template] = {}
        for name, value in _class_assignments(node):
            template = self.template(value)
            if template is not None and template.is_static:
                found[name] = template
        return found

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, conds: _Conds = ()) -> None:
        outer = self.scope
        qual = outer.child(node.name)
        args = node.args
        positional = [a.arg for a in (args.posonlyargs + args.args if args.posonlyargs else args.args)]
        is_method = outer.class_name is not None and outer.name is None
        if is_method and positional and not any(dotted(d) == "staticmethod" for d in node.decorator_list):
            positional = positional[1:]
        params = (*positional, *(a.arg for a in args.kwonlyargs)) if args.kwonlyargs else tuple(positional)
        if outer.name is None:  # at a module's or a class's top: a name the module defines
            self._define(qual, node, is_method)
        self.scope = Scope(qual, node.name, params, is_method, outer.class_name, len(positional))
        first = node.body[0]
        doc = first.value.value if type(first) is ast.Expr and type(first.value) is ast.Constant else None
        self.result.functions.append(
            FunctionInfo(
                qual,
                node.lineno,
                first.lineno,
                node.end_lineno or first.lineno,
                utf8(doc) if isinstance(doc, str) else None,
            )
        )
        self._defs.append(node)
        blocks, self.blocks = self.blocks, ()
        try:
            self.body(node.body, ())
        finally:
            self.scope = outer
            self.blocks = blocks

    def _define(self, qual: str, node: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> None:
        """A function or method for the symbol table, with its parameters (a method's receiver
        left out): what a call of it may pass."""
        try:
            parameters: tuple[Parameter, ...] | None = parameters_of(node.args)
        except RecursionError as exc:  # a default nested too deep: its parameters left unknown
            self._omit(node.lineno, f"parameters of {qual} left out", exc)
            parameters = None
        self._parameters[id(node)] = parameters  # as declared, for the facts (``_describe_functions``)
        if (
            parameters
            and is_method
            and parameters[0].kind == "positional"
            and not (node.decorator_list and any(dotted(d) == "staticmethod" for d in node.decorator_list))
        ):
            parameters = parameters[1:]
        forwards: tuple[str, ...] = ()
        if parameters and parameters[-1].kind == "var-keyword":
            forwards = self._forwards(node, parameters[-1].name)
        self.defs.function(qual, node, parameters, forwards)

    def _forwards(self, node: ast.FunctionDef | ast.AsyncFunctionDef, kwargs: str) -> tuple[str, ...]:
        """Where a function passes its ``**kwargs`` on (``super().__init__(**attrs)``,
        ``cls(*decls, **attrs)`` of ``cls = Option``): the callees whose parameters its caller's
        keywords may be, qualified as the module names them; ``?`` for one errdex cannot name."""
        spread = f"**{kwargs}"
        body_start = node.body[0].lineno
        passing = [
            n for n in range(body_start, (node.end_lineno or body_start) + 1) if spread in self.lines[n - 1]
        ]
        if not passing:
            return ()  # kept by the function itself (``kwargs.get(...)``): no callee to follow
        local: dict[str, str] = {}
        called: list[ast.Call] = []
        arguments = node.args
        declared = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
        if declared and any(dotted(d) == "classmethod" for d in node.decorator_list):
            declared = declared[1:]  # the class a classmethod is called on: ``cls`` below
        params = set(declared) - {"self"}
        # Statements, not every node: the bindings are statements, and only those on a line
        # that spreads the ``**kwargs`` (or a compound one's header there) hold a call passing them.
        for statement in _all_statements(node.body):
            t = type(statement)
            if t is ast.Assign:
                targets = statement.targets  # type: ignore[attr-defined]
                if len(targets) == 1 and type(targets[0]) is ast.Name:
                    value = _made_by(statement.value)  # type: ignore[attr-defined]
                    if value is not None:
                        local.setdefault(targets[0].id, value)
            elif t is ast.With or t is ast.AsyncWith:
                for item in statement.items:  # type: ignore[attr-defined]
                    value = _made_by(item.context_expr)
                    if type(item.optional_vars) is ast.Name and value is not None:
                        local.setdefault(item.optional_vars.id, value)
            at = bisect.bisect_left(passing, statement.lineno)
            if at == len(passing) or passing[at] > (statement.end_lineno or statement.lineno):
                continue
            for part in _header(statement):
                for sub in ast.walk(part):
                    if type(sub) is ast.Call and any(
                        k.arg is None and type(k.value) is ast.Name and k.value.id == kwargs
                        for k in sub.keywords
                    ):
                        called.append(sub)
        out = []
        for call in called:
            func = call.func
            # Its own parameters it passes on (``command(name, cls, **attrs)``): the callee's
            # defaults for them do not hold.
            passed = sorted(
                {k.arg for k in call.keywords if k.arg}
                | {a.id for a in call.args if type(a) is ast.Name and a.id in params}
            )
            suffix = f"+{','.join(passed)}" if passed else ""
            if (
                type(func) is ast.Attribute
                and type(func.value) is ast.Call
                and dotted(func.value.func) == "super"
            ):
                out.append(f"{BASES}.{func.attr}{suffix}")
                continue
            written = dotted(func)
            if written is None:
                out.append("?")
                continue
            head, dot, rest = written.partition(".")
            default = ""
            if head in params:
                if head not in local:
                    out.append("?")  # ``cls`` a caller passes: what it is, no table tells
                    continue
                default = f"@{head}"  # ``if cls is None: cls = Option``: unless the caller passes one
            if head in local and head != local[head]:
                written = local[head] + dot + rest
                head, dot, rest = written.partition(".")
            if head in ("self", "cls"):
                out.append(f"{OWN_CLASS}{dot}{rest}{default}{suffix}")
            elif head in self.imports:
                out.append(self.imports[head] + dot + rest + default + suffix)
            elif (head in self.module_classes or head in self.module_functions) and self.module:
                out.append(f"{self.module}.{written}{default}{suffix}")
            else:
                out.append("?")
        return tuple(dict.fromkeys(out))

    def _bound(self, target: ast.expr) -> None:
        """A name a module or a class binds, or an attribute a method sets on its object
        (``self.x = ...``): a name the symbol table holds."""
        scope = self.scope
        if scope.name is not None:  # in a function: only what a method sets on its object
            if scope.class_name is not None and type(target) is not ast.Name:
                for name in _unpacked(target):
                    value = getattr(name, "value", None)
                    if type(value) is ast.Name and value.id == "self":
                        self.defs.attribute(f"{scope.class_name}.{name.attr}")  # type: ignore[attr-defined]
            return
        for name in _unpacked(target):
            if type(name) is ast.Name:  # a module's or a class's own name
                self.defs.attribute(scope.child(name.id))

    # -- statements ---------------------------------------------------------------------------

    def body(self, stmts: list[ast.stmt], conds: _Conds) -> None:
        handlers = _HANDLERS
        blocks = self.blocks
        for node in stmts:
            t = type(node)
            handler = handlers.get(t)
            if handler is None:
                if t.__name__ not in IGNORED_STATEMENTS:
                    raise UnknownStatement(f"{t.__name__} at line {getattr(node, 'lineno', '?')}")
                continue
            scope, around = self.scope, self.blocks
            try:
                handler(self, node, conds)
            except RecursionError as exc:
                # A statement nested too deep costs its own sites, not the rest of the file's.
                self.scope, self.blocks = scope, around
                self._omit(node.lineno, "statement left out", exc)
            if t is ast.If:
                # ``if test: return``: what follows runs only where the test failed.
                depth = len(conds)
                exits = _exit_tests(node)  # type: ignore[arg-type]
                if exits:
                    self.blocks = (*self.blocks, *(_Block("early-exit", test, depth) for test in exits))
        self.blocks = blocks

    def _expr(self, node: ast.Expr, conds: _Conds) -> None:
        value = node.value
        if type(value) is ast.Await:
            value = value.value
        if type(value) is ast.Call:
            self._call(value, node.lineno, conds)

    def _return(self, node: ast.Return, conds: _Conds) -> None:
        value = node.value
        if type(value) is ast.Call:
            self._call(value, node.lineno, conds)
        scope = self.scope
        if value is None or scope.name is None:
            return
        if type(value) is ast.Call:
            written = dotted(value.func)
            if written is not None and _EXCEPTION_NAME.search(written) and _names_class(written):
                # An exception factory: ``raise err(...)`` gets this class and message.
                template = self.message(_message_argument(value))
                func = self._message_func(template if template is not None and template.is_static else None)
                func.class_written = written
                func.class_qualified = self.qualify(written)
                return
        if not builds_text(value):
            return
        template = self.template(value)
        if template is not None and template.is_static:
            self._message_func(template)

    def _message_func(self, template: Template | None) -> MessageFunc:
        """Note a message the current function returns."""
        scope = self.scope
        key = f"{self.module}:{scope.qualname}"
        funcs = self.result.message_funcs
        if not funcs or funcs[-1].key != key:
            funcs.append(MessageFunc(key, scope.params))
        if template is not None and template not in funcs[-1].templates:
            funcs[-1].templates.append(template)
        return funcs[-1]

    def _branch(self, node: ast.If | ast.While, conds: _Conds) -> None:
        test = node.test
        kind: GuardKind = "while" if isinstance(node, ast.While) else "elif" if self._is_elif(node) else "if"
        self.body(node.body, (*conds, _Cond(test, False, kind)))
        if not node.orelse:
            return
        if isinstance(node, ast.While):
            # A ``while``'s ``else`` runs once its test fails, unless a ``break`` left the loop.
            self._within(
                _Block("loop-else", node, len(conds)), node.orelse, (*conds, _Cond(test, True, "else"))
            )
        else:
            self.body(node.orelse, (*conds, _Cond(test, True, "else")))

    def _is_elif(self, node: ast.If) -> bool:
        return self.lines[node.lineno - 1].startswith("elif", node.col_offset)

    def _within(self, block: _Block, stmts: list[ast.stmt], conds: _Conds) -> None:
        """Read ``stmts`` inside a block that is no test: a loop, a handler, a ``with``, a ``case``."""
        outer = self.blocks
        self.blocks = (*outer, block)
        self.body(stmts, conds)
        self.blocks = outer

    def _loop(self, node: ast.For | ast.AsyncFor, conds: _Conds) -> None:
        self._within(_Block("loop", node, len(conds)), node.body, conds)
        if node.orelse:  # runs once the iterable is exhausted, unless a ``break`` left the loop
            self._within(_Block("loop-else", node, len(conds)), node.orelse, conds)

    def _with(self, node: ast.With | ast.AsyncWith, conds: _Conds) -> None:
        self._within(_Block("with", node, len(conds)), node.body, conds)

    def _try(self, node: ast.Try | ast.TryStar, conds: _Conds) -> None:
        self.body(node.body, conds)
        for handler in node.handlers:
            self._within(_Block("except", handler, len(conds), owner=node), handler.body, conds)
        if node.orelse:  # runs when the body raised nothing (and did not return or break)
            self._within(_Block("try-else", node, len(conds), owner=node), node.orelse, conds)
        self.body(node.finalbody, conds)

    def _match(self, node: ast.Match, conds: _Conds) -> None:
        for case in node.cases:
            self._within(_Block("match-case", case, len(conds), node.subject), case.body, conds)

    def _aug_assign(self, node: ast.AugAssign, conds: _Conds) -> None:
        target = node.target
        if isinstance(target, ast.Name) and isinstance(node.op, ast.Add):
            prev = self.scope.bindings.get(target.id)
            if prev is not None:
                self.scope.bindings[target.id] = ast.BinOp(prev, ast.Add(), node.value)

    def _local_import(self, node: ast.Import | ast.ImportFrom, conds: _Conds) -> None:
        if self.scope.qualname is not None:
            self._import(node)
        elif id(node) not in self._top_imports:  # read already, before the module's body
            # In a module-level ``if`` or ``try``: binds what no import above it did.  Read into
            # a dict of its own (copying the module's imports at each would cost their square).
            imports, self.imports = self.imports, {}
            try:
                self._import(node)
            finally:
                added, self.imports = self.imports, imports
            for name, target in added.items():
                imports.setdefault(name, target)
                self.defs.alias(name, target)

    def _assign(self, node: ast.Assign | ast.AnnAssign, conds: _Conds = ()) -> None:
        if type(node) is ast.Assign:
            targets = node.targets
            for each in targets:
                self._bound(each)
            if len(targets) != 1:
                return
            target, value = targets[0], node.value
        elif node.value is not None:
            target, value = node.target, node.value  # type: ignore[union-attr]
            self._bound(target)
        else:
            self._bound(node.target)
            return  # an annotation binds no value
        if type(target) is not ast.Name:
            return
        scope = self.scope
        name = target.id
        if name == "__all__" and scope.qualname is None and isinstance(value, ast.List | ast.Tuple):
            listed = tuple(
                e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )
            self.defs.exports(listed)
        earlier = scope.alternatives.get(name, ())
        bound = scope.bindings.get(name)
        # An assignment overwrites those made at its own level or nested below it;
        # ones in sibling branches, or above it, still reach what follows.
        depth = len(conds)
        kept = [(c, v) for c, v in earlier if c[:depth] != conds] if earlier else []
        if bound is not None and builds_text(value) and mentions(value, name):
            # ``message = message.format(...)`` builds on what the name held before:
            # on each value it may have held.
            scope.bindings[name] = inline(value, name, bound)
            built = [(conds, inline(value, name, v)) for _, v in earlier or [((), bound)]]
            scope.alternatives[name] = [*kept, *built]
            return
        if bound is None and mentions(value, name):
            # ``url = "//" + url`` of a parameter: the name's text is the caller's, unknown here
            # (bound to itself, it would read as ``"//" + "//" + ...``).
            return
        scope.bindings[name] = value
        scope.alternatives[name] = [*kept, (conds, value)]

    def _guards(self, conds: _Conds) -> tuple[Guard, ...]:
        """Every guard on the path, outermost first: each test, and each block between them."""
        blocks = self.blocks
        out: list[Guard] = []
        at = 0
        for depth, cond in enumerate(conds):
            while at < len(blocks) and blocks[at].depth <= depth:
                out.append(self._guard(blocks[at]))
                at += 1
            out.append(self._guard(cond))
        out += (self._guard(b) for b in blocks[at:])
        return tuple(out)

    def _guard(self, entry: _Cond | _Block) -> Guard:
        if isinstance(entry, _Cond):
            key = (id(entry.test), entry.kind, entry.negated)
        else:
            key = (id(entry.node), entry.kind, True)
        found = self._read_guards.get(key)
        if found is None:
            if isinstance(entry, _Cond):
                found = self._condition(entry.kind, entry.test, entry.negated)
            else:
                found = self._block_guard(entry)
            self._read_guards[key] = found
        return found

    def _condition(self, kind: GuardKind, test: ast.expr, negated: bool) -> Guard:
        """The guard a test makes; where the test is nested too deep to read, its text alone
        (the site keeps the guard without its reading)."""
        text = self.segment(test)
        try:
            return condition_guard(kind, test, negated, text)
        except RecursionError as exc:
            self._omit(test.lineno, "guard kept as text only", exc)
            return Guard(kind, text, negated, names=names_in(test))

    def _block_guard(self, block: _Block) -> Guard:
        node, seg = block.node, self.segment
        if block.kind == "early-exit":
            assert isinstance(node, ast.expr)
            return self._condition("early-exit", node, True)
        # A block is no test: never negated, no condition as code.
        if isinstance(node, ast.For | ast.AsyncFor):
            target, iterable = seg(node.target), seg(node.iter)
            return Guard(
                block.kind, f"{target} in {iterable}", subject=target, operator="in", operand=iterable,
                names=names_in(node.iter),
            )  # fmt: skip
        if isinstance(node, ast.While):  # its ``else``
            return Guard(block.kind, seg(node.test), names=names_in(node.test))
        if isinstance(node, ast.ExceptHandler):
            caught = seg(node.type) if node.type is not None else ""
            names = names_in(node.type) if node.type is not None else ()
            return Guard(
                "except", caught, subject=node.name, operand=caught or None, names=names,
                caught=self._caught(node.type), guarded=self._guarded(block.owner),
            )  # fmt: skip
        if isinstance(node, ast.Try | ast.TryStar):  # its ``else``
            return Guard("try-else", "", guarded=self._guarded(block.owner))
        if isinstance(node, ast.match_case):
            pattern = seg(node.pattern) + (f" if {seg(node.guard)}" if node.guard is not None else "")
            subject = seg(block.subject) if block.subject is not None else None
            # ``case _`` (or a bare capture) with no guard matches whatever no earlier case did.
            anything = isinstance(node.pattern, ast.MatchAs) and node.pattern.pattern is None
            operator = "otherwise" if anything and node.guard is None else "matches"
            return Guard("match-case", pattern, subject=subject, operator=operator, operand=pattern)
        assert isinstance(node, ast.With | ast.AsyncWith)
        items = ", ".join(seg(item.context_expr) for item in node.items)
        return Guard("with", items, subject=seg(node.items[0].context_expr))

    def _caught(self, caught: ast.expr | None) -> tuple[str, ...]:
        """The classes an ``except`` names, each as written; none where one of them is not
        named as a class (``except _ERRORS``: a tuple kept in a name)."""
        if caught is None:
            return ()
        elements = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        written = [dotted(e) for e in elements]
        if any(w is None or not _names_caught_class(w) for w in written):
            return ()
        return tuple(w for w in written if w is not None)

    def _guarded(self, node: ast.Try | ast.TryStar | None) -> str | None:
        """The code a ``try`` guards, where its body is one statement that may raise
        (``Guard.guarded``); None for several, or a compound one, or one too long to quote."""
        if node is None:
            return None
        body = [stmt for stmt in node.body if not _cannot_raise(stmt)]
        if len(body) != 1:
            return None
        stmt = body[0]
        t = type(stmt)
        expr: ast.AST | None = None
        if t is ast.Return:
            expr = stmt.value  # type: ignore[attr-defined]
        elif (assigned := _assigned(stmt)) is not None and all(type(e) is ast.Name for e in assigned[0]):
            expr = assigned[1]
        elif t in _COMPOUND:
            return None
        # Anything else is quoted whole: an expression statement as written (``yield from x``,
        # no parentheses), an import, an assignment that may fail in its targets (``d[k] = v``).
        try:
            code = ast.unparse(expr if expr is not None else stmt)
        except RecursionError as exc:
            self._omit(stmt.lineno, "code a try guards left out", exc)
            return None
        return code if len(code) <= _GUARDED_LENGTH and "\n" not in code else None

    def _add(self, site: RawSite) -> None:
        self.result.sites.append(site)

    # -- sites --------------------------------------------------------------------------------

    def _raise(self, node: ast.Raise, conds: _Conds) -> None:
        exc = node.exc
        if exc is None:
            return  # a bare re-raise is not a new error
        while (inner := _with_traceback(exc)) is not None:
            exc = inner  # the traceback it is given is no message
        if isinstance(exc, ast.Name) and not _names_class(exc.id):
            bound = self.scope.bindings.get(exc.id)
            if not isinstance(bound, ast.Call):
                return  # re-raising a caught or stored instance
            exc = bound
        call = exc if isinstance(exc, ast.Call) else None
        written = dotted(call.func if call else exc)
        if call is None and (written is None or not _names_class(written)):
            return  # re-raising something computed elsewhere
        if written is not None and not _names_class(written) and call is not None:
            written = None  # a factory call: the class is whatever it returns
        site = RawSite(
            line=node.lineno,
            kind="raise",
            function=self.scope.qualname,
            conditions=conditions_of(guards := self._guards(conds)),
            template=None,
            guards=guards,
            class_written=written,
            class_qualified=self.qualify(written),
        )
        others = self._fill_from_call(site, call) if call is not None else []
        if call is None and written is not None and written.rpartition(".")[2] not in BUILTIN_EXCEPTIONS:
            site.constructed = True  # ``raise NotFound``: Python calls the class with no arguments
        self._add(site)
        for template in others:
            self._add(replace(site, template=template))

    def _fill_from_call(self, site: RawSite, call: ast.Call) -> list[Template]:
        """Fill in what the exception call says; returns the other messages it may carry."""
        args = call.args
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        written = site.class_written or ""
        last = written.rpartition(".")[2]
        if last == "HTTPException" or last in HTTP_CLASSES:
            status = keywords.get("status_code") or keywords.get("code")
            rest = args
            if status is None and args and is_int(args[0]):
                status, rest = args[0], args[1:]
            code = status.value if status is not None and is_int(status) else HTTP_CLASSES.get(last)  # type: ignore[attr-defined]
            if isinstance(code, int) and 100 <= code <= 599:
                site.kind = "http"
                site.http_status = code
            detail = keywords.get("detail") or keywords.get("description") or (rest[0] if rest else None)
            site.template = self.message(detail)
            return []
        message_node = _message_argument(call)
        site.template = self.message(message_node)
        others: list[Template] = []
        if message_node is not None and (choices := self.choices(message_node)):
            site.template, *others = choices
        if not written:
            site.message_ref = self._message_ref(call)  # a factory builds the exception
        elif message_node is not None and site.template is not None and not site.template.is_static:
            site.message_ref = self._message_ref(message_node)
        site.message_key = self._message_key(site, message_node)
        code_node = keywords.get("code")
        if isinstance(code_node, ast.Constant) and isinstance(code_node.value, str):
            site.error_code = code_node.value
        if written and last not in BUILTIN_EXCEPTIONS:
            site.constructed = True
            site.args = tuple(self.template(a) for a in args)
            site.kwargs = tuple((k, self.template(v)) for k, v in keywords.items())
        self._note_helper(site.template, "raise", site)
        return others

    def _message_key(self, site: RawSite, node: ast.expr | None) -> str | None:
        """The key of a message kept in a class dict: ``self.error_messages["invalid"]``, or the
        literal key a factory is given (``raise self.make_error("invalid")``)."""
        if self.scope.class_name is None or node is None:
            return None
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            return node.slice.value
        if site.class_written is None and isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value if _MESSAGE_KEY.match(node.value) else None
        return None

    def _message_ref(self, node: ast.expr) -> MessageRef | None:
        """Where to look for a message built by a call or a property of the same class."""
        call = node if isinstance(node, ast.Call) else None
        target = call.func if call is not None else node
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            if target.value.id not in ("self", "cls") or self.scope.class_name is None:
                return None
            keys: tuple[str, ...] = (f"{self.module}:{self.scope.class_name}.{target.attr}",)
        elif isinstance(target, ast.Name):
            imported = self.imports.get(target.id)
            if imported is not None:
                module, _, name = imported.rpartition(".")
                keys = (f"{module}:{name}",)
            else:
                keys = (f"{self.module}:{target.id}",)
        else:
            return None
        if call is None:
            return MessageRef(keys)
        args = tuple(self.template(a) for a in call.args)
        kwargs = tuple((k.arg, self.template(k.value)) for k in call.keywords if k.arg)
        return MessageRef(keys, args, kwargs)

    def _assert(self, node: ast.Assert, conds: _Conds) -> None:
        site = RawSite(
            line=node.lineno,
            kind="assert",
            function=self.scope.qualname,
            conditions=conditions_of(guards := self._guards((*conds, _Cond(node.test, True, "assert")))),
            template=self.message(node.msg),
            guards=guards,
            class_written="AssertionError",
            class_qualified="AssertionError",
        )
        self._add(site)

    def _call(self, call: ast.Call, line: int, conds: _Conds) -> None:
        written = dotted(call.func)
        if written is None:
            return
        head, _, attr = written.rpartition(".")
        args = call.args
        # Decide by the called name first: resolving imports and reading keywords is only
        # worth it for the few names that can be sites.
        if attr in _SINK_NAMES:
            resolved = self.qualify(written) or written
            keywords = {k.arg: k.value for k in call.keywords if k.arg}
            if resolved in ("warnings.warn", "warnings.warn_explicit"):
                self._warn(call, line, conds, keywords)
                return
            if resolved in ("sys.exit", "exit", "quit", "builtins.exit"):
                message = args[0] if args else keywords.get("status")
                template = self.template(message) if message is not None else None
                if template is not None:
                    site = self._site(line, "exit", conds, template, "SystemExit", "SystemExit")
                    self._note_helper(template, "exit", site)
                return
            if attr in LOG_LEVELS and head and _LOGGER_NAME.search(head):
                self._log(call, line, conds, attr, keywords, self._logger(head))
                return
            if attr == "abort" and args and is_int(args[0]):
                code = args[0].value  # type: ignore[attr-defined]
                detail = args[1] if len(args) > 1 else keywords.get("description")
                template = self.message(detail) if detail is not None else None
                site = self._site(line, "http", conds, template, "HTTPException", resolved)
                site.http_status = code if 100 <= code <= 599 else None
                return
            if attr == "error" and head.rpartition(".")[2].lower().endswith("parser") and args:
                template = self.template(args[0])
                if template is not None:
                    self._site(line, "exit", conds, template, "SystemExit", "SystemExit")
                return
        self._candidate(call, line, conds, written, args)

    def _site(
        self,
        line: int,
        kind: str,
        conds: _Conds,
        template: Template | None,
        written: str | None,
        qualified: str | None,
        severity: str = "error",
    ) -> RawSite:
        site = RawSite(
            line=line,
            kind=kind,
            function=self.scope.qualname,
            conditions=conditions_of(guards := self._guards(conds)),
            template=template,
            guards=guards,
            class_written=written,
            class_qualified=qualified,
            severity=severity,
        )
        self._add(site)
        return site

    def _warn(self, call: ast.Call, line: int, conds: _Conds, keywords: dict[str, ast.expr]) -> None:
        args = call.args
        message = args[0] if args else keywords.get("message")
        category = args[1] if len(args) > 1 else keywords.get("category")
        written = dotted(category) if category is not None else "UserWarning"
        if isinstance(message, ast.Call) and (inner := dotted(message.func)) and _names_class(inner):
            written = inner
            message = message.args[0] if message.args else None
        template = self.message(message)
        site = self._site(line, "warn", conds, template, written, self.qualify(written), "warning")
        self._note_helper(template, "warn", site)

    def _log(
        self,
        call: ast.Call,
        line: int,
        conds: _Conds,
        level: str,
        kwargs: dict[str, ast.expr],
        logger: str | None,
    ) -> None:
        args = call.args
        message = args[0] if args else kwargs.get("msg")
        if message is None:
            return
        template = self.template(message)
        if (
            template is not None
            and len(args) > 1
            and len(template.parts) == 1
            and isinstance(template.parts[0], str)
        ):
            template = percent_template(template.parts[0], [self.segment(a) for a in args[1:]])
        if template is None:
            template = self.dynamic(message)
        site = self._site(line, "log", conds, template, None, None, LOG_LEVELS[level])
        site.logger = logger
        self._note_helper(template, "log", site)

    def _logger(self, head: str) -> str | None:
        """The name of the logger a log call is made on (``head``): the module's for a module's
        ``logging.getLogger(__name__)``, the name a literal gives, ``""`` for the root logger
        (``logging.warning(...)``); None where the file does not say (an attribute, an argument)."""
        if self.qualify(head) == "logging":
            return ""
        bound = self.module_bindings.get(head) if "." not in head else None
        if not isinstance(bound, ast.Call) or self.qualify(dotted(bound.func) or "") != "logging.getLogger":
            return None
        if not bound.args and not bound.keywords:
            return ""
        arg = bound.args[0] if bound.args and not bound.keywords else None
        if isinstance(arg, ast.Name) and arg.id == "__name__":
            return self.module
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
        return None

    def _candidate(
        self,
        call: ast.Call,
        line: int,
        conds: _Conds,
        written: str,
        args: list[ast.expr],
    ) -> None:
        """A call that is a site if the callee proves to be a raise helper (decided after all files)."""
        if not any(map(self._maybe_text, args)) and not any(self._maybe_text(k.value) for k in call.keywords):
            return  # most call statements pass no text at all: skip them cheaply
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        arg_templates = tuple(self.template(a) for a in args)
        kw_templates = tuple((k, self.template(v)) for k, v in keywords.items())
        if not any(arg_templates) and not any(t for _, t in kw_templates):
            return
        head, _, name = written.rpartition(".")
        category = dotted(keywords["category"]) if "category" in keywords else None
        candidate = RawSite(
            line=line,
            kind="helper",
            function=self.scope.qualname,
            conditions=(),
            template=None,
            args=arg_templates,
            kwargs=kw_templates,
            class_passed=(category, self.qualify(category)) if category else None,
            callee=name,
            callee_qualified=self.qualify(written),
            callee_is_attr=bool(head),
            callee_head=head,
        )
        scope = self.scope
        if scope.params and not conds:
            positions: list[tuple[int | str, Template | None]] = [*enumerate(arg_templates), *kw_templates]
            for pos, tmpl in positions:
                if tmpl is not None and any(p in scope.params for p in tmpl.placeholders):
                    self._helper().forwards.append(Forward(name, bool(head), pos, tmpl, head))
        if any(t is not None and t.is_static for t in arg_templates) or any(
            t is not None and t.is_static for _, t in kw_templates
        ):
            candidate.guards = self._guards(conds)
            candidate.conditions = conditions_of(candidate.guards)
            self.result.candidates.append(candidate)

    def _maybe_text(self, node: ast.expr) -> bool:
        """Cheap test: could this argument carry a message (or pass a parameter on)?"""
        if type(node) is ast.Name:
            name = node.id
            scope = self.scope
            return name in scope.bindings or name in scope.params or name in self.module_bindings
        if type(node) is ast.Constant:  # ``None``, ``True``, a number: no text (``template`` agrees)
            return isinstance(node.value, str)
        return type(node) in _STRINGISH

    def _helper(self) -> HelperDef:
        """The helper declaration for the current function, created on first use."""
        scope = self.scope
        key = scope.qualname or ""
        helper = self.helpers_by_name.get(key)
        if helper is None:
            helper = HelperDef(
                name=scope.name or "",
                module=self.module,
                is_method=scope.is_method,
                params=scope.params,
                positional=scope.positional,
                qualname=key,
            )
            self.helpers_by_name[key] = helper
            self.result.helpers.append(helper)
        return helper

    def _note_helper(self, template: Template | None, kind: str, site: RawSite) -> None:
        """Declare the current function a helper when a site's message comes from its parameter."""
        scope = self.scope
        if template is None or not scope.params or scope.name is None or site.conditions:
            return  # only a function that always raises with its argument is a helper
        for name in template.placeholders:
            if name in scope.params:
                helper = self._helper()
                if helper.sink is None:
                    helper.param = name
                    index = scope.params.index(name)
                    helper.index = index if index < scope.positional else None
                    helper.sink = Sink.of(site, kind, template, self.result.path)
                return


def _exit_tests(node: ast.If) -> list[ast.expr]:
    """The tests that failed wherever the code after ``node`` runs: ``if test: return`` (and
    each ``elif`` that also exits) lets only the code where ``test`` was false go on."""
    if not isinstance(node.body[-1], _EXITS):
        return []
    orelse = node.orelse
    if len(orelse) == 1 and isinstance(orelse[0], ast.If):  # ``elif``, or an ``if`` alone in ``else``
        return [node.test, *_exit_tests(orelse[0])]
    return [node.test]


def _cannot_raise(stmt: ast.stmt) -> bool:
    """``pass``, a docstring-like constant, or a plain name bound to a constant."""
    t = type(stmt)
    if t is ast.Pass:
        return True
    if t is ast.Expr:
        return type(stmt.value) is ast.Constant  # type: ignore[attr-defined]
    assigned = _assigned(stmt)
    return (
        assigned is not None
        and type(assigned[1]) is ast.Constant
        and all(type(e) is ast.Name for e in assigned[0])
    )


def _names_caught_class(written: str) -> bool:
    """Whether an ``except`` names a class here (``_SSLError`` too), not a constant that holds
    some (``NETWORK_ERRORS``)."""
    last = written.rpartition(".")[2].lstrip("_")
    constant = len(last) > 1 and last.isupper()
    return (last[:1].isupper() or last in BUILTIN_EXCEPTIONS) and not constant


def _assigned(stmt: ast.stmt) -> tuple[list[ast.expr], ast.expr] | None:
    """The targets and value of an assignment: ``msg: str = "..."`` binds ``msg`` as
    ``msg = "..."`` does.  None for other statements and for an annotation with no value."""
    if isinstance(stmt, ast.Assign):
        return stmt.targets, stmt.value
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        return [stmt.target], stmt.value
    return None


def _class_assignments(node: ast.ClassDef) -> Iterator[tuple[str, ast.expr]]:
    """``name = value`` (annotated or not) at the top of a class body."""
    for stmt in node.body:
        if (assigned := _assigned(stmt)) is not None:
            for target in assigned[0]:
                if isinstance(target, ast.Name):
                    yield target.id, assigned[1]


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a body in order, descending into ``if``/``try``/``with`` blocks."""
    for stmt in body:
        yield stmt
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list) and not isinstance(
                stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
            ):
                yield from _statements(inner)
        for handler in getattr(stmt, "handlers", ()):
            yield from _statements(handler.body)


def _with_traceback(node: ast.expr) -> ast.expr | None:
    """``error`` of ``error.with_traceback(tb)``, which raises ``error`` itself; else None.
    Not for ``with_traceback(None)``: that traceback starts at this raise, which a traceback's
    innermost frame then names, so it stays a site of its own."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "with_traceback"
        and len(node.args) == 1
        and not node.keywords
        and not is_none(node.args[0])
    ):
        return node.func.value
    return None


def _message_argument(call: ast.Call) -> ast.expr | None:
    """The argument an exception call passes its message in: the first that is not None
    (``ConstructorError(None, None, "...")``), else a ``msg=``-like keyword."""
    found = next((a for a in call.args if not is_none(a)), None)
    if found is None:
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        found = next((keywords[k] for k in MESSAGE_KEYWORDS if k in keywords), None)
    return found


def _reads_attributes(template: Template) -> bool:
    """``f"{self.code} {self.description}"``: no text yet, but subclasses may give the attributes."""
    return any(name.startswith("self.") for name in template.placeholders)


def _formats_args(node: ast.expr | None) -> bool:
    """Whether ``node`` reads ``self.args[0] % self.args[1:]`` (or ``% tuple(self.args[1:])``)."""
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.Mod):
        return False
    left = node.left
    return (
        isinstance(left, ast.Subscript)
        and dotted(left.value) == "self.args"
        and isinstance(left.slice, ast.Constant)
        and left.slice.value == 0
        and "self.args" in ast.unparse(node.right)
    )


def _is_super_init(func: ast.expr) -> bool:
    if not isinstance(func, ast.Attribute) or func.attr != "__init__":
        return False
    value = func.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
        return True
    return isinstance(value, ast.Name | ast.Attribute)


def parameters_of(args: ast.arguments) -> tuple[Parameter, ...]:
    """The parameters as declared, defaults as ``ast.unparse`` writes them."""
    positional = args.posonlyargs + args.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [Parameter(a.arg, "positional", _default(d)) for a, d in zip(positional, defaults, strict=True)]
    if args.vararg:
        out.append(Parameter(args.vararg.arg, "var-positional"))
    out += [
        Parameter(a.arg, "keyword", _default(d))
        for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
    ]
    if args.kwarg:
        out.append(Parameter(args.kwarg.arg, "var-keyword"))
    return tuple(out)


def _default(node: ast.expr | None) -> str | None:
    return code_of(node) if node is not None else None


def assigned_names(
    function: ast.FunctionDef | ast.AsyncFunctionDef, walrus: Sequence[int] | None = None
) -> tuple[tuple[str, int], ...]:
    """Each name a function's own body binds (``x``, and ``self.x`` for an attribute of its first
    parameter), with the first line that binds it; nested functions, classes and lambdas bind
    their own.

    Statements are walked, not every node: only an assignment expression (``:=``) binds inside
    an expression, and those are looked for only in the expressions whose lines hold a ``:=``
    (``walrus``: the file's lines that do, in order; None to look in every expression), which
    spares walking every expression of every function."""
    positional = function.args.posonlyargs + function.args.args
    receiver = positional[0].arg if positional else None
    first: dict[str, int] = {}
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        t = type(node)
        if t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
            continue
        for target in _targets(node):
            _bind(target, receiver, first)
        if walrus is None or (walrus and _holds(walrus, node)):
            for expression in _expressions(node):
                if walrus is None or _holds(walrus, expression):
                    for sub in _walk_expression(expression):
                        if isinstance(sub, ast.NamedExpr):
                            _bind(sub.target, receiver, first)
        blocks = _BLOCK_FIELDS.get(t)
        if blocks:
            for field in blocks:
                pending += getattr(node, field)
        elif t is ast.Match:
            pending.extend(stmt for case in node.cases for stmt in case.body)  # type: ignore[attr-defined]
    return tuple(sorted(first.items()))


def _bind(target: ast.expr, receiver: str | None, first: dict[str, int]) -> None:
    """Note in ``first`` each name ``target`` binds, at its first line.  A function of the
    module, not a closure: a nested function that calls itself is a reference cycle, left for
    the cyclic collector, which mining pauses."""
    pending = [target]
    while pending:
        part = pending.pop()
        t = type(part)
        # The common targets read directly; what ``ast.walk`` finds in any other.
        if t is ast.Tuple or t is ast.List:
            pending += part.elts  # type: ignore[attr-defined]
            continue
        if t is ast.Name:
            name = part.id if type(part.ctx) is not ast.Load else None  # type: ignore[attr-defined]
        elif t is ast.Attribute and type(part.value) is ast.Name:  # type: ignore[attr-defined]
            # ``self`` in ``self.x = ...`` is read, not bound: only the attribute itself is.
            bound = type(part.ctx) is not ast.Load and part.value.id == receiver  # type: ignore[attr-defined]
            name = f"{receiver}.{part.attr}" if bound else None  # type: ignore[attr-defined]
        else:
            pending += _stored(part)
            continue
        if name is not None:
            known = first.get(name)
            if known is None or part.lineno < known:
                first[name] = part.lineno


def _unpacked(target: ast.expr) -> Iterator[ast.expr]:
    """The names and attributes an assignment's target binds: itself, or each part of a tuple
    or list it unpacks into (``a, *rest = ...``)."""
    t = type(target)
    if t is ast.Tuple or t is ast.List:
        for element in target.elts:  # type: ignore[attr-defined]
            yield from _unpacked(element.value if isinstance(element, ast.Starred) else element)
    elif t is ast.Name or t is ast.Attribute:
        yield target


def _stored(target: ast.expr) -> list[ast.expr]:
    """The parts of an unusual target (``d[k]``, ``*rest``, ``a.b.c``) that bind: what
    ``ast.walk`` finds stored or deleted, each a name or an attribute of the receiver as read
    by ``_bind``."""
    return [
        part
        for part in ast.walk(target)
        if isinstance(getattr(part, "ctx", None), ast.Store | ast.Del)
        and (
            isinstance(part, ast.Name)
            or (isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name))
        )
        and part is not target
    ]


def walrus_lines(lines: list[str]) -> list[int]:
    """The lines (1-based, in order) whose text holds ``:=``: the only ones an assignment
    expression can be written on (the operator is one token, on one line)."""
    return [n for n, line in enumerate(lines, 1) if ":=" in line]


def _holds(lines: Sequence[int], node: ast.AST) -> bool:
    """Whether one of ``lines`` (in order) lies within ``node``'s lines."""
    i = bisect.bisect_left(lines, node.lineno)  # type: ignore[attr-defined]
    return i < len(lines) and lines[i] <= node.end_lineno  # type: ignore[attr-defined]


#: The fields of each statement type (and an ``except`` handler) that hold statements.
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {
    ast.If: ("body", "orelse"),
    ast.While: ("body", "orelse"),
    ast.For: ("body", "orelse"),
    ast.AsyncFor: ("body", "orelse"),
    ast.With: ("body",),
    ast.AsyncWith: ("body",),
    ast.Try: ("body", "handlers", "orelse", "finalbody"),
    ast.TryStar: ("body", "handlers", "orelse", "finalbody"),
    ast.ExceptHandler: ("body",),
}


#: The fields of a statement (or an ``except`` handler) that hold statements.
_STATEMENT_BLOCKS = ("body", "orelse", "finalbody", "handlers")


def _targets(node: ast.AST) -> list[ast.expr]:
    """What a statement binds by assignment, loop, ``with ... as`` or ``del``."""
    if isinstance(node, ast.Assign | ast.Delete):
        return node.targets
    if isinstance(node, ast.For | ast.AsyncFor) or (
        isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value
    ):
        return [node.target]
    if isinstance(node, ast.With | ast.AsyncWith):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return []


def _expressions(node: ast.AST) -> Iterator[ast.expr]:
    """A statement's own expressions (its test, value, items), not those of the statements it holds."""
    for field, value in ast.iter_fields(node):
        if field in _STATEMENT_BLOCKS or field == "cases":
            continue
        for item in value if isinstance(value, list) else (value,):
            if isinstance(item, ast.expr):
                yield item
            elif isinstance(item, ast.withitem):
                yield item.context_expr
    if isinstance(node, ast.Match):
        yield from (case.guard for case in node.cases if case.guard is not None)


def _walk_expression(expression: ast.expr) -> Iterator[ast.AST]:
    """The nodes of an expression, leaving out lambdas (their ``:=`` binds in the lambda)."""
    pending: list[ast.AST] = [expression]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Lambda):
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


#: Each statement type's handler.  Functions of the class, not methods bound to a walker: a
#: walker holding its own bound methods would be a reference cycle, and its file's whole syntax
#: tree would wait for the cyclic collector (which mining pauses) instead of going at once.
_HANDLERS: dict[type, Callable[[_Walker, Any, _Conds], None]] = {
    t: getattr(_Walker, name) for t, name in _Walker._DISPATCH.items()
}
#: Statement types the walker reads (the statement-coverage test holds these and
#: ``IGNORED_STATEMENTS`` against every ``ast.stmt`` of the running Python).
HANDLED_STATEMENTS = frozenset(t.__name__ for t in _HANDLERS)


def _made_by(value: ast.expr) -> str | None:
    """What a local name stands for, as far as passing ``**kwargs`` on goes: the name assigned
    (``cls = Option``), or the class called to make it (``session = sessions.Session()``: its
    methods are the class's; a call of anything else makes what no table tells)."""
    if type(value) is ast.Call:
        called = dotted(value.func)
        if called is None:
            return None
        if called.rpartition(".")[2] == "cast" and len(value.args) == 2:  # ``t.cast(T, Command)``
            return _made_by(value.args[1])
        return called if called.rpartition(".")[2][:1].isupper() else None  # a class, by its name
    return dotted(value)


#: The fields of a compound statement that hold statements (walked on their own).
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _all_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a body, nested ones too (in functions and classes defined in it)."""
    stack: list[Any] = list(body)
    while stack:
        statement = stack.pop()
        if isinstance(statement, ast.stmt):
            yield statement
        for name in _BODIES:
            inner = getattr(statement, name, None)
            if inner:
                stack.extend(inner)


def _header(statement: ast.stmt) -> Iterator[ast.AST]:
    """What a statement holds besides its bodies: all of a simple one; a compound one's test,
    iterable, items, subject, decorators and defaults."""
    if not any(getattr(statement, name, None) for name in _BODIES):
        yield statement
        return
    for name, value in ast.iter_fields(statement):
        if name in _BODIES:
            continue
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, ast.AST))
