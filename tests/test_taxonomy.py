"""Families, tags and handling strategies on real records: on whole words and on evidence.

A family about one kind of library (an ORM's) goes only to records in such a library, and
``retry`` only to failures that are transient (timeouts, refused or reset connections, rate
limits, 503), never to a class whose name merely holds "Network" or "Connection".
"""

from __future__ import annotations

import ast
import builtins
import re
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from errdex.enrich import enrich
from errdex.enrich.taxonomy import FAMILIES, ORM, Place, classify, words
from errdex.mine import mine
from errdex.record import Record

pytestmark = pytest.mark.pypi

SHA = "0" * 40
#: The families whose vocabulary tag is ``database``: ORM mapping, SQL, sessions, results.
DATABASE = {f.tag for f in FAMILIES if f.kind == "database"}


def split_identifier(name: str) -> list[str]:
    """An identifier's words as the rules read them (``words``), without the separators."""
    return [w for w in re.split(r"[\W_]+", words(name)) if w]


def _mined(root: Path, repo: str, path_prefix: str = "") -> list[Record]:
    return enrich(mine(root, repo=repo, sha=SHA, path_prefix=path_prefix, jobs=2).records)


def _copied(tmp: Path, root: Path, parts: Iterable[str]) -> Path:
    """The files or folders ``parts`` of ``root`` copied under ``tmp``: a small tree to mine."""
    for part in parts:
        source, target = root / part, tmp / part
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target)
    return tmp


def _stdlib(tmp: Path, parts: Iterable[str]) -> list[Record]:
    """This interpreter's standard library files ``parts``, mined as CPython lays them out:
    each record's ``file_path`` (``Lib/zipfile.py``) is then a path under ``tmp``."""
    lib = _copied(tmp / "Lib", Path(shutil.__file__).parent, parts)
    return _mined(lib, "python/cpython", "Lib/")


# -- an independent reading of the guards: this file's own ast pass, not errdex's ----------------


def _path_to(
    source: str, line: int
) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, list[tuple[ast.expr, bool]]]:
    """The function around the statement on ``line`` and the ``if`` tests on the way to it,
    each with the truth it has there (False in an ``else``, or after ``if t: raise``)."""

    def walk(
        body: list[ast.stmt],
        tests: list[tuple[ast.expr, bool]],
        function: ast.FunctionDef | ast.AsyncFunctionDef | None,
    ) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, list[tuple[ast.expr, bool]]]:
        for node in body:
            end = node.end_lineno or node.lineno
            if end < line:
                if (
                    isinstance(node, ast.If)
                    and not node.orelse
                    and isinstance(node.body[-1], ast.Raise | ast.Return)
                ):
                    tests = [*tests, (node.test, False)]
                continue
            if node.lineno > line:
                break
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return walk(node.body, [], node)
            if isinstance(node, ast.ClassDef):
                return walk(node.body, [], None)
            if isinstance(node, ast.If) and node.test.lineno <= line <= (node.test.end_lineno or 0):
                return function, tests
            if isinstance(node, ast.If):
                inside = node.body[0].lineno <= line <= (node.body[-1].end_lineno or 0)
                return walk(node.body if inside else node.orelse, [*tests, (node.test, inside)], function)
            blocks = [getattr(node, name, []) for name in ("body", "orelse", "finalbody")]
            blocks += [h.body for h in getattr(node, "handlers", [])]
            for block in blocks:
                if block and block[0].lineno <= line <= (block[-1].end_lineno or 0):
                    return walk(block, tests, function)
            return function, tests
        return function, tests

    return walk(ast.parse(source).body, [], None)


def _tests_not_given(test: ast.expr, truth: bool, parameters: set[str]) -> set[str]:
    """The parameters that ``test`` having ``truth`` says are None or not passed."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And if truth else ast.Or):
        return set().union(*(_tests_not_given(v, truth, parameters) for v in test.values))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _tests_not_given(test.operand, not truth, parameters)
    if isinstance(test, ast.Name) and not truth:
        return {test.id} & parameters
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name):
        none = isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None
        is_none = isinstance(test.ops[0], ast.Is) == truth and isinstance(test.ops[0], ast.Is | ast.IsNot)
        if none and is_none:
            return {test.left.id} & parameters
    return set()


def _guard_tests_a_parameter_not_given(root: Path, record: Record) -> bool:
    function, tests = _path_to((root / record.file_path).read_text(encoding="utf-8"), record.line_number)
    if function is None:
        return False
    arguments = function.args
    every = [
        *arguments.posonlyargs,
        *arguments.args,
        *arguments.kwonlyargs,
        arguments.vararg,
        arguments.kwarg,
    ]
    parameters = {a.arg for a in every if a is not None} - {"self", "cls"}
    return any(_tests_not_given(test, truth, parameters) for test, truth in tests)


def _class_ancestors(files: Iterable[Path]) -> dict[str, set[str]]:
    """Each class defined in ``files``, by name, with the names of all its bases (read with ast)."""
    bases: dict[str, set[str]] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {ast.unparse(b).rpartition(".")[2] for b in node.bases}
    ancestors: dict[str, set[str]] = {}
    for name in bases:
        seen, pending = set(), list(bases[name])
        while pending:
            base = pending.pop()
            if base not in seen:
                seen.add(base)
                pending += bases.get(base, set())
        ancestors[name] = seen
    return ancestors


@pytest.fixture(scope="module")
def networkx(pypi_package: Callable[..., Path]) -> list[Record]:
    return _mined(pypi_package("networkx", "3.4.2"), "networkx/networkx")


@pytest.fixture(scope="module")
def sqlalchemy(pypi_package: Callable[..., Path]) -> list[Record]:
    return _mined(pypi_package("sqlalchemy", "2.0.36"), "sqlalchemy/sqlalchemy")


@pytest.fixture(scope="module")
def http_clients(pypi_package: Callable[..., Path]) -> list[Record]:
    return _mined(pypi_package("requests", "2.32.3"), "psf/requests") + _mined(
        pypi_package("urllib3", "2.3.0"), "urllib3/urllib3"
    )


def _database(record: Record) -> bool:
    return record.background_tag in DATABASE or "database" in record.tags


def test_identifiers_are_read_as_their_words() -> None:
    assert split_identifier("NetworkXError") == ["networkx", "error"]
    assert split_identifier("ConnectionRefusedError") == ["connection", "refused", "error"]
    assert split_identifier("IPv4NetworkError") == ["ipv4", "network", "error"]
    assert split_identifier("HTTPError") == ["http", "error"]
    assert split_identifier("_TORCH_AVAILABLE") == ["torch", "available"]
    condition = "isinstance(self._strategy, DeepSpeedStrategy)"
    assert words(condition) == "isinstance(self._strategy, deepspeed strategy)"
    # A rule matches whole words: "orm" is not in "normalized" or "format", even in an ORM.
    in_orm = Place(("sqlalchemy.orm.base",))
    assert ORM.modules and in_orm.within(ORM)
    found = classify("keys must be normalized to the format {fmt}", "ValueError", [], in_orm)
    assert found is None or found.tag not in DATABASE
    mapped = classify("Class '{name}' is not mapped", "UnmappedInstanceError", [], in_orm)
    assert mapped is not None and mapped.tag == "orm-mapping-error" and "library" in mapped.evidence
    # The same words outside an ORM library: no ORM family.
    elsewhere = classify("Class '{name}' is not mapped", "UnmappedInstanceError", [], Place(("mylib.core",)))
    assert elsewhere is None or elsewhere.tag not in DATABASE


def test_networkx_errors_are_no_network_failure_and_no_orm_error(networkx: list[Record]) -> None:
    named = [r for r in networkx if "NetworkX" in (r.error_class or "")]
    assert len(named) > 300  # nx.NetworkXError, NetworkXNoPath, NetworkXUnfeasible ...
    assert [r for r in networkx if r.handling_strategy == "retry"] == []
    formats = [r for r in networkx if re.search(r"format|normali[sz]", r.error_message, re.IGNORECASE)]
    assert formats  # "Unknown sparse array format: {format}", "timeformat should be ..."
    assert [r.error_message for r in networkx if _database(r)] == []
    # The graph library's own family is still given, on its words.
    graph = [r for r in networkx if r.background_tag == "graph-structure"]
    assert graph and all("library" in r.provenance["backgroundTag"][-1] for r in graph)


def test_stdlib_and_click_messages_with_format_or_normalized_get_no_orm_family(
    tmp_path: Path, pypi_package: Callable[..., Path]
) -> None:
    lib = Path(shutil.__file__).parent
    for name in ("zoneinfo", "json", "email"):
        shutil.copytree(lib / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(lib / "ipaddress.py", tmp_path / "ipaddress.py")
    stdlib = _mined(tmp_path, "python/cpython", path_prefix="Lib/")
    click = _mined(pypi_package("click", "8.1.8"), "pallets/click")
    normalized = [r for r in stdlib if "normalized" in r.error_message]
    assert normalized  # zoneinfo: "ZoneInfo keys must be normalized relative paths, got: {path}"
    formats = [r for r in stdlib + click if "format" in r.error_message]
    assert len(formats) >= 5  # click's BadParameter "... does not match the format {formats_str}."
    assert [r.error_message for r in stdlib + click if _database(r)] == []
    assert [r.error_class for r in stdlib + click if r.handling_strategy == "retry"] == []
    # click is a command line library: its usage errors keep their family there, and only there.
    assert any(r.background_tag == "cli-usage-error" for r in click)
    assert not any(r.background_tag == "cli-usage-error" for r in stdlib)


def test_sqlalchemy_mapping_errors_keep_their_orm_family(sqlalchemy: list[Record]) -> None:
    unmapped = [
        r
        for r in sqlalchemy
        if re.search(r"Unmapped(Instance|Class)Error$", r.qualified_class or "")
        and "is not mapped" in r.error_message
    ]
    assert unmapped  # orm/base.py: "Class '{_safe_cls_name(type(obj))}' is not mapped"
    assert {r.background_tag for r in unmapped} == {"orm-mapping-error"}
    assert all(r.tags == ["sqlalchemy", "database"] for r in unmapped)
    # Most records of sqlalchemy/orm that speak of mappers and mapped classes are ORM errors.
    speaking = [
        r
        for r in sqlalchemy
        if r.file_path.startswith("sqlalchemy/orm/") and re.search(r"\b(mapper|mapped)\b", r.error_message)
    ]
    orm = [r for r in speaking if r.background_tag == "orm-mapping-error"]
    assert len(speaking) >= 20 and len(orm) >= len(speaking) // 2
    # The pool's timeout is a transient failure; its argument errors are not.
    timeouts = [r for r in sqlalchemy if r.qualified_class == "sqlalchemy.exc.TimeoutError"]
    assert timeouts and all(r.handling_strategy == "retry" for r in timeouts)
    assert not any(r.handling_strategy == "retry" for r in sqlalchemy if r.error_class == "ValueError")


def test_django_orm_families_only_in_django_db(tmp_path: Path, pypi_package: Callable[..., Path]) -> None:
    django = pypi_package("django", "5.1.4") / "django"
    for part in ("db/models", "forms", "http"):
        shutil.copytree(django / part, tmp_path / "django" / part)
    records = _mined(tmp_path, "django/django")
    assert {r.file_path.split("/")[1] for r in records} == {"db", "forms", "http"}
    database = [r for r in records if _database(r)]
    assert database  # "Cannot resolve keyword ... into field", the related descriptors' errors
    assert {r.file_path.split("/")[1] for r in database} == {"db"}


def test_timeouts_and_connection_errors_of_http_clients_are_retried(http_clients: list[Record]) -> None:
    by_class: dict[str, list[Record]] = {}
    for record in http_clients:
        by_class.setdefault((record.error_class or "").rpartition(".")[2], []).append(record)
    transient = ("ConnectTimeout", "ReadTimeout", "ReadTimeoutError", "ConnectTimeoutError")
    for cls in (*transient, "NewConnectionError"):
        assert by_class[cls] and all(r.handling_strategy == "retry" for r in by_class[cls]), cls
    requests_connection = [r for r in by_class["ConnectionError"] if r.file_path.startswith("requests/")]
    assert requests_connection and all(r.handling_strategy == "retry" for r in requests_connection)
    assert all(r.provenance["handlingStrategy"] == ["class", "module"] for r in requests_connection)
    # Not transient: a bad timeout value, a timer started twice, a call out of order.
    assert by_class["TimeoutStateError"]
    assert not any(r.handling_strategy == "retry" for r in by_class["TimeoutStateError"])
    bad_values = [r for r in by_class["ValueError"] if "timeout" in r.error_message.lower()]
    assert bad_values and not any(r.handling_strategy == "retry" for r in bad_values)
    out_of_order = [r for r in by_class["ConnectionError"] if "first" in r.error_message]
    assert out_of_order and not any(r.handling_strategy == "retry" for r in out_of_order)


def test_a_validation_library_network_class_is_not_retried(pypi_package: Callable[..., Path]) -> None:
    records = _mined(pypi_package("pydantic", "2.10.4"), "pydantic/pydantic")
    network = [r for r in records if "NetworkError" in (r.error_class or "")]
    assert network  # errors.IPv4NetworkError: an IP network that does not validate
    assert [r.error_class for r in records if r.handling_strategy == "retry"] == []


def test_a_missing_module_is_no_missing_argument_and_a_missing_argument_is(tmp_path: Path) -> None:
    records = _stdlib(tmp_path, ["zipfile.py", "configparser.py", "hmac.py", "argparse.py", "ssl.py"])
    lib = tmp_path
    # zipfile's _check_compression: "Compression requires the (missing) zlib module", under
    # ``if not zlib``, where ``zlib`` is a module the file imports, no parameter.
    (zlib,) = [
        r for r in records if r.file_path.endswith("zipfile.py") and "(missing) zlib" in r.error_message
    ]
    function, tests = _path_to((lib / zlib.file_path).read_text(encoding="utf-8"), zlib.line_number)
    assert function is not None and "zlib" not in {a.arg for a in function.args.args}
    assert any(isinstance(t, ast.UnaryOp) and ast.unparse(t.operand) == "zlib" for t, _ in tests)
    assert not _guard_tests_a_parameter_not_given(lib, zlib)
    assert zlib.background_tag != "missing-required-argument"
    # configparser's read_file(source=None) and hmac's new(key, msg, digestmod=''): a parameter
    # tested as not given, and the message says it is required.
    given = [
        r
        for r in records
        if re.search(
            r"Required argument `source' not given|Missing required parameter 'digestmod'", r.error_message
        )
    ]
    assert len(given) == 2
    for record in given:
        assert _guard_tests_a_parameter_not_given(lib, record), record.error_message
        assert record.background_tag == "missing-required-argument", record.error_message
    # Every record errdex calls a missing argument has a guard that, read here, tests a
    # parameter was not given.
    tagged = [r for r in records if r.background_tag == "missing-required-argument"]
    assert [r.error_message for r in tagged if not _guard_tests_a_parameter_not_given(lib, r)] == []


def test_an_argument_given_with_a_bad_value_is_no_missing_argument(
    tmp_path: Path, pypi_package: Callable[..., Path]
) -> None:
    root = _copied(
        tmp_path,
        pypi_package("lightning", "2.6.6"),
        ["lightning/pytorch/core", "lightning/fabric/strategies"],
    )
    records = _mined(root, "Lightning-AI/pytorch-lightning")
    # core/saving.py: ".csv, .yml or .yaml is required for `hparams_file`", reached only when
    # ``hparams_file is not None``: the argument was given, with another extension.
    (extension,) = [r for r in records if "is required for `hparams_file`" in r.error_message]
    _, tests = _path_to((root / extension.file_path).read_text(encoding="utf-8"), extension.line_number)
    assert ("hparams_file is not None", True) in [(ast.unparse(t), truth) for t, truth in tests]
    assert not _guard_tests_a_parameter_not_given(root, extension)
    assert extension.background_tag != "missing-required-argument"
    tagged = [r for r in records if r.background_tag == "missing-required-argument"]
    assert [r.error_message for r in tagged if not _guard_tests_a_parameter_not_given(root, r)] == []


def test_sql_error_only_for_a_db_api_or_compile_class_or_a_message_about_sql(
    sqlalchemy: list[Record], pypi_package: Callable[..., Path]
) -> None:
    root = pypi_package("sqlalchemy", "2.0.36")
    ancestors = _class_ancestors([root / "sqlalchemy/exc.py", root / "sqlalchemy/orm/exc.py"])
    about_sql = {
        "DBAPIError",
        "StatementError",
        "CompileError",
        "NoSuchTableError",
        "NoSuchColumnError",
        "StaleDataError",
    }

    def sql_class(record: Record) -> bool:
        name = (record.error_class or "").rpartition(".")[2]
        return bool(({name} | ancestors.get(name, set())) & about_sql)

    sql_words = re.compile(r"\b(SQL|INSERT|UPDATE|DELETE|SELECT|statement|execut\w*|rows?)\b", re.IGNORECASE)
    tagged = [r for r in sqlalchemy if r.background_tag == "sql-error"]
    assert tagged
    assert [r.error_message for r in tagged if not (sql_class(r) or sql_words.search(r.error_message))] == []
    # schema.py: redefining a primary-key column is a schema definition error (an
    # ArgumentError); no SQL runs.
    (redefine,) = [
        r for r in sqlalchemy if r.error_message.startswith("Trying to redefine primary-key column")
    ]
    assert redefine.error_class == "exc.ArgumentError" and not sql_class(redefine)
    assert redefine.background_tag != "sql-error"
    # pg8000's server-side cursor: the "message" was the SQL text the cursor runs, no error (its
    # DB-API ``cursor.execute`` is no raise helper: no such record is mined any more).
    pg8000 = [
        r
        for r in sqlalchemy
        if r.file_path.endswith("postgresql/pg8000.py") and "CURSOR FOR" in r.error_message
    ]
    assert not any(r.background_tag == "sql-error" for r in pg8000)
    # The compiler's CompileError: a statement that cannot be compiled into SQL.
    compile_errors = [r for r in sqlalchemy if r.file_path == "sqlalchemy/sql/compiler.py" and sql_class(r)]
    assert len(compile_errors) >= 20
    assert sum(r.background_tag == "sql-error" for r in compile_errors) >= 0.8 * len(compile_errors)


def test_iteration_stopped_only_for_stop_iteration(tmp_path: Path, pypi_package: Callable[..., Path]) -> None:
    root = _copied(tmp_path, pypi_package("pandas", "2.2.3"), ["pandas/plotting", "pandas/io/parsers"])
    records = _mined(root, "pandas-dev/pandas")
    # plotting/_matplotlib/core.py: "subplots should be a bool or an iterable", a bad argument.
    (subplots,) = [r for r in records if r.error_message == "subplots should be a bool or an iterable"]
    assert subplots.background_tag != "iteration-stopped"

    def raises_stop_iteration(record: Record) -> bool:
        source = (root / record.file_path).read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Raise) and node.lineno == record.line_number and node.exc is not None:
                called = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                return ast.unparse(called) in ("StopIteration", "StopAsyncIteration")
        return False

    stopping = [r for r in records if raises_stop_iteration(r)]
    assert stopping and all(r.background_tag == "iteration-stopped" for r in stopping)
    assert [
        r.error_message for r in records if r.background_tag == "iteration-stopped" and r not in stopping
    ] == []


@pytest.fixture(scope="module")
def pydantic(pypi_package: Callable[..., Path]) -> list[Record]:
    return _mined(pypi_package("pydantic", "2.10.4"), "pydantic/pydantic")


def test_io_failure_only_for_an_os_error_or_a_file(
    tmp_path: Path, pydantic: list[Record], sqlalchemy: list[Record]
) -> None:
    stdlib = _stdlib(tmp_path, ["chunk.py", "wave.py", "sysconfig.py", "socket.py", "_pyio.py"])
    # dataclasses.py: "Cannot create a Pydantic dataclass from ... as it is already a Pydantic
    # model": a decorator applied to a model, nothing read or written.
    (model,) = [r for r in pydantic if r.error_message.startswith("Cannot create a Pydantic dataclass from")]
    assert model.background_tag != "io-failure"
    file_words = re.compile(
        r"\b(files?|streams?|director(y|ies)|paths?|sockets?|pipes?|disk|console)\b", re.IGNORECASE
    )

    def os_error(record: Record) -> bool:
        found = getattr(builtins, (record.error_class or "").rpartition(".")[2], None)
        return isinstance(found, type) and issubclass(found, OSError)

    tagged = [r for r in stdlib + pydantic + sqlalchemy if r.background_tag == "io-failure"]
    assert tagged  # chunk.py and wave.py: OSError("cannot seek")
    assert [r.error_message for r in tagged if not (os_error(r) or file_words.search(r.error_message))] == []


def test_a_timed_out_object_is_not_retried(tmp_path: Path) -> None:
    records = _stdlib(tmp_path, ["socket.py", "subprocess.py"])
    # socket.py SocketIO.readinto: OSError("cannot read from timed out object") once
    # ``self._timeout_occurred`` is set; OSError is no TimeoutError: reading again fails again.
    (spent,) = [r for r in records if r.error_message == "cannot read from timed out object"]
    _, tests = _path_to((tmp_path / spent.file_path).read_text(encoding="utf-8"), spent.line_number)
    assert [ast.unparse(t) for t, _ in tests][-1] == "self._timeout_occurred"
    assert not issubclass(OSError, TimeoutError)
    assert spent.handling_strategy != "retry"
    # subprocess's TimeoutExpired: the command ran past its timeout; running it again may finish.
    expired = [r for r in records if (r.error_class or "").endswith("TimeoutExpired")]
    assert expired and all(r.handling_strategy == "retry" for r in expired)


def test_placeholders_are_no_words_of_the_message() -> None:
    # pandas: KeyError(f"{missing_labels} not found in axis") says nothing is missing.
    found = classify("{missing_labels} not found in axis", "KeyError", [], absent=["labels"])
    assert found is not None and found.tag != "missing-required-argument"
