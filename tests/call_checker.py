"""Read, independently of errdex, which function a call in a Python file runs.

errdex's facts name the functions that call a raising one (``facts.callers``) and the tests
that expect its error (``facts.tests``).  This is a second, separate ``ast`` reading of the same
files that knows nothing of errdex: whole files parsed, names bound at module level (through
``if``/``try`` blocks, ``import x as y``, ``from x import y``, relative and star imports), class
members found through the bases.  ``Checker.caller`` says how a claimed caller's body calls the
raising function at the claimed line (``resolved`` through names, on ``self``, or on an
``object`` of a class the file imports), or ``false``; ``Checker.test`` checks a cited test.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: What a name can be bound to: ("module", dotted) or (kind, module, qualified name, node) with
#: kind "def" or "class".
Value = tuple


@dataclass
class Checker:
    """The modules under ``root``; ``prefix`` is what errdex's paths carry before them (``Lib/``)."""

    root: Path
    prefix: str = ""
    modules: dict[str, ast.Module] = field(default_factory=dict)
    rel_of: dict[str, str] = field(default_factory=dict)
    module_of: dict[str, str] = field(default_factory=dict)
    #: Each function by file and qualified name: more than one where branches define it.
    defs: dict[tuple[str, str], list[ast.FunctionDef | ast.AsyncFunctionDef]] = field(default_factory=dict)
    _bindings: dict[str, tuple[dict[str, list[tuple]], tuple[str, ...]]] = field(default_factory=dict)
    _knows: dict[tuple[str, int], bool] = field(default_factory=dict)

    @classmethod
    def read(cls, root: Path, prefix: str = "") -> Checker:
        checker = cls(root, prefix)
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            pieces = rel.removesuffix(".py").split("/")
            if pieces[-1] == "__init__":
                pieces = pieces[:-1]
            if not pieces or not all(p.isidentifier() for p in pieces):
                continue
            try:
                tree = ast.parse(path.read_bytes())
            except (SyntaxError, ValueError):
                continue
            dotted = ".".join(pieces)
            checker.modules[dotted] = tree
            checker.rel_of[dotted] = prefix + rel
            checker.module_of[prefix + rel] = dotted
            checker._collect(prefix + rel, tree.body, "")
        return checker

    def _collect(self, rel: str, body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.defs.setdefault((rel, f"{prefix}{node.name}"), []).append(node)
                self._collect(rel, node.body, f"{prefix}{node.name}.<locals>.")
            elif isinstance(node, ast.ClassDef):
                self._collect(rel, node.body, f"{prefix}{node.name}.")
            else:
                for inner in _blocks(node):
                    self._collect(rel, inner, prefix)

    # -- names ------------------------------------------------------------------------------

    def package(self, module: str) -> str:
        rel = self.rel_of[module]
        return module if rel.endswith("__init__.py") else module.rpartition(".")[0]

    def bindings(self, module: str) -> tuple[dict[str, list[tuple]], tuple[str, ...]]:
        """Each module-level name's bindings (definitions and imports), and the modules it
        star-imports."""
        known = self._bindings.get(module)
        if known is not None:
            return known
        names, stars = self._bind(module, _top_level(self.modules[module].body))
        # ``global x`` then ``import ... as x`` in a function binds ``x`` for the module.
        for function in ast.walk(self.modules[module]):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            declared = {n for g in _own_nodes(function) if isinstance(g, ast.Global) for n in g.names}
            if declared:
                imports = (i for i in _own_nodes(function) if isinstance(i, ast.Import | ast.ImportFrom))
                for name, found in self._bind(module, imports)[0].items():
                    if name in declared:
                        names.setdefault(name, []).extend(found)
        self._bindings[module] = (names, stars)
        return self._bindings[module]

    def _bind(self, module: str, nodes: Iterator[ast.AST]) -> tuple[dict[str, list[tuple]], tuple[str, ...]]:
        names: dict[str, list[tuple]] = {}
        stars: list[str] = []
        for node in nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.setdefault(node.name, []).append(("def", module, node.name, node))
            elif isinstance(node, ast.ClassDef):
                names.setdefault(node.name, []).append(("class", module, node.name, node))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    bound = alias.asname or alias.name.partition(".")[0]
                    names.setdefault(bound, []).append(("module", alias.name if alias.asname else bound))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pieces = self.package(module).split(".")
                    pieces = pieces[: len(pieces) - (node.level - 1)]
                    base = ".".join([*pieces, base] if base else pieces)
                for alias in node.names:
                    if alias.name == "*":
                        stars.append(base)
                    else:
                        names.setdefault(alias.asname or alias.name, []).append(("from", base, alias.name))
        return names, tuple(stars)

    def local_imports(self, path: str, function: str, line: int) -> dict[str, list[tuple]]:
        """The names a function (and the functions around it) import in their bodies."""
        module = self.module_of[path]
        pieces = function.split(".<locals>.")
        nodes: list[ast.AST] = []
        for n in range(len(pieces)):
            found = self.def_at(path, ".<locals>.".join(pieces[: n + 1]), line)
            if found is not None:
                nodes += [i for i in ast.walk(found) if isinstance(i, ast.Import | ast.ImportFrom)]
        return self._bind(module, iter(nodes))[0]

    def lookup(
        self, module: str, name: str, depth: int = 0, local: dict[str, list[tuple]] | None = None
    ) -> list[Value]:
        """What ``module.name`` may be (``local``: imports in a function's body, first)."""
        if module not in self.modules or depth > 8:
            return []
        names, stars = self.bindings(module)
        if local and name in local:
            names = local
        found: list[Value] = []
        for binding in names.get(name, ()):
            if binding[0] == "from":
                _, base, attr = binding
                found += (
                    [("module", f"{base}.{attr}")]
                    if f"{base}.{attr}" in self.modules
                    else self.lookup(base, attr, depth + 1)
                )
            elif binding[0] == "module":
                if binding[1] in self.modules:
                    found.append(binding)
            else:
                found.append(binding)
        if not found and not name.startswith("_"):
            for star in stars:
                found += self.lookup(star, name, depth + 1)
        if not found and f"{module}.{name}" in self.modules:
            found.append(("module", f"{module}.{name}"))
        return found

    def attribute(self, value: Value, name: str, depth: int = 0) -> list[Value]:
        if value[0] == "module":
            return self.lookup(value[1], name, depth + 1)
        if value[0] == "class":
            member = self.member(value, name)
            return [member] if member is not None else []
        return []

    def expression(
        self, module: str, node: ast.expr, local: dict[str, list[tuple]] | None = None
    ) -> list[Value]:
        """What a dotted expression may be, by the module's names (and a function's ``local``)."""
        if isinstance(node, ast.Name):
            return self.lookup(module, node.id, local=local)
        if isinstance(node, ast.Attribute):
            bases = self.expression(module, node.value, local)
            return [v for base in bases for v in self.attribute(base, node.attr)]
        return []

    # -- classes ----------------------------------------------------------------------------

    def bases(self, cls: Value) -> Iterator[Value]:
        _, module, _, node = cls
        for expr in node.bases:
            for value in self.expression(module, expr):
                if value[0] == "class":
                    yield value

    def mro(self, cls: Value) -> list[Value]:
        found, pending = [], [cls]
        while pending and len(found) < 30:
            c = pending.pop(0)
            if all(c[3] is not f[3] for f in found):
                found.append(c)
                pending.extend(self.bases(c))
        return found

    def member(self, cls: Value, name: str, after: bool = False) -> Value | None:
        """``name`` as an instance of ``cls`` has it (``after``: as ``super()`` in ``cls`` does)."""
        for c in self.mro(cls)[1 if after else 0 :]:
            _, module, qualified, node = c
            for stmt in _class_body(node.body):
                if (
                    isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                    and stmt.name == name
                ):
                    kind = "class" if isinstance(stmt, ast.ClassDef) else "def"
                    return (kind, module, f"{qualified}.{name}", stmt)
        return None

    def class_named(self, module: str, qualified: str) -> Value | None:
        head, *rest = qualified.split(".")
        found = next((v for v in self.lookup(module, head) if v[0] == "class"), None)
        for attr in rest:
            found = self.member(found, attr) if found is not None else None
        return found if found is not None and found[0] == "class" else None

    # -- calls ------------------------------------------------------------------------------

    def runs(self, value: Value, module: str, function: str) -> bool:
        """Whether calling ``value`` runs ``module.function`` (a class: its constructor)."""
        if value[0] == "class":
            init = self.member(value, "__init__")
            return init is not None and (init[1], init[2]) == (module, function)
        return value[0] == "def" and (value[1], value[2]) == (module, function)

    def knows(self, module: str, cls: Value) -> bool:
        """This reader's own rule for a call on an object: the file is the class's module, or
        binds (defines, or imports anywhere in it) the class, a subclass of it, or a module
        that has it."""
        key = (module, id(cls[3]))
        if key not in self._knows:
            # Imports anywhere in the file: in a function, they name the class there too.
            imports = (
                i for i in ast.walk(self.modules[module]) if isinstance(i, ast.Import | ast.ImportFrom)
            )
            anywhere = self._bind(module, imports)[0]
            self._knows[key] = module == cls[1] or any(
                self._has(value, cls)
                for names in (self.bindings(module)[0], anywhere)
                for name in names
                for value in self.lookup(module, name, local=anywhere)
            )
        return self._knows[key]

    def _has(self, value: Value, cls: Value) -> bool:
        if value[0] == "class":
            return any(c[3] is cls[3] for c in self.mro(value))
        if value[0] == "module":
            found = self.class_named(value[1], cls[2])
            return found is not None and found[3] is cls[3]
        return False

    def caller(self, caller_path: str, caller: str, line: int, path: str, function: str) -> str:
        """How ``caller`` (of ``caller_path``) calls ``function`` (of ``path``) at ``line``:
        ``resolved``, ``self``, ``object``, or ``false``."""
        node = self.def_at(caller_path, caller, line)
        module, target_module = self.module_of.get(caller_path), self.module_of.get(path)
        if node is None or module is None or target_module is None:
            return "false"
        owner = function.rpartition(".")[0]
        constructor = function.endswith(".__init__")
        name = owner.rpartition(".")[2] if constructor else function.rpartition(".")[2]
        cls = self.class_named(target_module, owner) if owner and "<locals>" not in owner else None
        # A function nested in a method sees the method's ``self``.
        method = caller.partition(".<locals>.")[0]
        caller_owner = method.rpartition(".")[0]
        caller_cls = self.class_named(module, caller_owner) if caller_owner else None
        outer = self.def_at(caller_path, method, line)
        first = _first_parameter(outer) if outer is not None else None
        if outer is not None and any(ast.unparse(d) == "staticmethod" for d in outer.decorator_list):
            first = None  # a static method's first parameter is no instance
        if first == "cls" and "self" in {a.arg for a in node.args.posonlyargs + node.args.args}:
            first = "self"  # a wrapper made in a class method, called with the instance
        local = self.local_imports(caller_path, caller, line)
        # The function's own parameters and variables hide the module's names of the same spelling.
        hidden = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)} | {
            n.id for n in _own_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        verdicts = []
        for call in _calls(node):
            func = call.func
            if (func.end_lineno or call.lineno) != line:
                continue
            if isinstance(func, ast.Name):  # by its own name, or one it is imported as
                if any(
                    self.runs(v, target_module, function) for v in self.lookup(module, func.id, local=local)
                ):
                    return "resolved"
            elif isinstance(func, ast.Attribute) and func.attr == name:
                verdicts.append(
                    self._on(
                        module,
                        func.value,
                        name,
                        target_module,
                        function,
                        cls,
                        caller_cls,
                        first,
                        local,
                        hidden,
                    )
                )
        for verdict in ("resolved", "self", "object"):
            if verdict in verdicts:
                return verdict
        return "false"

    def _on(
        self,
        module: str,
        receiver: ast.expr,
        name: str,
        target_module: str,
        function: str,
        cls: Value | None,
        caller_cls: Value | None,
        first: str | None,
        local: dict[str, list[tuple]],
        hidden: set[str],
    ) -> str:
        if isinstance(receiver, ast.Name) and receiver.id == first and caller_cls is not None:
            if cls is None:
                return "false"
            # ``self`` is an instance of the caller's class or of a subclass: of the raising
            # function's class (a base calling an override) where that subclasses it.
            for on in (caller_cls, cls):
                found = self.member(on, name)
                related = on is caller_cls or any(c[3] is caller_cls[3] for c in self.mro(cls))
                if related and found is not None and (found[1], found[2]) == (target_module, function):
                    return "self"
            return "false"
        if (
            isinstance(receiver, ast.Call)
            and isinstance(receiver.func, ast.Name)
            and receiver.func.id == "super"
            and caller_cls is not None
        ):
            found = self.member(caller_cls, name, after=True)
            return (
                "self" if found is not None and (found[1], found[2]) == (target_module, function) else "false"
            )
        head = receiver
        while isinstance(head, ast.Attribute):
            head = head.value
        shadowed = isinstance(head, ast.Name) and head.id in hidden and head.id not in local
        values = [] if shadowed else self.expression(module, receiver, local)
        if values:
            hit = any(
                self.runs(v, target_module, function) for base in values for v in self.attribute(base, name)
            )
            return "resolved" if hit else "false"
        if cls is not None and not function.endswith(".__init__") and self.knows(module, cls):
            return "object"
        return "false"

    def call_in(self, test_path: str, line: int, path: str, function: str) -> list[str]:
        """The calls of ``function`` (of ``path``) in the ``pytest.raises`` block or
        ``assertRaises`` call that a test file has at ``line``, as written (``f(x)`` for
        ``assertRaises(E, f, x)``)."""
        module = self.module_of.get(test_path)
        target_module = self.module_of.get(path)
        if module is None or target_module is None:
            return []
        found = []
        for node in ast.walk(self.modules[module]):
            if isinstance(node, ast.With | ast.AsyncWith) and node.lineno == line:
                for call in (c for stmt in node.body for c in ast.walk(stmt) if isinstance(c, ast.Call)):
                    if any(self.runs(v, target_module, function) for v in self.expression(module, call.func)):
                        found.append(re.sub(r"\s+", " ", ast.unparse(call)))
            elif isinstance(node, ast.Call) and node.lineno == line and _called_name(node) in _EXPECTS:
                skip = 3 if _called_name(node).startswith("assertRaisesRegex") else 2
                if len(node.args) >= skip:
                    callee, *args = node.args[skip - 1 :]
                    if any(self.runs(v, target_module, function) for v in self.expression(module, callee)):
                        found.append(f"{ast.unparse(callee)}({', '.join(ast.unparse(a) for a in args)})")
        return found

    def expectation(self, test_path: str, line: int) -> tuple[str, ast.expr | None] | None:
        """The class (its last name) and the ``match`` a test expects at ``line``."""
        module = self.module_of.get(test_path)
        if module is None:
            return None
        for node in ast.walk(self.modules[module]):
            calls: list[ast.expr] = []
            if isinstance(node, ast.With | ast.AsyncWith) and node.lineno == line:
                calls = [item.context_expr for item in node.items]
            elif isinstance(node, ast.Call) and node.lineno == line:
                calls = [node]
            for call in calls:
                if isinstance(call, ast.Call) and _called_name(call) in _EXPECTS and call.args:
                    expected = call.args[0]
                    if isinstance(expected, ast.Tuple) and expected.elts:
                        expected = expected.elts[0]
                    match = next(
                        (k.value for k in call.keywords if k.arg in ("match", "expected_regex")), None
                    )
                    if (
                        match is None
                        and _called_name(call).startswith("assertRaisesRegex")
                        and len(call.args) > 1
                    ):
                        match = call.args[1]
                    return ast.unparse(expected).rpartition(".")[2], match
        return None

    def def_at(self, path: str, function: str, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The definition of ``function`` whose code holds ``line``."""
        found = self.defs.get((path, function), [])
        return next((d for d in found if d.lineno <= line <= (d.end_lineno or d.lineno)), None)

    def raises_of(self, path: str, function: str, class_name: str) -> int:
        """How many ``raise`` statements of ``function`` raise a class of that name."""
        count = 0
        for stmt in (n for node in self.defs.get((path, function), []) for n in _own_nodes(node)):
            if isinstance(stmt, ast.Raise) and stmt.exc is not None:
                exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
                count += ast.unparse(exc).rpartition(".")[2] == class_name
        return count


_EXPECTS = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _first_parameter(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    positional = node.args.posonlyargs + node.args.args
    return positional[0].arg if positional else None


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes a function's body runs: a nested class's body with it, a nested function's
    decorators and defaults with it (its body later, on its own)."""
    pending = list(ast.iter_child_nodes(node))
    while pending:
        inner = pending.pop()
        if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
            pending += inner.decorator_list
            pending += [d for d in (*inner.args.defaults, *inner.args.kw_defaults) if d is not None]
            continue
        yield inner
        pending.extend(ast.iter_child_nodes(inner))


def _calls(node: ast.AST) -> Iterator[ast.Call]:
    return (n for n in _own_nodes(node) if isinstance(n, ast.Call))


def _blocks(node: ast.stmt) -> Iterator[list[ast.stmt]]:
    for child in ("body", "orelse", "finalbody"):
        inner = getattr(node, child, None)
        if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
            yield inner
    for handler in getattr(node, "handlers", ()):
        yield handler.body
    for case in getattr(node, "cases", ()):
        yield case.body


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for node in body:
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for inner in _blocks(node):
                yield from _top_level(inner)


def _class_body(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    yield from _top_level(body)


# -- messages --------------------------------------------------------------------------------


def pattern_fits(pattern: str, message_pattern: str) -> bool:
    """Whether every literal piece of a test's regex can stand in some message of a record's
    schema v2 pattern (``(.+?)`` per placeholder, any text there), read by a recursive match
    of this reader's own."""
    segments = [re.sub(r"\\(.)", r"\1", s) for s in message_pattern.split("(.+?)")]
    tokens: list[str | None] = []
    for n, segment in enumerate(segments):
        if n:
            tokens.append(None)
        tokens.extend(segment)
    pieces = re.split(r"\\[A-Za-z0-9]|(?<!\\)\[(?:\\.|[^\]\\])*\]|(?<!\\)[\^$.|?*+(){}]", pattern)
    fold = pattern.startswith("(?i)")
    for piece in pieces:
        text = re.sub(r"\\(.)", r"\1", piece)
        if text and not _fits_somewhere(text.lower() if fold else text, tokens, fold):
            return False
    return True


def _fits_somewhere(text: str, tokens: list[str | None], fold: bool) -> bool:
    """Whether ``text`` is a stretch of some message: placed from any token on, each character
    matching its token, a placeholder (None) taking any run of characters, and at least ten of
    its characters (all of a shorter text) on the message's own literal text."""
    need = min(len(text), 10)
    places = {(j, 0) for j in range(len(tokens) + 1)}  # (next token, literal characters so far)
    for ch in text:
        while True:  # a placeholder's value may be empty: past it, and past the next
            more = {(j + 1, k) for j, k in places if j < len(tokens) and tokens[j] is None} - places
            if not more:
                break
            places |= more
        moved = set()
        for j, k in places:
            if j < len(tokens):
                token = tokens[j]
                if token is None:
                    moved.add((j, k))
                elif (token.lower() if fold else token) == ch:
                    moved.add((j + 1, min(k + 1, need)))
        places = moved
        if not places:
            return False
    return any(k == need for _, k in places)
