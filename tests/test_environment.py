"""Indexing a real virtual environment: what is installed, upgraded and removed, re-mined alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.defaults import choose_interpreter, default_target, environment_db
from errdex.envindex import ensure_fresh, refresh
from errdex.mine.environment import distributions, probe
from errdex.record import RepoInfo, utc_now
from errdex.session import Session
from errdex.store import open_store
from pypi import fetch_wheel

pytestmark = pytest.mark.pypi
ERRDEX = Path(sys.executable).with_name("errdex")


def make_venv(path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return path / "bin" / "python"


def pip(python: Path, *args: str) -> None:
    """Run this environment's pip against another interpreter: the venv needs no pip of its own."""
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check", "-q", *args],
        check=True,
    )


def install(python: Path, *wheels: tuple[str, str]) -> None:
    pip(python, "install", "--no-deps", "--no-index", *(str(fetch_wheel(n, v)) for n, v in wheels))


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    python = make_venv(tmp_path_factory.mktemp("venv") / "env")
    install(python, ("click", "8.1.7"), ("idna", "3.10"))
    return python


def by_package(store_path: Path) -> dict[str | None, tuple[str | None, str]]:
    with open_store(store_path) as store:
        return {info.package: (info.version, info.analyzed_at) for info in store.repos()}


def test_only_what_changed_is_mined_again(venv: Path, tmp_path: Path) -> None:
    db = tmp_path / "env.db"
    env = probe(str(venv))
    with open_store(db) as store:
        first = refresh(store, env, jobs=2)
    assert {info.package for info in first.mined} == {"python", "click", "idna"}
    before = by_package(db)
    assert before["click"][0] == "8.1.7" and before["python"][0] == env.version

    with open_store(db) as store:
        click = [r for r in store.records() if r.package == "click"]
        stdlib = [r for r in store.records() if r.package == "python"]
    # Paths as tracebacks show them below site-packages; the standard library as CPython lays it out.
    assert any(r.file_path == "click/core.py" for r in click)
    assert all(r.repo == "pallets/click" and r.version == "8.1.7" for r in click)
    assert all(
        r.analyzed_sha is None and r.github_url and "/blob/v8.1.7/click/" in r.github_url for r in click
    )
    assert any(r.file_path == "Lib/json/decoder.py" for r in stdlib)
    assert all(f"/python/cpython/blob/v{env.version}/Lib/" in (r.github_url or "") for r in stdlib)

    assert not ensure_fresh(str(db), str(venv)).changed  # nothing installed since

    install(venv, ("click", "8.1.8"))
    upgraded = ensure_fresh(str(db), str(venv))
    assert [info.package for info in upgraded.mined] == ["click"]
    after = by_package(db)
    assert after["click"][0] == "8.1.8"
    assert after["idna"] == before["idna"] and after["python"] == before["python"]  # not mined again
    with open_store(db) as store:
        assert {r.version for r in store.records() if r.package == "click"} == {"8.1.8"}

    pip(venv, "uninstall", "-y", "idna")
    removed = ensure_fresh(str(db), str(venv))
    assert removed.removed == [("kjd/idna", "idna")] and not removed.mined
    assert "idna" not in by_package(db)


def test_a_real_error_in_the_environment_is_explained_at_its_line(venv: Path, tmp_path: Path) -> None:
    db = tmp_path / "env.db"
    ensure_fresh(str(db), str(venv))
    program = (
        "import click\n"
        "@click.command()\n@click.option('--count', type=int)\ndef run(count):\n    pass\n"
        "run.main(['--count', 'many'], standalone_mode=False)\n"
    )
    run = subprocess.run([str(venv), "-c", program], capture_output=True, text=True, check=False)
    assert run.returncode == 1
    innermost = [line for line in run.stderr.splitlines() if 'File "' in line][-1]
    path, line = innermost.split('"')[1], int(innermost.split("line ")[1].split(",")[0])
    with Session(db, readonly=False) as session:
        best = session.explain(run.stderr).matches[0]
    assert best.evidence == "frame"
    assert path.endswith(best.record.file_path)
    # click raises through a helper (``self.fail(...)``): the frame shows the helper's raise.
    assert line in [line for s in best.record.sites for line in (s.line_number, s.via_line_number)]
    assert "'many'" in best.captures.values()  # its template also produces the message
    # Stored as mined, the record is enriched when it is read.
    assert (best.stored.enrichment, best.record.enrichment) == ("none", "static")


def test_errdex_explain_builds_the_environment_index_on_first_use(venv: Path, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "VIRTUAL_ENV": str(venv.parent.parent),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    env.pop("ERRDEX_DB", None)
    message = "click.exceptions.BadParameter: 'many' is not a valid integer."

    def explain() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(ERRDEX), "explain", message, "--json"], capture_output=True, text=True, env=env, check=False
        )

    first = explain()
    assert first.returncode == 0, first.stderr
    assert "indexing the Python environment" in first.stderr
    assert json.loads(first.stdout)["matches"][0]["record"]["package"] == "click"
    assert list((tmp_path / "data" / "errdex" / "environments").glob("venv*-env-*.db"))
    again = explain()
    assert again.returncode == 0 and "indexing" not in again.stderr


def test_distributions_are_read_from_disk_and_nothing_installed_runs(tmp_path: Path) -> None:
    python = make_venv(tmp_path / "env")
    site = Path(probe(str(python)).site[0])
    marker = tmp_path / "ran"
    # A .pth line starting with "import" runs at every start-up of that interpreter, with site.
    (site / "evil.pth").write_text(f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n")
    dist_info = site / "evil-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: evil\nVersion: 1.0\nProject-URL: Source, https://github.com/acme/evil\n"
    )
    (site / "evil").mkdir()
    (site / "evil" / "__init__.py").write_text("raise ValueError('imported evil')\n")
    outside = tmp_path / "outside.py"
    outside.write_text("raise ValueError('outside the environment')\n")
    (dist_info / "RECORD").write_text(f"evil/__init__.py,,\n../../../../outside.py,,\n{outside},,\n")
    broken = site / "broken-1.0.dist-info"
    broken.mkdir()
    (broken / "METADATA").write_bytes(b"\xff\xfe not metadata")
    legacy = site / "legacy-2.0.egg-info"  # what ``setup.py install`` leaves
    legacy.mkdir()
    (legacy / "PKG-INFO").write_text("Metadata-Version: 1.1\nName: legacy\nVersion: 2.0\n")
    (legacy / "installed-files.txt").write_text("../legacy.py\nPKG-INFO\n")
    (site / "legacy.py").write_text("def f(x):\n    if x < 0:\n        raise ValueError('negative x')\n")

    db = tmp_path / "env.db"
    done = ensure_fresh(str(db), str(python))
    assert not marker.exists()
    assert [d.name for d in distributions(done.environment)] == ["evil", "legacy"]
    assert [(s.path, s.reason) for _, s in done.skipped] == [
        (str(broken), "metadata names no distribution (no Name or Version)")
    ]
    with open_store(db) as store:
        records = {r.package: r for r in store.records() if r.package in ("evil", "legacy")}
    # Only the file inside site-packages that the distribution lists, never the ones outside.
    assert [(r.file_path, r.error_message, r.repo) for r in records.values()] == [
        ("evil/__init__.py", "imported evil", "acme/evil"),
        ("legacy.py", "negative x", "pypi/legacy"),
    ]
    assert records["legacy"].github_url is None and records["legacy"].conditions == ["x < 0"]


def test_which_environment_is_meant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    make_venv(project / ".venv")
    (project / "src" / "pkg").mkdir(parents=True)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("ERRDEX_DB", raising=False)
    assert choose_interpreter(cwd=project / "src" / "pkg") == str(project / ".venv" / "bin" / "python")
    assert choose_interpreter(cwd=tmp_path) == sys.executable
    other = make_venv(tmp_path / "other")
    monkeypatch.setenv("VIRTUAL_ENV", str(other.parent.parent))
    assert choose_interpreter(cwd=project) == str(other)
    assert choose_interpreter("/opt/python3", cwd=project) == "/opt/python3"
    target, interpreter = default_target(None)
    assert (target, interpreter) == (str(environment_db(str(other))), str(other))
    assert environment_db(str(other)) != environment_db(str(project / ".venv" / "bin" / "python"))
    # One environment, whichever of its interpreters' names is used.
    assert environment_db(str(other)) == environment_db(str(other.with_name("python3")))
    assert environment_db(str(other)).name.startswith(f"{tmp_path.name}-other-")
    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "chosen.db"))
    assert default_target(None) == (str(tmp_path / "chosen.db"), None)
    assert default_target(tmp_path / "given.db") == (str(tmp_path / "given.db"), None)


def test_an_index_another_errdex_wrote_is_built_anew_and_nothing_else_is_lost(
    venv: Path, tmp_path: Path
) -> None:
    import sqlite3

    from errdex.errors import ErrdexError

    def written_by_an_older_errdex(db: Path) -> None:
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
        raw.close()

    db = tmp_path / "env.db"
    ensure_fresh(str(db), str(venv))
    indexed = set(by_package(db))  # what the venv holds now (the tests above change it)
    written_by_an_older_errdex(db)
    said: list[str] = []
    rebuilt = ensure_fresh(str(db), str(venv), phase=said.append)
    assert {info.package for info in rebuilt.mined} == indexed and "python" in indexed
    assert any("written by another version of errdex" in line for line in said)
    assert set(by_package(db)) == indexed

    # A store that also holds a mined checkout is the user's: refused, untouched.
    mined = tmp_path / "mined.db"
    with open_store(mined) as store:
        store.replace_repo(RepoInfo(repo="acme/app", sha=None, analyzed_at=utc_now(), kind="checkout"), [])
    written_by_an_older_errdex(mined)
    before = mined.read_bytes()
    with pytest.raises(ErrdexError, match="store schema 3 but this errdex needs"):
        ensure_fresh(str(mined), str(venv))
    assert mined.read_bytes() == before
