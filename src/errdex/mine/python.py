"""Extract error sites from one Python file with the standard ``ast`` module.

Nothing here imports or runs the code it reads.  The walk visits statements only and
descends into an expression just where a site can be (a ``raise``, an ``assert``, a call
statement), which keeps mining within a small margin of the bare parse.  Facts that need the
whole tree (exception classes that build their message, raise helpers, re-exported classes)
are returned as declarations and resolved afterwards by :mod:`errdex.mine.resolve`.
"""

from __future__ import annotations

import ast
import builtins
import copy
import re
import string
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from errdex.mine.patterns import Placeholder, Template
from errdex.mine.triggers import Trigger
from errdex.record import utf8

BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
LOG_LEVELS = {
    "critical": "critical",
    "fatal": "critical",
    "error": "error",
    "exception": "error",
    "warning": "warning",
    "warn": "warning",
}
MESSAGE_KEYWORDS = ("msg", "message", "detail", "description", "reason")
GETTEXT = frozenset({"_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "gettext_noop", "N_"})
HTTP_CLASSES = {"Http404": 404, "HttpResponseBadRequest": 400}
_LOGGER_NAME = re.compile(r"(^|[._])_*(log|logs|logger|logging)$", re.IGNORECASE)
_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])"
)
_MAX_BINDING_DEPTH = 8
_MAX_EXPRESSION_DEPTH = 200
#: Expression types that can build a message; a call passing none of them is no helper call.
_SINK_NAMES = frozenset({"warn", "warn_explicit", "exit", "quit", "abort", *LOG_LEVELS})
_STRINGISH = frozenset({ast.Constant, ast.JoinedStr, ast.BinOp, ast.Call})
#: Values inside an f-string that may stand for known text: a name bound to it, or text itself.
_TEXT_NODES = frozenset({ast.Name, ast.JoinedStr, ast.Constant})
#: Class names that say "exception"; only such classes (or subclasses of builtins) are searched
#: for a message-building constructor, which keeps ordinary classes off the hot path.
_MESSAGES_NAME = re.compile(r"messages$", re.IGNORECASE)
#: A message key rather than a message: ``make_error("invalid")``, ``fail("max_length")``.
_MESSAGE_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_EXCEPTION_NAME = re.compile(r"(Error|Exception|Warning|Exit|Failure|Fault|Interrupt)$")


@dataclass(slots=True)
class RawSite:
    """A place that raises, warns, logs or exits, before cross-file resolution."""

    line: int
    kind: str
    function: str | None
    conditions: tuple[str, ...]
    template: Template | None
    class_written: str | None = None
    class_qualified: str | None = None
    severity: str = "error"
    http_status: int | None = None
    error_code: str | None = None
    #: A library class called here, which may build its own message (``raise NotFound(name)``,
    #: ``raise StreamConsumed()``); its argument templates are kept to fill that message in.
    constructed: bool = False
    args: tuple[Template | None, ...] = ()
    kwargs: tuple[tuple[str, Template | None], ...] = ()
    #: For a call that is a site only if the callee turns out to be a raise helper.
    callee: str | None = None
    callee_qualified: str | None = None
    callee_is_attr: bool = False
    #: For a helper call: the helper's own raise, where a traceback's innermost frame points.
    via_path: str | None = None
    via_line: int | None = None
    #: For a message another function builds, resolved once every file is read.
    message_ref: MessageRef | None = None
    #: For a message looked up by key in the enclosing class's messages dict.
    message_key: str | None = None
    #: The message is known (found by its key); a factory may still tell the class.
    message_settled: bool = False


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
    #: Calls passing the parameter on to another function: (callee, is_attr, position or keyword, template).
    forwards: list[tuple[str, bool, int | str, Template]] = field(default_factory=list)


@dataclass(slots=True)
class ClassDef:
    """An exception class candidate: its bases, and the message its ``__init__``/``__str__`` builds."""

    qualified: str
    bases: tuple[str, ...]
    #: ``__init__``'s parameters (``self`` left out), the literal defaults among them, and the
    #: attributes it sets from them (``self.description = description``).
    has_init: bool = False
    params: tuple[str, ...] = ()
    defaults: dict[str, Template] = field(default_factory=dict)
    attr_params: dict[str, str] = field(default_factory=dict)
    #: Class-level text (``description = "The requested URL was not found"``), which
    #: ``self.description`` in a message reads unless the constructor set it.
    attributes: dict[str, Template] = field(default_factory=dict)
    #: What ``str()`` of an instance may give: every message ``__str__`` returns, else the one
    #: ``__init__`` passes up.
    templates: list[Template] = field(default_factory=list)
    from_str: bool = False
    #: ``__str__`` may also return the message it was given (``return self.message``).
    keeps_message: bool = False
    #: ``__str__`` returns ``self.args[0] % self.args[1:]``: the raise passes a ``%`` template
    #: and its values, logging-style.
    formats_args: bool = False
    #: Messages kept by key in a class-level dict (``default_error_messages = {"invalid": ...}``),
    #: which ``raise self.make_error("invalid")`` or ``self.error_messages["invalid"]`` look up.
    messages: dict[str, Template] = field(default_factory=dict)


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


@dataclass(slots=True)
class FileResult:
    path: str
    module: str | None
    sites: list[RawSite] = field(default_factory=list)
    candidates: list[RawSite] = field(default_factory=list)
    helpers: list[HelperDef] = field(default_factory=list)
    classes: list[ClassDef] = field(default_factory=list)
    message_funcs: list[MessageFunc] = field(default_factory=list)
    imports: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    #: Every function: (qualname, ``def`` line, first body line, last line, docstring as written).
    functions: list[tuple[str, int, int, int, str | None]] = field(default_factory=list)
    #: For a test file: the errors its tests expect (``pytest.raises``, ``assertRaises``).
    triggers: list[Trigger] = field(default_factory=list)
    error: str | None = None


def split_lines(text: str) -> list[str]:
    """Physical lines as Python's tokenizer counts them (form feeds do not end a line)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def extract(text: str, path: str, module: str | None, is_package: bool = False) -> FileResult:
    """Parse one file's text and return its sites and declarations, or the reason it can't be read."""
    result = FileResult(path=path, module=module)
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as exc:  # ValueError: null bytes
        result.error = f"does not parse: {type(exc).__name__}: {exc}".splitlines()[0]
        return result
    except (RecursionError, MemoryError) as exc:
        result.error = f"too deeply nested to parse ({type(exc).__name__})"
        return result
    result.lines = split_lines(text)
    try:
        _Walker(result, is_package).walk_module(tree)
    except RecursionError:
        result.error = "too deeply nested to analyse (RecursionError)"
    except Exception as exc:  # a bug in errdex must cost one file, reported, not the whole run
        result.error = f"errdex could not analyse it: {type(exc).__name__}: {exc}"
    if result.error:
        result.sites.clear()
        result.candidates.clear()
    return result


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attribute accesses on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _looks_like_class(written: str) -> bool:
    last = written.rpartition(".")[2]
    return last[:1].isupper() or last in BUILTIN_EXCEPTIONS


def percent_template(fmt: str, args: list[str] | None) -> Template:
    """Split a ``%`` format string into literals and placeholders named after their arguments."""
    parts: list[str | Placeholder] = []
    pos = 0
    index = 0
    for m in _PERCENT.finditer(fmt):
        parts.append(fmt[pos : m.start()])
        pos = m.end()
        if m["conv"] == "%":
            parts.append("%")
            continue
        key = m["key"]
        if key is not None:
            name = key
        elif args is not None and index < len(args):
            name = args[index]
        else:
            name = f"arg{index}"
        index += 1
        parts.append(Placeholder(name, m.group(0)))
    parts.append(fmt[pos:])
    return Template(()) + Template(tuple(parts))


def format_template(fmt: str, args: list[str], kwargs: dict[str, str]) -> Template | None:
    """Split a ``str.format`` string; None when the string is not a valid format."""
    parts: list[str | Placeholder] = []
    auto = 0
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return None
    for literal, field_name, _spec, _conv in parsed:
        parts.append(literal)
        if field_name is None:
            continue
        head = re.split(r"[.\[]", field_name, maxsplit=1)[0]
        if head == "":
            name = args[auto] + field_name if auto < len(args) else f"arg{auto}"
            auto += 1
        elif head.isdigit():
            i = int(head)
            # "{0.status_code}" of format(self) reads self.status_code.
            name = args[i] + field_name[len(head) :] if i < len(args) else field_name
        else:
            name = kwargs.get(head, field_name)
        parts.append(Placeholder(name, "{" + name + "}"))
    return Template(()) + Template(tuple(parts))


#: The guard conditions on the path to a statement: (test, negated), outermost first.
_Conds = tuple[tuple[ast.expr, bool], ...]


class _Scope:
    __slots__ = (
        "alternatives",
        "bindings",
        "class_name",
        "is_method",
        "name",
        "params",
        "positional",
        "qualname",
    )

    def __init__(
        self,
        qualname: str | None,
        name: str | None,
        params: tuple[str, ...],
        is_method: bool,
        class_name: str | None,
        positional: int = 0,
    ) -> None:
        self.qualname = qualname
        self.name = name
        self.params = params
        self.positional = positional
        self.is_method = is_method
        self.class_name = class_name
        self.bindings: dict[str, ast.expr] = {}
        #: Every value a name may hold, each under the guard it was assigned under: assignments in
        #: sibling branches (``if ...: msg = "a" else: msg = "b"``) all reach a later raise.
        self.alternatives: dict[str, list[tuple[_Conds, ast.expr]]] = {}

    def child(self, name: str) -> str:
        """The ``__qualname__`` Python gives a class or function defined in this scope."""
        if self.qualname is None:
            return name
        if self.name is not None:
            return f"{self.qualname}.<locals>.{name}"
        return f"{self.qualname}.{name}"


class _Walker:
    def __init__(self, result: FileResult, is_package: bool) -> None:
        self.result = result
        self.lines = result.lines
        self.module = result.module
        self.package = result.module if is_package else (result.module or "").rpartition(".")[0] or None
        self.imports = result.imports
        self.module_classes: set[str] = set()
        #: Exception classes defined in this file, so a subclass with a plain name
        #: (``class MissingParameter(BadParameter)``) is known as one too.
        self.exception_classes: set[str] = set()
        self.module_bindings: dict[str, ast.expr] = {}
        self.scope = _Scope(None, None, (), False, None)
        self.helpers_by_name: dict[str, HelperDef] = {}
        self._seg_cache: dict[int, str] = {}
        # Statement type -> handler; types absent here (pass, del, global ...) hold no sites.
        self._handlers: dict[type, Callable[[Any, _Conds], None]] = {
            ast.Raise: self._raise,
            ast.Expr: self._expr,
            ast.If: self._branch,
            ast.While: self._branch,
            ast.Assign: self._assign,
            ast.AugAssign: self._aug_assign,
            ast.Return: self._return,
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.ClassDef: self._class,
            ast.Assert: self._assert,
            ast.Try: self._try,
            ast.TryStar: self._try,
            ast.For: self._block,
            ast.AsyncFor: self._block,
            ast.With: self._block,
            ast.AsyncWith: self._block,
            ast.Match: self._match,
            ast.Import: self._local_import,
            ast.ImportFrom: self._local_import,
        }

    # -- source text -------------------------------------------------------------------------

    def segment(self, node: ast.AST) -> str:
        key = id(node)
        cached = self._seg_cache.get(key)
        if cached is not None:
            return cached
        lineno = getattr(node, "lineno", None)
        end = getattr(node, "end_lineno", None)
        col = getattr(node, "col_offset", None)
        end_col = getattr(node, "end_col_offset", None)
        if lineno is None or end is None or col is None or end_col is None:
            # A node errdex built itself (``msg += ...`` folded into one expression).
            text = ast.unparse(node)
        elif lineno == end:
            line = self.lines[lineno - 1]
            if line.isascii():
                text = line[col:end_col]
            else:
                text = line.encode()[col:end_col].decode(errors="replace")
        else:
            chunk = [self.lines[i].encode() for i in range(lineno - 1, end)]
            chunk[-1] = chunk[-1][:end_col]
            chunk[0] = chunk[0][col:]
            text = " ".join(c.decode(errors="replace").strip() for c in chunk)
        self._seg_cache[key] = text
        return text

    # -- module, classes, functions -----------------------------------------------------------

    def walk_module(self, tree: ast.Module) -> None:
        for node in tree.body:
            t = type(node)
            if t is ast.ClassDef:
                self.module_classes.add(node.name)  # type: ignore[attr-defined]
            elif t is ast.Assign and len(node.targets) == 1:  # type: ignore[attr-defined]
                target = node.targets[0]  # type: ignore[attr-defined]
                if isinstance(target, ast.Name):
                    self.module_bindings[target.id] = node.value  # type: ignore[attr-defined]
            elif t is ast.Import or t is ast.ImportFrom:
                self._import(node)  # type: ignore[arg-type]
        self.scope.bindings = self.module_bindings
        self.body(tree.body, ())

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
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
        for alias in node.names:
            if alias.name == "*":
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
        self.result.classes.append(decl)
        self.scope = _Scope(qual, None, (), False, qual)
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

    def _keyed_messages(self, node: ast.ClassDef) -> dict[str, Template]:
        found: dict[str, Template] = {}
        for name, value in _class_assignments(node):
            if isinstance(value, ast.Dict) and _MESSAGES_NAME.search(name):
                for key, item in zip(value.keys, value.values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        template = self.template(item)
                        if template is not None and template.is_static:
                            found[key.value] = _fields_of(template)
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
        self.scope = _Scope(None, fn.name, params, True, None)
        found: list[Template] = []
        try:
            for stmt in _statements(fn.body):
                expr: ast.expr | None = None
                if isinstance(stmt, ast.Assign):
                    targets = stmt.targets
                    if len(targets) == 1 and isinstance(targets[0], ast.Name):
                        self.scope.bindings[targets[0].id] = stmt.value
                    elif (
                        is_init
                        and len(targets) == 1
                        and (attr := dotted(targets[0])) is not None
                        and attr.startswith("self.")
                        and isinstance(stmt.value, ast.Name)
                        and stmt.value.id in params
                    ):
                        decl.attr_params[attr[5:]] = stmt.value.id
                elif isinstance(stmt, ast.Return) and not is_init:
                    expr = stmt.value
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and not found:
                    call = stmt.value
                    if _is_super_init(call.func) and call.args:
                        explicit = isinstance(call.func, ast.Attribute) and not isinstance(
                            call.func.value, ast.Call
                        )
                        # Base.__init__(self, message) passes self first.
                        expr = call.args[1] if explicit and len(call.args) > 1 else call.args[0]
                if expr is None:
                    continue
                template = self.template(expr)
                if template is None and isinstance(expr, ast.Name) and expr.id in defaults:
                    template = Template.dynamic(expr.id)  # filled with the default when not passed
                elif template is None or not (template.is_static or _reads_attributes(template)):
                    if not is_init:
                        decl.keeps_message = True
                        decl.formats_args = decl.formats_args or _formats_args(expr)
                    continue
                if template not in found:
                    found.append(template)
        finally:
            self.scope = saved
        # What __str__ returns is what is printed, whatever __init__ passed up.
        if found and (not decl.from_str or not is_init):
            decl.templates = found
            decl.from_str = not is_init

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
        positional = [a.arg for a in args.posonlyargs + args.args]
        is_static = any(dotted(d) == "staticmethod" for d in node.decorator_list)
        is_method = outer.class_name is not None and outer.name is None
        if is_method and not is_static and positional:
            positional = positional[1:]
        params = (*positional, *(a.arg for a in args.kwonlyargs))
        self.scope = _Scope(qual, node.name, params, is_method, outer.class_name, len(positional))
        first = node.body[0]
        doc = (
            first.value.value
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            else None
        )
        self.result.functions.append(
            (
                qual,
                node.lineno,
                first.lineno,
                node.end_lineno or first.lineno,
                utf8(doc) if isinstance(doc, str) else None,
            )
        )
        try:
            self.body(node.body, ())
        finally:
            self.scope = outer

    # -- statements ---------------------------------------------------------------------------

    def body(self, stmts: list[ast.stmt], conds: _Conds) -> None:
        handlers = self._handlers
        for node in stmts:
            handler = handlers.get(type(node))
            if handler is not None:
                handler(node, conds)

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
            if written is not None and _EXCEPTION_NAME.search(written) and _looks_like_class(written):
                # An exception factory: ``raise err(...)`` gets this class and message.
                template = self._message(_message_argument(value))
                func = self._message_func(template if template is not None and template.is_static else None)
                func.class_written = written
                func.class_qualified = self.qualify(written)
                return
        if not _builds_text(value):
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
        self.body(node.body, (*conds, (test, False)))
        if node.orelse:
            self.body(node.orelse, (*conds, (test, True)))

    def _block(self, node: ast.For | ast.AsyncFor | ast.With | ast.AsyncWith, conds: _Conds) -> None:
        self.body(node.body, conds)
        orelse = getattr(node, "orelse", None)
        if orelse:
            self.body(orelse, conds)

    def _try(self, node: ast.Try | ast.TryStar, conds: _Conds) -> None:
        self.body(node.body, conds)
        for handler in node.handlers:
            self.body(handler.body, conds)
        self.body(node.orelse, conds)
        self.body(node.finalbody, conds)

    def _match(self, node: ast.Match, conds: _Conds) -> None:
        for case in node.cases:
            self.body(case.body, conds)

    def _aug_assign(self, node: ast.AugAssign, conds: _Conds) -> None:
        target = node.target
        if isinstance(target, ast.Name) and isinstance(node.op, ast.Add):
            prev = self.scope.bindings.get(target.id)
            if prev is not None:
                self.scope.bindings[target.id] = ast.BinOp(prev, ast.Add(), node.value)

    def _local_import(self, node: ast.Import | ast.ImportFrom, conds: _Conds) -> None:
        if self.scope.qualname is not None:
            self._import(node)

    def _assign(self, node: ast.Assign, conds: _Conds = ()) -> None:
        if len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                scope = self.scope
                name = target.id
                value = node.value
                earlier = scope.alternatives.get(name, ())
                bound = scope.bindings.get(name)
                # An assignment overwrites those made at its own level or nested below it;
                # ones in sibling branches, or above it, still reach what follows.
                depth = len(conds)
                kept = [(c, v) for c, v in earlier if c[:depth] != conds]
                if bound is not None and _builds_text(value) and _mentions(value, name):
                    # ``message = message.format(...)`` builds on what the name held before:
                    # on each value it may have held.
                    scope.bindings[name] = _inline(value, name, bound)
                    built = [(conds, _inline(value, name, v)) for _, v in earlier or [((), bound)]]
                    scope.alternatives[name] = [*kept, *built]
                    return
                scope.bindings[name] = value
                scope.alternatives[name] = [*kept, (conds, value)]

    def _conditions(self, conds: _Conds) -> tuple[str, ...]:
        out = []
        for test, negated in conds:
            text = self.segment(test)
            out.append(f"not ({text})" if negated else text)
        return tuple(out)

    def _add(self, site: RawSite) -> None:
        self.result.sites.append(site)

    # -- templates ----------------------------------------------------------------------------

    def template(self, node: ast.expr, depth: int = 0) -> Template | None:
        """The message an expression builds, or None when it does not build a string we can read."""
        if depth > _MAX_EXPRESSION_DEPTH:
            return None
        t = type(node)
        if t is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            return Template.literal(utf8(value)) if isinstance(value, str) else None
        if t is ast.JoinedStr:
            parts: list[str | Placeholder] = []
            for v in node.values:  # type: ignore[attr-defined]
                if isinstance(v, ast.Constant):
                    parts.append(utf8(str(v.value)))
                elif isinstance(v, ast.FormattedValue):
                    # f"{msg} (at {pos})" where msg holds known text: that text, not a placeholder.
                    inner = None
                    if v.conversion == -1 and v.format_spec is None and type(v.value) in _TEXT_NODES:
                        inner = self.template(v.value, depth + 1)
                    if inner is not None and inner.is_static:
                        parts.extend(inner.parts)
                    else:
                        name = self.segment(v.value)
                        parts.append(Placeholder(name, "{" + name + "}"))
            return Template(()) + Template(tuple(parts))
        if t is ast.BinOp:
            op = type(node.op)  # type: ignore[attr-defined]
            if op is ast.Mod:
                left = self.template(node.left, depth + 1)  # type: ignore[attr-defined]
                if left is None or len(left.parts) != 1 or not isinstance(left.parts[0], str):
                    return None
                right = node.right  # type: ignore[attr-defined]
                if isinstance(right, ast.Tuple):
                    names = [self.segment(e) for e in right.elts]
                else:
                    names = [self.segment(right)]
                return percent_template(left.parts[0], names)
            if op is ast.Add:
                left = self.template(node.left, depth + 1)  # type: ignore[attr-defined]
                right_t = self.template(node.right, depth + 1)  # type: ignore[attr-defined]
                if left is None and right_t is None:
                    return None
                return (left or self._dynamic(node.left)) + (right_t or self._dynamic(node.right))  # type: ignore[attr-defined]
            return None
        if t is ast.Call and depth < _MAX_BINDING_DEPTH:
            return self._call_template(node, depth + 1)  # type: ignore[arg-type]
        if t is ast.Name and depth < _MAX_BINDING_DEPTH:
            name = node.id  # type: ignore[attr-defined]
            bound = self.scope.bindings.get(name)
            if bound is None and self.scope.name is not None:
                if name in self.scope.params:
                    return None
                bound = self.module_bindings.get(name)
            if bound is not None and bound is not node:
                return self.template(bound, depth + 1)
        return None

    def _dynamic(self, node: ast.expr) -> Template:
        return Template.dynamic(self.segment(node))

    def _call_template(self, node: ast.Call, depth: int) -> Template | None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr == "format":
                receiver = self.template(func.value, depth)
                if receiver is None or len(receiver.parts) != 1 or not isinstance(receiver.parts[0], str):
                    return None
                args = [self.segment(a) for a in node.args]
                kwargs = {k.arg: self.segment(k.value) for k in node.keywords if k.arg}
                template = format_template(receiver.parts[0], args, kwargs)
                # Text passed in as a literal (kind="Client error") is part of the message.
                literals = {
                    self.segment(v): Template.literal(v.value)
                    for v in (*node.args, *(k.value for k in node.keywords))
                    if isinstance(v, ast.Constant) and isinstance(v.value, str)
                }
                return template.substitute(literals) if template is not None and literals else template
            if func.attr in ("strip", "rstrip", "lstrip") and not node.args:
                inner = self.template(func.value, depth)
                if inner is not None and len(inner.parts) == 1 and isinstance(inner.parts[0], str):
                    return Template.literal(getattr(inner.parts[0], func.attr)())
                return inner
            name = func.attr
        elif isinstance(func, ast.Name):
            name = func.id
        else:
            return None
        if (name in GETTEXT or name in ("ngettext", "ungettext")) and node.args:
            return self.template(node.args[0], depth)
        if name == "dedent" and node.args:
            inner = self.template(node.args[0], depth)
            if inner is not None and len(inner.parts) == 1 and isinstance(inner.parts[0], str):
                return Template.literal(textwrap.dedent(inner.parts[0]))
            return inner
        return None

    def _choices(self, node: ast.expr) -> list[Template]:
        """The messages an expression may evaluate to when there are several: a conditional
        expression, or a name assigned in sibling branches.  Empty when there is just one."""
        if isinstance(node, ast.Name):
            values = [value for _, value in self.scope.alternatives.get(node.id, ())]
            if len(values) < 2:
                bound = self.scope.bindings.get(node.id)
                values = [bound] if isinstance(bound, ast.IfExp) else []
        else:
            values = [node]
        expanded: list[ast.expr] = []
        for value in values:
            expanded += [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        templates = [t for t in map(self.template, expanded) if t is not None and t.is_static]
        unique = list(dict.fromkeys(templates))
        return unique if len(unique) > 1 else []

    def _message(self, node: ast.expr | None) -> Template | None:
        """A site's message: readable text, or a dynamic placeholder naming the expression."""
        if node is None:
            return None
        template = self.template(node)
        if template is None:
            if isinstance(node, ast.Constant) and node.value is None:
                return None
            return self._dynamic(node)
        return template

    # -- sites --------------------------------------------------------------------------------

    def _raise(self, node: ast.Raise, conds: _Conds) -> None:
        exc = node.exc
        if exc is None:
            return  # a bare re-raise is not a new error
        if isinstance(exc, ast.Name) and not _looks_like_class(exc.id):
            bound = self.scope.bindings.get(exc.id)
            if not isinstance(bound, ast.Call):
                return  # re-raising a caught or stored instance
            exc = bound
        call = exc if isinstance(exc, ast.Call) else None
        written = dotted(call.func if call else exc)
        if call is None and (written is None or not _looks_like_class(written)):
            return  # re-raising something computed elsewhere
        if written is not None and not _looks_like_class(written) and call is not None:
            written = None  # a factory call: the class is whatever it returns
        site = RawSite(
            line=node.lineno,
            kind="raise",
            function=self.scope.qualname,
            conditions=self._conditions(conds),
            template=None,
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
            if status is None and args and _is_int(args[0]):
                status, rest = args[0], args[1:]
            code = status.value if status is not None and _is_int(status) else HTTP_CLASSES.get(last)  # type: ignore[attr-defined]
            if isinstance(code, int) and 100 <= code <= 599:
                site.kind = "http"
                site.http_status = code
            detail = keywords.get("detail") or keywords.get("description") or (rest[0] if rest else None)
            site.template = self._message(detail)
            return []
        message_node = _message_argument(call)
        site.template = self._message(message_node)
        others: list[Template] = []
        if message_node is not None and (choices := self._choices(message_node)):
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
            conditions=self._conditions((*conds, (node.test, True))),
            template=self._message(node.msg),
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
                self._log(call, line, conds, attr, keywords)
                return
            if attr == "abort" and args and _is_int(args[0]):
                code = args[0].value  # type: ignore[attr-defined]
                detail = args[1] if len(args) > 1 else keywords.get("description")
                template = self._message(detail) if detail is not None else None
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
            conditions=self._conditions(conds),
            template=template,
            class_written=written,
            class_qualified=qualified,
            severity=severity,
        )
        self._add(site)
        return site

    def _warn(
        self,
        call: ast.Call,
        line: int,
        conds: _Conds,
        keywords: dict[str, ast.expr],
    ) -> None:
        args = call.args
        message = args[0] if args else keywords.get("message")
        category = args[1] if len(args) > 1 else keywords.get("category")
        written = dotted(category) if category is not None else "UserWarning"
        if isinstance(message, ast.Call) and (inner := dotted(message.func)) and _looks_like_class(inner):
            written = inner
            message = message.args[0] if message.args else None
        template = self._message(message)
        site = self._site(line, "warn", conds, template, written, self.qualify(written), "warning")
        self._note_helper(template, "warn", site)

    def _log(
        self,
        call: ast.Call,
        line: int,
        conds: _Conds,
        level: str,
        keywords: dict[str, ast.expr],
    ) -> None:
        args = call.args
        message = args[0] if args else keywords.get("msg")
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
            template = self._dynamic(message)
        site = self._site(line, "log", conds, template, None, None, LOG_LEVELS[level])
        self._note_helper(template, "log", site)

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
        candidate = RawSite(
            line=line,
            kind="helper",
            function=self.scope.qualname,
            conditions=(),
            template=None,
            args=arg_templates,
            kwargs=kw_templates,
            callee=name,
            callee_qualified=self.qualify(written),
            callee_is_attr=bool(head),
        )
        scope = self.scope
        if scope.params and not conds:
            positions: list[tuple[int | str, Template | None]] = [*enumerate(arg_templates), *kw_templates]
            for pos, tmpl in positions:
                if tmpl is not None and any(p in scope.params for p in tmpl.placeholders):
                    self._helper().forwards.append((name, bool(head), pos, tmpl))
        if any(t is not None and t.is_static for t in arg_templates) or any(
            t is not None and t.is_static for _, t in kw_templates
        ):
            candidate.conditions = self._conditions(conds)
            self.result.candidates.append(candidate)

    def _maybe_text(self, node: ast.expr) -> bool:
        """Cheap test: could this argument carry a message (or pass a parameter on)?"""
        if type(node) is ast.Name:
            name = node.id
            scope = self.scope
            return name in scope.bindings or name in scope.params or name in self.module_bindings
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
                    helper.sink = Sink(
                        kind=kind,
                        class_written=site.class_written,
                        class_qualified=site.class_qualified,
                        template=template,
                        severity=site.severity,
                        http_status=site.http_status,
                        path=self.result.path,
                        line=site.line,
                    )
                return


def _class_assignments(node: ast.ClassDef) -> Iterator[tuple[str, ast.expr]]:
    """``name = value`` (annotated or not) at the top of a class body."""
    for stmt in node.body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    yield target.id, stmt.value


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


def _message_argument(call: ast.Call) -> ast.expr | None:
    """The argument an exception call passes its message in: the first that is not None
    (``ConstructorError(None, None, "...")``), else a ``msg=``-like keyword."""
    found = next((a for a in call.args if not _is_none(a)), None)
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


def _mentions(node: ast.expr, name: str) -> bool:
    return any(type(n) is ast.Name and n.id == name for n in ast.walk(node))


def _inline(node: ast.AST, name: str, value: ast.expr) -> ast.expr:
    """``node`` with ``name`` standing for ``value``: new nodes only on the path to the name,
    the rest shared (nothing here mutates a tree)."""
    if isinstance(node, ast.Name) and node.id == name:
        return value
    changed: dict[str, object] = {}
    for field_name, old in ast.iter_fields(node):
        if isinstance(old, ast.AST):
            new = _inline(old, name, value)
            if new is not old:
                changed[field_name] = new
        elif isinstance(old, list) and any(isinstance(item, ast.AST) for item in old):
            items = [_inline(item, name, value) if isinstance(item, ast.AST) else item for item in old]
            if any(a is not b for a, b in zip(items, old, strict=True)):
                changed[field_name] = items
    if not changed:
        return node  # type: ignore[return-value]
    copied = copy.copy(node)
    for field_name, new_value in changed.items():
        setattr(copied, field_name, new_value)
    return copied  # type: ignore[return-value]


def _fields_of(template: Template) -> Template:
    """A kept message whose named fields are filled in later (``msg.format(**kwargs)``,
    ``msg % params``): its fields are placeholders, not literal braces."""
    if len(template.parts) != 1 or not isinstance(text := template.parts[0], str):
        return template
    if "{" in text and (fields := format_template(text, [], {})) is not None and fields.placeholders:
        return fields
    if "%(" in text and any(m["key"] for m in _PERCENT.finditer(text)):
        return percent_template(text, None)
    return template


def _is_super_init(func: ast.expr) -> bool:
    if not isinstance(func, ast.Attribute) or func.attr != "__init__":
        return False
    value = func.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
        return True
    return isinstance(value, ast.Name | ast.Attribute)


def _builds_text(node: ast.expr) -> bool:
    """Cheap test for a returned message: an f-string, ``%``/``+`` text, a string, ``.format``."""
    t = type(node)
    if t is ast.JoinedStr or t is ast.BinOp:
        return True
    if t is ast.Constant:
        return isinstance(node.value, str)  # type: ignore[attr-defined]
    return t is ast.Call and isinstance(node.func, ast.Attribute) and node.func.attr == "format"  # type: ignore[attr-defined]


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_int(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int
