"""Families, tags and handling strategies on real records: on whole words and on evidence.

A family about one kind of library (an ORM's) goes only to records in such a library, and
``retry`` only to failures that are transient (timeouts, refused or reset connections, rate
limits, 503), never to a class whose name merely holds "Network" or "Connection".
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.enrich import enrich
from errdex.enrich.taxonomy import FAMILIES, ORM, Place, classify, split_identifier, words
from errdex.mine import mine
from errdex.record import Record

pytestmark = pytest.mark.pypi

SHA = "0" * 40
#: The families whose vocabulary tag is ``database``: ORM mapping, SQL, sessions, results.
DATABASE = {f.tag for f in FAMILIES if f.kind == "database"}


def _mined(root: Path, repo: str, path_prefix: str = "") -> list[Record]:
    return enrich(mine(root, repo=repo, sha=SHA, path_prefix=path_prefix, jobs=2).records)


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
