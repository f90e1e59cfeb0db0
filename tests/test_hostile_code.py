"""Code no library means to ship, read without a crash: nested deeper than a reader follows.

Each file here is a few hundred bytes: a parameter default, a guard, an assignment or a test's
call nested hundreds deep.  Whatever cannot be read costs only itself, as a counted skip that
names what failed (``too deeply nested to read (RecursionError in ast.unparse)``); the rest of
the file and of the tree is mined.  A record whose prose cannot be written is stored and shown
without it.  Reading (explain, show, the API, the pages) parses no Python: ``ast.parse`` is not
safe on threads in CPython 3.11.
"""

from __future__ import annotations

import ast
import builtins
import json
import logging
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from errdex.enrich import enrich
from errdex.languages.python import PYTHON
from errdex.languages.python.paste import _TUPLE_HEAD, _first_tuple_item
from errdex.mine import MineResult, mine
from errdex.record import Record
from errdex.serve.app import create_app
from errdex.session import Session
from errdex.store import open_store
from servers import ERRDEX

SHA = "0123456789abcdef0123456789abcdef01234567"
REPO = "acme/deep"
DEEP = 400
#: A subprocess that could loop (the resolver on cyclic bases) gets this long.
TIMEOUT = 60

DEEP_DEFAULT = f'def g(a={"-" * DEEP}1):\n    raise ValueError("deep default")\n'
DEEP_GUARD = f'def h(x):\n    if {"-" * DEEP}x:\n        raise ValueError("deep guard")\n'
DEEP_NOT = f'def n(x):\n    if {"not " * DEEP}x:\n        raise ValueError("deep not")\n'
#: The second assignment inlines the name's earlier value, a walk deeper than the limit.
DEEP_STATEMENT = f"""\
def s(x):
    msg = "first"
    msg = "b" + {"-" * 1500}msg
    raise ValueError(msg)


def after(x):
    raise ValueError("after the deep statement")
"""
OK = 'def f(x):\n    if x < 0:\n        raise ValueError("negative x")\n'
DEEP_TEST = f"""\
import pytest
from pkg.ok import f


def test_deep():
    with pytest.raises(ValueError):
        f({"-" * DEEP}1)
"""
TOO_DEEP = "parameters of g left out: too deeply nested to read (RecursionError in ast.unparse)"
GUARD_AS_TEXT = "guard kept as text only: too deeply nested to read (RecursionError in ast.unparse)"


def _tree(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    files = {
        "pkg/__init__.py": "",
        "pkg/ok.py": OK,
        "pkg/deep_default.py": DEEP_DEFAULT,
        "pkg/deep_guard.py": DEEP_GUARD,
        "pkg/deep_not.py": DEEP_NOT,
        "pkg/deep_statement.py": DEEP_STATEMENT,
        "tests/test_deep.py": DEEP_TEST,
    }
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def _by_message(records: list[Record]) -> dict[str, Record]:
    return {r.error_message: r for r in records}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _tree(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def mined(tree: Path) -> MineResult:
    return mine(tree, repo=REPO, sha=SHA, jobs=1)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, mined: MineResult) -> Path:
    """The tree stored as the environment index stores it: without prose, written on read."""
    path = tmp_path_factory.mktemp("hostile-db") / "errdex.db"
    with open_store(path) as store:
        store.replace_repo(mined.info, mined.records)
    return path


# -- mining -----------------------------------------------------------------------------------


def test_what_is_too_deep_costs_only_itself(mined: MineResult) -> None:
    records = _by_message(mined.records)
    assert set(records) == {
        "negative x",
        "deep default",
        "deep guard",
        "deep not",
        "first",  # ``msg`` as bound before the statement left out
        "after the deep statement",
    }
    reasons = {s.path: s.reason for s in mined.skipped}
    assert reasons == {
        "pkg/deep_default.py:1": TOO_DEEP,
        "pkg/deep_guard.py:2": GUARD_AS_TEXT,
        "pkg/deep_statement.py:3": "statement left out: too deeply nested to read"
        " (RecursionError in errdex.languages.python.evaluate.inline)",
        "tests/test_deep.py": "expectations left out: too deeply nested to read"
        " (RecursionError in ast.unparse)",
    }
    assert mined.info.skipped == len(reasons)
    # The site stays, without the fact that could not be read.
    assert records["deep default"].facts.parameters == []
    guard = records["deep guard"].facts.guards[0]
    assert guard.text == "-" * DEEP + "x" and guard.code is None and guard.names == ("x",)
    assert records["deep guard"].conditions == ["-" * DEEP + "x"]
    # ``not`` hundreds deep is still read (a short recursion), and enrichment writes from it.
    assert records["deep not"].facts.guards[0].code is not None
    assert all(r.enrichment == "static" for r in enrich(mined.records))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("-" * 5000 + "1\n", "too deeply nested to read (RecursionError in ast.parse)"),
        ("-" * 100_000 + "1\n", "too deeply nested to read (MemoryError in ast.parse)"),
        ("x = 1\0\n", "does not parse: SyntaxError: source code string cannot contain null bytes"),
    ],
    ids=["recursion", "parser-stack", "null-byte"],
)
def test_a_file_that_does_not_parse_is_a_named_skip(tmp_path: Path, text: str, reason: str) -> None:
    (tmp_path / "ok.py").write_text(OK)
    (tmp_path / "bad.py").write_text(text)
    result = mine(tmp_path, repo=REPO, sha=SHA, jobs=1)
    assert [r.error_message for r in result.records] == ["negative x"]
    assert [(s.path, s.reason) for s in result.skipped] == [("bad.py", reason)]


def test_bases_that_name_each_other_resolve_in_time(tmp_path: Path) -> None:
    """``class E(E, E, ...)`` made the search for a method's message exponential: a hang."""
    (tmp_path / "cycle.py").write_text(
        "class E(E, E, E, E, E, E, E, E, E, E):\n"
        "    def run(self):\n"
        "        raise ValueError(self.describe())\n"
    )
    code = (
        "import sys; from errdex.mine import mine; "
        f"print(len(mine(sys.argv[1], repo={REPO!r}, sha={SHA!r}, jobs=1).records))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_records_of_an_old_version_with_deep_facts_import() -> None:
    """``errdex import`` of extension version 1 reads conditions and signatures with ``ast``."""
    deep = "-" * DEEP + "x"
    facts = PYTHON.upgrade_facts([deep], f"g(a={deep})")
    assert [(g.text, g.code) for g in facts["guards"]] == [(deep, None)]
    assert facts["parameters"] == []


# -- the real CLI -----------------------------------------------------------------------------

#: Runs the real CLI with one prose rule failing as a rule may on facts no one foresaw.
_FAILING_PROSE = (
    "import sys, errdex.enrich.static as s\n"
    "def fail(ctx): raise RecursionError('maximum recursion depth exceeded')\n"
    "s._documentation = fail\n"
    "from errdex.cli import main\n"
    "main()\n"
)


def _errdex(*args: str, prose_fails: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", _FAILING_PROSE] if prose_fails else [ERRDEX]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=TIMEOUT)


@pytest.mark.parametrize("enrich_flag", ["--enrich", "--no-enrich"])
def test_errdex_mine_show_and_explain(tree: Path, tmp_path: Path, enrich_flag: str) -> None:
    db = str(tmp_path / "errdex.db")
    mined = _errdex("mine", str(tree), "--repo", REPO, "--sha", SHA, "--db", db, enrich_flag, "-v")
    assert mined.returncode == 0, mined.stderr
    assert "6 records" in mined.stdout and "4 skipped" in mined.stdout
    assert f"skipped pkg/deep_default.py:1: {TOO_DEEP}" in mined.stderr
    assert f"skipped pkg/deep_guard.py:2: {GUARD_AS_TEXT}" in mined.stderr
    with open_store(db) as store:
        records = _by_message(list(store.records(REPO)))
    for message in ("deep default", "deep guard"):
        shown = _errdex("show", records[message].id, "--db", db)
        assert shown.returncode == 0, shown.stderr
        assert f"ValueError: {message}" in shown.stdout and "What it means" in shown.stdout
        explained = _errdex("explain", f"ValueError: {message}", "--db", db, "--json")
        assert explained.returncode == 0, explained.stderr
        assert json.loads(explained.stdout)["matches"][0]["record"]["id"] == records[message].id


def test_prose_that_fails_costs_the_record_its_prose_only(tree: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "errdex.db")
    mined = _errdex("mine", str(tree), "--repo", REPO, "--sha", SHA, "--db", db, prose_fails=True)
    assert mined.returncode == 0, mined.stderr
    assert "6 records stored without prose: enrichment failed on them" in mined.stderr
    assert "prose left out, enrichment failed: RecursionError" in mined.stderr
    with open_store(db) as store:
        records = _by_message(list(store.records(REPO)))
    assert len(records) == 6 and {r.enrichment for r in records.values()} == {"none"}
    record = records["deep default"]
    shown = _errdex("show", record.id, "--db", db, prose_fails=True)
    assert shown.returncode == 0, shown.stderr
    assert "ValueError: deep default" in shown.stdout and "What it means" not in shown.stdout
    explained = _errdex("explain", "ValueError: deep default", "--db", db, prose_fails=True)
    assert explained.returncode == 0, explained.stderr
    assert "raised in  g · pkg/deep_default.py:2" in explained.stdout


def test_enrich_keeps_a_record_whose_prose_fails(
    mined: MineResult, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def fail(ctx: object) -> str:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr("errdex.enrich.static._documentation", fail)
    with caplog.at_level(logging.WARNING, logger="errdex.enrich"):
        out = enrich(mined.records)
    assert out == mined.records  # each kept as mined
    assert len(caplog.records) == len(out)
    assert "prose left out, enrichment failed: RecursionError" in caplog.records[0].getMessage()


# -- reading: the API and the pages -----------------------------------------------------------


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[httpx.Client]:
    with TestClient(create_app(str(db))) as client:
        yield client


def _reads(client: httpx.Client, record_id: str, message: str) -> list[httpx.Response]:
    """One of each kind of read that writes prose: the record, and a paste of its message."""
    paste = f"ValueError: {message}"
    return [
        client.get(f"/api/errors/{record_id}"),
        client.post("/api/explain", json={"text": paste}),
        client.get(f"/errors/{record_id}"),
        client.get("/explain", params={"text": paste}),
    ]


@pytest.mark.parametrize("prose_fails", [False, True], ids=["prose", "prose-fails"])
def test_api_and_pages_answer_for_a_deep_record(
    client: httpx.Client, mined: MineResult, monkeypatch: pytest.MonkeyPatch, prose_fails: bool
) -> None:
    if prose_fails:

        def fail(ctx: object) -> str:
            raise RecursionError("maximum recursion depth exceeded")

        monkeypatch.setattr("errdex.enrich.static._documentation", fail)
    for message in ("deep default", "deep guard"):
        record = _by_message(mined.records)[message]
        answers = _reads(client, record.id, message)
        assert [a.status_code for a in answers] == [200] * 4
        assert answers[0].json()["record"]["errorMessage"] == message
        explained = answers[1].json()["matches"][0]["record"]
        assert explained["id"] == record.id
        assert explained["enrichment"] == ("none" if prose_fails else "static")
        assert message in answers[2].text and message in answers[3].text


def test_reading_parses_no_python(
    client: httpx.Client, db: Path, mined: MineResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Explain and get, prose included, from several threads at once, through the session and
    through the app, with ``ast.parse``, ``ast.unparse`` and ``compile`` failing if called.

    ``ast.parse`` on threads is unsafe in CPython 3.11: the recursion counter of the ``ast``
    module is shared, and concurrent parses fail with ``SystemError: AST constructor recursion
    depth mismatch``.  Reading must not need it.  One round first, unpatched: what is built once
    per process (lazy imports, the pages' templates, which Jinja compiles from text) is built.
    """
    records = _by_message(mined.records)
    # ``('deep default', 3)`` is how Python prints an error given two arguments.
    pastes = ["ValueError: deep default", "ValueError: ('deep default', 3)", "ValueError: deep guard"]
    session = Session(db)

    def round_trip() -> list[int]:
        statuses = []
        for paste in pastes:
            assert session.explain(paste).matches[0].record.documentation
        for record in records.values():
            assert session.get(record.id) is not None
            statuses += [a.status_code for a in _reads(client, record.id, record.error_message)]
        return statuses

    round_trip()
    calls: list[str] = []

    def refuse(name: str) -> Any:
        def refused(*args: object, **kwargs: object) -> Any:
            calls.append(name)
            raise RuntimeError(f"{name} called while reading")

        return refused

    results: list[list[int]] = []
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(round_trip())
        except BaseException as exc:  # reported below, with the calls that caused it
            failures.append(exc)

    # Undone before asserting: pytest itself parses Python to report a failure.
    with monkeypatch.context() as patched:
        patched.setattr(ast, "parse", refuse("ast.parse"))
        patched.setattr(ast, "unparse", refuse("ast.unparse"))
        patched.setattr(builtins, "compile", refuse("compile"))
        threads = [threading.Thread(target=worker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
    session.close()
    assert calls == [] and failures == []
    assert len(results) == 8 and all(set(r) == {200} for r in results)


@given(st.text(alphabet=st.sampled_from(list("ab'\"\\xuUN{}017 \t\r\n\0\x85\ud800中")), max_size=12))
def test_a_printed_args_tuple_decodes_as_python_would(body: str) -> None:
    for quote in "'\"":
        message = f"({quote}{body}{quote}, 3)"
        head = _TUPLE_HEAD.match(message)
        if head is None:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # ``\q`` is kept, with a warning
                expected = ast.literal_eval(head.group()[1:-2])
        except (ValueError, SyntaxError):
            expected = None
        assert _first_tuple_item(message) == expected
