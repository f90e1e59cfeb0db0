from __future__ import annotations

import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.errors import ErrdexError
from errdex.record import Record, RepoInfo, Site, base_slug, permalink, record_id, utc_now
from errdex.store import open_store
from errdex.store.sqlite import SqliteStore

SHA = "3f786850e387550fdab836ed7e6dc881de23001b"


def make_record(
    message: str,
    *,
    repo: str = "acme/widgets",
    file_path: str = "src/widgets/registry.py",
    line: int = 42,
    sites: list[Site] | None = None,
    **fields: Any,
) -> Record:
    start, end = max(1, line - 18), line + 18
    return Record(
        id=record_id(repo, message, file_path),
        repo=repo,
        slug=base_slug(None, message),
        error_code=None,
        error_message=message,
        message_pattern="^" + message.replace("{}", "(.+)") + "$",
        error_type=fields.pop("error_type", "exception"),
        error_class=fields.pop("error_class", "ValueError"),
        http_status=None,
        severity="error",
        file_path=file_path,
        line_number=line,
        source_code=f'raise ValueError("{message}")',
        source_code_start=start,
        source_code_end=end,
        github_url=permalink(repo, SHA, file_path, start, end),
        documentation="",
        trigger_scenarios="",
        common_situations="",
        solutions=[],
        example_fix=None,
        handling_strategy=None,
        validation_code=None,
        type_guard=None,
        try_catch_pattern=None,
        prevention_tips=[],
        tags=[],
        background_tag=None,
        analyzed_sha=SHA,
        analyzed_at="2024-05-01T12:00:00.000Z",
        language="python",
        sites=sites if sites is not None else [Site(file_path=file_path, line_number=line, kind="raise")],
        **fields,
    )


def info(repo: str = "acme/widgets") -> RepoInfo:
    return RepoInfo(repo=repo, sha=SHA, analyzed_at=utc_now(), kind="checkout", files=3, skipped=1)


WIDGETS = [
    make_record("widget {} is not registered", line=42),
    make_record("cannot register widget twice", line=17),
    make_record(
        "widget size must be positive",
        file_path="src/widgets/geometry.py",
        line=8,
        sites=[
            Site(file_path="src/widgets/geometry.py", line_number=8, kind="raise", function="Box.resize"),
            Site(file_path="src/widgets/geometry.py", line_number=30, kind="raise", function="grow"),
        ],
    ),
]
GADGETS = [make_record("gadget battery is empty", repo="acme/gadgets", file_path="gadgets/power.py")]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "errdex.db"


def ids(records: Iterator[Record] | list[Record]) -> list[str]:
    return [record.id for record in records]


def test_replace_repo_round_trip(db_path: Path) -> None:
    with open_store(db_path) as store:
        stored = store.replace_repo(info(), WIDGETS)

    assert stored.records == 3
    assert stored.sites == 4
    with open_store(db_path) as store:
        assert list(store.records()) == sorted(WIDGETS, key=lambda r: (r.file_path, r.line_number, r.id))
        assert store.repos() == [stored]
        assert store.stats() == {"repos": 1, "records": 3, "sites": 4, "errorType:exception": 3}


def test_replacing_a_repo_keeps_other_repos(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)
        store.replace_repo(info("acme/gadgets"), GADGETS)
        store.replace_repo(info(), WIDGETS[:1])

        assert ids(store.records("acme/gadgets")) == ids(GADGETS)
        assert ids(store.records("acme/widgets")) == ids(WIDGETS[:1])
        assert [repo.records for repo in store.repos()] == [1, 1]
        # The replaced records' sites and full-text entries went with them (rank 1: check content too).
        assert store.stats()["sites"] == 2
        assert store.search_text("size positive") == []
        assert isinstance(store, SqliteStore)
        store._db.execute("INSERT INTO messages (messages, rank) VALUES ('integrity-check', 1)")


def test_failure_half_way_keeps_previous_version(db_path: Path) -> None:
    def broken() -> Iterator[Record]:
        yield make_record("widget colour is unknown")
        yield make_record("widget {} is locked")
        raise RuntimeError("miner crashed")

    with open_store(db_path) as store:
        before = store.replace_repo(info(), WIDGETS)
        with pytest.raises(RuntimeError, match="miner crashed"):
            store.replace_repo(info(), broken())

        assert sorted(ids(store.records())) == sorted(ids(WIDGETS))
        assert store.repos() == [before]
        assert [path for _, path, *_ in store.sites_near("registry.py", 42, 0)] == ["src/widgets/registry.py"]
        # The store is still usable after the rollback.
        assert store.replace_repo(info(), WIDGETS[:2]).records == 2


def test_duplicate_id_in_a_batch_is_refused_and_rolled_back(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)
        with pytest.raises(ErrdexError, match=WIDGETS[0].id):
            store.replace_repo(info(), [WIDGETS[0], WIDGETS[0]])
        with pytest.raises(ErrdexError, match="belongs to acme/gadgets"):
            store.replace_repo(info(), GADGETS)

        assert sorted(ids(store.records())) == sorted(ids(WIDGETS))


def test_get_by_id_and_by_repo_and_slug(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)
        record = WIDGETS[1]

        assert store.get(record.id) == record
        assert store.get(f"acme/widgets/{record.slug}") == record
        assert store.get("acme/gadgets/" + record.slug) is None
        assert store.get("0000000000000000") is None


def test_sites_near_finds_every_site_by_file_name_and_line_window(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)
        size = {r.id: n for n, r in store.by_num(range(1, 10)).items()}[WIDGETS[2].id]

        assert store.sites_near("geometry.py", 33, 0) == []
        # Any of a record's sites counts: line 30 is the second site of the size record.
        assert store.sites_near("geometry.py", 32, 2) == [(size, "src/widgets/geometry.py", 30, "grow")]
        assert sorted(line for _, _, line, _ in store.sites_near("registry.py", 30, 15)) == [17, 42]
        assert store.sites_near("metry.py", 8, 5) == []
        # A method's site is found by the name a traceback prints for it, at any line.
        assert store.sites_in_function("geometry.py", "resize") == [(size, "src/widgets/geometry.py", 8)]
        assert store.sites_in_function("geometry.py", "Box.resize") == []


def test_search_text_ranks_messages_sharing_most_words(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)
        store.replace_repo(info("acme/gadgets"), GADGETS)

        found = store.search_text("ValueError: widget 'knob' is not registered")
        assert found[0] == WIDGETS[0]
        assert store.search_text("battery") == GADGETS
        assert len(store.search_text("widget", limit=2)) == 2
        assert store.search_text("nothing matches this") == []


@pytest.mark.parametrize(
    "query", ['"', "*", "(", "-", "widget*", 'widget" OR "x', "NOT widget", "NEAR(widget", "-size", "", "   "]
)
def test_search_text_never_fails_on_query_syntax(db_path: Path, query: str) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)

        assert isinstance(store.search_text(query), list)


def test_readonly_store_refuses_writes(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)

    with open_store(db_path, readonly=True) as store:
        assert store.get(WIDGETS[0].id) == WIDGETS[0]
        with pytest.raises(ErrdexError, match="read-only"):
            store.replace_repo(info(), [])
        assert isinstance(store, SqliteStore)
        with pytest.raises(sqlite3.OperationalError):
            store._db.execute("DELETE FROM records")
        assert len(list(store.records())) == 3


def test_readonly_open_of_a_missing_file_fails_without_creating_it(db_path: Path) -> None:
    with pytest.raises(ErrdexError, match="no errdex database"):
        open_store(db_path, readonly=True)
    assert not db_path.parent.exists()


def test_a_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    with pytest.raises(ErrdexError, match="not an errdex database"):
        open_store(other)


def test_default_path_and_database_urls(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "env.db"))
    with open_store() as store:
        store.replace_repo(info(), [])
    assert (tmp_path / "env.db").is_file()

    # A URL is a PostgreSQL server's: none listens on a port just freed, which is said plainly,
    # never with the password.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://errdex:hunter2@127.0.0.1:{port}/errdex"
    for given in (url, None):
        if given is None:
            monkeypatch.setenv("ERRDEX_DB", url)
        with pytest.raises(
            ErrdexError, match=f"cannot open postgresql://errdex@127.0.0.1:{port}/errdex"
        ) as raised:
            open_store(given)
        assert "hunter2" not in str(raised.value)

    monkeypatch.delenv("ERRDEX_DB")
    with pytest.raises(ErrdexError, match="no database given"):
        open_store()


def test_a_database_failure_is_an_errdex_error_naming_the_file(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.replace_repo(info(), WIDGETS)
        # Something else changes the file under errdex's feet.
        with sqlite3.connect(db_path) as other:
            other.execute("ALTER TABLE sites RENAME TO gone_sites")
            other.execute("ALTER TABLE records RENAME TO gone_records")
        other.close()
        with pytest.raises(ErrdexError, match=f"database error in {db_path}: no such table: sites"):
            store.sites_near("registry.py", 42, 5)
        with pytest.raises(ErrdexError, match="no such table: records"):
            list(store.records())
