"""Indexing a project's real node_modules: every package found, only what changed mined again,
other trees and the Python environment's sources left alone, and errdex explain using it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errdex import envindex
from errdex.defaults import find_node_modules
from errdex.mine.environment import Environment
from errdex.nodeindex import current, ensure_fresh, installed, node_modules_of, packages, refresh
from errdex.record import RepoInfo, utc_now
from errdex.store import open_store
from npm import BEFORE, NPM, REGISTRY, cache_root, installed_packages, node_modules

#: Scoped packages, and two versions of ``ms``: 2.0.0 at the top, 2.1.2 nested under debug,
#: which pins it exactly, as every package here pins its dependencies (none beyond ``ms``).
SPEC = {"ms": "2.0.0", "debug": "4.3.4", "@tootallnate/once": "2.0.0", "@sindresorhus/is": "4.6.0"}
PACKAGES = {
    "node_modules/ms": "ms@2.0.0",
    "node_modules/debug": "debug@4.3.4",
    "node_modules/debug/node_modules/ms": "ms@2.1.2",
    "node_modules/@tootallnate/once": "@tootallnate/once@2.0.0",
    "node_modules/@sindresorhus/is": "@sindresorhus/is@4.6.0",
}


@pytest.fixture(scope="module")
def tree() -> Path:
    """The installed tree, shared by every test (read only: copy it to change it)."""
    return node_modules(SPEC)


@pytest.fixture
def project(tree: Path, tmp_path: Path) -> Path:
    """A copy of the tree a test may change; npm writes relative links only, so it moves."""
    copy = tmp_path / "project"
    shutil.copytree(tree, copy, symlinks=True)
    (copy / "src").mkdir()
    return copy


def npm_install(project: Path, *specs: str) -> None:
    """What a user runs: npm adds the packages and leaves the others as they are."""
    cache = cache_root().parent / "npm-cache"
    command = [
        NPM, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", "--omit=dev",
        "--omit=peer", "--no-update-notifier", "--loglevel=error", f"--before={BEFORE}", f"--cache={cache}",
        f"--registry={REGISTRY}/", *specs,
    ]  # fmt: skip
    subprocess.run(command, cwd=project, check=True, capture_output=True, timeout=600)


def node_sources(db: Path) -> dict[str, RepoInfo]:
    with open_store(db) as store:
        return {info.package or "": info for info in store.repos() if info.kind == "node"}


def test_every_package_of_the_tree_is_found_with_what_its_package_json_says(tree: Path) -> None:
    found = installed(tree / "node_modules")
    assert {item.relative for item in found} == set(installed_packages(tree)) == set(PACKAGES)
    assert [item.relative for item in found][:2] == [
        "node_modules/@sindresorhus/is",
        "node_modules/@tootallnate/once",
    ]
    read, skipped = packages(tree / "node_modules")
    assert skipped == []
    for item, package in read:
        manifest = json.loads((tree / item.relative / "package.json").read_text())
        assert (package.name, package.version) == (manifest["name"], manifest["version"])
        assert f"{package.name}@{package.version}" == PACKAGES[item.relative]
    repos = {package.name: package.repo for _, package in read}
    assert repos == {
        "ms": "zeit/ms",
        "debug": "debug-js/debug",
        "@tootallnate/once": "TooTallNate/once",
        "@sindresorhus/is": "sindresorhus/is",
    }
    assert node_modules_of(tree) == node_modules_of(tree / "node_modules") == tree / "node_modules"


def test_only_what_changed_is_mined_again(project: Path, tmp_path: Path) -> None:
    db, tree = tmp_path / "node.db", project / "node_modules"
    said: list[str] = []
    first = ensure_fresh(str(db), tree, jobs=2, phase=said.append)
    assert sorted(info.package or "" for info in first.mined) == sorted(PACKAGES.values())
    assert f"indexing node_modules at {tree} (first use, or it changed)" in said
    before = node_sources(db)
    assert {info.kind for info in before.values()} == {"node"}
    with open_store(db) as store:
        # Two copies of ms, side by side: each its own release, raising at its own line.
        copies = {r.version: r for r in store.records() if r.package == "ms"}
        assert set(copies) == {"2.0.0", "2.1.2"}
        assert copies["2.0.0"].line_number != copies["2.1.2"].line_number
        assert all(r.file_path == "index.js" and r.repo == "zeit/ms" for r in copies.values())
        assert "/zeit/ms/blob/v2.1.2/index.js#L" in (copies["2.1.2"].github_url or "")
        assert [r.package for r in store.records(package="debug@4.3.4")] == ["debug"] * len(
            [r for r in store.records() if r.package == "debug"]
        )

    start = time.perf_counter()
    again = ensure_fresh(str(db), tree)
    assert time.perf_counter() - start < 1.0
    assert not again.changed and again.unchanged == len(PACKAGES)

    # Touched (or reinstalled at the same version): that one alone.
    manifest = tree / "debug" / "package.json"
    os.utime(manifest, ns=(time.time_ns(), time.time_ns()))
    touched = ensure_fresh(str(db), tree, jobs=2)
    assert [info.package for info in touched.mined] == ["debug@4.3.4"] and not touched.removed
    after = node_sources(db)
    assert after["ms@2.0.0"].analyzed_at == before["ms@2.0.0"].analyzed_at
    assert after["debug@4.3.4"].analyzed_at != before["debug@4.3.4"].analyzed_at

    npm_install(project, "escape-string-regexp@4.0.0")
    added = ensure_fresh(str(db), tree, jobs=2)
    assert [info.package for info in added.mined] == ["escape-string-regexp@4.0.0"]
    assert added.unchanged == len(PACKAGES)

    shutil.rmtree(tree / "@tootallnate")
    shutil.rmtree(tree / "debug" / "node_modules")  # debug's own copy of ms: debug is unchanged
    removed = ensure_fresh(str(db), tree, jobs=2)
    assert sorted(removed.removed) == [
        ("TooTallNate/once", "@tootallnate/once@2.0.0"),
        ("zeit/ms", "ms@2.1.2"),
    ]
    assert not removed.mined
    with open_store(db) as store:
        assert {r.version for r in store.records() if r.package == "ms"} == {"2.0.0"}
        assert not [r for r in store.records() if r.package == "@tootallnate/once"]


def test_an_unchanged_tree_of_hundreds_of_packages_is_recognised_in_well_under_a_second(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "big" / "node_modules"
    count = 0
    for i in range(240):
        name = f"@scope{i % 4}/pkg-{i}" if i % 3 == 0 else f"pkg-{i}"
        places = [tree / name] + ([tree / name / "node_modules" / "inner"] if i % 20 == 0 else [])
        for depth, place in enumerate(places):
            own = name if depth == 0 else "inner"
            place.mkdir(parents=True)
            manifest = {
                "name": own,
                "version": f"{depth + 1}.0.{i}",
                "repository": f"acme/{own.split('/')[-1]}",
            }
            (place / "package.json").write_text(json.dumps(manifest))
            (place / "index.js").write_text(
                f"module.exports = function use{i}(x) {{\n"
                f"  if (x === undefined) throw new TypeError('package {i} needs an x')\n  return x\n}}\n"
            )
            count += 1
    db = tmp_path / "big.db"
    first = ensure_fresh(str(db), tree, jobs=2)
    assert len(first.mined) == count == 252 and sum(info.records for info in first.mined) == count
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        fresh = current(str(db), tree)
        timings.append(time.perf_counter() - start)
        assert fresh is not None and fresh.unchanged == count
    start = time.perf_counter()
    again = ensure_fresh(str(db), tree)
    total = time.perf_counter() - start
    best = min(timings)
    print(f"unchanged tree of {count} packages: current() {best * 1e3:.1f} ms, refresh {total * 1e3:.1f} ms")
    assert not again.changed and total < 1.0 and best < 0.5


def test_a_package_json_that_cannot_be_used_is_a_skip_and_the_rest_is_indexed(
    project: Path, tmp_path: Path
) -> None:
    tree = project / "node_modules"
    (tree / "ms" / "package.json").write_text('{"name": "ms", "version": ')
    (tree / "fifo").mkdir()
    os.mkfifo(tree / "fifo" / "package.json")
    (tree / "huge").mkdir()
    (tree / "huge" / "package.json").write_text('{"name": "huge", "x": "' + "x" * 4_000_001 + '"}')
    (tree / "empty").mkdir()
    done = ensure_fresh(str(tmp_path / "node.db"), tree, jobs=2)
    skips = {skip.path: skip.reason for _, skip in done.skipped}
    assert skips["node_modules/ms/package.json"].startswith("package.json is not JSON (Expecting value")
    assert (
        skips["node_modules/fifo/package.json"] == "package.json cannot be read: not a regular file (a FIFO)"
    )
    assert skips["node_modules/huge/package.json"].startswith(
        "package.json cannot be read: larger than 4000000"
    )
    assert skips["node_modules/empty"] == "no package.json that can be read"
    assert sorted(info.package or "" for info in done.mined) == sorted(
        p for p in PACKAGES.values() if p != "ms@2.0.0"
    )


def test_the_python_environment_and_node_modules_leave_each_other_alone(
    project: Path, tmp_path: Path
) -> None:
    db = tmp_path / "both.db"
    ensure_fresh(str(db), project / "node_modules", jobs=2)
    node_before = node_sources(db)
    lib, site = tmp_path / "lib", tmp_path / "site"
    lib.mkdir()
    site.mkdir()
    (lib / "ranges.py").write_text(
        "def check(x):\n    if x < 0:\n        raise ValueError('x is negative')\n"
    )
    env = Environment(sys.executable, tmp_path, "3.11.0", lib, (site,))
    with open_store(db) as store:
        gone = RepoInfo(repo="pypi/gone", sha=None, analyzed_at=utc_now(), kind="installed", package="gone")
        store.replace_repo(gone, [])
        done = envindex.refresh(store, env, jobs=1)
    # The environment's refresh removes a distribution no longer installed, never a package.
    assert done.removed == [("pypi/gone", "gone")]
    assert [info.package for info in done.mined] == ["python"]
    assert node_sources(db) == node_before

    shutil.rmtree(project / "node_modules" / "@sindresorhus")
    with open_store(db) as store:
        dropped = refresh(store, project / "node_modules", jobs=1)
        kinds = {(info.kind, info.package) for info in store.repos()}
    assert dropped.removed == [("sindresorhus/is", "@sindresorhus/is@4.6.0")]
    assert ("stdlib", "python") in kinds and ("node", "@sindresorhus/is@4.6.0") not in kinds


def test_trees_of_two_projects_share_a_store_and_keep_what_each_holds(tree: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(tree, a, symlinks=True)
    shutil.copytree(tree, b, symlinks=True)
    shutil.rmtree(b / "node_modules" / "@sindresorhus")
    extra = b / "node_modules" / "extra"
    extra.mkdir()
    (extra / "package.json").write_text('{"name": "extra", "version": "1.0.0", "repository": "acme/extra"}')
    (extra / "index.js").write_text("module.exports = (x) => { if (!x) throw new Error('extra needs x') }\n")
    db = str(tmp_path / "shared.db")
    assert len(ensure_fresh(db, a / "node_modules", jobs=2).mined) == len(PACKAGES)
    # Copies of the releases tree a holds are taken as they are: only b's own is mined.
    second = ensure_fresh(db, b / "node_modules", jobs=2)
    assert [info.package for info in second.mined] == ["extra@1.0.0"] and not second.removed
    assert len(node_sources(Path(db))) == len(PACKAGES) + 1
    # Refreshing a leaves what b holds, and what only a held goes with a.
    assert not ensure_fresh(db, a / "node_modules", force=True, jobs=2).removed
    shutil.rmtree(a)
    after = ensure_fresh(db, b / "node_modules", jobs=2)
    assert after.removed == [("sindresorhus/is", "@sindresorhus/is@4.6.0")] and not after.mined


def test_which_node_modules_is_meant(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ERRDEX_NODE_MODULES", raising=False)
    assert find_node_modules(project / "src") == project / "node_modules"
    assert find_node_modules(project.parent) is None
    monkeypatch.setenv("ERRDEX_NODE_MODULES", "")
    assert find_node_modules(project / "src") is None
    monkeypatch.setenv("ERRDEX_NODE_MODULES", str(project / "node_modules"))
    assert find_node_modules(Path("/")) == project / "node_modules"


def test_errdex_explain_indexes_the_node_modules_of_the_project_it_runs_in(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from errdex.cli import app

    crash = subprocess.run(
        ["node", "-e", "require('ms')({})"], cwd=project, capture_output=True, text=True, check=False
    )
    assert crash.returncode == 1 and "node_modules/ms/index.js" in crash.stderr
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in ("ERRDEX_DB", "ERRDEX_NODE_MODULES"):
        monkeypatch.delenv(name, raising=False)
    # The Python environment counts as indexed already: this test is about node_modules.
    env = Environment(sys.executable, tmp_path, "3.11.0", tmp_path, ())
    monkeypatch.setattr(envindex, "current", lambda target, python: envindex.Refreshed(env))
    monkeypatch.chdir(project / "src")
    runner = CliRunner()

    first = runner.invoke(app, ["explain", crash.stderr, "--json"])
    assert first.exit_code == 0, first.output
    assert f"indexing node_modules at {project / 'node_modules'} (first use, or it changed)" in first.stderr
    best = json.loads(first.stdout)["matches"][0]
    assert (best["record"]["package"], best["record"]["version"]) == ("ms", "2.0.0")
    assert list((tmp_path / "data" / "errdex" / "environments").glob("*.db"))

    again = runner.invoke(app, ["explain", crash.stderr, "--json"])
    assert again.exit_code == 0 and "indexing" not in again.stderr

    npm_install(project, "escape-string-regexp@4.0.0")
    indexed = runner.invoke(app, ["index", "--node", str(project)])
    assert indexed.exit_code == 0, indexed.output
    assert f"{project / 'node_modules'}: 1 packages mined" in indexed.stdout


def test_an_index_another_errdex_wrote_is_built_anew_unless_it_holds_more(
    project: Path, tmp_path: Path
) -> None:
    import sqlite3

    from errdex.errors import ErrdexError
    from errdex.nodeindex import discard_outdated
    from errdex.store import OutdatedStore

    def written_by_an_older_errdex(db: Path) -> None:
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
        raw.close()

    db, tree = tmp_path / "old.db", project / "node_modules"
    ensure_fresh(str(db), tree, jobs=2)
    written_by_an_older_errdex(db)
    said: list[str] = []
    rebuilt = ensure_fresh(str(db), tree, jobs=2, phase=said.append)
    assert sorted(info.package or "" for info in rebuilt.mined) == sorted(PACKAGES.values())
    assert any("written by another version of errdex: building it anew" in line for line in said)
    # What the Python environment's refresh meets in such a store: its own sources and these.
    written_by_an_older_errdex(db)
    assert discard_outdated(OutdatedStore(db, "3")) and not db.exists()

    mined = tmp_path / "mined.db"
    with open_store(mined) as store:
        store.replace_repo(RepoInfo(repo="acme/app", sha=None, analyzed_at=utc_now(), kind="checkout"), [])
    written_by_an_older_errdex(mined)
    before = mined.read_bytes()
    assert not discard_outdated(OutdatedStore(mined, "3"))
    with pytest.raises(ErrdexError, match="store schema 3 but this errdex needs"):
        ensure_fresh(str(mined), tree)
    assert mined.read_bytes() == before


def test_a_pnpm_tree_is_read_through_its_links_each_package_once(tmp_path: Path) -> None:
    tree = tmp_path / "node_modules"
    store = tree / ".pnpm"
    for name, version in (("a", "1.0.0"), ("@s/b", "2.0.0")):
        place = store / f"{name.replace('/', '+')}@{version}" / "node_modules" / name
        place.mkdir(parents=True)
        (place / "package.json").write_text(json.dumps({"name": name, "version": version}))
        (place / "index.js").write_text(f"throw new Error('{name} failed')\n")
    # pnpm links each package's dependencies beside it, and the project's own at the top.
    (store / "a@1.0.0" / "node_modules" / "@s").mkdir()
    os.symlink("../../../@s+b@2.0.0/node_modules/@s/b", store / "a@1.0.0" / "node_modules" / "@s" / "b")
    os.symlink(".pnpm/a@1.0.0/node_modules/a", tree / "a")
    os.symlink(
        "../..", store / "a@1.0.0" / "node_modules" / "a" / "loop"
    )  # a link back up: never followed twice
    found = installed(tree)
    assert [(item.relative, item.name) for item in found] == [
        ("node_modules/a", "a"),
        ("node_modules/.pnpm/@s+b@2.0.0/node_modules/@s/b", "@s/b"),  # its own place, not a's link to it
    ]
    done = ensure_fresh(str(tmp_path / "pnpm.db"), tree, jobs=1)
    assert sorted(info.package or "" for info in done.mined) == ["@s/b@2.0.0", "a@1.0.0"]
    assert {info.repo for info in done.mined} == {"npm/a", "npm/s__b"}
