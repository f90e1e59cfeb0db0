"""Snapshots handed out and taken in: real releases mined into a store, exported as a SQLite
store file and as Parquet, checked against their manifests, imported into fresh stores, and
found to hold the same records and give the same answers; and every bad file refused whole."""

from __future__ import annotations

import fractions
import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import real_traceback
from errdex.enrich import enrich
from errdex.match.explain import Matcher
from errdex.mine import mine
from errdex.store import Store, open_store
from errdex.store.sqlite import STORE_SCHEMA

SHA = "0123456789abcdef0123456789abcdef01234567"
CLICK = ("8.1.7", "8.1.8")

# A real click error, raised for real by the newer release.
BAD_CHOICE = "import click\nclick.Choice(['red', 'green']).convert('blue', None, None)\n"


def errdex(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory, pypi_package: Callable[..., Path]) -> Path:
    """A store of two releases of click (each stored as its own release) and the standard
    library's ``fractions`` (a source without package or version), enriched as a mine is."""
    db = tmp_path_factory.mktemp("source") / "errdex.db"
    stdlib = tmp_path_factory.mktemp("stdlib")
    shutil.copy(fractions.__file__, stdlib)
    with open_store(db) as store:
        for version in CLICK:
            result = mine(pypi_package("click", version), repo="pallets/click", sha=SHA, jobs=1)
            assert result.info.version == version
            store.replace_repo(result.info, enrich(result.records), release=True, symbols=result.symbols)
        result = mine(stdlib, repo="python/cpython", sha=SHA, path_prefix="Lib/", jobs=1)
        assert result.info.package is None and result.info.version is None
        store.replace_repo(result.info, enrich(result.records), release=True, symbols=result.symbols)
        assert len(store.repos()) == 3
    return db


def tables(store: Store) -> dict[tuple[str, str | None, str | None], bytes]:
    """Each release's symbol table as its bytes (``SymbolTable.dumps`` is deterministic)."""
    found = {}
    for info in store.repos():
        table = store.symbols(info.repo, info.package, info.version)
        assert table is not None, info
        found[info.repo, info.package, info.version] = table.dumps()
    return found


def records_json(store: Store) -> list[dict[str, Any]]:
    return sorted((r.to_errdex() for r in store.records()), key=lambda r: (r["id"], r["version"] or ""))


def pastes(store: Store, click: Path) -> list[str]:
    """Errors to explain: a real traceback and the last lines of a spread of stored messages."""
    traceback = real_traceback(f"import sys\nsys.path.insert(0, {str(click)!r})\n{BAD_CHOICE}")
    messages = sorted({f"{r.error_class}: {r.error_message}" for r in store.records() if r.error_class})
    return [traceback, *messages[:: max(1, len(messages) // 40)]]


def answers(store: Store, texts: list[str]) -> list[dict[str, Any]]:
    matcher = Matcher(store)
    return [matcher.explain(text).to_json() for text in texts]


def check_manifest(snapshot: Path, fmt: str, source: Store) -> dict[str, Any]:
    manifest = json.loads(snapshot.with_name(snapshot.name + ".manifest.json").read_text())
    data = snapshot.read_bytes()
    assert manifest["format"] == fmt
    assert manifest["file"] == snapshot.name
    assert manifest["sha256"] == hashlib.sha256(data).hexdigest()
    assert manifest["bytes"] == len(data)
    assert manifest["records"] == sum(1 for _ in source.records())
    assert manifest["storeSchema"] == STORE_SCHEMA
    assert manifest["errdexVersion"] and manifest["createdAt"].endswith("Z")
    releases = [(s["repo"], s["package"], s["version"]) for s in manifest["sources"]]
    assert releases == [(i.repo, i.package, i.version) for i in source.repos()]
    assert [s["records"] for s in manifest["sources"]] == [i.records for i in source.repos()]
    return manifest


@pytest.mark.parametrize("fmt", ["sqlite", "parquet"])
def test_a_snapshot_holds_every_release_and_answers_as_its_store_does(
    fmt: str, source: Path, tmp_path: Path, pypi_package: Callable[..., Path]
) -> None:
    snapshot = tmp_path / f"click.{fmt}"
    exported = errdex("export", "--format", fmt, "--out", str(snapshot), "--db", str(source))
    assert exported.returncode == 0, exported.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [snapshot.name, f"{snapshot.name}.manifest.json"]

    with open_store(source, readonly=True) as original:
        manifest = check_manifest(snapshot, fmt, original)
        texts = pastes(original, pypi_package("click", CLICK[-1]))
        expected_records, expected_answers = records_json(original), answers(original, texts)
        expected_repos = original.repos()
        expected_tables = tables(original)
    # Each release's table holds what it defines: click's Choice and its convert method.
    assert any(b"Choice.convert" in zlib.decompress(t) for t in expected_tables.values())
    assert any(match["releases"] for answer in expected_answers for match in answer["matches"])

    if fmt == "sqlite":
        # The file itself is a store: one file, no WAL to carry, opened read-only as it is.
        assert sqlite3.connect(snapshot).execute("PRAGMA journal_mode").fetchone() == ("delete",)
        with open_store(snapshot, readonly=True) as handed_out:
            assert handed_out.repos() == expected_repos
            assert tables(handed_out) == expected_tables
            assert records_json(handed_out) == expected_records
            assert answers(handed_out, texts) == expected_answers
        assert hashlib.sha256(snapshot.read_bytes()).hexdigest() == manifest["sha256"]

    target = tmp_path / "target.db"
    for _ in range(2):  # a second import replaces what the first stored: the same store again
        imported = errdex("import", str(snapshot), "--db", str(target))
        assert imported.returncode == 0, imported.stderr
        assert "pallets/click click 8.1.8:" in imported.stdout
        with open_store(target, readonly=True) as copy:
            assert records_json(copy) == expected_records
            assert answers(copy, texts) == expected_answers
            assert tables(copy) == expected_tables  # both formats carry each release's symbol table
            releases = [(i.repo, i.package, i.version, i.records) for i in copy.repos()]
            assert releases == [(i.repo, i.package, i.version, i.records) for i in expected_repos]
            if fmt == "sqlite":  # a store file keeps what each source was
                assert copy.repos() == expected_repos

    if fmt == "sqlite":
        # Handed out, it is explained from as it is; used as a store it changes (its caches),
        # so its manifest no longer vouches for it and an import says so.
        cli = errdex("explain", "--db", str(snapshot), "--json", texts[0])
        assert cli.returncode == 0, cli.stderr
        assert json.loads(cli.stdout)["matches"][0]["record"]["package"] == "click"
        refused = errdex("import", str(snapshot), "--db", str(target))
        assert refused.returncode == 1 and "opened as a store since" in refused.stderr


def test_an_import_replaces_only_the_releases_it_holds(source: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.sqlite"
    assert (
        errdex(
            "export", "-f", "sqlite", "-o", str(older), "--db", str(source), "--repo", "pallets/click"
        ).returncode
        == 0
    )
    target = tmp_path / "target.db"
    with open_store(source, readonly=True) as original, open_store(target) as store:
        # The target has its own copy of the older release, stale, and one of the standard library.
        old, _ = [i for i in original.repos() if i.repo == "pallets/click"]
        stale = list(original.records("pallets/click", package="click", version=old.version))[:5]
        store.replace_repo(old, stale, release=True)
        (cpython,) = [i for i in original.repos() if i.repo == "python/cpython"]
        store.replace_repo(cpython, original.records("python/cpython"), release=True)
        kept = list(store.records("python/cpython"))

    assert errdex("import", str(older), "--db", str(target)).returncode == 0

    with open_store(source, readonly=True) as original, open_store(target, readonly=True) as store:
        assert store.repos() == original.repos()
        assert list(store.records("python/cpython")) == kept
        assert records_json(store) == records_json(original)


def test_a_snapshot_never_replaces_a_store_in_use(source: Path, tmp_path: Path) -> None:
    before = source.read_bytes()
    done = errdex("export", "--format", "sqlite", "--out", str(source), "--db", str(source))
    assert done.returncode == 1
    assert "is the store being exported" in done.stderr
    assert source.read_bytes() == before
    # Another store, open elsewhere: its WAL would be paired with the snapshot's pages.
    live = tmp_path / "live.db"
    live.write_bytes(b"pages")
    Path(f"{live}-wal").write_bytes(b"frames")
    done = errdex("export", "--format", "sqlite", "--out", str(live), "--db", str(source))
    assert done.returncode == 1
    assert "is a store in use (live.db-wal beside it)" in done.stderr
    assert live.read_bytes() == b"pages"
    assert errdex("import", str(source), "--db", str(source)).returncode == 1


@pytest.fixture(scope="module")
def snapshots(source: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("snapshots")
    made = {}
    for fmt, name in (("sqlite", "all.db"), ("parquet", "all.parquet"), ("errdex", "all.jsonl")):
        made[fmt] = out / name
        done = errdex("export", "--format", fmt, "--out", str(made[fmt]), "--db", str(source))
        assert done.returncode == 0, done.stderr
    return made


def bad_files(snapshots: dict[str, Path], into: Path) -> dict[str, tuple[Path, str]]:
    """Each bad input beside what errdex says of it."""

    def copy(fmt: str, name: str, *, manifest: bool = False) -> Path:
        path = into / name
        shutil.copy(snapshots[fmt], path)
        if manifest:
            shutil.copy(
                snapshots[fmt].with_name(snapshots[fmt].name + ".manifest.json"), f"{path}.manifest.json"
            )
        return path

    def cut(path: Path, keep: float = 0.5) -> Path:
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * keep)])
        return path

    def flip(path: Path, at: float = 0.5) -> Path:
        data = bytearray(path.read_bytes())
        data[int(len(data) * at)] ^= 0xFF
        path.write_bytes(bytes(data))
        return path

    empty = into / "empty.db"
    empty.write_bytes(b"")
    foreign = into / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE people (name TEXT)")
    outdated = copy("sqlite", "outdated.db")
    with sqlite3.connect(outdated) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(STORE_SCHEMA - 1),))
    other_parquet = into / "other.parquet"
    pq.write_table(pa.table({"name": ["a", "b"]}), other_parquet)
    lying = copy("errdex", "lying.jsonl", manifest=True)
    lying.write_text(lying.read_text().replace("click", "clack", 1))
    bad_manifest = copy("parquet", "bad-manifest.parquet")
    Path(f"{bad_manifest}.manifest.json").write_text('{"format": "parquet", "sha256": "nope"}')
    return {
        "empty": (empty, "is empty"),
        "truncated sqlite": (cut(copy("sqlite", "cut.db")), "database disk image is malformed"),
        "truncated sqlite, manifest": (cut(copy("sqlite", "cut-m.db", manifest=True)), "does not match"),
        "corrupt sqlite": (flip(copy("sqlite", "flipped.db"), 0.7), "damaged"),
        "corrupt sqlite, manifest": (flip(copy("sqlite", "flipped-m.db", manifest=True)), "does not match"),
        "truncated parquet": (cut(copy("parquet", "cut.parquet")), "Parquet"),
        "truncated parquet, manifest": (
            cut(copy("parquet", "cut-m.parquet", manifest=True)),
            "does not match",
        ),
        "truncated jsonl": (cut(copy("errdex", "cut.jsonl")), "not JSON"),
        "lying manifest": (lying, "does not match"),
        "unreadable manifest": (bad_manifest, "is not an errdex manifest"),
        "foreign sqlite": (foreign, "is not an errdex database"),
        "outdated sqlite": (
            outdated,
            f"has store schema {STORE_SCHEMA - 1} but this errdex needs {STORE_SCHEMA}",
        ),
        "foreign parquet": (other_parquet, "not an errdex Parquet export"),
        "missing": (into / "nothing.db", "no file at"),
    }


def test_a_bad_file_is_refused_with_its_reason_and_the_target_keeps_everything(
    snapshots: dict[str, Path], source: Path, tmp_path: Path
) -> None:
    target = tmp_path / "target.db"
    with open_store(source, readonly=True) as original, open_store(target) as store:
        (cpython,) = [i for i in original.repos() if i.repo == "python/cpython"]
        store.replace_repo(cpython, original.records("python/cpython"), release=True)
        before = records_json(store), store.repos()

    failures = []
    for case, (path, reason) in bad_files(snapshots, tmp_path).items():
        done = errdex("import", str(path), "--db", str(target))
        lines = done.stderr.strip().splitlines()
        if (
            done.returncode != 1
            or len(lines) != 1
            or not lines[0].startswith("errdex: error:")
            or reason not in lines[0]
        ):
            failures.append(f"{case}: exit {done.returncode}: {done.stderr.strip()}")
        with open_store(target, readonly=True) as store:
            if (records_json(store), store.repos()) != before:
                failures.append(f"{case}: the target changed")
    assert failures == [], "\n".join(failures)


def test_an_export_of_nothing_imports_as_nothing(tmp_path: Path) -> None:
    empty_store = tmp_path / "empty.db"
    open_store(empty_store).close()
    out = tmp_path / "nothing.jsonl"
    assert errdex("export", "-f", "errdex", "-o", str(out), "--db", str(empty_store)).returncode == 0
    assert out.read_bytes() == b""
    imported = errdex("import", str(out), "--db", str(tmp_path / "target.db"))
    assert imported.returncode == 0, imported.stderr
    out.with_name(out.name + ".manifest.json").unlink()  # nothing then vouches for an empty file
    refused = errdex("import", str(out), "--db", str(tmp_path / "target.db"))
    assert refused.returncode == 1 and "is empty" in refused.stderr
