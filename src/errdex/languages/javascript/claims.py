"""JavaScript (and TypeScript) someone else wrote, read for what it claims of a library: what it
requires and imports, the chains it calls, the classes it tests with ``instanceof`` and throws,
what it would do to the user's system, and its tests read as ``subject relation operand``.

Only tree-sitter reads it (JavaScript's grammar, TypeScript's where that fails); nothing is run.
The names JavaScript's globals and Node's modules have come from ``vocabulary.json``, which
``scripts/js-vocabulary`` writes from a real node.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources

import tree_sitter

from errdex.languages.javascript.names import CONSTRUCTOR, GLOBALS
from errdex.languages.javascript.names import RECEIVERS as _THIS
from errdex.languages.snippets import ELIDED_CALL, Atom, Chain, Relation, Snippet, Step, Test
from errdex.symbols import Symbol, SymbolTable, Vocabulary

_MAX_CODE = 20_000
#: What every error class is: ``err instanceof Error`` catches any error.
ERROR_ROOTS: tuple[str, ...] = ("Error",)
_BUILTIN_ERRORS = (
    "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError",
    "AggregateError",
)  # fmt: skip
_KEYWORDS = frozenset({"this", "super", "import", "undefined", "null", "true", "false", "arguments", "new"})
RECEIVERS = _THIS | {"super"}
CONSTRUCTORS = frozenset({CONSTRUCTOR})
#: Node's modules whose names are more often a variable's (``path.length``).
VARIABLE_MODULES = frozenset({"path", "test"})
#: What acts on the system, as text: a name a model may write in prose as well as in code.
SYSTEM_CALLS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:child_process|execSync|spawnSync|execFileSync|fs\.rm(?:Sync)?\(|fs\.unlink(?:Sync)?\(|rimraf)\b"
        ),
        "runs a system command",
    ),
    (re.compile(r"(?<![\w.])eval\s*\(\s*[^\s)]"), "evaluates code"),
)
#: What makes a code span a test rather than a name or a call.
TEST_SHAPE = re.compile(r"(?:[=!]==?|<=?|>=?|\binstanceof\b|\btypeof\b|^!|\bin\b)")
#: How code compares versions.
VERSION_CHECKS = re.compile(r"\b(?:semver|satisfies)\b")
#: Printing, logging or sending the whole environment.
ENVIRONMENT_DUMPS = re.compile(
    r"\bconsole\.\w+\(\s*process\.env\s*\)|JSON\.stringify\(\s*process\.env|"
    r"Object\.(?:entries|keys|values)\(\s*process\.env|\bfor\s+\w+(?:\s*,\s*\w+)?\s+in\s+process\.env\b|"
    r"\bfor\s*\(\s*(?:const|let|var)\s+\w+\s+(?:in|of)\s+(?:Object\.\w+\()?process\.env\b",
    re.I,
)

#: Node's modules and calls that act on the user's system or reach the network, by dotted name.
_DANGEROUS: Mapping[str, str] = {
    "child_process": "system", "cluster": "system", "vm": "code", "worker_threads": "system",
    "fs.rm": "system", "fs.rmSync": "system", "fs.rmdir": "system", "fs.rmdirSync": "system",
    "fs.unlink": "system", "fs.unlinkSync": "system", "fs.chmod": "system", "fs.chmodSync": "system",
    "fs.chown": "system", "fs.chownSync": "system", "fs.lchown": "system", "fs.lchmod": "system",
    "fs.promises.rm": "system", "fs.promises.unlink": "system", "fs.promises.rmdir": "system",
    "fs.promises.chmod": "system", "fs/promises.rm": "system", "fs/promises.unlink": "system",
    "fs/promises.rmdir": "system", "fs/promises.chmod": "system", "process.kill": "system",
    "http.request": "network", "http.get": "network", "https.request": "network", "https.get": "network",
    "net.connect": "network", "net.createConnection": "network", "tls.connect": "network",
    "dgram": "network", "http2.connect": "network", "dns": "network", "axios": "network",
    "node-fetch": "network", "got": "network", "superagent": "network", "request": "network",
    "undici": "network", "ws": "network", "fs.writeFile": "files", "fs.writeFileSync": "files",
    "fs.appendFile": "files", "fs.appendFileSync": "files",
}  # fmt: skip
_EVALUATING = frozenset({"eval", "Function", "setTimeout.string"})
_NETWORK_GLOBALS = frozenset({"fetch", "XMLHttpRequest", "WebSocket", "EventSource"})

_NEGATED: Mapping[Relation, Relation] = {
    "none": "not-none", "not-none": "none", "truthy": "falsy", "falsy": "truthy", "==": "!=", "!=": "==",
    "<": ">=", "<=": ">", ">": "<=", ">=": "<", "is-a": "not-a", "not-a": "is-a", "in": "not-in",
    "not-in": "in", "has": "lacks", "lacks": "has",
}  # fmt: skip
_COMPARE: Mapping[str, Relation] = {
    "===": "==",
    "==": "==",
    "!==": "!=",
    "!=": "!=",
    "<": "<",
    "<=": "<=",
    ">": ">",
    ">=": ">=",
}
_MIRRORED: Mapping[Relation, Relation] = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


@cache
def _vocabulary() -> dict[str, object]:
    data = resources.files("errdex.languages.javascript").joinpath("vocabulary.json").read_text("utf-8")
    loaded: dict[str, object] = json.loads(data)
    return loaded


class JavaScriptNames:
    """JavaScript's names with no package's table: its globals (and what a literal of each type
    has), and Node's core modules, as ``vocabulary.json`` lists them."""

    instances: str | None = "prototype"
    builtin_bases: Mapping[str, tuple[str, ...]] = {
        name: () if name == "Error" else ("Error",) for name in _BUILTIN_ERRORS
    }

    def builtin_members(self, name: str) -> frozenset[str] | None:
        data = _vocabulary()
        values: dict[str, list[str]] = data["values"]  # type: ignore[assignment]
        if name in values:
            return frozenset(values[name]) | frozenset(values["object"])
        globals_: dict[str, dict[str, list[str]]] = data["globals"]  # type: ignore[assignment]
        entry = globals_.get(name)
        if entry is None:
            return None
        # A global's own names and its instances' (``Map.get``), as the class and as an object.
        return (
            frozenset(entry["statics"])
            | frozenset(entry["prototype"])
            | frozenset(values["function"])
            | frozenset(values["object"])
        )

    def members(self) -> frozenset[str]:
        return _members()

    def standard(self, module: str) -> SymbolTable | None:
        return _node_module(_module_name(module.split(".")[0]))


@cache
def _members() -> frozenset[str]:
    """Every name a global, its instances or a literal of each type has."""
    data = _vocabulary()
    values: dict[str, list[str]] = data["values"]  # type: ignore[assignment]
    globals_: dict[str, dict[str, list[str]]] = data["globals"]  # type: ignore[assignment]
    found: set[str] = set()
    for names in values.values():
        found.update(names)
    for entry in globals_.values():
        found.update(entry["statics"])
        found.update(entry["prototype"])
    return frozenset(found)


VOCABULARY: Vocabulary = JavaScriptNames()


@cache
def _node_module(name: str) -> SymbolTable | None:
    """One of Node's modules as a table: its exports, and the members of those that are classes."""
    modules: dict[str, dict[str, list[str]]] = _vocabulary()["modules"]  # type: ignore[assignment]
    if name not in modules:
        return None
    table = SymbolTable("javascript", name)
    table.symbols[name] = Symbol("module")
    for member, methods in modules[name].items():
        table.symbols[f"{name}.{member}"] = Symbol("class" if methods else "attribute")
        for method in methods:
            table.symbols[f"{name}.{member}.{method}"] = Symbol("attribute")
    return table


def _module_name(spec: str) -> str:
    """A specifier as the vocabulary and the tables name it: Node's without ``node:``."""
    return spec.removeprefix("node:")


def _parse(code: str) -> tuple[tree_sitter.Node, bytes] | None:
    if len(code) > _MAX_CODE:
        return None
    from errdex.languages.javascript.syntax import parser

    data = code.encode("utf-8", "surrogatepass")
    for grammar in ("javascript", "typescript"):
        try:
            root = parser(grammar).parse(data).root_node
        except (ValueError, RecursionError, MemoryError):
            return None
        if not root.has_error:
            return root, data
    return None


def _text(node: tree_sitter.Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.named_children))


def snippet(code: str) -> Snippet | None:
    """What a snippet requires, reaches, catches, throws and does; None where it parses as neither
    JavaScript nor TypeScript."""
    parsed = _parse(code)
    return None if parsed is None else _Reader(*parsed).snippet()


def span(text: str) -> Snippet | None:
    """A code span of prose (``app.use(fn)``, ``res.json()``) read as an expression; None for
    an English phrase or a command."""
    text = text.strip().rstrip(";")
    if not text or (re.search(r"\s(?!\s*[.(])\w", text) and "(" not in text):
        return None  # words with spaces between them, no call: a phrase
    parsed = _parse(text)
    if parsed is None and (elided := ELIDED_CALL.fullmatch(text)) is not None:
        parsed = _parse(f"{elided.group(1)}()")  # arguments prose abridged: the callee stays
    if parsed is None:
        return None
    root, data = parsed
    statements = [c for c in root.named_children if c.type != "comment"]
    # One expression or one declaration (``const { token } = axios.CancelToken.source()``).
    if len(statements) != 1 or statements[0].type not in _SPAN_STATEMENTS:
        return None
    return _Reader(root, data).snippet()


#: Nodes that define a name the snippet may then call: ``function f``, ``class C``, ``m() {}``,
#: ``{ key: value }``, ``field = 1`` in a class.
_DEFINING = frozenset({
    "function_declaration", "generator_function_declaration", "class_declaration", "method_definition",
    "pair", "field_definition", "public_field_definition",
})  # fmt: skip
_SPAN_STATEMENTS = frozenset({"expression_statement", "lexical_declaration", "variable_declaration"})


def test(code: str) -> Test | None:
    """A test (an ``if``'s condition) read as atoms; None where it is no expression."""
    parsed = _parse(f"({code});")
    if parsed is None:
        return None
    root, data = parsed
    statement = root.named_children[0] if root.named_children else None
    if statement is None or statement.type != "expression_statement" or not statement.named_children:
        return None
    return _test(_unparen(statement.named_children[0]), data)


def _unparen(node: tree_sitter.Node) -> tree_sitter.Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_child(0)
        if inner is None:
            break
        node = inner
    return node


class _Reader:
    def __init__(self, root: tree_sitter.Node, data: bytes) -> None:
        self.root, self.data = root, data
        self.imports: list[str] = []
        self.imported: dict[str, str] = {}
        self.assigned: dict[str, tree_sitter.Node] = {}
        self.local: set[str] = set()
        self._bind()

    def text(self, node: tree_sitter.Node) -> str:
        return _text(node, self.data)

    def _bind(self) -> None:
        for node in _walk(self.root):
            kind = node.type
            if kind == "import_statement":
                self._import(node)
            elif kind == "variable_declarator":
                name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                module = self._required(value) if value is not None else None
                if name is None:
                    continue
                taken = self._taken(value) if value is not None and module is None else None
                if taken is not None and name.type == "identifier":  # ``require("lodash/fp").map``
                    self.imports.append(taken.rpartition(".")[0])
                    self.imported[self.text(name)] = taken
                elif module is not None:
                    self._require(name, module)
                elif name.type == "identifier" and value is not None:
                    self.assigned.setdefault(self.text(name), value)
                else:
                    self.local |= self._pattern(name)
            elif kind in ("function_declaration", "generator_function_declaration", "class_declaration"):
                name = node.child_by_field_name("name")
                if name is not None:
                    self.local.add(self.text(name))
            if kind in (
                "function_declaration", "function_expression", "arrow_function", "method_definition",
                "generator_function", "generator_function_declaration",
            ):  # fmt: skip
                params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
                if params is not None:
                    self.local |= self._pattern(params)
            elif kind == "catch_clause":
                param = node.child_by_field_name("parameter")
                if param is not None:
                    self.local |= self._pattern(param)
            elif kind in ("for_in_statement",):
                left = node.child_by_field_name("left")
                if left is not None:
                    self.local |= self._pattern(left)
        self.local -= set(self.assigned) | set(self.imported)

    def _import(self, node: tree_sitter.Node) -> None:
        source = node.child_by_field_name("source")
        if source is None:
            return
        module = _module_name(self.text(source)[1:-1])
        self.imports.append(module)
        for part in _walk(node):
            if part.type == "import_specifier":
                name, alias = part.child_by_field_name("name"), part.child_by_field_name("alias")
                if name is not None:
                    self.imported[self.text(alias or name)] = f"{module}.{self.text(name)}"
            elif part.type == "namespace_import":
                alias = next((c for c in part.named_children if c.type == "identifier"), None)
                if alias is not None:
                    self.imported[self.text(alias)] = module
            elif part.type == "import_clause":
                for child in part.named_children:
                    if child.type == "identifier":  # the default: CommonJS's module.exports
                        self.imported[self.text(child)] = module

    def _required(self, value: tree_sitter.Node) -> str | None:
        """The module a ``require('m')`` (or ``await import('m')``) loads, where literal."""
        if value.type == "await_expression" and value.named_children:
            value = value.named_children[0]
        if value.type != "call_expression":
            return None
        callee = value.child_by_field_name("function")
        args = value.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        if callee is None or self.text(callee) not in ("require", "import") or first is None:
            return None
        return _module_name(self.text(first)[1:-1]) if first.type == "string" else None

    def _taken(self, value: tree_sitter.Node) -> str | None:
        """``require("m").a.b``: the module and the names taken from it, dotted."""
        names = []
        while value.type == "member_expression":
            prop, obj = value.child_by_field_name("property"), value.child_by_field_name("object")
            if prop is None or obj is None:
                return None
            names.append(self.text(prop))
            value = obj
        module = self._required(value) if names else None
        return ".".join([module, *reversed(names)]) if module is not None else None

    def _require(self, name: tree_sitter.Node, module: str) -> None:
        self.imports.append(module)
        if name.type == "identifier":
            self.imported[self.text(name)] = module
        elif name.type == "object_pattern":
            for field in name.named_children:
                if field.type == "shorthand_property_identifier_pattern":
                    self.imported[self.text(field)] = f"{module}.{self.text(field)}"
                elif field.type == "pair_pattern":
                    key, value = field.child_by_field_name("key"), field.child_by_field_name("value")
                    if key is not None and value is not None and value.type == "identifier":
                        self.imported[self.text(value)] = f"{module}.{self.text(key)}"

    def _pattern(self, node: tree_sitter.Node) -> set[str]:
        out: set[str] = set()
        for n in _walk(node):
            if n.type in ("identifier", "shorthand_property_identifier_pattern"):
                out.add(self.text(n))
        return out

    def snippet(self) -> Snippet:
        chains: list[Chain] = []
        caught: list[Chain] = []
        raised: list[Chain] = []
        dangerous: list[tuple[str, str]] = []
        tests: list[str] = []
        handlers = self._handlers()
        for node in _walk(self.root):
            kind = node.type
            if kind in ("call_expression", "new_expression", "member_expression", "identifier"):
                parent = node.parent
                inner = parent is not None and (
                    (parent.type == "member_expression" and parent.child_by_field_name("object") == node)
                    or (parent.type == "call_expression" and parent.child_by_field_name("function") == node)
                    or (parent.type == "new_expression" and parent.child_by_field_name("constructor") == node)
                )
                declared = parent is not None and parent.type in (
                    "variable_declarator", "formal_parameters", "catch_clause", "import_specifier",
                    "import_clause", "namespace_import", "function_declaration", "class_declaration",
                    "pair_pattern", "object_pattern", "array_pattern", "assignment_pattern", "arrow_function",
                    "required_parameter", "optional_parameter", "method_definition", "function_expression",
                )  # fmt: skip
                if not inner and not (kind == "identifier" and declared):
                    chain = self.chain(node)
                    if chain is not None and (chain.steps or chain.rooted in ("free", "import")):
                        chains.append(chain)
            if kind == "binary_expression":
                op = node.child_by_field_name("operator")
                right = node.child_by_field_name("right")
                found = self.chain(right) if op is not None and op.type == "instanceof" and right else None
                if found is not None and any(h.start_byte <= node.start_byte < h.end_byte for h in handlers):
                    caught.append(found)  # a handler's test of what it caught
            elif kind == "throw_statement" and node.named_children:
                thrown = node.named_children[0]
                head = thrown.child_by_field_name("constructor") if thrown.type == "new_expression" else None
                if thrown.type == "call_expression":
                    head = thrown.child_by_field_name("function")
                if head is not None and (c := self.chain(head)) is not None:
                    raised.append(c)
            elif kind in ("if_statement", "while_statement", "ternary_expression"):
                condition = node.child_by_field_name("condition")
                if condition is not None:
                    tests.append(self.text(_unparen(condition)))
            if kind in ("call_expression", "new_expression") and (why := self._dangerous(node)) is not None:
                dangerous.append(why)
        for module in self.imports:
            if (what := _DANGEROUS.get(module.split("/")[0])) is not None:
                dangerous.append((module, what))
        return Snippet(
            tuple(self.imports),
            tuple(chains),
            tuple(caught),
            tuple(raised),
            tuple(dangerous),
            tuple(tests),
            frozenset(self._defines()),
        )

    def _defines(self) -> set[str]:
        """Functions, classes, methods, properties set (``obj.step = 0``) and object keys."""
        found: set[str] = set()
        for node in _walk(self.root):
            kind = node.type
            if kind in _DEFINING:
                name = (
                    node.child_by_field_name("name")
                    or node.child_by_field_name("key")
                    or node.child_by_field_name("property")
                )
                if name is not None:
                    found.add(self.text(name).strip("'\""))
            elif kind == "shorthand_property_identifier":
                found.add(self.text(node))
            elif kind == "assignment_expression":
                left = node.child_by_field_name("left")
                prop = (
                    left.child_by_field_name("property")
                    if left is not None and left.type == "member_expression"
                    else None
                )
                if prop is not None:
                    found.add(self.text(prop))
        return found

    def _handlers(self) -> list[tree_sitter.Node]:
        """Where caught errors are tested: ``catch`` clauses, and ``.catch(...)`` callbacks."""
        found = []
        for node in _walk(self.root):
            if node.type == "catch_clause":
                found.append(node)
            elif node.type == "call_expression":
                callee = node.child_by_field_name("function")
                prop = callee.child_by_field_name("property") if callee is not None else None
                args = node.child_by_field_name("arguments")
                if prop is not None and self.text(prop) == "catch" and args is not None:
                    found += args.named_children[-1:]
        return found

    def chain(self, node: tree_sitter.Node, depth: int = 0) -> Chain | None:
        steps: list[Step] = []
        while True:
            kind = node.type
            if kind == "member_expression":
                prop = node.child_by_field_name("property")
                obj = node.child_by_field_name("object")
                if prop is None or obj is None:
                    return None
                steps.append(Step(self.text(prop)))
                node = obj
            elif kind in ("call_expression", "new_expression"):
                args = node.child_by_field_name("arguments")
                spread = args is not None and any(a.type == "spread_element" for a in args.named_children)
                steps.append(Step(call=True, spread=spread))
                head = node.child_by_field_name("function" if kind == "call_expression" else "constructor")
                if head is None:
                    return None
                node = head
            elif kind in _WRAPPERS and node.named_children:
                node = node.named_children[0]
            else:
                break
        steps.reverse()
        kind = node.type
        if kind == "identifier":
            name = self.text(node)
            if name in self.imported:
                return Chain("import", self.imported[name], tuple(steps))
            if name in self.assigned and depth < 8:
                source = self.chain(self.assigned[name], depth + 1)
                return Chain("assigned", name, tuple(steps), source)
            if name in self.local or name in _KEYWORDS:
                return Chain("local", name, tuple(steps))
            if name in GLOBALS or name in _vocabulary()["globals"]:  # type: ignore[operator]
                return Chain("builtin", name, tuple(steps))
            return Chain("free", name, tuple(steps))
        literal = _LITERALS.get(kind)
        if literal is not None:
            return Chain("literal", literal, tuple(steps))
        if kind in ("this", "super"):
            return Chain("local", kind, tuple(steps))
        if kind == "call_expression" and self._required(node) is not None:
            return Chain("import", self._required(node) or "", tuple(steps))
        return None

    def _dangerous(self, call: tree_sitter.Node) -> tuple[str, str] | None:
        head = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
        if head is None:
            return None
        chain = self.chain(head)
        written = " ".join(self.text(head).split())
        if chain is None:
            return None
        if chain.rooted in ("builtin", "free") and not chain.steps:
            if chain.root in _EVALUATING:
                return written, "code"
            if chain.root in _NETWORK_GLOBALS:
                return written, "network"
        if chain.rooted == "import":
            dotted = ".".join([chain.root, *(s.name or "" for s in chain.steps if not s.call)])
            parts = dotted.split(".")
            for n in range(len(parts), 0, -1):
                if (what := _DANGEROUS.get(".".join(parts[:n]))) is not None:
                    return dotted, what
        if chain.rooted == "builtin" and chain.root == "process" and chain.written == "process.kill()":
            return written, "system"
        return None


#: Expressions that stand for what they hold, for a chain.
_WRAPPERS = frozenset({"parenthesized_expression", "await_expression", "non_null_expression"})
_LITERALS = {
    "string": "string", "template_string": "string", "number": "number", "array": "array",
    "regex": "regexp", "true": "boolean", "false": "boolean",
}  # fmt: skip


def _test(node: tree_sitter.Node, data: bytes) -> Test:
    node = _unparen(node)
    kind = node.type
    if kind == "binary_expression":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is None or left is None or right is None:
            return Test((), exact=False)
        operator = op.type
        if operator == "&&":
            a, b = _test(left, data), _test(right, data)
            return Test(a.atoms + b.atoms, a.exact and b.exact)
        if operator == "||":
            return Test((), exact=False)
        if operator == "instanceof":
            return Test((Atom(_text(left, data), "is-a", _text(right, data)),))
        if operator == "in":
            return Test((Atom(_text(right, data), "has", _text(left, data)),))
        relation = _COMPARE.get(operator)
        if relation is None:
            return Test((), exact=False)
        return _comparison(_unparen(left), relation, _unparen(right), data)
    if kind == "unary_expression":
        op = node.child_by_field_name("operator")
        argument = node.child_by_field_name("argument")
        if op is not None and op.type == "!" and argument is not None:
            inner = _test(argument, data)
            if len(inner.atoms) != 1 or not inner.exact:
                return Test((), exact=False)
            atom = inner.atoms[0]
            return Test((Atom(atom.subject, _NEGATED[atom.relation], atom.operand),))
        return Test((), exact=False)
    if kind in ("identifier", "member_expression", "call_expression", "subscript_expression"):
        text = " ".join(_text(node, data).split())
        called = re.fullmatch(r"Array\.isArray\((.+)\)", text)
        if called:
            return Test((Atom(called.group(1), "is-a", "array"),))
        return Test((Atom(text, "truthy"),))
    return Test((), exact=False)


def _comparison(left: tree_sitter.Node, relation: Relation, right: tree_sitter.Node, data: bytes) -> Test:
    def nullish(n: tree_sitter.Node) -> bool:
        return n.type in ("null", "undefined") or (n.type == "identifier" and _text(n, data) == "undefined")

    if relation in ("==", "!=") and (nullish(left) or nullish(right)):
        subject = right if nullish(left) else left
        return Test((Atom(_text(subject, data), "none" if relation == "==" else "not-none"),))
    for a, b in ((left, right), (right, left)):
        if a.type == "unary_expression" and _text(a, data).startswith("typeof") and relation in ("==", "!="):
            argument = a.child_by_field_name("argument")
            if argument is not None and b.type == "string":
                kind = _text(b, data)[1:-1]
                return Test((Atom(_text(argument, data), "is-a" if relation == "==" else "not-a", kind),))
    if left.type in ("number", "string") and right.type not in ("number", "string"):
        return Test((Atom(_text(right, data), _MIRRORED[relation], _text(left, data)),))
    return Test((Atom(_text(left, data), relation, _text(right, data)),))


def instance_of(class_name: str) -> str:
    """What code usually calls an instance of a class (``command`` for ``Command``)."""
    return class_name[:1].lower() + class_name[1:]
