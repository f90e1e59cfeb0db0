"""Who reaches a raise, on real packages: every caller and every cited test, checked by a
second reading of the same files (``tests/call_checker.py``, its own ``ast`` pass).

A caller errdex names must call the raising function at the line it gives, by what the file's
own names say (an import, a definition, ``self``, or an object of a class the file imports),
not by a function of the same name elsewhere; it must not pass values (or leave defaults) under
which the raise's own ``if`` fails.  A cited test must expect the class, and either its pattern
fits the message or it calls the raising function, which raises that class once.
"""

from __future__ import annotations

import ast
import functools
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from call_checker import Checker, pattern_fits
from errdex.mine import mine
from errdex.record import Record

pytestmark = pytest.mark.pypi

SHA = "9fed5c27d2a62ff0efd6c3573599921d6ff67c14"
#: Standard library modules of the graded sample and the modules that call into them.
STDLIB = (
    "tarfile.py", "shutil.py", "zipapp.py", "ssl.py", "ftplib.py", "imaplib.py", "poplib.py",
    "smtplib.py", "subprocess.py", "bdb.py", "doctest.py", "zipfile.py", "gzip.py",
)  # fmt: skip


@dataclass
class Mined:
    checker: Checker
    records: list[Record]


@pytest.fixture(scope="module")
def packages(pypi_package: Callable[..., Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Mined]:
    out = {}
    for name, version in (("networkx", "3.4.2"), ("sqlalchemy", "2.0.36"), ("lightning", "2.6.6")):
        root = pypi_package(name, version)
        out[name] = Mined(Checker.read(root), mine(root, repo=f"pypi/{name}", sha=SHA, jobs=2).records)
    lib = tmp_path_factory.mktemp("lib")
    for module in STDLIB:
        shutil.copy(Path(subprocess.__file__).parent / module, lib / module)
    records = mine(lib, repo="python/cpython", sha=SHA, path_prefix="Lib/", jobs=2).records
    out["python"] = Mined(Checker.read(lib, "Lib/"), records)
    return out


def test_every_caller_calls_the_raising_function(packages: dict[str, Mined]) -> None:
    verdicts: Counter[str] = Counter()
    for package, mined in packages.items():
        for record in mined.records:
            for caller in record.facts.callers:
                verdict = mined.checker.caller(
                    caller.file_path,
                    caller.function,
                    caller.line_number,
                    record.file_path,
                    record.function or "",
                )
                assert verdict != "false", (package, record.function, record.file_path, caller)
                verdicts[verdict] += 1
    print("callers by how the checker resolves them:", dict(verdicts))
    # Most are resolved by names alone; calls on objects of a class the file imports are the rest.
    assert verdicts["resolved"] + verdicts["self"] > 2 * verdicts["object"] > 0


# -- arguments against the raise's own ``if`` -------------------------------------------------


_UNKNOWN: Any = object()


def _tests_around(
    function: ast.FunctionDef | ast.AsyncFunctionDef, line: int
) -> Iterator[tuple[ast.expr, bool]]:
    """The ``if`` tests the statement at ``line`` stands under, and whether each must hold."""

    def walk(body: list[ast.stmt], held: list[tuple[ast.expr, bool]]) -> Iterator[tuple[ast.expr, bool]]:
        for stmt in body:
            if not stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
                continue
            if stmt.lineno == line:
                yield from held
                return
            if isinstance(stmt, ast.If):
                in_body = stmt.body and stmt.body[0].lineno <= line <= (stmt.body[-1].end_lineno or 0)
                yield from walk(stmt.body if in_body else stmt.orelse, [*held, (stmt.test, bool(in_body))])
            elif not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                for child in ("body", "orelse", "finalbody"):
                    yield from walk(getattr(stmt, child, []), held)
                for handler in getattr(stmt, "handlers", []):
                    yield from walk(handler.body, held)

    yield from walk(function.body, [])


def _value(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return _UNKNOWN


def _outcome(test: ast.expr, name: str, value: Any) -> bool | None:
    """``test`` under ``name = value``, for the simple tests on one name; None otherwise."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    core = test.operand if negated else test  # type: ignore[attr-defined]
    if isinstance(core, ast.Name) and core.id == name:
        result = bool(value)
    elif (
        isinstance(core, ast.Compare)
        and isinstance(core.left, ast.Name)
        and core.left.id == name
        and len(core.ops) == 1
        and isinstance(core.comparators[0], ast.Constant)
        and core.comparators[0].value is None
        and isinstance(core.ops[0], ast.Is | ast.IsNot)
    ):
        result = (value is None) == isinstance(core.ops[0], ast.Is)
    else:
        return None
    return not result if negated else result


def _passed(
    call: ast.Call, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, implicit: int
) -> Any:
    """The value ``call`` gives parameter ``name``: a literal keyword, a literal positional, or
    the literal default of a parameter it does not pass."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return _value(keyword.value)
        if keyword.arg is None:
            return _UNKNOWN
    positional = [a.arg for a in function.args.posonlyargs + function.args.args][implicit:]
    if any(isinstance(a, ast.Starred) for a in call.args):
        return _UNKNOWN
    if name in positional and positional.index(name) < len(call.args):
        return _value(call.args[positional.index(name)])
    every = function.args.posonlyargs + function.args.args
    defaults = dict(
        zip(
            [a.arg for a in every][len(every) - len(function.args.defaults) :],
            function.args.defaults,
            strict=True,
        )
    )
    defaults.update(
        {a.arg: d for a, d in zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True) if d}
    )
    return _value(defaults[name]) if name in defaults else _UNKNOWN


def _called_name(function: str) -> str:
    """The name code calls a function by: a constructor by its class."""
    parts = function.split(".")
    return parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1]


def test_no_caller_passes_values_under_which_the_raise_cannot_run(packages: dict[str, Mined]) -> None:
    checked = 0
    for mined in packages.values():
        checker = mined.checker
        for record in mined.records:
            function = checker.def_at(record.file_path, record.function or "", record.line_number)
            if function is None or function.decorator_list or not record.facts.callers:
                continue
            assigned = {
                n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
            params = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)} - assigned
            tests = [(t, must) for t, must in _tests_around(function, record.line_number)]
            for caller in record.facts.callers:
                node = checker.def_at(caller.file_path, caller.function, caller.line_number)
                called = _called_name(record.function or "")
                calls = [
                    c
                    for c in (ast.walk(node) if node is not None else ())
                    if isinstance(c, ast.Call)
                    and (c.func.end_lineno or c.lineno) == caller.line_number
                    and ast.unparse(c.func).rpartition(".")[2] == called
                ]
                method = "." in (record.function or "").replace(".<locals>.", "#")
                for call in calls:
                    implicit = int(
                        method
                        and (isinstance(call.func, ast.Attribute) or record.function.endswith("__init__"))
                    )
                    for test, must in tests:
                        for name in params & {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}:
                            value = _passed(call, function, name, implicit)
                            if value is _UNKNOWN:
                                continue
                            outcome = _outcome(test, name, value)
                            if outcome is None:
                                continue
                            checked += 1
                            assert outcome == must, (
                                record.function,
                                record.line_number,
                                caller,
                                ast.unparse(test),
                            )
    assert checked > 20


# -- tests -----------------------------------------------------------------------------------


def test_cited_tests_expect_the_error_and_call_the_raising_function(packages: dict[str, Mined]) -> None:
    by_match = by_call = 0
    for package, mined in packages.items():
        checker = mined.checker
        for record in mined.records:
            for test in record.facts.tests:
                expected = checker.expectation(test.file_path, test.line_number)
                assert expected is not None, (package, test)
                name, pattern = expected
                assert name == (record.error_class or "").rpartition(".")[2], (record.error_class, test)
                if test.match is not None:
                    if isinstance(pattern, ast.Constant):
                        assert pattern.value == test.match
                    assert pattern_fits(test.match, record.message_pattern), (record.error_message, test)
                    by_match += 1
                    continue
                calls = checker.call_in(
                    test.file_path, test.line_number, record.file_path, record.function or ""
                )
                assert calls, (record.function, record.file_path, test)
                assert test.call in calls, (test, calls)
                raises = checker.raises_of(record.file_path, record.function or "", name)
                assert raises <= 1, (record.function, test)
                by_call += 1
    print("tests cited by their pattern:", by_match, "by their call:", by_call)
    assert by_match > 50 and by_call > 20


# -- the graded sample's false sentences --------------------------------------------------------


def _record(mined: Mined, path: str, function: str, message: str) -> Record:
    return next(
        r
        for r in mined.records
        if r.file_path == path and r.function == function and r.error_message.startswith(message)
    )


def _callers(record: Record) -> set[str]:
    return {f"{c.file_path}:{c.function}" for c in record.facts.callers}


def test_the_graded_false_callers_and_tests_are_gone(packages: dict[str, Mined]) -> None:
    python, sqlalchemy = packages["python"], packages["sqlalchemy"]
    lightning, networkx = packages["lightning"], packages["networkx"]
    # shutil and zipapp call ``shutil.copyfileobj``, their own; ``TarFile.addfile`` calls tarfile's.
    copy = _record(python, "Lib/tarfile.py", "copyfileobj", "unexpected end of data")
    assert "Lib/tarfile.py:TarFile.addfile" in _callers(copy)
    assert not any(c.startswith(("Lib/shutil.py", "Lib/zipapp.py")) for c in _callers(copy))
    # The SSL callers call ``SSLContext.wrap_socket``, not the deprecated module function.
    if (Path(subprocess.__file__).parent / "ssl.py").read_text().count("\ndef wrap_socket(") == 1:
        wrap = _record(python, "Lib/ssl.py", "wrap_socket", "certfile must be specified")
        assert _callers(wrap) == set()
    # ``bdb`` and ``doctest`` call ``run`` methods of their own; ``check_output`` calls this one.
    run = _record(python, "Lib/subprocess.py", "run", "stdout and stderr arguments may not be used")
    assert _callers(run) == {"Lib/subprocess.py:check_output"}
    # ``put_nowait`` passes ``block=False``: ``put`` raises on a negative timeout only when blocking.
    put = _record(sqlalchemy, "sqlalchemy/util/queue.py", "Queue.put", "'timeout' must be a positive number")
    assert _callers(put) == set()
    # Fabric's strategy rejects ``storage_options``: ``Fabric.save`` passes none, and the
    # trainer calls the ``lightning.pytorch`` strategies, which never import this class.
    save = _record(
        lightning,
        "lightning/fabric/strategies/model_parallel.py",
        "ModelParallelStrategy.save_checkpoint",
        "`",
    )
    assert _callers(save) == set()
    # The callback connector builds ``RichModelSummary()`` only ``if _RICH_AVAILABLE``.
    rich = _record(
        lightning,
        "lightning/pytorch/callbacks/rich_model_summary.py",
        "RichModelSummary.__init__",
        "`RichModel",
    )
    assert _callers(rich) == set()
    # The published example: ``LightningModule`` calls ``self._fabric.backward`` (it imports
    # ``lightning.fabric``).
    backward = _record(
        lightning, "lightning/fabric/fabric.py", "Fabric.backward", "When using multiple models"
    )
    assert "lightning/pytorch/core/module.py:LightningModule.manual_backward" in _callers(backward)
    # ``connectivity/connectivity.py`` calls the exact algorithm of the same name, its own import.
    approx = _record(
        networkx,
        "networkx/algorithms/approximation/connectivity.py",
        "local_node_connectivity",
        "source and target",
    )
    assert all(c.startswith("networkx/algorithms/approximation/") for c in _callers(approx))
    assert [t.call for t in approx.facts.tests] == ["approx.local_node_connectivity(G, 0, 0)"]
    # The test's call is the call of ``simple_cycles`` in the block, not its first statement.
    cycles = _record(
        networkx, "networkx/algorithms/cycles.py", "simple_cycles", "length bound must be non-negative"
    )
    assert {t.call for t in cycles.facts.tests} == {"nx.simple_cycles(G, -1)"}


def _enclosing_class(tree: ast.Module, line: int) -> str | None:
    """The innermost class whose body holds ``line``, read with ``ast``."""
    classes = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    return max(classes, key=lambda c: c.lineno).name if classes else None


@functools.cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _named_for(receiver: str, owner: str) -> bool:
    """Whether the object a call is made on is named for the class ``owner`` (``ctx`` is not
    a ``Connection``; ``connection``, ``conn`` and ``self._connection`` may be)."""
    last = receiver.rpartition(".")[2].strip("_").lower()
    words = {w.lower() for w in re.findall(r"[A-Z][a-z0-9]*|[a-z0-9]+", owner)}
    return last in words or last.replace("_", "") == owner.lower()


def test_a_method_helper_elsewhere_is_called_on_its_own_object_or_one_named_for_its_class(
    packages: dict[str, Mined], tmp_path: Path
) -> None:
    """A call found by name is a raise helper's only where it can be one: a DB-API
    ``cursor.execute("COMMIT")`` in a dialect is no call of SQLAlchemy's ``Connection.execute``,
    whose ``except AttributeError`` raises ObjectNotExecutableError with the statement; the
    commands of the standard library's ``distutils`` call their base's ``self.warn(...)``."""
    distutils = Path(subprocess.__file__).parent / "distutils"
    shutil.copytree(distutils, tmp_path / "distutils", ignore=shutil.ignore_patterns("tests"))
    stdlib = mine(tmp_path, repo="python/cpython", sha=SHA, path_prefix="Lib/", jobs=2).records
    checked = 0
    for root, prefix, records in (
        (packages["sqlalchemy"].checker.root, "", packages["sqlalchemy"].records),
        (tmp_path, "Lib/", stdlib),
    ):
        for record in records:
            for site in record.sites:
                if site.kind != "helper" or site.via_file_path is None or site.via_line_number is None:
                    continue
                if site.via_file_path == site.file_path:
                    continue  # a helper of the same module: any call of it there is one
                helper_file = _parsed(root / site.via_file_path.removeprefix(prefix))
                owner = _enclosing_class(helper_file, site.via_line_number)
                if owner is None:
                    continue  # a module function, called by its name
                receivers = [
                    ast.unparse(call.func.value)
                    for call in ast.walk(_parsed(root / site.file_path.removeprefix(prefix)))
                    if isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.lineno <= site.line_number <= (call.end_lineno or call.lineno)
                ]
                assert receivers, (record.id, site)
                assert any(r in ("self", "cls") or _named_for(r, owner) for r in receivers), (
                    record.id,
                    site,
                    receivers,
                    owner,
                )
                checked += 1
    assert checked > 10
    dialects = [
        (r.file_path, r.line_number)
        for r in packages["sqlalchemy"].records
        if r.file_path.startswith("sqlalchemy/dialects/")
        and (r.error_class or "").endswith("NotExecutableError")
    ]
    assert not dialects, dialects
