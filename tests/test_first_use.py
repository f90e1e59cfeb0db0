"""First use without friction: an unpacked sdist mined as it comes (no --sha, no --repo), and an
environment index that leaves the first lookup nothing to build."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from email.parser import HeaderParser
from pathlib import Path

import pytest

from errdex.match.index import INDEX_FORMAT, PatternIndex
from errdex.mine import mine
from errdex.record import Record
from errdex.session import Session
from errdex.store import open_store
from test_environment import install, make_venv

pytestmark = pytest.mark.pypi
NOTE = "no commit known for"
BAD_COUNT = (
    "import click\n"
    "@click.command()\n@click.option('--count', type=int)\ndef run(count):\n    pass\n"
    "run.main(['--count', 'many'], standalone_mode=False)\n"
)


def errdex(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args], capture_output=True, text=True, input=stdin, check=False
    )


def cached_index(db: Path) -> bytes | None:
    """The pattern index the store keeps for its records as they are now, read with SQLite
    itself under the key ``load_index`` looks up."""
    with sqlite3.connect(db) as raw:
        (generation,) = raw.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        row = raw.execute(
            "SELECT data FROM cache WHERE key = ?", (f"pattern-index:{INDEX_FORMAT}:{generation}",)
        ).fetchone()
    raw.close()
    return None if row is None else bytes(row[0])


def source_link(pkg_info: Path) -> str:
    """owner/name of the ``Project-URL: Source`` the sdist's own PKG-INFO gives."""
    headers = HeaderParser().parsestr(pkg_info.read_text())
    urls = dict(entry.split(", ", 1) for entry in headers.get_all("Project-URL") or [])
    owner, name = urls["Source"].removeprefix("https://github.com/").strip("/").split("/")
    return f"{owner}/{name}"


@pytest.fixture(scope="module")
def click_sdist(pypi_package: Callable[..., Path]) -> Path:
    return pypi_package("click", "8.1.8", sdist=True)


@pytest.fixture(scope="module")
def mined_sdist(click_sdist: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """click's sdist mined by the real command, with neither --sha nor --repo; its stderr."""
    db = tmp_path_factory.mktemp("sdist") / "errdex.db"
    done = errdex("mine", str(click_sdist), "--db", str(db))
    assert done.returncode == 0, done.stderr
    return db, done.stderr


def test_an_sdist_is_mined_without_a_commit_its_repository_from_its_metadata(
    click_sdist: Path, mined_sdist: tuple[Path, str]
) -> None:
    db, stderr = mined_sdist
    assert stderr.count(NOTE) == 1
    note = next(line for line in stderr.splitlines() if NOTE in line)
    assert str(click_sdist) in note and "--sha" in note and "no permalink" in note
    with open_store(db, readonly=True) as store:
        (info,) = store.repos()
        records = list(store.records())
    expected = source_link(click_sdist / "PKG-INFO")
    assert expected == "pallets/click"
    assert (info.repo, info.sha, info.kind, info.package, info.version) == (
        expected,
        None,
        "sdist",
        "click",
        "8.1.8",
    )
    assert len(records) == info.records > 50
    assert all(r.repo == expected and r.analyzed_sha is None and r.github_url is None for r in records)
    assert not any(r.fits_schema_v2 for r in records)
    # Read back through the record's own validators, as an import would.
    assert [Record.model_validate(r.to_errdex()) for r in records] == records
    # Paths are the sdist's (``src/click/...``): where the files are in the repository too.
    assert any(r.file_path == "src/click/types.py" for r in records)


def test_records_without_a_commit_are_shown_explained_and_exported_as_they_can_be(
    click_sdist: Path, mined_sdist: tuple[Path, str], tmp_path: Path
) -> None:
    db, _ = mined_sdist
    with open_store(db, readonly=True) as store:
        records = list(store.records())
    # A real error, raised by the sdist's own code run from its tree.
    program = f"import sys\nsys.path.insert(0, {str(click_sdist / 'src')!r})\n{BAD_COUNT}"
    run = subprocess.run([sys.executable, "-I", "-c", program], capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "BadParameter: 'many' is not a valid integer." in run.stderr
    innermost = [line for line in run.stderr.splitlines() if 'File "' in line][-1]

    answered = errdex("explain", "--db", str(db), "--json", "-", stdin=run.stderr)
    assert answered.returncode == 0, answered.stderr
    best = json.loads(answered.stdout)["matches"][0]
    assert best["evidence"] == "frame"
    assert innermost.split('"')[1].endswith(best["record"]["filePath"])
    assert (best["record"]["analyzedSha"], best["record"]["githubUrl"]) == (None, None)
    shown = errdex("explain", "--db", str(db), "-", stdin=run.stderr)
    assert shown.returncode == 0, shown.stderr
    assert "'many'" in shown.stdout and "github.com" not in shown.stdout

    record = next(r for r in records if r.id == best["record"]["id"])
    card = errdex("show", record.id, "--db", str(db))
    assert card.returncode == 0, card.stderr
    assert record.file_path in card.stdout and "github.com" not in card.stdout

    schema_v2 = tmp_path / "v2.jsonl"
    exported = errdex("export", "--format", "errlookup", "--out", str(schema_v2), "--db", str(db))
    assert exported.returncode == 0, exported.stderr
    assert schema_v2.read_text() == ""
    assert f"{len(records)} records left out: schema v2 needs a commit" in " ".join(exported.stderr.split())
    full = tmp_path / "errdex.jsonl"
    assert errdex("export", "--format", "errdex", "--out", str(full), "--db", str(db)).returncode == 0
    lines = [json.loads(line) for line in full.read_text().splitlines()]
    assert sorted(r["id"] for r in lines) == sorted(r.id for r in records)
    assert {r["analyzedSha"] for r in lines} == {None}


def test_repo_is_taken_from_the_option_first(click_sdist: Path) -> None:
    result = mine(click_sdist, repo="acme/click-fork", jobs=1)
    assert result.info.repo == "acme/click-fork" and result.info.sha is None
    assert {r.repo for r in result.records} == {"acme/click-fork"}


def test_a_tree_nothing_names_needs_repo_in_one_clear_line(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    (plain / "pkg").mkdir(parents=True)
    (plain / "pkg" / "__init__.py").write_text("def f(x):\n    if x:\n        raise ValueError('bad x')\n")
    done = errdex("mine", str(plain), "--db", str(tmp_path / "a.db"))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "not a git checkout, and no package metadata" in done.stderr
    assert "pass --repo OWNER/NAME" in done.stderr

    elsewhere = tmp_path / "elsewhere"  # an sdist whose metadata links only to another host
    elsewhere.mkdir()
    (elsewhere / "PKG-INFO").write_text(
        "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\nHome-page: https://gitlab.com/acme/pkg\n"
    )
    (elsewhere / "pkg").mkdir()
    (elsewhere / "pkg" / "__init__.py").write_text("raise ValueError('bad')\n")
    done = errdex("mine", str(elsewhere), "--db", str(tmp_path / "b.db"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "its package metadata links to no GitHub repository" in done.stderr

    given = errdex("mine", str(plain), "--repo", "acme/plain", "--db", str(tmp_path / "c.db"))
    assert given.returncode == 0, given.stderr
    assert given.stderr.count(NOTE) == 1 and given.stdout.startswith("acme/plain: ")


def test_errdex_index_leaves_the_pattern_index_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python = make_venv(tmp_path / "venv")
    install(python, ("click", "8.1.8"))
    db = tmp_path / "env.db"
    indexed = errdex("index", "--db", str(db), "--python", str(python))
    assert indexed.returncode == 0, indexed.stderr
    cached = cached_index(db)
    assert cached is not None
    with open_store(db, readonly=True) as store:
        assert PatternIndex.loads(cached) == PatternIndex.build(store.pattern_rows())

    # The first lookup after the index only loads it: building it would fail here.
    def no_build(cls: type[PatternIndex], rows: object) -> PatternIndex:
        raise AssertionError("the pattern index was built by a lookup")

    monkeypatch.setattr(PatternIndex, "build", classmethod(no_build))
    run = subprocess.run([str(python), "-c", BAD_COUNT], capture_output=True, text=True, check=False)
    assert run.returncode == 1
    with Session(db, readonly=False) as session:
        best = session.explain(run.stderr).matches[0]
    assert (best.evidence, best.record.package) == ("frame", "click")
    monkeypatch.undo()

    # An index fresh but without its pattern index (dropped here, as a store an older errdex
    # wrote would be) gets it from the next ``errdex index``, which mines nothing.
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM cache")
    raw.close()
    assert cached_index(db) is None
    again = errdex("index", "--db", str(db), "--python", str(python))
    assert again.returncode == 0, again.stderr
    assert " 0 libraries mined" in again.stdout.replace("\n", " ")
    rebuilt = cached_index(db)
    assert rebuilt is not None and PatternIndex.loads(rebuilt) == PatternIndex.loads(cached)

    # The refresh ``errdex explain`` starts on first use leaves it built too.
    from errdex.envindex import ensure_fresh

    refreshed = tmp_path / "refreshed.db"
    assert ensure_fresh(str(refreshed), str(python)).changed
    assert cached_index(refreshed) is not None


def test_a_store_whose_pattern_index_is_kept_is_not_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errdex.envindex import cache_patterns

    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "m.py").write_text("raise ValueError('one')\n")
    result = mine(tmp_path / "one", repo="acme/one", jobs=1)
    db = tmp_path / "s.db"
    with open_store(db) as store:
        store.replace_repo(result.info, result.records)
    assert cached_index(db) is None
    assert cache_patterns(str(db)) is True and cached_index(db) is not None

    def no_build(rows: object) -> PatternIndex:
        raise AssertionError("built again")

    monkeypatch.setattr(PatternIndex, "build", no_build)
    assert cache_patterns(str(db)) is False
