"""An independent reading of what enrichment wrote: its code parsed with ``ast``, its calls checked
against the source's own ``def`` (parsed here, not taken from the record's facts), its
solutions against the message's placeholders.  Shared by tests/test_code_truth.py and
bench/solutions_report.py.

Each check returns the problems it finds as ``(kind, detail)``; ``KINDS`` names them.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from errdex.patterns import PLACEHOLDER_GROUP, split_pattern
from errdex.record import Record

CODE_FIELDS = ("example_fix", "validation_code", "type_guard", "try_catch_pattern")
#: The pinned packages whose generated code is checked (name, version, sdist?): the test's and
#: ``bench/solutions_report.py``'s one list.
PACKAGES = (
    ("lightning", "2.6.6", False),
    ("click", "8.1.8", True),
    ("requests", "2.32.3", True),
    ("sqlalchemy", "2.0.36", False),
    ("pydantic", "2.10.4", False),
    ("jinja2", "3.1.5", False),
)
KINDS = {
    "compile": "a code field that does not compile",
    "ellipsis": "a code field with `...` standing for code (a body, an argument)",
    "private-try": "a `try` around a call of a name with a private part",
    "warning-except": "`except <Warning>` for a warning that is warned, outside a filter making it an error",
    "placeholder": "a solution showing a placeholder of the message (`{x}`, `%s`)",
    "bad-call": "a call of the raising function its signature refuses (a keyword twice, an argument missing)",
    "no-await": "a call of an `async def` function that is not awaited",
    "property-call": "a property called as a function",
    "validation-order": "a check that reads a value the function rebinds, or placed after the call",
}
_BUILTINS = frozenset(dir(builtins))


# -- the source, read on its own ---------------------------------------------------------------


def definition(path: Path, function: str | None, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The ``def`` of ``function`` in the file that holds ``line`` (not an ``@overload`` stub of
    the same name)."""
    for node in definitions(str(path)).get(function or "", []):
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            return node
    return None


@lru_cache(maxsize=4096)
def definitions(path: str) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function of a file by qualified name (``Cls.meth``, ``f.<locals>.g``)."""
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError):
        return {}
    found: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(prefix + child.name, []).append(child)
                visit(child, f"{prefix}{child.name}.<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def signature_of(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> inspect.Signature:
    """The ``def``'s signature (defaults as placeholders), the receiver left out for a method."""
    a = node.args
    params: list[inspect.Parameter] = []
    positional = [(x, inspect.Parameter.POSITIONAL_ONLY) for x in a.posonlyargs]
    positional += [(x, inspect.Parameter.POSITIONAL_OR_KEYWORD) for x in a.args]
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for (arg, kind), default in zip(positional, defaults, strict=True):
        params.append(
            inspect.Parameter(arg.arg, kind, default=inspect.Parameter.empty if default is None else 0)
        )
    if a.vararg:
        params.append(inspect.Parameter(a.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
    for arg, default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        params.append(
            inspect.Parameter(
                arg.arg,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if default is None else 0,
            )
        )
    if a.kwarg:
        params.append(inspect.Parameter(a.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
    if method and params and params[0].kind is not inspect.Parameter.VAR_POSITIONAL:
        params = params[1:]
    return inspect.Signature(params)


def decorators(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [ast.unparse(d) for d in node.decorator_list]


def rebinds(node: ast.FunctionDef | ast.AsyncFunctionDef, before: int) -> set[str]:
    """The names a function assigns before line ``before`` (its own body, not nested scopes)."""
    out: set[str] = set()
    pending: list[ast.AST] = list(node.body)
    while pending:
        n = pending.pop()
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del) and n.lineno < before:
            out.add(n.id)
        if isinstance(n, ast.comprehension):
            pending.extend([n.iter, *n.ifs])
            continue
        pending.extend(ast.iter_child_nodes(n))
    return out


# -- the checks --------------------------------------------------------------------------------


def dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def private(name: str) -> bool:
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in name.split("."))


def is_warning(record: Record) -> bool:
    kind = record.sites[0].kind if record.sites else "raise"
    return kind == "warn" or (kind != "raise" and (record.error_class or "").endswith("Warning"))


def parsed(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def code_problems(record: Record, source: Path | None) -> Iterator[tuple[str, str]]:
    """What is wrong with the record's code fields; ``source`` is its file, for the checks that
    read the raising function's own ``def``."""
    node = definition(source, record.function, record.line_number) if source is not None else None
    for field in CODE_FIELDS:
        code = getattr(record, field)
        if not code:
            continue
        try:
            compile(code, field, "exec")
        except SyntaxError as exc:
            yield "compile", f"{field}: {exc}"
            continue
        tree = parsed(code)
        assert tree is not None
        if any(isinstance(n, ast.Constant) and n.value is Ellipsis for n in ast.walk(tree)):
            yield "ellipsis", field
        for t in ast.walk(tree):
            if isinstance(t, ast.Try | ast.TryStar):
                for n in (x for stmt in t.body for x in ast.walk(stmt)):
                    name = (
                        dotted(n.func)
                        if isinstance(n, ast.Call)
                        else dotted(n)
                        if isinstance(n, ast.Attribute)
                        else None
                    )
                    if name and private(name):
                        yield "private-try", f"{field}: {name}"
        if is_warning(record):
            yield from _warning_excepts(tree, field)
        if node is not None:
            yield from _calls(record, node, tree, field)
    if node is not None and record.validation_code:
        yield from _validation(record, node)


def _warning_excepts(tree: ast.Module, field: str) -> Iterator[tuple[str, str]]:
    """``except XWarning`` is right only inside ``warnings.catch_warnings()`` after a filter that
    makes the warning an error."""
    filtered: set[int] = set()
    for w in ast.walk(tree):
        if isinstance(w, ast.With) and any(
            dotted(i.context_expr.func) in ("warnings.catch_warnings", "catch_warnings")
            for i in w.items
            if isinstance(i.context_expr, ast.Call)
        ):
            errors = False
            for stmt in w.body:
                call = stmt.value if isinstance(stmt, ast.Expr) else None
                if (
                    isinstance(call, ast.Call)
                    and (dotted(call.func) or "").rpartition(".")[2] in ("simplefilter", "filterwarnings")
                    and call.args
                    and isinstance(call.args[0], ast.Constant)
                    and call.args[0].value == "error"
                ):
                    errors = True
                if errors:
                    filtered |= {id(n) for n in ast.walk(stmt)}
    for handler in ast.walk(tree):
        if isinstance(handler, ast.ExceptHandler) and handler.type is not None:
            caught = [
                dotted(t) or ""
                for t in (handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type])
            ]
            if any(c.endswith("Warning") for c in caught) and id(handler) not in filtered:
                yield "warning-except", f"{field}: except {', '.join(caught)}"


def _called_name(record: Record) -> str | None:
    function = record.function or ""
    owner, _, name = function.rpartition(".")
    if name == "__init__":
        return owner.rpartition(".")[2] or None
    return name or None


def _calls(
    record: Record, node: ast.FunctionDef | ast.AsyncFunctionDef, tree: ast.Module, field: str
) -> Iterator[tuple[str, str]]:
    """Each call of the raising function: bound by its real signature, awaited where it is
    ``async def``; a property read, not called."""
    name = _called_name(record)
    if name is None:
        return
    owner, _, own = (record.function or "").rpartition(".")
    method = bool(owner) and own != "__init__" and "staticmethod" not in decorators(node)
    constructor = own == "__init__"
    signature = signature_of(node, method or constructor)
    awaited = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Await)}
    props = any(d in ("property", "cached_property", "functools.cached_property") for d in decorators(node))
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        callee = dotted(call.func) or ""
        if callee.rpartition(".")[2] != name or (method and "." not in callee):
            continue
        if props:
            yield "property-call", f"{field}: {callee}()"
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            continue
        keywords = [k.arg for k in call.keywords if k.arg]
        if len(keywords) != len(set(keywords)):
            yield "bad-call", f"{field}: a keyword given twice in {ast.unparse(call)}"
            continue
        try:
            signature.bind(*range(len(call.args)), **dict.fromkeys(keywords, 0))
        except TypeError as exc:
            yield "bad-call", f"{field}: {ast.unparse(call)}: {exc}"
        if isinstance(node, ast.AsyncFunctionDef) and id(call) not in awaited:
            yield "no-await", f"{field}: {ast.unparse(call)}"


def _validation(record: Record, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[str, str]]:
    """A caller's check comes before the call and reads only values the call passes unchanged:
    none the function rebinds before the raise."""
    tree = parsed(record.validation_code or "")
    if tree is None:
        return
    body = tree.body
    if body and isinstance(body[-1], ast.AsyncFunctionDef):
        body = body[-1].body
    checks = [i for i, stmt in enumerate(body) if isinstance(stmt, ast.If)]
    name = _called_name(record)
    calls = [
        i
        for i, stmt in enumerate(body)
        if any(
            isinstance(n, ast.Call) and (dotted(n.func) or "").rpartition(".")[2] == name
            for n in ast.walk(stmt)
        )
        and not isinstance(stmt, ast.If)
    ]
    if not checks or (calls and max(checks) > min(calls)):
        yield "validation-order", "the check is not before the call"
    rebound = rebinds(node, record.line_number)
    read = {n.id for i in checks for n in ast.walk(body[i].test) if isinstance(n, ast.Name)}
    if read & rebound:
        yield "validation-order", f"the check reads {sorted(read & rebound)}, which the function rebinds"
    # ``obj.x`` in the check, where the method sets ``self.x`` before the raise.
    positional = node.args.posonlyargs + node.args.args
    receiver = positional[0].arg if positional and "." in (record.function or "") else None
    callers = free_names(record.validation_code or "")
    stored = {
        n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == receiver
        and n.lineno < record.line_number
    }
    attributes = {
        n.attr
        for i in checks
        for n in ast.walk(body[i].test)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in callers
    }
    if attributes & stored:
        yield "validation-order", f"the check reads {sorted(attributes & stored)}, which the method sets"


def written_placeholders(record: Record) -> list[str]:
    """How the message writes each of its placeholders (``{device}``, ``%s``), read by lining the
    message up with its pattern's literal segments."""
    pattern = record.message_pattern
    if PLACEHOLDER_GROUP not in pattern:
        return []
    segments = split_pattern(pattern)
    regex = "(.+?)".join(re.escape(s) for s in segments)
    m = re.fullmatch(regex, record.error_message, re.DOTALL)
    return [g for g in m.groups() if g] if m else []


def placeholder_leaks(record: Record) -> list[str]:
    """The placeholders of the message its solutions show, as the message writes them, where
    the same text is not also literal text of the message."""
    literal = "\0".join(split_pattern(record.message_pattern))
    written = {w for w in written_placeholders(record) if w not in literal}
    written |= {"{" + name + "}" for name in record.placeholders} - {w for w in written if w in literal}
    return [w for solution in record.solutions for w in written if w in solution and w not in literal]


def free_names(code: str) -> set[str]:
    """The names a snippet reads without binding or importing them: the caller's values."""
    tree = parsed(code)
    if tree is None:
        return set()
    bound = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            bound.add(n.id)
        elif isinstance(n, ast.alias):
            bound.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) or (
            isinstance(n, ast.ExceptHandler) and n.name
        ):
            bound.add(n.name or "")
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return read - bound - _BUILTINS


def counts(records: list[Record], source_of: Any) -> dict[str, int]:
    """Per kind, how many records have at least one such problem; ``source_of(record)`` is the
    record's file (or None)."""
    out = dict.fromkeys(KINDS, 0)
    for record in records:
        kinds = {kind for kind, _ in code_problems(record, source_of(record))}
        if placeholder_leaks(record):
            kinds.add("placeholder")
        for kind in kinds:
            out[kind] += 1
    return out
