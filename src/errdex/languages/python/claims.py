"""Python code someone else wrote, read for what it claims of a library: what it imports, calls,
passes by keyword, catches and raises, what it would do to the user's system, and its tests read
as ``subject relation operand``.

Only ``ast`` reads it; nothing here imports or runs a name the code gives.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from functools import cache

from errdex.languages.python.names import BUILTIN_NAMES, instance_name
from errdex.languages.python.names import RECEIVERS as RECEIVERS
from errdex.languages.python.symbols import BUILTIN_BASES, builtin_members, standard
from errdex.languages.snippets import ELIDED_CALL, Atom, Chain, Relation, Snippet, Step, Test
from errdex.symbols import SymbolTable, Vocabulary

CONSTRUCTORS = frozenset({"__init__"})
#: Standard modules whose names are more often a variable's (``cmd.callback``, ``code.co_name``).
VARIABLE_MODULES = frozenset({
    "cmd", "code", "types", "string", "token", "select", "signal", "site", "queue", "array", "copy",
    "test", "resource", "keyword", "numbers", "stat",
})  # fmt: skip
#: What acts on the system, as text: a name a model may write in prose as well as in code.
SYSTEM_CALLS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|os\.remove|os\.unlink|os\.rmdir|"
            r"os\.removedirs|os\.chmod|os\.chown|subprocess\.\w+|(?:import|from)\s+subprocess|"
            r"shutil\.rmtree|rmtree\(|__import__|ctypes|create_subprocess_\w+)\b"
        ),
        "runs a system command",
    ),
    (re.compile(r"(?<![\w.])(?:eval|exec)\s*\(\s*[^\s)]"), "evaluates code"),
)
#: What makes a code span a test rather than a name or a call.
TEST_SHAPE = re.compile(r"(?:[=!]=|<=?|>=?|\bis\b|\bnot\b|\bisinstance\(|\bin\b)")
#: How code compares versions.
VERSION_CHECKS = re.compile(r"\b(?:Version|parse_version|version_info)\b")
#: Printing, logging or sending the whole environment.
ENVIRONMENT_DUMPS = re.compile(
    r"\bprint\(\s*(?:dict\()?os\.environ\b|\bos\.environ\.(?:items|copy|keys|values)\(\)|"
    r"\b(?:dumps?|str|repr|dict|list|sorted|pprint|log\w*|info|debug|warning|write|send|post)\s*\(\s*(?:dict\()?os\.environ\b|"
    r"\bfor\s+\w+(?:\s*,\s*\w+)?\s+in\s+os\.environ\b",
    re.I,
)
#: The longest code read: a field's bound, with room.
_MAX_CODE = 20_000

#: Calls that act on the user's system, by the dotted name an import gives them, or a prefix of
#: it; each with what kind of action it is (``network`` calls are the record's own package's
#: business where it is that package: a ``requests`` record's fix calls ``requests.get``).
_DANGEROUS: Mapping[str, str] = {
    "os.system": "system", "os.popen": "system", "os.exec": "system", "os.spawn": "system",
    "os.posix_spawn": "system", "os.kill": "system", "os.killpg": "system", "os.remove": "system",
    "os.unlink": "system", "os.rmdir": "system", "os.removedirs": "system", "os.chmod": "system",
    "os.chown": "system", "os.lchown": "system", "os.truncate": "system", "os.fork": "system",
    "subprocess": "system", "pty": "system", "ctypes": "system", "shutil.rmtree": "system",
    "shutil.chown": "system", "shutil.move": "system", "runpy": "code", "importlib.import_module": "code",
    "pickle.load": "code", "pickle.loads": "code", "marshal.load": "code", "marshal.loads": "code",
    "socket": "network", "urllib.request": "network", "http.client": "network", "ftplib": "network",
    "smtplib": "network", "telnetlib": "network", "poplib": "network", "imaplib": "network",
    "webbrowser": "network", "requests": "network", "httpx": "network", "aiohttp": "network",
    "urllib3.request": "network", "urllib3.PoolManager": "network", "paramiko": "network",
    "asyncio.create_subprocess_shell": "system", "asyncio.create_subprocess_exec": "system",
    "pip": "system", "ensurepip": "system", "os._exit": "system", "os.abort": "system",
}  # fmt: skip
#: Builtins that run code given as text.
_EVALUATING = frozenset({"eval", "exec", "compile", "__import__", "breakpoint"})
#: Methods that delete or change permissions whatever they are called on (``Path.unlink``).
_DESTRUCTIVE_METHODS = frozenset({"unlink", "rmdir", "rmtree", "chmod", "lchmod", "chown", "kill"})
#: A path outside the project: the file system's root, the user's home.
_OUTSIDE = re.compile(r"^(?:/|~|[A-Za-z]:[\\/]|\\\\)")

_COMPARISONS: Mapping[type[ast.cmpop], Relation] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.In: "in", ast.NotIn: "not-in",
}  # fmt: skip
_MIRRORED: Mapping[Relation, Relation] = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATED: Mapping[Relation, Relation] = {
    "none": "not-none", "not-none": "none", "truthy": "falsy", "falsy": "truthy", "==": "!=", "!=": "==",
    "<": ">=", "<=": ">", ">": "<=", ">=": "<", "is-a": "not-a", "not-a": "is-a", "in": "not-in",
    "not-in": "in", "has": "lacks", "lacks": "has",
}  # fmt: skip


class PythonNames:
    """Python's names with no release's table: built-in classes, this interpreter's standard library."""

    builtin_bases: Mapping[str, tuple[str, ...]] = BUILTIN_BASES
    instances: str | None = None

    def builtin_members(self, name: str) -> frozenset[str] | None:
        return builtin_members(name)

    def members(self) -> frozenset[str]:
        return _members()

    def standard(self, module: str) -> SymbolTable | None:
        return standard(module)


@cache
def _members() -> frozenset[str]:
    return frozenset().union(*(builtin_members(name) or () for name in BUILTIN_BASES))


VOCABULARY: Vocabulary = PythonNames()
#: What every error class is, whatever its own bases: a handler of these catches any error.
ERROR_ROOTS: tuple[str, ...] = ("Exception", "BaseException")


def snippet(code: str) -> Snippet | None:
    """What a snippet imports, reaches, catches, raises and does; None where it is no Python."""
    tree = _parsed(code, "exec")
    return None if tree is None else _Reader(tree).snippet()


def span(text: str) -> Snippet | None:
    """A code span of prose (``fabric.backward(loss)``, ``model=``, ``strict=False``) read as an
    expression; None where it is none (an English phrase, a shell command)."""
    text = text.strip()
    keyword = re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*(.*)", text)
    if keyword is not None and "==" not in text:  # ``model=``, ``strict=False``: a keyword passed
        text = keyword.group(1)
    tree = _parsed(text, "eval")
    if tree is None and (elided := ELIDED_CALL.fullmatch(text)) is not None:
        # ``fabric.load(path, {"model": model, ...})``: arguments prose abridged; the call's name stays.
        tree = _parsed(f"{elided.group(1)}()", "eval")
    return None if tree is None else _Reader(tree).snippet()


def test(code: str) -> Test | None:
    """A test read as atoms; None where it is no Python expression."""
    tree = _parsed(code, "eval")
    if not isinstance(tree, ast.Expression):
        return None
    return _test(tree.body)


def _parsed(code: str, mode: str) -> ast.AST | None:
    if len(code) > _MAX_CODE:
        return None
    try:
        return ast.parse(code, mode=mode)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


class _Reader:
    """One pass over a snippet's tree: its bindings first, then what each expression reaches."""

    def __init__(self, tree: ast.AST) -> None:
        self.tree = tree
        self.imports: list[str] = []
        #: Name -> the module path an import binds it to.
        self.imported: dict[str, str] = {}
        #: Name -> the expression it is assigned from (the first such assignment).
        self.assigned: dict[str, ast.expr] = {}
        self.local: set[str] = set()
        #: For each ``self`` inside a class the snippet defines: its first base, and the names the
        #: class defines itself (``self.layer`` of its own ``__init__`` is the snippet's, not the base's).
        self.selves: dict[int, tuple[ast.expr, set[str]]] = {}
        self._bind()
        self._classes()

    def _classes(self) -> None:
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.ClassDef) or not node.bases:
                continue
            own: set[str] = set()
            selves: list[ast.Name] = []
            for sub in ast.walk(node):
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    own.add(sub.name)
                elif isinstance(sub, ast.Name) and sub.id == "self":
                    selves.append(sub)
                elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                    own.add(sub.attr)
            own |= {t.id for stmt in node.body if isinstance(stmt, ast.Assign | ast.AnnAssign)
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                    if isinstance(t, ast.Name)}  # fmt: skip
            for name in selves:
                self.selves.setdefault(id(name), (node.bases[0], own))

    def _bind(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.imports.append(alias.name)
                    if alias.asname:
                        self.imported[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        self.imported[head] = head
            elif isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                for alias in node.names:
                    self.imports.append(f"{module}.{alias.name}" if module else alias.name)
                    if alias.name != "*":
                        self.imported[alias.asname or alias.name] = f"{module}.{alias.name}"
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        self.assigned.setdefault(target.id, node.value)
                    else:
                        self.local.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                self.assigned.setdefault(node.target.id, node.value)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.local.add(node.name)
            elif isinstance(node, ast.arg):
                self.local.add(node.arg)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                self.local.add(node.name)
            elif (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Store | ast.Del)
                and node.id not in self.assigned
            ):
                self.local.add(node.id)  # a loop's target, a ``with ... as``: any value
        # A name assigned from an expression is followed to its first value.
        self.local -= set(self.assigned)

    def snippet(self) -> Snippet:
        chains: list[Chain] = []
        caught: list[Chain] = []
        raised: list[Chain] = []
        dangerous: list[tuple[str, str]] = []
        tests: list[str] = []
        parents: dict[int, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                kinds = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
                caught += [c for k in kinds if (c := self.chain(k)) is not None]
            elif isinstance(node, ast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if (c := self.chain(exc)) is not None:
                    raised.append(c)
            elif isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
                tests.append(ast.unparse(node.test))
            if isinstance(node, ast.Call | ast.Attribute | ast.Name | ast.Constant):
                parent = parents.get(id(node))
                inner = (isinstance(parent, ast.Attribute) and parent.value is node) or (
                    isinstance(parent, ast.Call) and parent.func is node
                )
                if inner or (isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)):
                    continue
                chain = self.chain(node)
                if chain is not None and (chain.steps or chain.rooted in ("free", "import")):
                    chains.append(chain)
            if isinstance(node, ast.Call) and (why := self._dangerous(node)) is not None:
                dangerous.append(why)
        for module in self.imports:
            if (kind := _danger(module)) is not None:
                dangerous.append((module, kind))
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
        """Functions, classes, attributes set (``obj.step = 0``) and keys of dicts it builds."""
        found: set[str] = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                found.add(node.attr)
            elif isinstance(node, ast.keyword) and node.arg:
                found.add(node.arg)  # ``SimpleNamespace(step=0)``, ``dict(step=0)``
            elif isinstance(node, ast.Dict):
                found.update(
                    k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
                )
        return found

    def chain(self, node: ast.expr, depth: int = 0) -> Chain | None:
        """The chain an expression reaches: its first name's binding, then each attribute and
        call; None for what starts from no name (a subscript, an operator)."""
        steps: list[Step] = []
        while True:
            if isinstance(node, ast.Attribute):
                steps.append(Step(node.attr))
                node = node.value
            elif isinstance(node, ast.Call):
                keywords = tuple(k.arg for k in node.keywords if k.arg is not None)
                spread = any(k.arg is None for k in node.keywords)
                steps.append(Step(call=True, keywords=keywords, spread=spread))
                node = node.func
            else:
                break
        steps.reverse()
        if isinstance(node, ast.Name):
            name = node.id
            if name in self.imported:
                return Chain("import", self.imported[name], tuple(steps))
            if name in self.assigned and depth < 8:
                source = self.chain(self.assigned[name], depth + 1)
                return Chain("assigned", name, tuple(steps), source)
            inside = self.selves.get(id(node)) if name == "self" else None
            if inside is not None and steps and steps[0].name not in inside[1] and depth < 8:
                # ``self.clip_gradients(...)`` in a subclass the snippet writes: its base's method.
                return Chain("assigned", name, tuple(steps), self.chain(inside[0], depth + 1))
            if name in self.local or name in RECEIVERS:
                return Chain("local", name, tuple(steps))
            if name in BUILTIN_NAMES:
                return Chain("builtin", name, tuple(steps))
            return Chain("free", name, tuple(steps))
        literal = _literal_type(node)
        if literal is not None:
            return Chain("literal", literal, tuple(steps))
        return None

    def _dangerous(self, call: ast.Call) -> tuple[str, str] | None:
        func = call.func
        chain = self.chain(func)
        if chain is None:
            return None
        written = ast.unparse(func)
        if chain.rooted == "builtin" and not chain.steps and chain.root in _EVALUATING:
            return written, "code"
        if chain.rooted == "import":
            dotted = ".".join([chain.root, *(s.name or "" for s in chain.steps)])
            if (kind := _danger(dotted)) is not None:
                return dotted, kind
        if isinstance(func, ast.Attribute) and func.attr in _DESTRUCTIVE_METHODS:
            return written, "system"
        if chain.rooted == "builtin" and chain.root == "open" and not chain.steps and call.args:
            return _writes_outside(call)
        return None


def _writes_outside(call: ast.Call) -> tuple[str, str] | None:
    """``open('/etc/hosts', 'w')``: a file written outside the project (its root, the home)."""
    first = call.args[0]
    mode = call.args[1] if len(call.args) > 1 else None
    mode = mode or next((k.value for k in call.keywords if k.arg == "mode"), None)
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str) and _OUTSIDE.match(first.value)):
        return None
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wax+"):
        return f"open({first.value!r}, {mode.value!r})", "system"
    return None


def _danger(dotted: str) -> str | None:
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in _DANGEROUS:
            return _DANGEROUS[prefix]
        if n == len(parts) and any(prefix.startswith(p) for p in ("os.exec", "os.spawn")):
            return "system"
    return None


def _literal_type(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant):
        value = node.value
        return type(value).__name__ if isinstance(value, str | bytes | int | float | complex) else None
    if isinstance(node, ast.JoinedStr):
        return "str"
    types = {ast.List: "list", ast.Dict: "dict", ast.Set: "set", ast.Tuple: "tuple"}
    for kind, name in types.items():
        if isinstance(node, kind):
            return name
    return None


def _test(node: ast.expr) -> Test:
    """A test as atoms; inexact where it says more than atoms can (an ``or``, a call errdex does
    not read)."""
    if isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.Or):
            return Test((), exact=False)
        parts = [_test(v) for v in node.values]
        return Test(tuple(a for p in parts for a in p.atoms), all(p.exact for p in parts))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _test(node.operand)
        if len(inner.atoms) != 1 or not inner.exact:
            return Test((), exact=False)
        atom = inner.atoms[0]
        return Test((Atom(atom.subject, _NEGATED[atom.relation], atom.operand),))
    return Test(tuple(_atoms(node)), exact=True) if list(_atoms(node)) else Test((), exact=False)


def _atoms(node: ast.expr) -> Iterator[Atom]:
    if isinstance(node, ast.Compare):
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            yield from _comparison(left, op, right)
            left = right
        return
    if isinstance(node, ast.Name | ast.Attribute):
        yield Atom(ast.unparse(node), "truthy")
        return
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name, args = node.func.id, node.args
        if name == "isinstance" and len(args) == 2:
            yield Atom(ast.unparse(args[0]), "is-a", ast.unparse(args[1]))
        elif name == "hasattr" and len(args) == 2:
            yield Atom(ast.unparse(args[0]), "has", ast.unparse(args[1]))
        elif name == "callable" and len(args) == 1:
            yield Atom(ast.unparse(args[0]), "is-a", "function")
        else:
            yield Atom(ast.unparse(node), "truthy")
        return
    if isinstance(node, ast.Call):
        yield Atom(ast.unparse(node), "truthy")


def _comparison(left: ast.expr, op: ast.cmpop, right: ast.expr) -> Iterator[Atom]:
    if isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq) and (_is_none(left) or _is_none(right)):
        subject = right if _is_none(left) else left
        yield Atom(ast.unparse(subject), "none" if isinstance(op, ast.Is | ast.Eq) else "not-none")
        return
    if isinstance(op, ast.Is | ast.IsNot):
        yield Atom(ast.unparse(left), "==" if isinstance(op, ast.Is) else "!=", ast.unparse(right))
        return
    relation = _COMPARISONS.get(type(op))
    if relation is None:
        return
    if isinstance(left, ast.Constant) and not isinstance(right, ast.Constant) and relation in _MIRRORED:
        yield Atom(ast.unparse(right), _MIRRORED[relation], ast.unparse(left))
        return
    yield Atom(ast.unparse(left), relation, ast.unparse(right))


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def instance_of(class_name: str) -> str:
    """What code usually calls an instance of a class (``fabric`` for ``Fabric``)."""
    return instance_name(class_name)
