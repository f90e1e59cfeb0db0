"""The store contract, held by both stores: SQLite (a file) and PostgreSQL (a real server).

The records are real ones, mined from real releases of click, werkzeug and httpx, and the
pastes real tracebacks, printed by running those releases' code: the point is that a shared
PostgreSQL store answers ``errdex explain`` exactly as the SQLite file does, release by
release, with writers running at once.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from errdex.errors import ErrdexError
from errdex.match.explain import Matcher
from errdex.mine import MineResult, mine
from errdex.record import Record, RepoInfo
from errdex.store import Artifact, OutdatedStore, Store
from errdex.store.postgres import PostgresStore
from errdex.store.sqlite import STORE_SCHEMA, SqliteStore
from pg_server import pg_server, pg_url  # noqa: F401  (fixtures)
from pypi import fetch_package

pytestmark = pytest.mark.pypi

#: Two releases of one package, then others beside it.
CLICK_OLD, CLICK_NEW = "8.1.7", "8.1.8"
OTHERS = (("werkzeug", "3.1.3"), ("httpx", "0.28.1"))
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%[sdr]")

Opener = Callable[..., Store]


def _mined(name: str, version: str) -> MineResult:
    return mine(fetch_package(name, version), repo=f"pypi/{name}", sha="0" * 40, jobs=1)


@pytest.fixture(scope="module")
def mined() -> dict[tuple[str, str], MineResult]:
    """Each release mined once for the module: (package, version) -> what the mine gave."""
    wanted = [("click", CLICK_OLD), ("click", CLICK_NEW), *OTHERS]
    return {(name, version): _mined(name, version) for name, version in wanted}


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """(kind, target): an empty store's file or database URL."""
    if request.param == "sqlite":
        return "sqlite", str(tmp_path / "errdex.db")
    return "postgres", str(request.getfixturevalue("pg_url"))


def open_backend(kind: str, target: str, **options: Any) -> Store:
    if kind == "sqlite":
        return SqliteStore(Path(target), **options)
    return PostgresStore(target, **options)


@pytest.fixture
def store(backend: tuple[str, str]) -> Iterator[Store]:
    with open_backend(*backend) as opened:
        yield opened


def raw_execute(kind: str, target: str, sql: str) -> None:
    """Change a store behind errdex's back, as another program would."""
    if kind == "sqlite":
        with sqlite3.connect(target) as db:
            db.execute(sql)
        return
    with psycopg.connect(target, autocommit=True) as db:
        db.execute(sql.encode())


def store_release(store: Store, result: MineResult, *, release: bool = True) -> RepoInfo:
    return store.replace_repo(result.info, result.records, release=release)


# -- releases --------------------------------------------------------------------------------


def test_two_releases_of_one_package_are_kept_side_by_side(
    store: Store, mined: dict[tuple[str, str], MineResult]
) -> None:
    old, new = mined["click", CLICK_OLD], mined["click", CLICK_NEW]
    assert store_release(store, new).records == len(new.records)
    store_release(store, old)

    assert [(i.package, i.version) for i in store.repos()] == [("click", CLICK_OLD), ("click", CLICK_NEW)]
    assert len(list(store.records(package="click"))) == len(old.records) + len(new.records)
    assert {r.version for r in store.records(version=CLICK_OLD)} == {CLICK_OLD}
    # The same message raised in the same file is one id, in each release that raises it.
    shared = {r.id for r in old.records} & {r.id for r in new.records}
    assert shared
    some = sorted(shared)[0]
    assert store.releases(some) == [CLICK_OLD, CLICK_NEW]
    assert store.releases("0" * 16) == []
    newest = store.get(some)
    assert newest is not None and newest.version == CLICK_NEW
    older = store.get(some, CLICK_OLD)
    assert older is not None and older.version == CLICK_OLD and older.id == some
    assert store.get(some, "0.0.1") is None
    by_slug = store.get(f"pypi/click/{newest.slug}")
    assert by_slug is not None and by_slug.version == CLICK_NEW
    by_slug = store.get(f"pypi/click/{newest.slug}", CLICK_OLD)
    assert by_slug is not None and by_slug.version == CLICK_OLD
    # Records come in file and line order, each record's releases together.
    listed = [(r.repo, r.file_path, r.line_number, r.id) for r in store.records()]
    assert listed == sorted(listed)


def test_storing_a_release_again_replaces_only_that_release(
    store: Store, mined: dict[tuple[str, str], MineResult]
) -> None:
    old, new = mined["click", CLICK_OLD], mined["click", CLICK_NEW]
    store_release(store, old)
    store_release(store, new)
    before = store.generation()
    store_release(store, new)
    assert store.generation() > before
    assert store.stats()["records"] == len(old.records) + len(new.records)
    assert len(list(store.records(version=CLICK_NEW))) == len(new.records)


def test_storing_without_release_replaces_every_release(
    store: Store, mined: dict[tuple[str, str], MineResult]
) -> None:
    old, new = mined["click", CLICK_OLD], mined["click", CLICK_NEW]
    store_release(store, old)
    store_release(store, new)
    store_release(store, mined["werkzeug", "3.1.3"])
    store_release(store, new, release=False)
    assert [(i.package, i.version) for i in store.repos()] == [("click", CLICK_NEW), ("Werkzeug", "3.1.3")]
    assert {r.version for r in store.records(package="click")} == {CLICK_NEW}
    assert store.remove("pypi/click", "click") == len(new.records)
    assert [i.package for i in store.repos()] == ["Werkzeug"]


def test_a_release_keeps_its_symbol_table_and_loses_it_with_its_records(
    store: Store, mined: dict[tuple[str, str], MineResult]
) -> None:
    old, new = mined["click", CLICK_OLD], mined["click", CLICK_NEW]
    for result in (old, new, mined["werkzeug", "3.1.3"]):
        assert result.symbols is not None
        store.replace_repo(result.info, result.records, release=True, symbols=result.symbols)
    for result in (old, new):
        table = store.symbols("pypi/click", "click", result.info.version)
        assert table is not None and table.dumps() == result.symbols.dumps()  # type: ignore[union-attr]
        assert table.symbols["click.core.Option"].kind == "class"
    # Each top-level name is answered by the newest release that holds it.
    providers = store.symbol_providers()
    assert providers["click"] == ("pypi/click", "click", CLICK_NEW)
    assert providers["werkzeug"][1] == "Werkzeug"
    # A release stored again without a table has none; removing a source drops its tables.
    store.replace_repo(new.info, new.records, release=True)
    assert store.symbols("pypi/click", "click", CLICK_NEW) is None
    assert store.symbol_providers()["click"] == ("pypi/click", "click", CLICK_OLD)
    store.remove("pypi/click", "click")
    assert store.symbols("pypi/click", "click", CLICK_OLD) is None and "click" not in store.symbol_providers()


def test_the_extraction_cache_outlives_record_changes(
    store: Store, mined: dict[tuple[str, str], MineResult]
) -> None:
    store.extractions_put({"a" * 64: b"\x00first", "b" * 64: b"second"})
    store.cache_put("index", b"derived")
    assert store.cache_get("index") == b"derived"
    store_release(store, mined["click", CLICK_NEW])
    assert store.cache_get("index") is None  # derived from the records before
    assert store.extractions_get(["a" * 64, "c" * 64, "b" * 64]) == {
        "a" * 64: b"\x00first",
        "b" * 64: b"second",
    }
    store.extractions_put({"a" * 64: b"other"})  # put again only where it could not be read
    assert store.extractions_get(["a" * 64, "b" * 64]) == {"a" * 64: b"other", "b" * 64: b"second"}
    assert store.extractions_get([]) == {}


# -- corpus state ----------------------------------------------------------------------------


def _artifact(version: str, sha: str = "1" * 64, **fields: Any) -> Artifact:
    filename = f"demo-{version}.tar.gz"
    given = {"url": f"https://files.example/{filename}", "size": 1234, "kind": "sdist", **fields}
    return Artifact(package="demo", version=version, filename=filename, sha256=sha, **given)


def test_planned_artifacts_are_queued_once_and_requeued_when_their_file_changes(store: Store) -> None:
    assert store.corpus_add(["demo>=1", "path:/src/tool", "demo>=1"]) == ["demo>=1", "path:/src/tool"]
    assert store.corpus_add(["demo>=1", "other"]) == ["other"]
    assert sorted(store.corpus_requirements()) == ["demo>=1", "other", "path:/src/tool"]

    queued = store.plan_artifacts([_artifact("10.0"), _artifact("9.0"), _artifact("1.0rc1", state="done")])
    assert [(a.version, a.state, a.attempts) for a in queued] == [
        ("10.0", "queued", 0), ("9.0", "queued", 0), ("1.0rc1", "queued", 0),
    ]  # fmt: skip
    assert [a.version for a in store.artifacts()] == ["1.0rc1", "9.0", "10.0"]

    done = store.artifacts("demo")[1].but(state="done", records=17, updated_at="2025-01-01T00:00:00.000Z")
    store.mark_artifact(done)
    failed = _artifact("10.0").but(state="failed", reason="bad archive", failure="package", attempts=2)
    store.mark_artifact(failed)
    # The same files planned again keep their states; a new release is queued.
    assert [
        a.version for a in store.plan_artifacts([_artifact("9.0"), _artifact("10.0"), _artifact("11.0")])
    ] == ["11.0"]
    by_version = {a.version: a for a in store.artifacts("demo")}
    assert by_version["9.0"] == done.but(updated_at="2025-01-01T00:00:00.000Z")
    assert (by_version["10.0"].state, by_version["10.0"].attempts, by_version["10.0"].reason) == (
        "failed", 2, "bad archive",
    )  # fmt: skip
    # A re-uploaded file: every field replaced, queued again, no tries counted.
    changed = _artifact("10.0", sha="2" * 64, size=99)
    (requeued,) = store.plan_artifacts([changed])
    stored = store.artifacts("demo")[-2]
    assert stored == requeued
    assert (stored.sha256, stored.size, stored.state, stored.attempts, stored.reason, stored.failure) == (
        "2" * 64, 99, "queued", 0, None, None,
    )  # fmt: skip
    assert store.artifacts("nothing") == []


# -- opening ---------------------------------------------------------------------------------


def test_a_store_of_another_schema_is_refused_naming_it(backend: tuple[str, str]) -> None:
    kind, target = backend
    open_backend(kind, target).close()
    raw_execute(kind, target, f"UPDATE meta SET value = '{STORE_SCHEMA - 1}' WHERE key = 'schema'")
    with pytest.raises(
        OutdatedStore, match=f"schema {STORE_SCHEMA - 1} but this errdex needs {STORE_SCHEMA}"
    ):
        open_backend(kind, target)
    raw_execute(kind, target, "DELETE FROM meta WHERE key = 'schema'")
    with pytest.raises(OutdatedStore, match="schema none"):
        open_backend(kind, target, readonly=True)


def test_a_database_of_other_tables_is_refused(backend: tuple[str, str]) -> None:
    kind, target = backend
    raw_execute(kind, target, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(ErrdexError, match="not an errdex database"):
        open_backend(kind, target)


def test_an_empty_database_is_not_created_unless_asked(backend: tuple[str, str]) -> None:
    kind, target = backend
    for options in ({"create": False}, {"readonly": True}):
        with pytest.raises(ErrdexError, match="no errdex database at"):
            open_backend(kind, target, **options)


def test_a_readonly_store_refuses_writes_and_skips_caches(
    backend: tuple[str, str], mined: dict[tuple[str, str], MineResult]
) -> None:
    kind, target = backend
    with open_backend(kind, target) as store:
        store_release(store, mined["click", CLICK_NEW])
    with open_backend(kind, target, readonly=True) as store:
        with pytest.raises(ErrdexError, match="read-only"):
            store_release(store, mined["click", CLICK_OLD])
        store.cache_put("key", b"data")
        store.meta_put("key", "value")
        assert store.cache_get("key") is None and store.meta_get("key") is None
        assert store.stats()["records"] == len(mined["click", CLICK_NEW].records)


def test_postgres_messages_name_the_database_without_its_password(pg_url: str) -> None:  # noqa: F811
    with_password = pg_url.replace("postgres@", "postgres:hunter2@")
    with PostgresStore(with_password) as store:
        assert store.shown == pg_url
        raw_execute("postgres", pg_url, "DROP TABLE sites")
        with pytest.raises(ErrdexError) as failure:
            store.sites_near("core.py", 10, 5)
    assert pg_url in str(failure.value) and "hunter2" not in str(failure.value)
    raw_execute("postgres", pg_url, "UPDATE meta SET value = '1' WHERE key = 'schema'")
    with pytest.raises(OutdatedStore) as outdated:
        PostgresStore(with_password)
    assert pg_url in str(outdated.value) and "hunter2" not in str(outdated.value)
    closed = pg_url.rsplit(":", 1)[0] + ":1/nothing"
    with pytest.raises(ErrdexError, match="cannot open") as refused:
        PostgresStore(closed.replace("postgres@", "postgres:hunter2@"))
    assert closed in str(refused.value) and "hunter2" not in str(refused.value)


# -- writers at once -------------------------------------------------------------------------


def _write_release(kind: str, target: str, name: str, version: str, start: Any, rounds: int) -> None:
    """One corpus task: mine a release, then store it ``rounds`` times, starting with the others."""
    result = _mined(name, version)
    start.wait()
    for _ in range(rounds):
        with open_backend(kind, target) as store:
            store_release(store, result)


def test_writers_of_different_releases_at_once_lose_nothing(
    backend: tuple[str, str], mined: dict[tuple[str, str], MineResult]
) -> None:
    kind, target = backend
    open_backend(kind, target).close()
    releases = [("click", CLICK_OLD), ("click", CLICK_NEW), ("click", CLICK_NEW), *OTHERS]
    spawn = multiprocessing.get_context("spawn")
    start = spawn.Barrier(len(releases))
    writers = [
        spawn.Process(target=_write_release, args=(kind, target, name, version, start, 4))
        for name, version in releases
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=300)
    assert [writer.exitcode for writer in writers] == [0] * len(writers)
    with open_backend(kind, target) as store:
        expected = {(r.info.package, r.info.version): len(r.records) for r in mined.values()}
        assert {(i.package, i.version): i.records for i in store.repos()} == expected
        for (_, version), count in expected.items():
            assert len(list(store.records(version=version))) == count
        assert store.stats()["records"] == sum(expected.values())
        assert store.generation() == 4 * len(releases)


# -- the same answers ------------------------------------------------------------------------

#: Real failures of the mined releases' code, each printed by a real Python.
FAILURES = {
    "click": [
        "import click\n@click.command()\n@click.argument('name')\ndef cli(name): pass\n"
        "cli.main([], standalone_mode=False)",
        "import click\n@click.command()\ndef cli(): pass\ncli.main(['--colour'], standalone_mode=False)",
        "import click\nclick.Choice(['red', 'green']).convert('blue', None, None)",
        "import click\nclick.IntRange(0, 10).convert('42', None, None)",
        "import click\n@click.command()\n@click.option('--n', type=int)\ndef cli(n): pass\n"
        "cli.main(['--n', 'many'], standalone_mode=False)",
        "import click\nclick.Path(exists=True).convert('/no/such/file', None, None)",
    ],
    "werkzeug": [
        "from werkzeug.routing import Map, Rule\n"
        "Map([Rule('/a', endpoint='a')]).bind('example.org').build('b')",
        "from werkzeug.routing import Rule\nRule('no-leading-slash')",
        "from werkzeug.datastructures import MultiDict\nMultiDict()['missing']",
        "from werkzeug.exceptions import abort\nabort(418)",
    ],
    "httpx": [
        "import httpx\nhttpx.Response(200).raise_for_status()",
        "import httpx\nhttpx.Client().get('ftp://example.org/file')",
        "import httpx\nhttpx.URL('http://[::1')",
        "import httpx\nhttpx.Request('GET', 'http://example.org', content=object())",
    ],
}


def real_tracebacks(name: str, version: str) -> list[str]:
    """The tracebacks the release's own code prints for ``FAILURES[name]`` (it runs from the
    unpacked release, not from anything installed)."""
    env = {**os.environ, "PYTHONPATH": str(fetch_package(name, version))}
    out = []
    for code in FAILURES[name]:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
        )
        assert done.returncode == 1 and "Traceback" in done.stderr, done.stderr
        out.append(done.stderr)
    return out


def _filled(message: str, rng: random.Random) -> str:
    return _PLACEHOLDER.sub(lambda _: rng.choice(["'spam'", "42", "/tmp/x.txt", "eggs"]), message)


def filled_messages(records: list[Record], count: int) -> list[str]:
    """Bare messages, no traceback: mined templates with their placeholders filled, as a user
    pastes one line of a log."""
    rng = random.Random(9)
    templated = [r for r in records if r.error_class and _PLACEHOLDER.search(r.error_message)]
    return [f"{r.error_class}: {_filled(r.error_message, rng)}" for r in rng.sample(templated, count)]


def reworded_messages(records: list[Record], count: int) -> list[str]:
    """Messages no template produces (a word dropped, as another release words it): only
    likeness, the message search's pool rescored, can explain them."""
    rng = random.Random(5)
    wordy = [r for r in records if len(r.error_message.split()) >= 5]
    out = []
    for record in rng.sample(wordy, count):
        words = _filled(record.error_message, rng).split()
        del words[rng.randrange(1, len(words) - 1)]
        out.append(" ".join(words))
    return out


def test_both_stores_explain_real_pastes_alike(
    tmp_path: Path,
    pg_url: str,  # noqa: F811
    mined: dict[tuple[str, str], MineResult],
) -> None:
    everything = [r for result in mined.values() for r in result.records]
    pastes = real_tracebacks("click", CLICK_NEW) + real_tracebacks("werkzeug", "3.1.3")
    pastes += real_tracebacks("httpx", "0.28.1") + filled_messages(everything, 8)
    pastes += reworded_messages(everything, 12)
    stores = [SqliteStore(tmp_path / "errdex.db"), PostgresStore(pg_url)]
    try:
        for store in stores:
            for result in mined.values():
                store_release(store, result)
        lite, post = (Matcher(store) for store in stores)
        evidence: Counter[str] = Counter()
        for paste in pastes:
            expected = lite.explain(paste).to_json()
            assert post.explain(paste).to_json() == expected, paste
            evidence.update(match["evidence"] for match in expected["matches"][:1])
        # Not vacuous: nearly every paste is explained, by frames, templates and likeness.
        assert evidence.total() >= len(pastes) - 2
        assert evidence["frame"] >= 10 and evidence["fuzzy"] >= 5, evidence
        # Message search itself ranks alike: the matcher's fuzzy pool is what it returns.
        words = sorted({w for r in everything for w in re.findall(r"\w+", r.error_message)})
        rng = random.Random(3)
        queries = [r.error_message for r in everything[::7]] + [
            " ".join(rng.sample(words, rng.randint(1, 8))) for _ in range(150)
        ]
        for query in [*queries, "", "()", "a.b.c /x/y.py foo_bar", "É école NAÏVE"]:
            assert post.store.search_messages(query, 40) == lite.store.search_messages(query, 40), query
    finally:
        for store in stores:
            store.close()


def test_postgres_finds_messages_no_word_of_which_is_spelt_right_by_trigrams(
    pg_url: str,  # noqa: F811
    mined: dict[tuple[str, str], MineResult],
) -> None:
    """The one answer the stores do not share: SQLite finds nothing for such a query."""
    misspelt = "hedaer vallue mustt bee strr"
    with PostgresStore(pg_url) as store:
        store_release(store, mined["httpx", "0.28.1"])
        found = store.search_messages(misspelt, 5)
        assert found and found[0][1].startswith("Header value must be str or bytes")
        assert [r.error_message for r in store.search_text(misspelt, 5)] == [m for _, m in found]


def test_without_psycopg_the_postgres_store_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['psycopg'] = None\n"
        "from errdex.errors import ErrdexError\n"
        "try:\n    import errdex.store.postgres\nexcept ErrdexError as exc:\n    print(exc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "install errdex[postgres]" in done.stdout
    # The SQLite store never needs it.
    code = "import sys; sys.modules['psycopg'] = None\nimport errdex.store, errdex.store.sqlite"
    subprocess.run([sys.executable, "-c", code], check=True)
