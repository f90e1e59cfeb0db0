"""Error sites of one JavaScript or TypeScript file, read from its tree-sitter syntax tree.

One walk over the tree, as the Python extractor makes over ``ast``: each node type it acts on
has a method (``_throw_statement``, ``_new_expression`` ...); every other node's children are
walked.  A site is wherever an error object is built or a message leaves the program:

* ``throw`` of anything but a rethrow, and every ``new X(...)`` of an error class wherever it
  stands (thrown, rejected, returned, passed to a callback, assigned): V8's stack points at the
  ``new``, so that is the site's line;
* ``console.error``/``console.warn``, ``process.emitWarning``, and Node's ``assert``;
* ``err.code = 'E...'`` after ``const err = new Error(...)``, and ``code: 'E...'`` among a
  construction's arguments, give the site its ``errorCode``.

Messages are templates: string and template literals, ``+`` concatenation, ``util.format``'s
``%s``, and names bound to those earlier in the function.  Classes that extend an error class
are declarations (``ClassDef``) whose constructor's ``super(...)`` or ``this.message = ...``
builds the message: :mod:`errdex.mine.resolve` fills ``throw new NotFound(name)`` in from them.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import tree_sitter as ts

from errdex.languages.ir import (
    DEFAULT,
    NULL,
    ClassDef,
    FileResult,
    Forward,
    FunctionInfo,
    HelperDef,
    RawSite,
    Sink,
)
from errdex.languages.javascript import http_errors
from errdex.languages.javascript.names import BUILTIN_ERRORS, RECEIVERS
from errdex.languages.javascript.source import INDEX_FILES, module_name
from errdex.languages.javascript.symbols import COMPUTED, file_symbols, object_keys
from errdex.languages.javascript.syntax import (
    arguments,
    dotted,
    encoded,
    escape,
    grammar_of,
    language,
    line_of,
    parse_source,
    string_value,
    text_of,
    unwrap,
    walk,
)
from errdex.patterns import Placeholder, Template
from errdex.record import Guard, Parameter
from errdex.symbols import Symbol, member_uses

#: A placeholder is named by the expression it stands for, shortened past this.
_NAME_LIMIT = 60
_ERROR_NAME = re.compile(r"(Error|Exception|Fault|Rejection)$")
_ERROR_CODE = re.compile(r"^E[A-Z0-9_]{2,}$")
#: Messages one argument may be (``c ? a : b``, ``msg || 'default'``), at most.
_MAX_ALTERNATIVES = 4
#: Early exits of one block kept as a site's guards, the nearest first.
_MAX_EXITS = 32
#: What an argument holds where it may be several messages: a ternary, ``||``, ``??``, ``__n``.
_BRANCHES = re.compile(rb"\?|\|\||__n\(")
#: Messages read from one table (``MESSAGES[code]``): past this, the lookup is a placeholder.
_MAX_TABLE = 32
#: A parameter that names the message a helper raises with.
#: What code names a message: a parameter a helper raises with (a rest parameter of
#: messages, ``...args``, too), an argument a call passes one in.
_MESSAGE_WORDS = ("msg", "message", "text", "reason", "description", "detail")
_MESSAGE_NAME = re.compile(rf"(?i)^(?:{'|'.join(_MESSAGE_WORDS)}|args)$")
#: Calls no helper is: loading modules, building text, Node's own and the language's.
_NOT_HELPERS = frozenset(
    {
        "require", "import", "format", "__", "__n", "concat", "join", "push", "replace", "split",
        "indexOf", "includes", "startsWith", "endsWith", "test", "match", "exec", "get", "set",
        "has", "on", "once", "emit", "log", "info", "debug", "trace", "setHeader", "getHeader",
        "write", "end", "call", "apply", "bind", "then", "resolve", "defineProperty", "freeze",
    }
)  # fmt: skip
_FORMAT = re.compile(r"%[sdifjoOc%]")
_FUNCTIONS = frozenset(
    {
        "function_declaration", "generator_function_declaration", "function_expression",
        "function", "generator_function", "arrow_function", "method_definition",
    }
)  # fmt: skip
_CLASS_NODES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
#: Expressions that build text: where a message is, among other arguments.
_TEXT_NODES = frozenset({"string", "template_string", "binary_expression"})
_LOOPS = frozenset({"while_statement", "do_statement", "for_statement", "for_in_statement"})
#: Where statements follow one another: an early exit among them guards the rest.
_BLOCKS = frozenset({"statement_block", "program", "class_body"})
_LOGS = {"error": "error", "warn": "warning"}
_ASSERTS = frozenset(
    {
        "ok", "equal", "strictEqual", "deepEqual", "deepStrictEqual", "notEqual", "notStrictEqual",
        "notDeepEqual", "notDeepStrictEqual", "match", "doesNotMatch", "fail", "ifError",
    }
)  # fmt: skip
#: The argument an ``assert.<name>`` call takes its message in (``assert.equal(a, b, msg)``).
_ASSERT_MESSAGE = {"ok": 1, "fail": 0, "ifError": None}


def extract(text: str, path: str, module: str | None, language: str) -> FileResult:
    """The file's sites, classes and functions; ``error`` says why there are none."""
    result = FileResult(path=path, module=module, language=language)
    result.lines = text.splitlines()
    source = encoded(text)
    tree = parse_source(source, path)
    _Extractor(result, module).run(tree.root_node, source, grammar_of(path))
    if result.symbols is not None and not result.error:
        result.symbols.called, result.symbols.assigned = member_uses(text, RECEIVERS)
    return result


@dataclass(slots=True)
class _Guards:
    guards: tuple[Guard, ...] = ()
    conditions: tuple[str, ...] = ()


#: Every node the extractor may read, by type alone, each captured under the name of what it
#: is (so that Python never asks a node its type to sort them): a pattern with children or
#: text predicates costs the query a pass of its own, and predicates are checked in Python.
_CAPTURES = {
    "throw": ("throw_statement",),
    "new": ("new_expression",),
    "call": ("call_expression",),
    "import": ("import_statement",),
    "export": ("export_statement",),
    "declarator": ("variable_declarator",),
    "assignment": ("assignment_expression",),
    "class": ("class_declaration", "class"),
    "function": (
        "function_declaration", "generator_function_declaration", "function_expression",
        "generator_function", "arrow_function", "method_definition",
    ),
}  # fmt: skip
#: The helpers compiled code wraps a ``require`` in: each gives the module itself, its
#: ``default`` what ``require`` returns (Babel's, then TypeScript's).
_INTEROP = frozenset(
    {b"_interopRequireDefault", b"_interopRequireWildcard", b"__importDefault", b"__importStar"}
)
#: A word in quotes, as a property named at run time may be written (``'post'``).
_QUOTED_WORD = re.compile(rb"""['"]([A-Za-z_$][\w$]{1,40})['"]""")
#: Assignments that set what a module's importer gets as its default.
_EXPORTS_DEFAULT = frozenset({b"module.exports", b"exports.default", b"module.exports.default"})
#: What a call's receiver must be for it to be a site of its own (``console.error``).
_CALLED_ON = frozenset({b"console", b"process", b"Object", b"assert", b"strict"})
_BARE_CALL = re.compile(rb"(Error|Exception|Fault|Rejection)$|^(assert|ok|strict)$")
#: What a callee's text starts with where its receiver may be one of ``_CALLED_ON``: a test on
#: the file's bytes that spares most calls' nodes.
_CALLED_ON_START = re.compile(rb"console|process|Object|assert|strict")
_MESSAGE_NAMES = frozenset(word.encode() for word in _MESSAGE_WORDS)
#: What the arguments of a call that may pass a message hold somewhere (a cheap first test).
#: Each alternative starts with a literal character (the word boundary before a name is a look
#: back from past its first letter), so that the search skips in C to where one may start
#: instead of trying every position.
_MAYBE_TEXT = re.compile(
    rb"'|\"|`|__|" + b"|".join(rb"%b(?<=\b%b)%b\b" % (w[:1], w[:1], w[1:]) for w in sorted(_MESSAGE_NAMES))
)


@functools.cache
def _query(grammar: str) -> ts.Query:
    """One query for the nodes the extractor reads, run in C: the walk in Python visits only
    its captures and their ancestors, never the whole tree."""
    captures = dict(_CAPTURES)
    if grammar != "javascript":
        captures["class"] += ("abstract_class_declaration",)
    patterns = (f"[{' '.join(f'({t})' for t in types)}] @{name}" for name, types in captures.items())
    return ts.Query(language(grammar), "\n".join(patterns))


class _Extractor:
    def __init__(self, result: FileResult, module: str | None) -> None:
        self.result = result
        self.module = module
        #: Nodes already made a site (the ``new`` a ``throw`` throws), by node id.
        self.sites: dict[int, RawSite] = {}
        #: Classes the file declares that extend an error class (their constructions are sites).
        self.local_errors: set[str] = set()
        self.assert_names: set[str] = set()
        self._names: dict[int, str] = {}
        self.helpers: dict[int, HelperDef] = {}
        self._blocks: dict[int, dict[str, list[tuple[int, ts.Node]]]] = {}
        self._exits: dict[int, list[tuple[int, Guard, str]]] = {}
        #: Per block, the function it is in and the guards above it (``_context``).
        self._above: dict[int, tuple[ts.Node | None, tuple[tuple[Guard, str | None], ...]]] = {}
        self._ifs: dict[tuple[int, bool], tuple[Guard, str]] = {}
        #: Read once each, however many sites ask: a name's calls, the tables a parameter is
        #: passed, the ``+=`` of a binding.
        self._calls: dict[bytes, list[ts.Node]] = {}
        #: ``createError(status)`` of a status a function is given: the call and its site.
        self._status_sinks: list[tuple[ts.Node, RawSite]] = []
        self._tables_passed: dict[tuple[int, int], list[ts.Node]] = {}
        self._appends: dict[tuple[str, int], list[tuple[int, ts.Node | None]]] = {}
        #: Blocks whose early exits were too many to keep them all (``_MAX_EXITS``).
        self._capped: set[int] = set()
        #: Each function's parameters, by node id: read once, however many lookups pass it.
        self._params: dict[int, tuple[Parameter, ...]] = {}
        #: The file's ``throw`` statements in document order, and where each starts (``run``).
        self._throws: list[ts.Node] = []
        self._throw_starts: list[int] = []

    # -- driver ---------------------------------------------------------------------------------

    def run(self, root: ts.Node, source: bytes, grammar: str) -> None:
        self.root, self.source = root, source
        found = _classified(ts.QueryCursor(_query(grammar)).captures(root), source)
        self._throws = found.get("throw", [])
        self._throw_starts = [node.start_byte for node in self._throws]
        for node in found.get("class", []):
            self._class_def(node)
        for node in found.get("import", []):
            self._import(node)
        for node in found.get("export", []):
            self._export(node)
        for node in found.get("declarator", []):
            self._require(node)
        for node in found.get("module_exports", []):
            self._exports_assignment(node)
        for node in found.get("load", []):
            # Every file it loads, named or not (``require('./v1.js')`` inside another call):
            # which of a package's files Node runs follows these (``errdex.mine.entries``).
            target = self._module_target(arguments(node)[0])
            if target is not None and target.startswith("./"):
                self.result.imports.setdefault(f"*{target}", target)
        functions = found.get("function", [])
        self._name_functions(functions, found.get("class", []))
        for node in functions:
            if node.type == "function_declaration":
                self._function_class(node)
        sites: list[tuple[int, str, ts.Node]] = []
        for label in ("throw", "new", "call", "bare_call", "status_call", "member_call"):
            sites += [(node.start_byte, label, node) for node in found.get(label, [])]
        # Outer before inner at one offset: a ``throw`` before the ``new`` it throws.
        sites.sort(key=lambda s: (s[0], -s[2].end_byte))
        for _, label, node in sites:
            if label == "throw":
                self._throw_statement(node)
            elif label == "new":
                self._construction(node, thrown=False)
            elif label == "status_call":
                self._http_error(node)
            elif label == "member_call":
                self._base_call(node)
            else:
                self._call_expression(node)
        self._status_helpers()
        for node in found.get("code", []):
            self._code_assignment(node)
        for node in found.get("candidate", []):
            self._candidate(node)
        enclosing = {site.function for site in self.result.sites}
        for node in functions:
            self._declare_function(node, enclosing)
        self._define(functions, found)

    def _define(self, functions: list[ts.Node], found: dict[str, list[ts.Node]]) -> None:
        """What the file defines, for the release's symbol table (``symbols.file_symbols``)."""
        classes = []
        for node in found.get("class", []):
            name = _class_name(node)
            if name is not None:
                base = _heritage(node)
                classes.append((name, (self.qualify(base) or base) if base else None, node))
        named = ((self._names.get(node.id) or self._qualname(node), node) for node in functions)
        symbols = file_symbols(
            named,
            classes,
            found.get("member", []),
            self.result.imports,
            self.parameters,
            found.get("computed", []),
        )
        for node in found.get("module_exports", []):
            right = node.child_by_field_name("right")
            if right is not None and right.type == "object":  # ``module.exports = { parse, format }``
                for key in object_keys(right):
                    symbols.symbols.setdefault(key, Symbol("attribute", not key.startswith("_")))
            else:  # the exports are a value (a function, an instance): its properties are made at run time
                symbols.symbols[""] = Symbol("module", open=True)
        if found.get("computed"):
            # Properties named at run time (``utils.forEach(['get', 'post'], m => proto[m] = ...)``)
            # take their names from the file's text: each short word in quotes may be one.
            for word in set(_QUOTED_WORD.findall(self.source)):
                symbols.symbols.setdefault(f"{COMPUTED}.{word.decode()}", Symbol("attribute"))
        self.result.symbols = symbols

    # -- where a node stands --------------------------------------------------------------------

    def _context(self, node: ts.Node) -> tuple[ts.Node | None, _Guards]:
        """The function a node is in, and the guards on the way to it from that function's
        start (or the file's), outermost first.  What lies above a block is the same for every
        node in it: it is worked out once per block (``_above``), from the walk that first
        passes it, so a file's sites and calls cost a short walk each."""
        guards: list[tuple[Guard, str | None]] = []  # innermost first
        #: Blocks passed on the way, each with how many guards were found below it.
        passed: list[tuple[ts.Node, int]] = []
        base: tuple[ts.Node | None, tuple[tuple[Guard, str | None], ...]] | None = None
        child, parent = node, node.parent
        while parent is not None and parent.type not in _FUNCTIONS:
            kind = parent.type
            if kind in _BLOCKS or kind == "switch_case":
                exits = self._exits.get(parent.id)
                if exits is None:
                    exits = self._exits[parent.id] = _exits_in(parent)
                # The nearest early exits above (they end in order): a block of thousands
                # (generated validators) would give each site all of them.
                passed_exits = bisect.bisect_right(exits, child.start_byte, key=lambda e: e[0])
                if passed_exits > _MAX_EXITS and parent.id not in self._capped:
                    self._capped.add(parent.id)
                    self.result.omitted.append(
                        (line_of(parent), f"early exits past the nearest {_MAX_EXITS} left out of guards")
                    )
                nearest = exits[max(0, passed_exits - _MAX_EXITS) : passed_exits]
                guards += reversed([(guard, test) for _, guard, test in nearest])
                if kind == "switch_case":
                    guards += self._case_guard(parent, child)
                base = self._above.get(parent.id)
                if base is not None:
                    break
                passed.append((parent, len(guards)))
            else:
                guards += self._guard_of(parent, child)
            child, parent = parent, parent.parent
        if base is None:
            base = (parent, ())
        function, outer = base
        for block, below in passed:
            self._above[block.id] = (function, outer + tuple(reversed(guards[below:])))
        found = outer + tuple(reversed(guards))
        return function, _Guards(tuple(g for g, _ in found), tuple(c for _, c in found if c is not None))

    def _guard_of(self, parent: ts.Node, child: ts.Node) -> list[tuple[Guard, str | None]]:
        """The guard ``parent`` puts on ``child`` (the branch of an ``if``, a ``catch``, a
        loop's body), with the condition it adds; none for other nodes."""
        kind = parent.type
        if kind == "if_statement":
            if child == parent.child_by_field_name("consequence"):
                return [self._if_guard(parent, False)]
            if child == parent.child_by_field_name("alternative"):
                return [self._if_guard(parent, True)]
        elif kind == "catch_clause" and child == parent.child_by_field_name("body"):
            param = parent.child_by_field_name("parameter")
            attempt = parent.parent.child_by_field_name("body") if parent.parent is not None else None
            subject = text_of(param) if param is not None else None
            return [(Guard("except", "", subject=subject, guarded=_single_statement(attempt)), None)]
        elif kind in _LOOPS and child == parent.child_by_field_name("body"):
            head = parent.child_by_field_name("condition") or parent.child_by_field_name("right")
            test = _strip_parens(text_of(head)) if head is not None else ""
            return [(Guard("loop", test, names=_names(head)), None)]
        return []

    def _if_guard(self, node: ts.Node, otherwise: bool) -> tuple[Guard, str]:
        """An ``if``'s guard on its body (or, ``otherwise``, on its ``else``), made once."""
        key = (node.id, otherwise)
        known = self._ifs.get(key)
        if known is None:
            test = _condition(node)
            names = _names(node.child_by_field_name("condition"))
            if otherwise:
                flipped = negate(test)
                known = (Guard("else", test, names=names, code=flipped), flipped)
            else:
                known = (Guard("if", test, names=names, code=test), test)
            self._ifs[key] = known
        return known

    def _case_guard(self, case: ts.Node, child: ts.Node) -> list[tuple[Guard, str | None]]:
        """A ``case``'s guard on its statements: ``subject === value``."""
        tested = case.child_by_field_name("value")
        switch = case.parent.parent if case.parent is not None else None
        value = switch.child_by_field_name("value") if switch is not None else None
        if tested is None or value is None or child == tested:
            return []
        test = f"{_strip_parens(text_of(value))} === {text_of(tested)}"
        return [(Guard("if", test, names=_names(value), code=test), test)]

    def _name_functions(self, functions: list[ts.Node], classes: list[ts.Node]) -> None:
        """Every function's qualified name (``_qualname``), in one pass over the file's
        functions and classes in document order: what encloses one is what is still open
        when it starts.  Walking up from each instead asks for parent after parent, and each
        parent is a search down from the root."""
        nodes = sorted([*functions, *classes], key=_document_order)
        is_function = {node.id for node in functions}
        #: The functions and classes around the current node, outermost first.
        open_: list[tuple[ts.Node, int]] = []
        for node in nodes:
            end = node.end_byte
            while open_ and end > open_[-1][1]:
                open_.pop()
            if node.id in is_function:
                owner_class, outer = None, None
                for around, _ in reversed(open_):
                    if around.id in is_function:
                        outer = self._names[around.id]
                        break
                    if owner_class is None:
                        owner_class = _class_name(around)
                self._names[node.id] = _nested_name(node, owner_class, outer)
            open_.append((node, end))

    def _qualname(self, node: ts.Node) -> str:
        """A function's qualified name as a stack frame and a caller name it (``Router.use``,
        ``Router.use.<locals>.next``); a function with no name of its own is ``<anonymous>``
        inside the one around it.  Named outermost first, without recursion: code can nest
        functions thousands deep.  The file's functions are named up front
        (``_name_functions``); this walk names any other."""
        chain: list[tuple[ts.Node, str | None]] = []
        current: ts.Node | None = node
        while current is not None and current.id not in self._names:
            owner_class = None
            outer = current.parent
            while outer is not None and outer.type not in _FUNCTIONS:
                if owner_class is None and outer.type in _CLASS_NODES:
                    owner_class = _class_name(outer)
                outer = outer.parent
            chain.append((current, owner_class))
            current = outer
        name = self._names.get(current.id) if current is not None else None
        for function, owner_class in reversed(chain):
            name = self._names[function.id] = _nested_name(function, owner_class, name)
        assert name is not None
        return name

    def bound(self, name: str, at: ts.Node) -> ts.Node | None:
        """What ``name`` was last bound to before ``at``, in its block or one around it
        (``const msg = ...``, ``msg = ...``)."""
        child, parent = at, at.parent
        levels = 0
        while parent is not None and levels < 64:
            if parent.type in _BLOCKS:
                before = child.start_byte
                found = [
                    value
                    for start, value in self._bindings(parent).get(name, ())
                    if start < before or value.type == "function_declaration"  # hoisted
                ]
                if found:
                    return found[-1]
            if parent.type in _FUNCTIONS and any(p.name == name for p in self.parameters(parent)):
                return None  # a parameter: its value comes from the caller
            child, parent = parent, parent.parent
            levels += 1
        return None

    def parameters(self, function: ts.Node) -> tuple[Parameter, ...]:
        """A function's parameters (``_parameters``), read once per function."""
        known = self._params.get(function.id)
        if known is None:
            known = self._params[function.id] = tuple(_parameters(function))
        return known

    def _bindings(self, block: ts.Node) -> dict[str, list[tuple[int, ts.Node]]]:
        """The names a block's statements bind, each with where and to what, in order: read
        once per block, however many names are looked up in it."""
        known = self._blocks.get(block.id)
        if known is None:
            known = self._blocks[block.id] = {}
            for statement in block.named_children:
                for name, value in _bound_by(statement):
                    known.setdefault(name, []).append((statement.start_byte, value))
        return known

    def _declare_function(self, node: ts.Node, enclosing: set[str | None]) -> None:
        body = node.child_by_field_name("body")
        if body is None:
            return
        name = self._qualname(node)
        first = body.named_child(0) if body.type == "statement_block" and body.named_child_count else body
        detailed = name in enclosing
        self.result.functions.append(
            FunctionInfo(
                name=name,
                line=line_of(_statement_of(node)),
                body_line=line_of(first),
                end_line=node.end_point[0] + 1,
                docstring=_doc_comment(node) if detailed else None,
                parameters=self.parameters(node) if detailed else (),
                is_async=detailed and any(c.type == "async" for c in node.children),
            )
        )

    # -- declarations, before the walk ----------------------------------------------------------

    def _class_def(self, node: ts.Node) -> None:
        name_node = node.child_by_field_name("name")
        name = text_of(name_node) if name_node is not None else _assigned_name(node)
        base = _heritage(node)
        if name is None or base is None:
            return
        if _is_error_name(base) or base in self.local_errors or _is_error_name(name):
            self.local_errors.add(name)
        decl = ClassDef(self.qualify(name) or name, (self.qualify(base) or base,))
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type in ("public_field_definition", "field_definition"):
                key, value = member.child_by_field_name("property"), member.child_by_field_name("value")
                if key is not None and value is not None and (t := self.static(value)) is not None:
                    decl.attributes[text_of(key)] = t
            elif member.type == "method_definition" and _own_name(member) == "constructor":
                self._constructor(member, decl)
        self.result.classes.append(decl)

    def _function_class(self, node: ts.Node) -> None:
        """``function AxiosError(message, code) { Error.call(this); this.message = message }``:
        an error class written as a constructor function."""
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None or not name_node.text or not name_node.text[:1].isupper():
            return
        code = text_of(body)
        if "this.message" not in code and "Error.call(this" not in code:
            return
        name = text_of(name_node)
        self.local_errors.add(name)
        decl = ClassDef(self.qualify(name) or name, ("Error",))
        self._constructor(node, decl)
        self.result.classes.append(decl)

    def _constructor(self, node: ts.Node, decl: ClassDef) -> None:
        params = _parameters(node)
        decl.has_init = True
        decl.params = tuple(p.name for p in params)
        # The defaults that are text (``message = 'Not found'``): what the message is when none is given.
        decl.defaults = {
            p.name: Template.literal(text)
            for p in params
            if p.default and p.default[:1] in "'\"" and (text := _unquote(p.default)) is not None
        }
        names = set(decl.params)
        body = node.child_by_field_name("body")
        for expr in walk(body) if body is not None else ():
            if expr.type == "call_expression":
                func = expr.child_by_field_name("function")
                args = arguments(expr)
                based = _calls_base(func, args)  # ``AxiosError.call(this, message, ...)``
                if based or (func is not None and func.type == "super"):
                    args = args[1:] if based else args
                    decl.super_args = tuple(_passed_name(a, names) for a in args)
                    message = self._message_argument(decl.bases[0], args)
                    if message is None or text_of(message) in names:
                        continue
                    passed = _passed_name(message, names)
                    fallback = _fallback(message) if passed is not None else None
                    if passed is not None and fallback is not None:
                        # ``super(msg || 'yargs error')``: the raise's message, else the fallback,
                        # as a default is (``new YError()``), built from the other arguments.
                        defaults = [t for t in self.messages(fallback) if t.is_static]
                        if len(defaults) == 1:
                            decl.defaults.setdefault(passed, defaults[0])
                            decl.nullish.add(passed)
                    else:
                        # ``super(`${what} was not found`)``, or each branch of a ternary;
                        # a branch computed at run time is a message of its own.
                        found = self.messages(message)
                        decl.templates += [t for t in found if t.is_static]
                        if decl.templates and any(t.parts and not t.is_static for t in found):
                            decl.computed = self.message(message)  # named by the whole expression
            elif expr.type == "assignment_expression":
                left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
                target = text_of(left) if left is not None else ""
                if right is None or not target.startswith("this."):
                    continue
                attr = target[5:]
                if text_of(right) in names:
                    decl.attr_params[attr] = text_of(right)
                    if attr == "message" and decl.super_args is None:
                        decl.super_args = (text_of(right),) if decl.params[:1] == (text_of(right),) else None
                elif attr == "message" and (built := self.message(right)).is_static:
                    decl.templates.append(built)
                elif (value := self.static(right)) is not None:
                    decl.attributes[attr] = value

    def _message_argument(self, base: str, args: list[ts.Node]) -> ts.Node | None:
        """Which argument of ``super(...)`` is the message: the one the base class (declared
        above in this file) passes up as its own message, else the first that is text
        (``super(404, `${what} was not found`)``), else the first."""
        declared = next((c for c in self.result.classes if c.qualified == base), None)
        if declared is not None and declared.super_args and declared.super_args[0] in declared.params:
            position = declared.params.index(declared.super_args[0])
            return args[position] if position < len(args) else None
        texts = [a for a in args if (unwrap(a) or a).type in _TEXT_NODES]
        return texts[0] if texts else (args[0] if args else None)

    def _import(self, node: ts.Node) -> None:
        source = node.child_by_field_name("source")
        target = self._module_target(source)
        if target is None:
            return
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            if target == "assert":
                # ``import assert from``, ``import * as assert from``, ``import { ok, strict } from``.
                self.assert_names.update(
                    text_of(p)
                    for p in walk(clause)
                    if p.type == "identifier"
                    and (
                        text_of(p) in ("assert", "ok", "strict")
                        or (p.parent is not None and p.parent.type in ("import_clause", "namespace_import"))
                    )
                )
            for part in clause.named_children:
                if part.type == "identifier":
                    self.result.imports[text_of(part)] = f"{target}.default"
                elif part.type == "namespace_import":
                    alias = next((c for c in part.named_children if c.type == "identifier"), None)
                    if alias is not None:
                        self.result.imports[text_of(alias)] = target
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type == "import_specifier":
                            imported = spec.child_by_field_name("name")
                            alias = spec.child_by_field_name("alias") or imported
                            if imported is not None and alias is not None:
                                self.result.imports[text_of(alias)] = f"{target}.{text_of(imported)}"

    def _export(self, node: ts.Node) -> None:
        source = node.child_by_field_name("source")
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        if any(c.type == "default" for c in node.children):
            named = declaration or value
            if named is not None and (n := _own_name(named) or _identifier(named)):
                self.result.imports[DEFAULT] = self.qualify(n) or n
            return
        target = self._module_target(source) if source is not None else None
        for clause in node.named_children:
            if clause.type != "export_clause":
                continue
            for spec in clause.named_children:
                name = spec.child_by_field_name("name")
                alias = spec.child_by_field_name("alias") or name
                if name is None or alias is None:
                    continue
                if target is not None:
                    self.result.imports[text_of(alias)] = f"{target}.{text_of(name)}"
                elif text_of(alias) != text_of(name):
                    self.result.imports[text_of(alias)] = self.qualify(text_of(name)) or text_of(name)
        if (
            source is not None
            and target is not None
            and not any(c.type == "export_clause" for c in node.named_children)
        ):
            self.result.imports[f"*{target}"] = target

    def _require(self, node: ts.Node) -> None:
        """``const X = require('./x')``, ``const { A, B: C } = require('./y')``."""
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None:
            return
        target, attr = self._required(value)
        if target is None:
            return
        if target == "assert" and name.type == "identifier":
            self.assert_names.add(text_of(name))
        if name.type == "identifier":
            self.result.imports[text_of(name)] = (
                f"{target}.{attr}" if attr else target if attr == "" else f"{target}.default"
            )
        elif name.type == "object_pattern":
            for prop in name.named_children:
                if prop.type == "shorthand_property_identifier_pattern":
                    self.result.imports[text_of(prop)] = f"{target}.{text_of(prop)}"
                    if target == "assert" and text_of(prop) in ("ok", "strict"):
                        self.assert_names.add(text_of(prop))
                elif prop.type == "pair_pattern":
                    key, alias = prop.child_by_field_name("key"), prop.child_by_field_name("value")
                    if key is not None and alias is not None and alias.type == "identifier":
                        self.result.imports[text_of(alias)] = f"{target}.{text_of(key)}"

    def _required(self, value: ts.Node) -> tuple[str | None, str | None]:
        """The module a ``require(...)`` (or ``require(...).name``) names, and the name taken:
        None for what ``require`` returns (the module's default), ``""`` for the module itself
        (what compiled code's interop helpers make of it)."""
        attr = None
        if value.type == "member_expression":
            prop = value.child_by_field_name("property")
            attr = text_of(prop) if prop is not None else None
            value = value.child_by_field_name("object") or value
        if value.type != "call_expression":
            return None, None
        func = value.child_by_field_name("function")
        args = arguments(value)
        if func is not None and text_of(func).encode() in _INTEROP and len(args) == 1:
            # ``_interopRequireDefault(require('./parse'))`` is the module itself, whose
            # ``default`` is what ``require`` returns.
            target, inner = self._required(args[0])
            return target, "" if inner is None else inner
        if func is None or text_of(func) != "require" or len(args) != 1:
            return None, None
        return self._module_target(args[0]), attr

    def _module_target(self, source: ts.Node | None) -> str | None:
        """The module a specifier names: a relative one as a path in this package
        (``./errors`` from ``lib/router/index`` is ``lib/router/errors``), a package's by its
        name (``node:assert`` is ``assert``)."""
        if source is None or source.type != "string":
            return None
        spec = _unquote(text_of(source))
        if not spec:
            return None
        if spec in ("assert", "node:assert", "assert/strict", "node:assert/strict"):
            return "assert"
        if not spec.startswith("."):
            return spec.removeprefix("node:")
        here = (self.module or "./").removeprefix("./").split("/")
        # A module is its file's path without the extension; its directory is all but the last
        # piece, unless it is a directory's index (its module is the directory itself).
        is_index = self.result.path.rsplit("/", 1)[-1] in INDEX_FILES and "/" in self.result.path
        parts = here if is_index else here[:-1]
        for piece in spec.split("/"):
            if piece in ("", "."):
                continue
            if piece == "..":
                if not parts:
                    return None
                parts = parts[:-1]
            else:
                parts = [*parts, piece]
        if not parts:
            return None
        return module_name([*parts[:-1], parts[-1] if "." in parts[-1] else parts[-1] + ".js"])[0]

    def _exports_assignment(self, node: ts.Node) -> None:
        """``module.exports = X`` makes ``X`` the module's default export, as ``require`` sees it;
        so does ``exports.default = X`` (how TypeScript and Babel write ``export default X``),
        which the importer reads as ``require(...).default``, unless ``module.exports`` is set."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or text_of(left).encode() not in _EXPORTS_DEFAULT:
            return
        while right.type == "assignment_expression" and (inner := right.child_by_field_name("right")):
            right = inner  # ``exports.default = _default = parse``
        if right.type == "identifier":
            target: str = self.qualify(text_of(right)) or text_of(right)
        elif (required := self._required(right))[0] is not None:
            target = f"{required[0]}.{required[1] or 'default'}"
        else:
            return
        if text_of(left) == "module.exports":
            self.result.imports[DEFAULT] = target
        else:
            self.result.imports.setdefault(DEFAULT, target)

    def qualify(self, written: str | None) -> str | None:
        """A class as the file names it, qualified with the module that defines it
        (``lib/core/AxiosError.AxiosError``), through the file's imports; builtins as they are."""
        if not written:
            return None
        head, dot, rest = written.partition(".")
        if written in BUILTIN_ERRORS:
            return written
        target = self.result.imports.get(head)
        if target is not None:
            return f"{target}{dot}{rest}" if rest else target
        if head in self.local_errors or (not dot and self.module is not None):
            return f"{self.module}.{written}" if self.module else written
        return written

    # -- sites ----------------------------------------------------------------------------------

    def _throw_statement(self, node: ts.Node) -> None:
        value = unwrap(next(iter(node.named_children), None))
        if value is None:
            return
        if value.type == "new_expression":
            self._construction(value, thrown=True)
        elif value.type in ("string", "template_string", "binary_expression"):
            self._site(node, "raise", self.message(value), None)
        elif value.type == "call_expression":
            self._thrown_call(value)
        # An identifier is a rethrow, or an error built (and made a site) where it was bound.

    def _thrown_call(self, call: ts.Node) -> None:
        """``throw createError(404, 'No such user')``, ``throw Error('x')``: a factory, or an
        error class called without ``new`` (which builds one just the same)."""
        written = dotted(call.child_by_field_name("function"))
        if written is not None and (written in BUILTIN_ERRORS or written in self.local_errors):
            self._construction(call, thrown=True)
            return
        if call.id in self.sites or self._http_error(call):
            return
        texts = [a for a in arguments(call) if (unwrap(a) or a).type in _TEXT_NODES]
        template = next((t for t in map(self.message, texts) if t.is_static), None)
        if template is not None:
            self.sites[call.id] = self._site(call, "raise", template, None)

    def _construction(self, node: ts.Node, thrown: bool) -> RawSite | None:
        known = self.sites.get(node.id)
        if known is not None:
            return known
        callee = node.child_by_field_name("constructor") or node.child_by_field_name("function")
        written = dotted(callee)
        if written is None:
            return None
        name = written.rpartition(".")[2]
        if name in self.local_errors and written in (f"exports.{name}", f"module.exports.{name}"):
            written = name  # ``new exports.ValidationError(...)``: the class this file exports as that
        if not (thrown or _is_error_name(name) or name in self.local_errors):
            return None
        # ``undefined`` passes nothing: the parameter takes its default.
        args = arguments(node)
        templates = tuple(self.message(a) if a.type != "object" and not _undefined(a) else None for a in args)
        alternatives = (
            self.messages(args[0]) if args and args[0].type != "object" and not _undefined(args[0]) else []
        )
        template = alternatives[0] if alternatives else None
        site = self._site(
            node,
            "raise",
            template if template is not None and template.parts else None,
            written,
            error_code=_code_argument(args),
            args=(template, *templates[1:]) if templates else (),
            constructed=name not in BUILTIN_ERRORS,
        )
        site.delivery = None if thrown else self._delivery(node)
        self.sites[node.id] = site
        # The other messages it may be built with, each a site of its own at the same place.
        for other in alternatives[1:]:
            if other.parts and other != template:
                self.result.sites.append(replace(site, template=other, args=(other, *templates[1:])))
        return site

    def _delivery(self, node: ts.Node) -> str | None:
        """How an error built outside a ``throw`` reaches the caller: the promise it rejects,
        the callback it is handed to, the value returned; None where it is thrown after all
        (``const err = new Error(msg); ... throw err``) or where errdex cannot tell."""
        parent = node.parent
        while parent is not None and parent.type in ("parenthesized_expression", "as_expression"):
            node, parent = parent, parent.parent
        if parent is None:
            return None
        kind = parent.type
        if kind == "arguments":
            call = parent.parent
            func = call.child_by_field_name("function") if call is not None else None
            name = (dotted(func) or "").rpartition(".")[2]
            return "reject" if name == "reject" else "callback"
        if kind == "return_statement" or (
            kind == "arrow_function" and parent.child_by_field_name("body") == node
        ):
            return "return"
        if kind in ("variable_declarator", "assignment_expression"):
            target = parent.child_by_field_name("name") or parent.child_by_field_name("left")
            bound = text_of(target) if target is not None and target.type == "identifier" else None
            function = self._context(node)[0]
            scope = function.child_by_field_name("body") if function is not None else None
            if bound is not None and scope is not None and not self._throws_name(scope, bound):
                return self._use_of(scope, bound)
        return None

    def _throws_name(self, scope: ts.Node, name: str) -> bool:
        """Whether a function's body throws the name (``throw err``) anywhere: of the file's
        ``throw`` statements, those within the body's bytes."""
        wanted = name.encode()
        first = bisect.bisect_left(self._throw_starts, scope.start_byte)
        last = bisect.bisect_left(self._throw_starts, scope.end_byte, lo=first)
        for node in self._throws[first:last]:
            value = unwrap(next(iter(node.named_children), None))
            if value is not None and value.type == "identifier" and value.text == wanted:
                return True
        return False

    def _use_of(self, scope: ts.Node, name: str) -> str | None:
        """How a name bound to an error leaves the function where it is never thrown: its
        uses are found in the body's bytes, then asked of the tree, in order."""
        wanted = name.encode()
        at = self.source.find(wanted, scope.start_byte, scope.end_byte)
        while at >= 0:
            node = self.root.descendant_for_byte_range(at, at + len(wanted))
            at = self.source.find(wanted, at + 1, scope.end_byte)
            if node is None or node.type != "identifier" or node.text != wanted:
                continue  # part of a longer name, a string, a comment
            if node.parent is not None:
                kind = node.parent.type
                if kind == "return_statement":
                    return "return"
                if kind == "arguments":
                    call = node.parent.parent
                    func = call.child_by_field_name("function") if call is not None else None
                    return "reject" if (dotted(func) or "").endswith("reject") else "callback"
        return None

    def _call_expression(self, node: ts.Node) -> None:
        written = dotted(node.child_by_field_name("function")) or ""
        args = arguments(node)
        head, _, attr = written.rpartition(".")
        if head == "console" and attr in _LOGS and args:
            self.sites[node.id] = self._site(node, "log", self._formatted(args), None, severity=_LOGS[attr])
        elif written == "process.exit" and not (args and text_of(args[0]) == "0"):
            self._exit(node)
        elif written == "process.emitWarning" and args:
            kind = self.static(args[1]) if len(args) > 1 else None
            cls = kind.message if kind is not None and kind.parts else "Warning"
            self._site(node, "warn", self.message(args[0]), cls, severity="warning")
        elif (written in self.assert_names or head in self.assert_names) and args:
            self._assertion(node, written, attr, args)
        elif written == "Object.assign" and len(args) >= 2:
            self._assigned_code(args)
        elif written in BUILTIN_ERRORS or written in self.local_errors:
            parent = node.parent
            if parent is None or parent.type != "throw_statement":
                self._construction(node, thrown=False)  # ``Error('x')`` builds one too
        elif self.result.imports.get(written) == f"{http_errors.MODULE}.default":
            self._http_error(node)  # ``return createError(status)``: built, whatever becomes of it

    def _exit(self, node: ts.Node) -> None:
        """``console.error(msg); process.exit(1)``: the message is what the program ends with."""
        statement = node.parent
        before = statement.prev_named_sibling if statement is not None else None
        call = (
            before.named_children[0] if before is not None and before.type == "expression_statement" else None
        )
        site = (
            self.sites.get(call.id)
            if call is not None and before is not None and before.named_children
            else None
        )
        if site is not None and site.kind == "log" and site.severity == "error":
            site.kind = "exit"

    def _assertion(self, node: ts.Node, written: str, attr: str, args: list[ts.Node]) -> None:
        if written in self.assert_names:
            position: int | None = 1
        elif attr in _ASSERTS:
            position = _ASSERT_MESSAGE.get(attr, 2)
        else:
            return
        message = args[position] if position is not None and position < len(args) else None
        template = self.message(message) if message is not None and message.type != "new_expression" else None
        # Node's ``assert`` gives every failure the code ``ERR_ASSERTION``.
        self._site(node, "assert", template, "AssertionError", error_code="ERR_ASSERTION")

    def _assigned_code(self, args: list[ts.Node]) -> None:
        """``Object.assign(new Error(msg), { code: 'ECODE' })`` and ``Object.assign(err, {...})``."""
        code = _code_argument(args[1:])
        if code is None:
            return
        target = unwrap(args[0]) or args[0]
        site = None
        if target.type == "new_expression":
            site = self._construction(target, thrown=False)
        elif target.type == "identifier":
            site = self._built(text_of(target), target)
        if site is not None:
            site.error_code = code

    def _code_assignment(self, node: ts.Node) -> None:
        """``err.code = 'ECODE'`` after ``const err = new Error(...)``."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        obj = left.child_by_field_name("object") if left is not None else None
        if obj is None or right is None or obj.type != "identifier":
            return
        code = _code_value(right)
        site = self._built(text_of(obj), node) if code is not None else None
        if site is not None:
            site.error_code = code

    def _built(self, name: str, at: ts.Node) -> RawSite | None:
        """The site an error bound to ``name`` before ``at`` was built at."""
        value = unwrap(self.bound(name, at))
        return self.sites.get(value.id) if value is not None else None

    def _site(
        self,
        node: ts.Node,
        kind: str,
        template: Template | None,
        written: str | None,
        *,
        severity: str = "error",
        error_code: str | None = None,
        args: tuple[Template | None, ...] = (),
        constructed: bool = False,
    ) -> RawSite:
        function, guards = self._context(node)
        site = RawSite(
            line=line_of(node),
            kind=kind,
            function=self._qualname(function) if function is not None else None,
            conditions=guards.conditions,
            template=template,
            guards=guards.guards,
            class_written=written,
            class_qualified=self.qualify(written),
            severity=severity,
            error_code=error_code,
            constructed=constructed,
            args=args,
        )
        self.result.sites.append(site)
        if function is not None and kind in ("raise", "log", "warn", "exit") and template is not None:
            self._note_helper(function, site, node)
        return site

    def _http_error(self, call: ts.Node) -> bool:
        """``createError(404, 'No such user')`` of ``http-errors``: a site at the call, of the
        class and message its status gives (``createError(406)`` is a ``NotAcceptableError``
        saying "Not Acceptable"), or, where the status is computed (``createError(status)`` in
        send's helper), of http-errors' base class and no known message, and where an error is
        given, of neither; whether the call is one."""
        if call.id in self.sites:
            return True
        func = call.child_by_field_name("function")
        if func is None or func.type != "identifier":
            return False
        if self.result.imports.get(text_of(func)) != f"{http_errors.MODULE}.default":
            return False
        args = [unwrap(a) or a for a in arguments(call)]
        # Each argument by what it is (computed ones by their names): a status, a message,
        # properties, else an error given, which http-errors returns as it is, of its own class
        # and message (body-parser's ``createError(403, err)`` of what ``verify`` threw).
        literal: int | None = None
        computed_status = False
        texts: list[ts.Node] = []
        given = False
        for arg in args:
            if arg.type == "number" and text_of(arg).isdigit():
                literal = int(text_of(arg)) if literal is None else literal
            elif arg.type in _TEXT_NODES:
                texts.append(arg)
            elif arg.type == "object":
                continue
            elif _STATUS_NAME.search(text_of(arg)):
                computed_status = True
            elif _MESSAGE_NAME.match(_last_name(arg)):
                texts.append(arg)
            else:
                given = True
        # No status at all is 500: ``createError('No such user')``.
        status = literal if literal is not None or computed_status else 500
        known = http_errors.STATUS_MESSAGES.get(status) if status is not None else None
        template: Template | None = None
        written: str | None = None
        if not given:
            if texts:
                template = self.message(texts[0])
            elif known is not None:
                template = Template.literal(known)
            written = "HttpError" if status is None or known is None else http_errors.class_name(status)
        site = self._site(call, "raise", template, written)
        site.http_status = status
        self.sites[call.id] = site
        if computed_status and len(args) == 1 and args[0].type == "identifier":
            self._status_sinks.append((call, site))
        return True

    def _status_helpers(self) -> None:
        """send's ``this.error(403)``: a function whose first parameter is the one argument of
        ``createError(status)`` makes, where a call passes it a literal status and nothing
        else, the error of that status, its stack starting at ``createError``'s call (the
        site's ``via``); so does a function of the file passing its own first parameter on,
        and after it only its own later ones (``error(status, err)`` calling
        ``createHttpError(status, err)``).  A raise behind a test of a parameter the call
        leaves out is no site of it, unless the test is that it is missing (``if (!err)``)."""
        pending: list[tuple[ts.Node, RawSite]] = []
        for call, sink in self._status_sinks:
            function, guards = self._context(call)
            if function is not None and self._passes_alone(function, arguments(call)[0], guards.guards):
                pending.append((function, sink))
        seen: set[int] = set()
        while pending and len(seen) < _MAX_ALTERNATIVES:
            function, sink = pending.pop()
            name = self._qualname(function).rpartition(".")[2]
            if function.id in seen or not name.isidentifier():
                continue
            seen.add(function.id)
            for call in self._calls_named(name.encode()):
                args = [unwrap(a) or a for a in arguments(call)]
                if not args:
                    continue
                status = text_of(args[0])
                if args[0].type == "number" and status.isdigit() and len(args) == 1:
                    self._status_site(call, int(status), sink)
                elif args[0].type == "identifier":
                    outer, guards = self._context(call)
                    if outer is not None and self._passes_alone(outer, args[0], guards.guards, args[1:]):
                        pending.append((outer, sink))

    def _passes_alone(
        self, function: ts.Node, status: ts.Node, guards: tuple[Guard, ...], rest: Sequence[ts.Node] = ()
    ) -> bool:
        """Whether a call in ``function`` passes its first parameter as ``status``, after it
        only its later parameters (``rest``), and stands behind no test that those, missing
        when a caller passes the status alone, are given."""
        names = [p.name for p in self.parameters(function)]
        later = set(names[1:])
        if names[:1] != [text_of(status)]:
            return False
        if any(a.type != "identifier" or text_of(a) not in later for a in rest):
            return False
        return all(not (set(g.names) & later) or _MISSING.fullmatch(g.code or "") for g in guards)

    def _status_site(self, call: ts.Node, status: int, sink: RawSite) -> None:
        """A call of a status helper with a literal status: the error of that status."""
        message = http_errors.STATUS_MESSAGES.get(status)
        if message is None or call.id in self.sites:
            return
        site = self._site(call, "helper", Template.literal(message), http_errors.class_name(status))
        site.http_status = status
        site.via_path, site.via_line = self.result.path, sink.line
        self.sites[call.id] = site

    def _calls_named(self, name: bytes) -> list[ts.Node]:
        """The file's calls of ``name``, bare or on any object (``this.error(...)``)."""
        found = []
        for m in re.finditer(rb"(?<![\w$])" + re.escape(name) + rb"\s*\(", self.source):
            node = self.root.descendant_for_byte_range(m.start(), m.start() + len(name))
            parent = node.parent if node is not None else None
            if parent is not None and parent.type == "member_expression":
                parent = parent.parent
            if parent is not None and parent.type == "call_expression":
                found.append(parent)
        return found

    def _base_call(self, call: ts.Node) -> None:
        """``AxiosError.call(axiosError, error.message, code)``: a constructor function of the
        file's own error classes run on an object made otherwise (``AxiosError.from``) builds
        the error there."""
        func = call.child_by_field_name("function")
        obj = func.child_by_field_name("object") if func is not None else None
        written = dotted(obj)
        if written is None or written not in self.local_errors or call.id in self.sites:
            return
        args = arguments(call)[1:]
        templates = tuple(self.message(a) if a.type != "object" else None for a in args)
        first = templates[0] if templates else None
        self.sites[call.id] = self._site(
            call,
            "raise",
            first if first is not None and first.parts else None,
            written,
            error_code=_code_argument(args),
            args=templates,
            constructed=True,
        )

    # -- raise helpers --------------------------------------------------------------------------

    def _helper(self, function: ts.Node) -> HelperDef | None:
        """The helper declaration of a named function, made on first use; None for a function
        with no name a call could use."""
        known = self.helpers.get(function.id)
        if known is not None:
            return known
        qualname = self._qualname(function)
        name = qualname.rpartition(".")[2]
        if not name or name.startswith("<") or not name.replace("$", "_").isidentifier():
            return None
        params = [p for p in self.parameters(function) if p.kind in ("positional", "var-positional")]
        rest = next((i for i, p in enumerate(params) if p.kind == "var-positional"), len(params))
        helper = HelperDef(
            name=name,
            module=self.module,
            # A function is called by its name on anything (``usage.fail(``, ``this.error(``):
            # JavaScript binds methods to objects at run time.
            is_method=False,
            params=tuple(p.name for p in params),
            positional=rest + (1 if rest < len(params) else 0),
            qualname=qualname,
        )
        self.helpers[function.id] = helper
        self.result.helpers.append(helper)
        return helper

    def _note_helper(self, function: ts.Node, site: RawSite, node: ts.Node) -> None:
        """Declare the function a helper where the site's message comes from one of its
        parameters: ``fail(msg) { throw new YError(msg) }`` raises what each caller passes."""
        params = {p.name for p in self.parameters(function)}
        if not params:
            return
        message = self._message_of(site, params)
        if message is None:
            return
        param, template = message
        helper = self._helper(function)
        if helper is None or param not in helper.params:
            return
        sink = Sink.of(site, site.kind, template, self.result.path)
        if helper.sink is not None:
            # Each raise of the parameter is a site of every call (``fail(msg)`` throws
            # ``Error(msg)`` or ``new YError(msg)``, as its handlers say).
            if helper.param == param and len(helper.others) < _MAX_ALTERNATIVES:
                helper.others.append(sink)
            return
        helper.param = param
        index = helper.params.index(param)
        helper.index = index if index < helper.positional else None
        helper.sink = sink

    def _message_of(self, site: RawSite, params: set[str]) -> tuple[str, Template] | None:
        """The parameter a site's message comes from, and the template it is in.  A class of
        the library's may take its message at any place (``new CommanderError(exitCode, code,
        message)``): a parameter named for a message is taken there, else the first."""
        templates = [t for t in (site.args if site.constructed else (site.template,)) if t is not None]
        found = [(p, t) for t in templates for p in t.placeholders if p in params]
        if not found:
            return None
        named = [pair for pair in found if _MESSAGE_NAME.match(pair[0])]
        return (named or found)[0]

    def _candidate(self, call: ts.Node) -> None:
        """A call that is a site if its callee proves to be a raise helper (decided once every
        file is read), and the parameters a helper passes on to another (``this._exit(code,
        message)``)."""
        func = call.child_by_field_name("function")
        written = dotted(func)
        if written is None or call.id in self.sites:
            return
        head, _, name = written.rpartition(".")
        if name in _NOT_HELPERS or head == "console" or written in self.assert_names:
            return
        if self._http_error(call):
            return
        args = arguments(call)
        templates = tuple(self.message(a) if a.type != "object" else None for a in args)
        function, guards = self._context(call)
        if function is not None:
            params = {p.name for p in self.parameters(function)}
            for position, template in enumerate(templates):
                if template is not None and any(p in params for p in template.placeholders):
                    helper = self._helper(function)
                    if helper is not None:
                        helper.forwards.append(Forward(name, bool(head), position, template, head))
        if not any(t is not None and t.is_static for t in templates):
            return
        candidate = RawSite(
            line=line_of(call),
            kind="helper",
            function=self._qualname(function) if function is not None else None,
            conditions=guards.conditions,
            template=None,
            guards=guards.guards,
            args=templates,
            callee=name,
            callee_qualified=self.qualify(written),
            callee_is_attr=bool(head),
            callee_head=head,
            error_code=_code_argument(args),
        )
        self.result.candidates.append(candidate)
        # The other messages an argument may be (``__n(singular, plural, ...)``, each branch of
        # a ternary), each a candidate of its own at the same place.
        for position, arg in enumerate(args):
            template = templates[position]
            if template is None or _BRANCHES.search(arg.text or b"") is None:
                continue
            others = [t for t in self.messages(arg) if t.is_static and t != template]
            for other in others:
                changed = (*templates[:position], other, *templates[position + 1 :])
                self.result.candidates.append(replace(candidate, args=changed))
            if others:
                break

    # -- messages -------------------------------------------------------------------------------

    def messages(self, node: ts.Node, depth: int = 0) -> list[Template]:
        """Every message an argument may be: each branch of ``c ? a : b`` and of ``msg ||
        'default'``, through names bound to them (``let text = timeout ? 'timeout of ' + ms +
        'ms exceeded' : 'timeout exceeded'``); else its one template."""
        node = unwrap(node) or node
        if depth < 4:
            if node.type == "ternary_expression":
                branches = [node.child_by_field_name("consequence"), node.child_by_field_name("alternative")]
                found = [t for b in branches if b is not None for t in self.messages(b, depth + 1)]
                return found[:_MAX_ALTERNATIVES]
            called = dotted(node.child_by_field_name("function")) if node.type == "call_expression" else None
            if _i18n(called) == "__n":
                # ``__n(singular, plural, count, ...values)``: either form, with the values.
                args = arguments(node)
                if len(args) >= 3:
                    return [self._formatted([form, *args[3:]]) for form in args[:2]]
            if node.type in ("member_expression", "subscript_expression"):
                table = self._looked_up(node)
                if table:
                    return table
            if node.type == "call_expression" and (returned := self._returned(node, depth)):
                return returned
            if node.type == "binary_expression" and _operator(node) in ("||", "??"):
                sides = [node.child_by_field_name("left"), node.child_by_field_name("right")]
                found = [t for b in sides if b is not None for t in self.messages(b, depth + 1)]
                return found[:_MAX_ALTERNATIVES]
            if node.type == "identifier":
                bound = unwrap(self.bound(text_of(node), node))
                if bound is not None and bound.type in ("ternary_expression", "binary_expression"):
                    found = self.messages(bound, depth + 1)
                    if any(t.is_static for t in found):
                        return found
        return [self.message(node)]

    def message(self, node: ts.Node | None, depth: int = 0) -> Template:
        """The template an expression builds: literal text where the source writes it, a
        placeholder named by the expression for each value only known at run time."""
        if node is None:
            return Template(())
        node = unwrap(node) or node
        kind = node.type
        if kind == "string":
            return Template.literal(string_value(node))
        if kind == "template_string":
            parts: list[Template] = []
            for child in node.named_children:
                if child.type == "string_fragment":
                    parts.append(Template.literal(text_of(child)))
                elif child.type == "escape_sequence":
                    parts.append(Template.literal(escape(text_of(child))))
                elif child.type == "template_substitution":
                    inner = next(iter(child.named_children), None)
                    if inner is None:
                        parts.append(Template(()))
                    elif inner.type == "call_expression":  # ``${__('Implications failed:')}``
                        parts.append(self.message(inner, depth + 1))
                    else:
                        parts.append(self._value(inner, depth))
            return _join(parts)
        if kind == "binary_expression" and _operator(node) == "+":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and depth < 40:
                return self.message(left, depth + 1) + self.message(right, depth + 1)
        if kind == "call_expression":
            func = node.child_by_field_name("function")
            called = dotted(func)
            i18n = _i18n(called)
            if called in ("util.format", "format") or i18n == "__":
                # ``__('Unknown argument: %s', name)``: i18n functions format as util.format does.
                return self._formatted(arguments(node))
            if i18n == "__n" and len(arguments(node)) >= 3:
                # ``__n(singular, plural, count, ...values)``: the singular form, with the values.
                args = arguments(node)
                return self._formatted([args[0], *args[3:]])
            returned = self._returned(node, depth) if func is not None and func.type == "identifier" else []
            if len(returned) == 1:
                # ``console.warn(formatMessage(opt, ' has been deprecated'))``: what it returns.
                return returned[0]
            if func is not None and func.type == "member_expression" and depth < 40:
                # ``"Invalid locale '".concat(locale, "'")``: how compilers (Babel) write ``+``.
                obj, prop = func.child_by_field_name("object"), func.child_by_field_name("property")
                head = unwrap(obj)
                if prop is not None and text_of(prop) == "concat" and _concat_of_text(head):
                    return _join(
                        [
                            self.message(head, depth + 1),
                            *(self.message(a, depth + 1) for a in arguments(node)),
                        ]
                    )
        return self._value(node, depth)

    def _value(self, node: ts.Node, depth: int) -> Template:
        """A value in a message: what a name was bound to, if that is text, else a placeholder."""
        node = unwrap(node) or node
        if node.type == "identifier" and depth < 4:
            bound = self.bound(text_of(node), node)
            if bound is not None and bound.type in (
                "string",
                "template_string",
                "binary_expression",
                "call_expression",
            ):
                found = self.message(bound, depth + 1)
                if found.is_static:
                    added = self._appended(text_of(node), bound, node)
                    return found if added is None else found + _placeholder(added)
        if node.type in ("string", "template_string"):
            return self.message(node, depth + 1)
        if node.type == "number":
            return Template.literal(text_of(node))
        if node.type == "null":
            return NULL  # a fallback default may stand for it (``ClassDef.nullish``)
        return _placeholder(node)

    def _returned(self, call: ts.Node, depth: int = 0) -> list[Template]:
        """The messages a call of a function of the file's scope returns, each of its returns
        being text, its parameters given the call's arguments (ajv's ``throw new
        Error(unknownMsg())``, ``unknownMsg`` returning a template); else none."""
        if depth >= 4:
            return []  # a function returning its own call, or a chain of them
        func = call.child_by_field_name("function")
        declared = (
            unwrap(self.bound(text_of(func), call))
            if func is not None and func.type == "identifier"
            else None
        )
        body = declared.child_by_field_name("body") if declared is not None else None
        if declared is None or body is None or declared.type not in _FUNCTIONS:
            return []
        values = {
            p.name: self.message(a, depth + 1)
            for p, a in zip(self.parameters(declared), arguments(call), strict=False)
        }
        found: list[Template] = []
        for statement in _returns(body):
            value = next(iter(statement.named_children), None)
            template = self.message(value, depth + 1).substitute(values) if value is not None else None
            if template is None or not template.is_static:
                return []
            found.append(template)
        return found[:_MAX_ALTERNATIVES]

    def _looked_up(self, node: ts.Node) -> list[Template]:
        """The messages a lookup in a table of them may give: ``MESSAGES[code]``, or
        ``validator.message`` where ``validator = schema[key]`` and ``schema`` is an object
        literal of ``{ message: '...' }`` entries, bound in scope or passed by this file's
        calls of the function whose parameter it is (jsonwebtoken's option schemas)."""
        prop = None
        if node.type == "member_expression":
            field = node.child_by_field_name("property")
            prop = text_of(field) if field is not None else None
            node = unwrap(node.child_by_field_name("object")) or node
            if node.type == "identifier":
                node = unwrap(self.bound(text_of(node), node)) or node
        if node.type != "subscript_expression" or prop == "length":
            return []
        table = unwrap(node.child_by_field_name("object"))
        if table is None or table.type != "identifier":
            return []
        found: list[Template] = []
        for literal in self._tables(table):
            for pair in literal.named_children:
                value = unwrap(pair.child_by_field_name("value")) if pair.type == "pair" else None
                if value is not None and prop is not None:
                    value = _property(value, prop)
                if value is not None and value.type in _TEXT_NODES:
                    template = self.message(value)
                    if template.is_static and template not in found:
                        found.append(template)
        return found[:_MAX_TABLE]

    def _tables(self, name: ts.Node) -> list[ts.Node]:
        """The object literals a name stands for: the one it is bound to, or for a parameter
        those that this file's calls of its function pass it (by name, each bound in turn)."""
        bound = unwrap(self.bound(text_of(name), name))
        if bound is not None:
            return [bound] if bound.type == "object" else []
        function, position = self._parameter_of(text_of(name), name)
        called = function.child_by_field_name("name") if function is not None else None
        if function is None or called is None or position is None:
            return []
        key = (function.id, position)
        if key not in self._tables_passed:  # once per parameter, however many lookups read it
            tables: list[ts.Node] = []
            for call in self._calls_of(called.text or b""):
                args = arguments(call)
                if position < len(args) and args[position].type == "identifier":
                    value = unwrap(self.bound(text_of(args[position]), args[position]))
                    if value is not None and value.type == "object" and value not in tables:
                        tables.append(value)
            self._tables_passed[key] = tables
        return self._tables_passed[key]

    def _parameter_of(self, name: str, at: ts.Node) -> tuple[ts.Node | None, int | None]:
        """The function around ``at`` that has ``name`` as a parameter, and its position there."""
        parent = at.parent
        while parent is not None:
            if parent.type in _FUNCTIONS:
                names = [p.name for p in self.parameters(parent)]
                if name in names:
                    return parent, names.index(name)
            parent = parent.parent
        return None, None

    def _calls_of(self, name: bytes) -> list[ts.Node]:
        """The file's calls of a bare ``name(...)``, found in its bytes (read once per name)."""
        if name not in self._calls:
            found = []
            pattern = re.compile(rb"(?<![\w$.])" + re.escape(name) + rb"\s*\(")
            for m in pattern.finditer(self.source):
                node = self.root.descendant_for_byte_range(m.start(), m.start() + 1)
                call = node.parent if node is not None else None
                if call is not None and call.type == "call_expression" and call.start_byte == m.start():
                    found.append(call)
            self._calls[name] = found
        return self._calls[name]

    def _appended(self, name: str, bound: ts.Node, at: ts.Node) -> ts.Node | None:
        """What the first ``name += value`` between a binding and a use of it appends (in a
        loop, a callback or a branch, it may run any number of times): the message is the
        bound text, then more (``let msg = __('Invalid values:')`` ... ``msg += ...``)."""
        key = (name, bound.id)
        if key not in self._appends:  # once per binding, however many uses read it
            found = []
            pattern = re.compile(rb"(?<![\w$.])" + re.escape(name.encode()) + rb"\s*\+=")
            scope = bound  # the block the binding is in: where a ``+=`` of it may stand
            while scope.parent is not None and scope.type not in _BLOCKS:
                scope = scope.parent
            for m in pattern.finditer(self.source, bound.end_byte, scope.end_byte):
                node = self.root.descendant_for_byte_range(m.start(), m.start() + len(name))
                parent = node.parent if node is not None else None
                if parent is not None and parent.type == "augmented_assignment_expression":
                    found.append((m.start(), parent.child_by_field_name("right")))
            self._appends[key] = found
        return next((value for start, value in self._appends[key] if start < at.start_byte), None)

    def _formatted(self, args: list[ts.Node]) -> Template:
        """``util.format``'s (and ``console``'s) message: ``%s`` and its kin take the arguments
        in turn, the rest are appended, each after a space."""
        if not args:
            return Template(())
        first = unwrap(args[0]) or args[0]
        if first.type != "string":
            return _join_spaced([self.message(a) for a in args])
        text = string_value(first)
        rest = list(args[1:])
        parts: list[Template] = []
        at = 0
        for m in _FORMAT.finditer(text):
            parts.append(Template.literal(text[at : m.start()]))
            at = m.end()
            if m[0] == "%%":
                parts.append(Template.literal("%"))
            elif rest:
                parts.append(self._value(rest.pop(0), 0))
            else:
                parts.append(Template.literal(m[0]))
        parts.append(Template.literal(text[at:]))
        return _join_spaced([_join(parts), *(self.message(a) for a in rest)])

    def static(self, node: ts.Node) -> Template | None:
        """The text of a string literal (or a template with no substitution), else None."""
        node = unwrap(node) or node
        if node.type == "string" or (node.type == "template_string" and not _has_substitution(node)):
            return self.message(node)
        return None


def _classified(captured: dict[str, list[ts.Node]], source: bytes) -> dict[str, list[ts.Node]]:
    """The query's nodes by what the extractor reads them for, each kind in document order
    (the order the query gives varies from run to run): a query's text predicates are
    checked in Python by the binding, node by node, so these cheap tests of the few children
    that decide stand in for them (a call may be several things: a ``console.error`` and a
    call passing text)."""
    found: dict[str, list[ts.Node]] = defaultdict(list)
    for kind in ("throw", "new", "import", "export", "class", "function"):
        found[kind] = captured.get(kind, [])
    for node in captured.get("call", ()):
        for label in _call_labels(node, source):
            found[label].append(node)
    for node in captured.get("assignment", ()):
        left = node.child_by_field_name("left")
        if left is not None and left.type == "subscript_expression":
            found["computed"].append(node)  # ``Axios.prototype[method] = ...``: names made at run time
        elif left is not None and left.type == "member_expression":
            # A member expression ends with its property: its bytes rule out most.
            start, end = left.start_byte, left.end_byte
            prop = left.child_by_field_name("property") if source[end - 4 : end] == b"code" else None
            if prop is not None and prop.text == b"code":
                found["code"].append(node)
            elif source[start:end] in _EXPORTS_DEFAULT:
                found["module_exports"].append(node)
            else:  # a property the module's code sets: a name of the symbol table
                found["member"].append(node)
    for node in captured.get("declarator", ()):
        value = node.child_by_field_name("value")
        if value is not None and value.type == "member_expression":
            value = value.child_by_field_name("object")
        if value is not None and value.type == "call_expression":
            func = value.child_by_field_name("function")
            if func is not None and (func.text == b"require" or func.text in _INTEROP):
                found["declarator"].append(node)
    for nodes in found.values():
        nodes.sort(key=_document_order)
    return found


#: A computed argument of ``createError`` that is a status, by its name.
_STATUS_NAME = re.compile(r"(?i)(?:^|\.)(?:status|statusCode|code)$")
#: A test that a value is missing: ``!err``.
_MISSING = re.compile(r"!\s*[\w$]+")


def _last_name(node: ts.Node) -> str:
    """The name a value is read by: ``msg``, ``options.message``'s ``message``."""
    return text_of(node).rpartition(".")[2]


def _concat_of_text(node: ts.Node | None) -> bool:
    """Whether ``node`` is text, or text's ``.concat(...)`` called on, chained as Babel writes
    a template literal: ``"Invalid '".concat(a, "' and '").concat(b, "'")``."""
    while node is not None and node.type == "call_expression":
        func = node.child_by_field_name("function")
        if func is None or func.type != "member_expression":
            return False
        prop = func.child_by_field_name("property")
        if prop is None or prop.text != b"concat":
            return False
        node = unwrap(func.child_by_field_name("object"))
    return node is not None and node.type in _TEXT_NODES


def _document_order(node: ts.Node) -> tuple[int, int]:
    """Where a node stands in a walk of the tree: by its start, an outer node first."""
    return node.start_byte, -node.end_byte


def _call_labels(call: ts.Node, source: bytes) -> Iterator[str]:
    """What a call may be a site as.  Most calls are none: the file's bytes rule most out
    before their nodes are asked (the callee's text starts with the receiver it is called on,
    and ends with the property called)."""
    func = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if func is None:
        return
    kind = func.type
    # The first argument decides only a bare call's labels (and ``import(...)``'s).
    first = (
        args.named_child(0)
        if kind in ("identifier", "import") and args is not None and args.named_child_count
        else None
    )
    if kind == "member_expression":
        if _CALLED_ON_START.match(source, func.start_byte):
            obj = func.child_by_field_name("object")
            if obj is not None and obj.type == "identifier" and obj.text in _CALLED_ON:
                yield "call"
        end = func.end_byte
        if source[end - 4 : end] == b"call":
            prop = func.child_by_field_name("property")
            if prop is not None and prop.text == b"call":
                yield "member_call"
    elif kind == "identifier":
        name = func.text or b""
        if _BARE_CALL.search(name):
            yield "bare_call"
        if first is not None and first.type == "number":
            yield "status_call"
        if name == b"require" and first is not None and first.type == "string":
            yield "load"
    elif kind == "import" and first is not None and first.type == "string":
        yield "load"
    # No argument at all passes no text either: ``any`` of none is false.
    if (
        args is not None
        and _MAYBE_TEXT.search(source, args.start_byte, args.end_byte) is not None
        and any(_may_be_text(a, source) for a in args.named_children)
    ):
        yield "candidate"


def _may_be_text(arg: ts.Node, source: bytes) -> bool:
    """Whether an argument may carry a message: text of more than a word (``'Content-Type'``
    and ``'utf8'`` are no messages, and most calls pass such), an i18n call, a name for one."""
    kind = arg.type
    if kind in _TEXT_NODES:
        return source.find(b" ", arg.start_byte, arg.end_byte) >= 0
    if kind == "identifier":
        return arg.text in _MESSAGE_NAMES
    if kind == "call_expression":
        func = arg.child_by_field_name("function")
        return func is not None and _i18n(dotted(func)) is not None
    return False


# -- tree helpers ---------------------------------------------------------------------------------


def _own_name(node: ts.Node) -> str | None:
    """The name a function or class is declared or assigned under, as a stack frame shows it."""
    name = node.child_by_field_name("name")
    if name is not None and name.type in ("identifier", "property_identifier", "private_property_identifier"):
        return text_of(name)
    if name is not None and name.type == "type_identifier":
        return text_of(name)
    return _assigned_name(node)


def _assigned_name(node: ts.Node) -> str | None:
    """``const f = () => ...``, ``X.prototype.f = function``, ``exports.f = ...``, ``{ f: ... }``."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        return text_of(name) if name is not None and name.type == "identifier" else None
    if parent.type == "pair":
        key = parent.child_by_field_name("key")
        return _unquote(text_of(key)) if key is not None else None
    if parent.type in ("assignment_expression", "public_field_definition", "field_definition"):
        target = parent.child_by_field_name("left") or parent.child_by_field_name("property")
        written = dotted(target) if target is not None else None
        if written is None:
            return None
        for prefix in ("module.exports.", "exports."):
            if written.startswith(prefix):
                return written[len(prefix) :]
        owner, _, own = written.rpartition(".")
        if owner.endswith(".prototype"):
            return f"{owner.removesuffix('.prototype').rpartition('.')[2]}.{own}"
        if owner in ("this", ""):
            return own
        return written
    return None


#: Functions nested deeper than this are named as the one this deep: no frame prints more.
_MAX_NESTING = 12


def _nested_name(node: ts.Node, owner_class: str | None, outer: str | None) -> str:
    """A function's name inside the function named ``outer`` (None at the top)."""
    if outer is not None and outer.endswith("<anonymous>"):
        # A wrapper with no name (a bundle's or a module's IIFE) names nothing inside it.
        outer = outer.removesuffix("<anonymous>").removesuffix(".") or None
    if outer is not None and outer.count("<locals>") >= _MAX_NESTING:
        return outer
    own = _own_name(node)
    if node.type == "method_definition" and owner_class and own:
        base = f"{owner_class}.{own}"
        return base if outer is None else f"{outer}.<locals>.{base}"
    if own is None:
        return f"{outer}.<anonymous>" if outer else "<anonymous>"
    return own if outer is None else f"{outer}.<locals>.{own}"


def _class_name(node: ts.Node) -> str | None:
    name = node.child_by_field_name("name")
    return text_of(name) if name is not None else _assigned_name(node)


def _exits_in(block: ts.Node) -> list[tuple[int, Guard, str]]:
    """The early exits among a block's statements (``if (!x) return;``), in order, each with
    where it ends: the statements after it run only where its test is false."""
    found = []
    for statement in block.named_children:
        if statement.type == "if_statement" and statement.child_by_field_name("alternative") is None:
            body = statement.child_by_field_name("consequence")
            if body is not None and _exits(body):
                test = _condition(statement)
                names = _names(statement.child_by_field_name("condition"))
                flipped = negate(test)
                guard = Guard("early-exit", test, names=names, code=flipped)
                found.append((statement.end_byte, guard, flipped))
    return found


def _bound_by(statement: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """The names a statement binds and their values (``const name = v``, ``name = v``, a
    ``function name() {}`` itself)."""
    kind = statement.type
    if kind == "function_declaration" and (name := statement.child_by_field_name("name")) is not None:
        yield text_of(name), statement
    elif kind in ("lexical_declaration", "variable_declaration"):
        for declarator in statement.named_children:
            target = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if target is not None and value is not None and target.type == "identifier":
                yield text_of(target), value
    elif kind == "expression_statement" and statement.named_children:
        expr = statement.named_children[0]
        if expr.type == "assignment_expression":
            target, value = expr.child_by_field_name("left"), expr.child_by_field_name("right")
            if target is not None and value is not None and target.type == "identifier":
                yield text_of(target), value


def _returns(body: ts.Node) -> Iterator[ts.Node]:
    """The ``return`` statements of a function's own body, not those of functions in it."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "return_statement":
            yield node
        elif node is body or node.type not in _FUNCTIONS:
            stack.extend(node.named_children)


_KEYS = frozenset({"property_identifier", "string"})


def _i18n(called: str | None) -> str | None:
    """``__`` or ``__n`` where a callee is one of the i18n functions, bare or on what holds
    them (``this.y18n.__``), else None."""
    name = called.rpartition(".")[2] if called is not None else None
    return name if name in ("__", "__n") else None


def _property(literal: ts.Node, name: str) -> ts.Node | None:
    """The value an object literal gives a property (``message: '...'``), else None."""
    if literal.type != "object":
        return None
    for pair in literal.named_children:
        key = pair.child_by_field_name("key") if pair.type == "pair" else None
        if key is not None and key.type in _KEYS and _unquote(text_of(key)) == name:
            return unwrap(pair.child_by_field_name("value"))
    return None


def _placeholder(node: ts.Node) -> Template:
    """A value only known at run time, named by the expression that computes it."""
    name = " ".join(text_of(node).split())
    if len(name) > _NAME_LIMIT:
        name = name[: _NAME_LIMIT - 3] + "..."
    return Template((Placeholder(name, "${" + name + "}"),))


def _identifier(node: ts.Node) -> str | None:
    return text_of(node) if node.type == "identifier" else None


def _heritage(node: ts.Node) -> str | None:
    """The class a class extends, as written (``Error``, ``errors.HttpError``)."""
    for child in node.children:
        if child.type == "class_heritage":
            for part in walk(child):
                if part.type in ("identifier", "member_expression", "type_identifier"):
                    return dotted(part) or text_of(part)
    return None


def _statement_of(node: ts.Node) -> ts.Node:
    """The statement a function is declared in (``export``, ``const f = ...``, ``a.b = ...``),
    whose line a signature starts on."""
    current = node
    for _ in range(4):
        parent = current.parent
        if parent is None or parent.type in ("program", "statement_block", "class_body", "object"):
            break
        if parent.type in (
            "export_statement", "lexical_declaration", "variable_declaration", "variable_declarator",
            "expression_statement", "assignment_expression", "pair",
        ):  # fmt: skip
            current = parent
            continue
        break
    return current


def _doc_comment(node: ts.Node) -> str | None:
    """The ``/** ... */`` comment right above a function, as written."""
    statement = _statement_of(node)
    before = statement.prev_sibling
    if before is not None and before.type == "comment":
        text = text_of(before)
        if text.startswith("/**") and before.end_point[0] >= statement.start_point[0] - 1:
            return text
    return None


def _parameters(node: ts.Node) -> list[Parameter]:
    params = node.child_by_field_name("parameters")
    single = node.child_by_field_name("parameter")
    if params is None:
        return [Parameter(text_of(single), "positional")] if single is not None else []
    out: list[Parameter] = []
    for param in params.named_children:
        kind = param.type
        if kind in ("required_parameter", "optional_parameter"):
            pattern = param.child_by_field_name("pattern")
            value = param.child_by_field_name("value")
            if pattern is None:
                continue
            if pattern.type == "rest_pattern":
                inner = next(iter(pattern.named_children), pattern)
                out.append(Parameter(text_of(inner), "var-positional"))
            elif pattern.type == "identifier":
                out.append(Parameter(text_of(pattern), "positional", text_of(value) if value else None))
            elif pattern.type == "this":
                continue
            else:
                out.append(Parameter(text_of(pattern), "positional"))
        elif kind == "identifier":
            out.append(Parameter(text_of(param), "positional"))
        elif kind == "assignment_pattern":
            left, right = param.child_by_field_name("left"), param.child_by_field_name("right")
            if left is not None:
                out.append(Parameter(text_of(left), "positional", text_of(right) if right else None))
        elif kind == "rest_pattern":
            inner = next(iter(param.named_children), param)
            out.append(Parameter(text_of(inner), "var-positional"))
        elif kind in ("object_pattern", "array_pattern"):
            out.append(Parameter(text_of(param), "positional"))
    return out


def _condition(node: ts.Node) -> str:
    cond = node.child_by_field_name("condition")
    return _strip_parens(" ".join(text_of(cond).split())) if cond is not None else ""


def _strip_parens(text: str) -> str:
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1].strip()
    return text


def _balanced(text: str) -> bool:
    """Whether no ``)`` closes more than was opened before it, and every ``(`` is closed."""
    level = 0
    for m in _PARENS.finditer(text):  # the parentheses alone: a condition is mostly other text
        level += 1 if m[0] == "(" else -1
        if level < 0:
            return False
    return level == 0


_PARENS = re.compile(r"[()]")


_FLIPS = (("!==", "==="), ("===", "!=="), ("!=", "=="), ("==", "!="))


def negate(test: str) -> str:
    """The condition under which ``test`` is false, in JavaScript: ``!x`` becomes ``x``,
    ``a === b`` becomes ``a !== b``; anything else is ``!(test)``."""
    test = _strip_parens(test)
    if test.startswith("!") and not test.startswith("!=") and _atom(test[1:]):
        return _strip_parens(test[1:])
    if not any(op in test for op in ("&&", "||", "?", "(")):
        for op, flipped in _FLIPS:
            if (
                test.count(op) == 1
                and (op != "==" or "===" not in test)
                and (op != "!=" or "!==" not in test)
            ):
                return test.replace(op, flipped)
    return f"!{test}" if _atom(test) else f"!({test})"


_ATOM = re.compile(r"^[\w$.#]+$|^\(.*\)$")


def _atom(text: str) -> bool:
    text = text.strip()
    return bool(_ATOM.match(text)) and (not text.startswith("(") or _balanced(text[1:-1]))


def _names(node: ts.Node | None) -> tuple[str, ...]:
    """The identifiers an expression reads, but the properties of a member expression.  One
    cursor walks the expression and keeps, on the way down, whether each node is a member
    expression: an identifier asked for its parent would search down from the root."""
    if node is None:
        return ()
    found = {text_of(node)} if node.type == "identifier" else set()
    cursor = node.walk()
    #: Whether each node from ``node`` down to the current one's parent is a member expression.
    members: list[bool] = []
    first = False  # whether the current node is its parent's first child
    while (current := cursor.node) is not None:
        kind = current.type
        if kind == "identifier":
            if members and (first or not members[-1]):
                found.add(text_of(current))
        elif cursor.goto_first_child():
            members.append(kind == "member_expression")
            first = True
            continue
        while not cursor.goto_next_sibling():
            if not members:
                return tuple(sorted(found))
            cursor.goto_parent()
            members.pop()
        first = False
    return tuple(sorted(found))


def _exits(body: ts.Node) -> bool:
    """Whether a block always leaves: it ends with ``return``, ``throw``, ``continue`` or ``break``."""
    last = body
    if body.type == "statement_block":
        statements = [c for c in body.named_children if c.type != "comment"]
        if not statements:
            return False
        last = statements[-1]
    return last.type in ("return_statement", "throw_statement", "continue_statement", "break_statement")


def _single_statement(body: ts.Node | None) -> str | None:
    if body is None:
        return None
    statements = [c for c in body.named_children if c.type != "comment"]
    if len(statements) != 1:
        return None
    return " ".join(text_of(statements[0]).rstrip(";").split())


def _passed_name(node: ts.Node, names: set[str]) -> str | None:
    """The parameter an argument passes up: itself (``super(message)``), or the one it falls
    back from (``super(msg || 'yargs error')``, ``msg ?? ...``, ``msg == null ? '...' : msg``)."""
    node = unwrap(node) or node
    if node.type == "identifier":
        return text_of(node) if text_of(node) in names else None
    if node.type == "binary_expression" and _operator(node) in ("||", "??"):
        left = node.child_by_field_name("left")
        if left is not None and left.type == "identifier" and text_of(left) in names:
            return text_of(left)
    if node.type == "ternary_expression" and (passed := _nullish_test(node)) is not None:
        return passed[0] if passed[0] in names else None
    return None


def _fallback(node: ts.Node) -> ts.Node | None:
    """What ``msg || fallback`` (or ``msg == null ? fallback : msg``) gives when ``msg`` is
    empty."""
    node = unwrap(node) or node
    if node.type == "ternary_expression":
        passed = _nullish_test(node)
        return passed[1] if passed is not None else None
    return node.child_by_field_name("right") if node.type == "binary_expression" else None


#: The tests of a name that hold where it is ``null`` or ``undefined`` (``==`` and ``!=``
#: of ``null`` or ``undefined``), with whether the fallback is the ternary's first branch.
_NULLISH_TESTS = {
    ("==", "null"): True, ("==", "undefined"): True, ("===", "undefined"): True,
    ("!=", "null"): False, ("!=", "undefined"): False, ("!==", "undefined"): False,
}  # fmt: skip


def _nullish_test(node: ts.Node) -> tuple[str, ts.Node] | None:
    """``msg == null ? fallback : msg`` (or ``msg != null ? msg : fallback``): the name
    tested and the fallback, else None."""
    test = unwrap(node.child_by_field_name("condition"))
    yes, no = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
    if test is None or yes is None or no is None or test.type != "binary_expression":
        return None
    left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
    first = _NULLISH_TESTS.get((_operator(test) or "", right.type if right is not None else ""))
    if left is None or left.type != "identifier" or first is None:
        return None
    fallback, kept = (yes, no) if first else (no, yes)
    return (text_of(left), fallback) if text_of(unwrap(kept) or kept) == text_of(left) else None


def _undefined(node: ts.Node) -> bool:
    return node.type == "undefined" or (node.type == "unary_expression" and text_of(node) == "void 0")


def _calls_base(func: ts.Node | None, args: list[ts.Node]) -> bool:
    """``Base.call(this, message, ...)``: a constructor function passing its message up."""
    return (
        func is not None
        and func.type == "member_expression"
        and (func.text or b"").endswith(b".call")
        and len(args) > 1
        and args[0].type == "this"
    )


def _operator(node: ts.Node) -> str | None:
    op = node.child_by_field_name("operator")
    return op.type if op is not None else None


def _is_error_name(name: str) -> bool:
    return name in BUILTIN_ERRORS or bool(_ERROR_NAME.search(name))


def _has_substitution(node: ts.Node) -> bool:
    return any(c.type == "template_substitution" for c in node.named_children)


def _unquote(text: str | None) -> str | None:
    """A string literal's text without its quotes (no escapes: for names and specifiers)."""
    if text and len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"`":
        return text[1:-1]
    return None if text is None or text[:1] in "'\"`" else text


def _code_value(node: ts.Node) -> str | None:
    """An error code a value gives: ``'ECODE'``, or a constant named like one
    (``AxiosError.ERR_BAD_REQUEST``)."""
    node = unwrap(node) or node
    if node.type == "string":
        value = string_value(node)
        return value if value and " " not in value else None
    written = dotted(node)
    if written is not None:
        last = written.rpartition(".")[2]
        if _ERROR_CODE.match(last):
            return last
    return None


def _code_argument(args: list[ts.Node]) -> str | None:
    """The error code a construction's arguments give: a ``code:`` property of an object
    argument, or a constant named like a code (``AxiosError.ERR_BAD_REQUEST``)."""
    for arg in args:
        arg = unwrap(arg) or arg
        if arg.type == "object":
            for pair in arg.named_children:
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                value = pair.child_by_field_name("value") if pair.type == "pair" else None
                if key is not None and value is not None and _unquote(text_of(key)) == "code":
                    return _code_value(value)
        elif arg.type == "member_expression" and (code := _code_value(arg)) is not None:
            return code
        elif arg.type == "string" and _ERROR_CODE.match(string_value(arg)):
            return string_value(arg)
    return None


def _join(parts: list[Template]) -> Template:
    out = Template(())
    for part in parts:
        out = out + part
    return out


def _join_spaced(parts: list[Template]) -> Template:
    out = Template(())
    for i, part in enumerate(parts):
        out = out + (Template.literal(" ") + part if i else part)
    return out
