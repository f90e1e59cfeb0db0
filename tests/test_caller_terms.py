"""Prose in the caller's terms, checked against the source it describes, read here with ``ast``.

Mines and enriches the pinned PyPI packages (tests/snippets.py) and a few standard-library
modules.  Each way errdex says a raise in what the caller does is checked by reading the
raising code on its own: a special method is said as the statement that runs it; what a
public function passes on unchanged is what its own source passes; a generator function is
one; a sentinel default is the parameter's default.
"""

from __future__ import annotations

import ast
import re
import shutil
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.enrich import enrich
from errdex.mine import mine
from errdex.record import Record
from snippets import definition

pytestmark = pytest.mark.pypi


@pytest.fixture(scope="module")
def mined(
    enriched_packages: dict[str, tuple[Path, list[Record]]], enriched_stdlib: tuple[Path, list[Record]]
) -> list[tuple[Path, Path, Record]]:
    """(package root, raising file, record) for every record."""
    out = [(root, root / r.file_path, r) for root, records in enriched_packages.values() for r in records]
    root, records = enriched_stdlib
    return out + [(root, root / r.file_path.removeprefix("Lib/"), r) for r in records]


#: What the statement a special method is said with must contain, read by ``ast``: the node
#: Python runs the method for (an independent table, not errdex's words).
_RUNS = {
    "__setattr__": lambda t: any(
        isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Attribute) for n in t
    ),
    "__delattr__": lambda t: any(
        isinstance(n, ast.Delete) and isinstance(n.targets[0], ast.Attribute) for n in t
    ),
    "__getattr__": lambda t: any(isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) for n in t),
    "__getitem__": lambda t: any(isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) for n in t),
    "__setitem__": lambda t: any(
        isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript) for n in t
    ),
    "__delitem__": lambda t: any(
        isinstance(n, ast.Delete) and isinstance(n.targets[0], ast.Subscript) for n in t
    ),
    "__call__": lambda t: any(isinstance(n, ast.Call) for n in t),
    "__iter__": lambda t: any(isinstance(n, ast.For) for n in t),
    "__enter__": lambda t: any(isinstance(n, ast.With) for n in t),
    "__exit__": lambda t: any(isinstance(n, ast.With) for n in t),
    "__len__": lambda t: any(isinstance(n, ast.Call) and ast.unparse(n.func) == "len" for n in t),
    "__contains__": lambda t: any(isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.In) for n in t),
    "__hash__": lambda t: any(isinstance(n, ast.Call) and ast.unparse(n.func) == "hash" for n in t),
    "__eq__": lambda t: any(isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.Eq) for n in t),
    "__init_subclass__": lambda t: any(isinstance(n, ast.ClassDef) and n.bases for n in t),
    "__class_getitem__": lambda t: any(isinstance(n, ast.Subscript) for n in t),
    "__new__": lambda t: any(isinstance(n, ast.Call) for n in t),
    "__post_init__": lambda t: any(isinstance(n, ast.Call) for n in t),
}
_SAID = re.compile(r"^[A-Z][^(]*? \(`([^`]+)`\), which runs `([^`]+)`")


def _class_of(
    tree: ast.Module, line: int
) -> tuple[ast.ClassDef, ast.FunctionDef | ast.AsyncFunctionDef] | None:
    """The class whose method holds ``line``: defined in its body, or in an ``if``/``try`` block
    there (``if not TYPE_CHECKING:``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        pending: list[ast.stmt] = list(node.body)
        while pending:
            item = pending.pop()
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                if item.lineno <= line <= (item.end_lineno or item.lineno):
                    return node, item
            elif isinstance(item, ast.If | ast.Try):
                pending += [*item.body, *item.orelse, *getattr(item, "finalbody", [])]
    return None


def test_a_special_method_is_said_as_the_statement_that_runs_it(
    mined: list[tuple[Path, Path, Record]],
) -> None:
    checked, ran, wrong = 0, 0, []
    for _, path, record in mined:
        m = _SAID.match(record.trigger_scenarios)
        if m is None:
            continue
        code, function = m.groups()
        owner, _, method = function.rpartition(".")
        found = _class_of(ast.parse(path.read_bytes()), record.line_number)
        if found is None or found[0].name != owner.rpartition(".")[2] or found[1].name != method:
            wrong.append(f"{record.file_path}:{record.line_number}: no method {function} holds the raise")
            continue
        try:
            nodes = list(ast.walk(ast.parse(code)))
        except SyntaxError:
            wrong.append(f"{record.file_path}:{record.line_number}: {code!r} is no Python")
            continue
        runs = _RUNS.get(method)
        if runs is not None:
            ran += 1
            if not runs(nodes):
                wrong.append(f"{record.file_path}:{record.line_number}: {code!r} does not run {method}")
        if record.documentation and f"`{code}`" not in record.documentation:
            wrong.append(f"{record.file_path}:{record.line_number}: documentation does not say {code!r}")
        checked += 1
    assert checked >= 5, f"only {checked} raises in special methods said as a statement"
    assert ran >= 5, f"only {ran} of them checked to run their method"
    assert not wrong, "\n".join(wrong)


_PASSES = re.compile(r"`([\w.]+)` passes its own (.+?) on to it unchanged\.")
_PASSED = re.compile(r"`(\w+)`(?: as `(\w+)`)?")


def _arguments(
    call: ast.Call, callee: ast.FunctionDef | ast.AsyncFunctionDef, implicit: int
) -> dict[str, ast.expr]:
    """The argument of each parameter of ``callee`` that ``call`` gives one, as Python binds it."""
    params = [a.arg for a in callee.args.posonlyargs + callee.args.args][implicit:]
    out: dict[str, ast.expr] = {}
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred) or i >= len(params):
            break
        out[params[i]] = arg
    for keyword in call.keywords:
        if keyword.arg is not None:
            out[keyword.arg] = keyword.value
    return out


def _assigned_before(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, line: int) -> bool:
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.NamedExpr):
            targets = [node.target]
        for target in targets:
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)) and node.lineno < line:
                return True
    return False


def test_what_a_public_call_passes_on_is_what_its_source_passes(
    mined: list[tuple[Path, Path, Record]],
) -> None:
    checked, wrong = 0, []
    for root, path, record in mined:
        m = _PASSES.search(record.documentation)
        if m is None:
            continue
        entry = record.facts.entry_points[0]
        assert (entry.name or entry.function) == m.group(1)
        callee = definition(path, record.function, record.line_number)
        caller_path = root / entry.file_path.removeprefix("Lib/")
        caller = definition(caller_path, entry.function, entry.line_number)
        assert callee is not None and caller is not None, record.id
        own = {a.arg for a in caller.args.posonlyargs + caller.args.args + caller.args.kwonlyargs}
        short = (record.function or "").removesuffix(".__init__").rpartition(".")[2]
        calls = [
            n
            for n in ast.walk(caller)
            if isinstance(n, ast.Call) and ast.unparse(n.func).rpartition(".")[2] == short
        ]
        # A method's receiver binds its first parameter; a module function's ``cls`` is passed.
        static = any(ast.unparse(d) == "staticmethod" for d in callee.decorator_list)
        implicit = 1 if "." in (record.function or "") and callee.args.args and not static else 0
        where = f"{record.file_path}:{record.line_number} via {entry.function}"
        if not calls:
            wrong.append(f"{where}: no call of {short} in {entry.function}")
            continue
        for passed in _PASSED.finditer(m.group(2)):
            name, param = passed.group(1), passed.group(2) or passed.group(1)
            for call in calls:
                arg = _arguments(call, callee, implicit).get(param)
                if not (isinstance(arg, ast.Name) and arg.id == name):
                    wrong.append(f"{where}: line {call.lineno} does not pass {name} as {param}")
                elif name not in own or _assigned_before(caller, name, call.lineno):
                    wrong.append(f"{where}: {name} is not {entry.function}'s own unchanged parameter")
            checked += 1
    assert checked >= 10, f"only {checked} arguments said to be passed on"
    assert not wrong, "\n".join(wrong)


def test_a_generator_function_is_said_to_raise_when_iterated(mined: list[tuple[Path, Path, Record]]) -> None:
    checked, wrong = 0, []
    for _, path, record in mined:
        if "is a generator function" not in record.trigger_scenarios:
            continue
        function = definition(path, record.function, record.line_number)
        assert function is not None, record.id
        pending: list[ast.AST] = list(function.body)
        yields = False
        while pending:
            node = pending.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                continue
            yields = yields or isinstance(node, ast.Yield | ast.YieldFrom)
            pending.extend(ast.iter_child_nodes(node))
        if not yields:
            wrong.append(f"{record.file_path}:{record.line_number}: {record.function} does not yield")
        checked += 1
    assert checked >= 3, f"only {checked} generator functions"
    assert not wrong, "\n".join(wrong)


_SENTINEL = re.compile(r"`(\w+)` is (?:not )?passed \((?:it defaults to|its default is) `([^`]+)`\)")


def test_a_sentinel_default_is_the_parameters_own_default(mined: list[tuple[Path, Path, Record]]) -> None:
    checked, wrong = 0, []
    for _, path, record in mined:
        for m in _SENTINEL.finditer(record.documentation):
            name, default = m.groups()
            function = definition(path, record.function, record.line_number)
            assert function is not None, record.id
            args = function.args
            positional = args.posonlyargs + args.args
            defaults = dict(
                zip(
                    [a.arg for a in positional[len(positional) - len(args.defaults) :]],
                    args.defaults,
                    strict=True,
                )
            )
            defaults |= {
                a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
            }
            if name not in defaults or ast.unparse(defaults[name]) != default:
                wrong.append(f"{record.file_path}:{record.line_number}: {name} does not default to {default}")
            checked += 1
    assert checked >= 10, f"only {checked} parameters said to be passed or not"
    assert not wrong, "\n".join(wrong)


def _own_arguments(call: ast.Call, caller: ast.FunctionDef, names: list[str], implicit: int = 0) -> bool:
    """Whether ``call`` gives each of ``names`` (the callee's parameters, in order) one of the
    caller's own parameters or a literal."""
    own = {a.arg for a in caller.args.posonlyargs + caller.args.args + caller.args.kwonlyargs}
    given = dict(zip(names[implicit:], call.args, strict=False)) | {
        k.arg: k.value for k in call.keywords if k.arg
    }
    return all(
        isinstance(v, ast.Constant) or (isinstance(v, ast.Name) and v.id in own) for v in given.values()
    )


def test_callers_cited_for_an_argument_check_pass_the_argument_on(
    pypi_package: Callable[..., Path], tmp_path: Path
) -> None:
    """networkx's approximate connectivity: ``local_node_connectivity`` raises when source and
    target are one node.  ``node_connectivity`` passes its own ``s`` and ``t`` on (and, in a
    loop, nodes it picks); ``all_pairs_node_connectivity`` only pairs of distinct nodes it
    picks itself: the first is cited, at the call that passes its arguments, the second not."""
    source = pypi_package("networkx", "3.4.2") / "networkx/algorithms/approximation/connectivity.py"
    shutil.copy(source, tmp_path / "connectivity.py")
    records = enrich(mine(tmp_path, repo="pypi/networkx", sha="0" * 40, jobs=1).records)
    (record,) = [r for r in records if r.error_message == "source and target have to be different nodes."]
    tree = ast.parse(source.read_bytes())
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    params = [a.arg for a in functions["local_node_connectivity"].args.args]
    assert record.facts.callers, "no caller cited"
    for caller in record.facts.callers:
        function = functions[caller.function]
        at_line = [
            n
            for n in ast.walk(function)
            if isinstance(n, ast.Call)
            and ast.unparse(n.func) == "local_node_connectivity"
            and n.lineno == caller.line_number
        ]
        assert at_line and all(_own_arguments(c, function, params) for c in at_line), caller
    assert "all_pairs_node_connectivity" not in {c.function for c in record.facts.callers}


def test_what_is_passed_on_is_read_for_each_raise_of_a_function(tmp_path: Path) -> None:
    """asyncio's ``BaseEventLoop._check_sendfile_params`` raises on ``file``, on ``count`` and on
    ``offset``; ``sock_sendfile`` passes all of them on.  Each raise says what is passed on of
    the parameter its own test reads, not only what the first raise of the function read."""
    source = Path(sysconfig.get_paths()["stdlib"]) / "asyncio" / "base_events.py"
    shutil.copy(source, tmp_path / "base_events.py")
    records = enrich(mine(tmp_path, repo="python/cpython", sha="0" * 40, jobs=1).records)
    checks = [r for r in records if r.function == "BaseEventLoop._check_sendfile_params"]
    tree = ast.parse(source.read_bytes())
    (caller,) = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.AsyncFunctionDef | ast.FunctionDef) and n.name == "sock_sendfile"
    ]
    (call,) = [
        n
        for n in ast.walk(caller)
        if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("_check_sendfile_params")
    ]
    passed = {a.id for a in call.args if isinstance(a, ast.Name)}
    checked = 0
    for record in checks:
        tested = {
            n for g in record.facts.guards if g.kind in ("if", "elif", "else") for n in g.names
        } & passed
        if not tested:
            continue
        entry = next(e for e in record.facts.entry_points if e.function == "BaseEventLoop.sock_sendfile")
        assert tested <= entry.passes.keys(), (record.error_message, entry.passes)
        checked += 1
    assert checked >= 3, checked
