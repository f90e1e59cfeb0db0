"""Corpus runs end to end: real sdists from PyPI on a loopback package index, mined by the
local pool (and by a 2-node Ray cluster in ``test_corpus_ray.py``) into a real store.

What the file cache saves is checked against an independent count: the files whose bytes
differ between two real releases, hashed here.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.corpus.diff import diff_releases
from errdex.corpus.run import run
from errdex.corpus.task import artifact_source
from errdex.mine import mine_sources
from errdex.session import Session
from errdex.store import open_store
from package_index import PackageIndex, corpus_archives
from pg_server import pg_server, pg_url  # noqa: F401  (fixtures)

REQUIREMENTS = ["click>=8.1", "idna>=3.5", "packaging>=23"]


@pytest.fixture(scope="module")
def archives() -> dict[str, Path]:
    return {path.name: path for path in corpus_archives()}


@pytest.fixture
def index(archives: dict[str, Path]) -> Iterator[PackageIndex]:
    """The index without click 8.1.7, which a test publishes later."""
    with PackageIndex([p for name, p in archives.items() if name != "click-8.1.7.tar.gz"]) as served:
        yield served


def corpus(db: Path, requirements: list[str] = REQUIREMENTS) -> str:
    with open_store(db) as store:
        store.corpus_add(requirements)
    return os.fspath(db)


def unpacked(archive: Path, into: Path) -> Path:
    """The sdist's top directory, unpacked by the standard library (not by errdex)."""
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    (top,) = into.iterdir()
    return top


def digests(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in root.rglob("*")
        if p.is_file()
    }


def click_error(root: Path) -> subprocess.CompletedProcess[str]:
    """A real error raised by the code of an unpacked click sdist, run from it."""
    return subprocess.run(
        [sys.executable, "-c", "import click; click.Choice(['a', 'b']).convert('c', None, None)"],
        env={**os.environ, "PYTHONPATH": os.fspath(root / "src")},
        capture_output=True,
        text=True,
        check=False,
    )


def comparable(record: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in record.items() if k != "analyzedAt"}


def test_a_new_release_extracts_only_its_changed_files(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    db = corpus(tmp_path / "corpus.db")
    first = run(db, index_url=index.url, jobs=2)
    assert not first.failed and not first.problems and not first.stopped
    assert len(first.done) == 8
    with open_store(db) as store:
        assert {(a.package, a.version) for a in store.artifacts() if a.state == "done"} == {
            ("click", "8.1.5"), ("click", "8.1.6"), ("idna", "3.5"), ("idna", "3.6"), ("idna", "3.7"),
            ("packaging", "23.0"), ("packaging", "23.1"), ("packaging", "23.2"),
        }  # fmt: skip

    index.add(archives["click-8.1.7.tar.gz"])
    second = run(db, index_url=index.url, jobs=2)
    assert [(a.package, a.version) for a in second.done] == [("click", "8.1.7")]
    assert second.already_done == 8 and second.planned == 1

    # Independently: the files click 8.1.7 mines whose bytes are not 8.1.6's at the same path.
    old = digests(unpacked(archives["click-8.1.6.tar.gz"], tmp_path / "old"))
    new_root = unpacked(archives["click-8.1.7.tar.gz"], tmp_path / "new")
    new = digests(new_root)
    from errdex.store.artifacts import Artifact

    source = artifact_source(new_root, Artifact("click", "8.1.7", "", "", None, None, "sdist"))
    mined = [f.relative for f in (*source.files, *source.tests)]
    changed = [path for path in mined if old.get(path) != new[path]]
    assert 0 < len(changed) < len(mined)
    assert second.cache_misses == len(changed)
    assert second.cache_hits == len(mined) - len(changed)

    # Records built from cached extractions are those a mine without the cache builds.
    fresh = next(mine_sources([source], jobs=1))
    with open_store(db) as store:
        stored = {r.id: comparable(r.to_errdex()) for r in store.records(package="click", version="8.1.7")}
    assert stored == {r.id: comparable(r.to_errdex()) for r in fresh.records}


def test_explain_answers_the_release_a_path_or_version_names(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    db = corpus(tmp_path / "corpus.db", ["click>=8.1"])
    assert len(run(db, index_url=index.url, jobs=2).done) == 2
    root = unpacked(archives["click-8.1.5.tar.gz"], tmp_path / "src")
    # A real error from click 8.1.5's own code, run from its unpacked sdist.
    done = click_error(root)
    assert "click-8.1.5" in done.stderr and "BadParameter" in done.stderr, done.stderr
    last_line = done.stderr.strip().splitlines()[-1]
    with Session(db) as session:
        traced = session.explain(done.stderr).matches[0]
        assert traced.evidence == "frame" and traced.stored.version == "8.1.5"
        assert traced.releases == ["8.1.5", "8.1.6"]
        # The last line alone names no release: the newest is answered, unless one is asked for.
        newest = next(
            m for m in session.explain(last_line, top=10).matches if m.stored.id == traced.stored.id
        )
        assert newest.stored.version == "8.1.6" and newest.releases == ["8.1.5", "8.1.6"]
        asked = session.explain(last_line, top=10, version="click==8.1.5").matches
        assert next(m for m in asked if m.stored.id == traced.stored.id).stored.version == "8.1.5"
        # One match per record, whatever the number of releases holding it.
        ids = [m.stored.id for m in session.explain(last_line, top=10).matches]
        assert len(ids) == len(set(ids))


def test_a_killed_driver_is_finished_by_the_next_run(index: PackageIndex, tmp_path: Path) -> None:
    db = corpus(tmp_path / "corpus.db")
    command = [sys.executable, "-m", "errdex", "corpus", "run", "--db", db, "--index-url", index.url]
    driver = subprocess.Popen([*command, "--jobs", "1", "--quiet"], start_new_session=True)
    deadline = time.monotonic() + 120
    done_before: dict[tuple[str, str], str | None] = {}
    try:
        while time.monotonic() < deadline and not done_before:
            time.sleep(0.02)
            with open_store(db) as store:
                done_before = {a.key: a.updated_at for a in store.artifacts() if a.state == "done"}
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    assert done_before and len(done_before) < 8, "the driver was not killed mid-run"

    rerun = run(db, index_url=index.url, jobs=2)
    assert not rerun.failed
    assert rerun.already_done >= len(done_before)
    with open_store(db) as store:
        artifacts = store.artifacts()
        assert all(a.state == "done" for a in artifacts) and len(artifacts) == 8
        # What was finished before the kill was not done again.
        assert all(a.updated_at == done_before[a.key] for a in artifacts if a.key in done_before)
        assert not {a.key for a in rerun.done} & done_before.keys()
        # Each release's records once: as many stored as its artifact says it gave.
        for a in artifacts:
            assert len(list(store.records(package=a.package, version=a.version))) == a.records


def test_failures_are_told_apart_cool_off_and_stop_a_run(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    # A package's failure: archives that are not archives, published as real releases are.
    broken = []
    for n in range(3):
        path = tmp_path / f"broken{n}-1.0.tar.gz"
        path.write_bytes(b"not a tar archive at all\n" * 10)
        index.add(path)
        broken.append(f"broken{n}")
    db = corpus(tmp_path / "corpus.db", broken)
    report = run(db, index_url=index.url, jobs=1, max_failures=2)
    assert report.stopped and "2 failures in a row" in report.stopped
    assert len(report.failed) == 2 and all(a.failure == "package" for a in report.failed)
    assert [why for _, why in report.skipped] == ["not tried: the run stopped"]
    # Failed artifacts cool off: the next run skips them, saying why, unless told to retry.
    again = run(db, index_url=index.url, jobs=1, max_failures=5)
    cooling = [why for a, why in again.skipped if a.state == "failed"]
    assert len(cooling) == 2 and all("cooling off after 1 failures" in why for why in cooling)
    assert len(again.failed) == 1  # the one the first run stopped before
    retried = run(db, index_url=index.url, jobs=1, retry_failed=True, max_failures=5)
    with open_store(db) as store:
        attempts = {a.package: a.attempts for a in store.artifacts()}
    assert len(retried.failed) == 3 and sorted(attempts.values()) == [2, 2, 2]

    # The host's failure: no space left where artifacts are unpacked. It stays queued.
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    # As root, or through sudo (as scripts/browser installs Chromium).
    admin = [] if os.geteuid() == 0 else ["sudo", "-n"]
    mount = [*admin, "mount", "-t", "tmpfs", "-o", "size=64k,mode=1777", "tmpfs", os.fspath(tiny)]
    mounted = subprocess.run(mount, check=False)
    assert mounted.returncode == 0, "this test mounts a 64 kB tmpfs (a disk that fills up): root or sudo"
    try:
        full = corpus(tmp_path / "host.db", ["click==8.1.6"])
        report = run(full, index_url=index.url, jobs=1, work_dir=os.fspath(tiny))
    finally:
        subprocess.run([*admin, "umount", os.fspath(tiny)], check=True)
    (lost,) = report.failed
    assert lost.failure == "host" and lost.state == "queued" and lost.attempts == 0
    assert "No space left on device" in (lost.reason or "")
    # Once the host has room, the next run does it: no cooling off for the host's failures.
    assert [a.key for a in run(full, index_url=index.url, jobs=1).done] == [("click", "8.1.6")]


def test_a_checksum_that_does_not_match_fails_the_artifact(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    tampered = tmp_path / "idna-3.7.tar.gz"
    tampered.write_bytes(archives["idna-3.7.tar.gz"].read_bytes())
    index.add(tampered)  # listed with these bytes' sha256 ...
    with tampered.open("r+b") as f:  # ... then changed on the server
        f.seek(100)
        f.write(b"\0" * 16)
    db = corpus(tmp_path / "corpus.db", ["idna==3.7"])
    report = run(db, index_url=index.url, jobs=1)
    (failed,) = report.failed
    assert failed.failure == "package" and "sha256" in (failed.reason or "")


def test_status_and_diff_on_the_command_line(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    db = os.fspath(tmp_path / "corpus.db")
    cli = [sys.executable, "-m", "errdex", "corpus"]

    def errdex(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cli, *args], capture_output=True, text=True, check=False)

    added = errdex("add", "packaging>=23.0", "idna==3.7", "--db", db)
    assert added.returncode == 0 and "2 added" in added.stdout, added.stderr
    ran = errdex("run", "--db", db, "--index-url", index.url, "--json")
    assert ran.returncode == 0, ran.stderr
    summary = json.loads(ran.stdout)
    assert summary["done"] == 4 and summary["failed"] == 0 and summary["cacheHits"] > 0
    status = json.loads(errdex("status", "--db", db, "--json").stdout)
    assert {(a["package"], a["version"], a["state"]) for a in status["artifacts"]} == {
        ("packaging", "23.0", "done"), ("packaging", "23.1", "done"), ("packaging", "23.2", "done"),
        ("idna", "3.7", "done"),
    }  # fmt: skip
    assert all(a["sha256"] and a["size"] for a in status["artifacts"])

    shown = errdex("diff", "packaging", "23.0", "23.2", "--db", db, "--json")
    assert shown.returncode == 0, shown.stderr
    changes = json.loads(shown.stdout)
    with open_store(db) as store:
        expected = diff_releases(store, "packaging", "23.0", "23.2").to_json()
    assert changes == expected
    # Checked against the two releases' own files: an added message's literal text is in the
    # new release's file and nowhere in the old release's; a removed one the other way round.
    old = unpacked(archives["packaging-23.0.tar.gz"], tmp_path / "old")
    new = unpacked(archives["packaging-23.2.tar.gz"], tmp_path / "new")
    assert changes["added"] or changes["removed"] or changes["changed"]
    for entry, present, absent in (
        *((e, new, old) for e in changes["added"]),
        *((e, old, new) for e in changes["removed"]),
    ):
        text = _longest_literal(entry["errorMessage"])
        assert text in (present / entry["filePath"]).read_text()
        assert not any(text in p.read_text() for p in absent.rglob("*.py")), text
    missing = errdex("diff", "packaging", "23.0", "99.0", "--db", db)
    assert missing.returncode == 1 and "no release 99.0 of packaging" in missing.stderr


def _longest_literal(pattern: str) -> str:
    """The longest run of a message template's own text (between placeholders)."""
    import re

    return max(re.split(r"\{[^{}]*\}", pattern), key=len)


def test_a_corpus_in_postgresql_answers_as_in_sqlite(
    index: PackageIndex,
    archives: dict[str, Path],
    tmp_path: Path,
    pg_url: str,  # noqa: F811
) -> None:
    lite = corpus(tmp_path / "corpus.db", ["click>=8.1", "idna>=3.5"])
    with open_store(pg_url) as store:
        store.corpus_add(["click>=8.1", "idna>=3.5"])
    # Two tasks at once write different releases into the one database.
    for target in (lite, pg_url):
        report = run(target, index_url=index.url, jobs=2)
        assert len(report.done) == 5 and not report.failed
    with open_store(lite) as a, open_store(pg_url) as b:
        assert [x.key for x in a.artifacts()] == [x.key for x in b.artifacts()]
        for artifact in a.artifacts():
            ours = {r.id for r in a.records(package=artifact.package, version=artifact.version)}
            theirs = {r.id for r in b.records(package=artifact.package, version=artifact.version)}
            assert ours == theirs and len(ours) == artifact.records
    root = unpacked(archives["click-8.1.5.tar.gz"], tmp_path / "src")
    done = click_error(root)
    pastes = [
        done.stderr,
        done.stderr.strip().splitlines()[-1],
        "Invalid version: 'x'",
        "codepoint not allowed",
    ]

    def explained(target: str) -> list[str]:
        command = [sys.executable, "-m", "errdex", "explain", "--db", target, "--json", "--top", "5", "-"]
        answers = []
        for paste in pastes:
            ran = subprocess.run(command, input=paste, capture_output=True, text=True, check=False)
            assert ran.returncode == 0, ran.stderr
            answers.append(ran.stdout)
        return answers

    # Each store was mined on its own, moments apart: all else is the same.
    assert [_timeless(a) for a in explained(pg_url)] == [_timeless(a) for a in explained(lite)]

    # The HTTP API, served from either store, answers the same, with the releases' range.
    from fastapi.testclient import TestClient

    from errdex.serve.app import create_app

    served = []
    for target in (pg_url, lite):
        with TestClient(create_app(target)) as client:
            answer = client.post("/api/explain", json={"text": done.stderr, "top": 3}).json()
            top = answer["matches"][0]
            assert top["releases"] == {
                "first": "8.1.5",
                "last": "8.1.6",
                "count": 2,
                "all": ["8.1.5", "8.1.6"],
            }
            record = client.get(f"/api/errors/{top['record']['id']}", params={"version": "8.1.5"}).json()
            assert record["releases"]["all"] == ["8.1.5", "8.1.6"]
            page = client.get(f"/errors/{top['record']['id']}").text
            assert "raised in releases 8.1.5, 8.1.6 (2 releases; shown: 8.1.6)" in page
            served.append(_timeless(json.dumps(answer, separators=(",", ":"))))
    assert served[0] == served[1]


def _timeless(answer: str) -> str:
    import re

    return re.sub(r'"analyzedAt":"[^"]*"', '"analyzedAt":""', answer)


def test_a_local_checkout_is_mined_again_only_when_it_changed(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    from errdex.corpus.run import requirement_entry

    root = unpacked(archives["idna-3.7.tar.gz"], tmp_path / "checkout")
    db = corpus(tmp_path / "corpus.db", [requirement_entry(os.fspath(root))])
    first = run(db, index_url=index.url, jobs=1)
    (done,) = first.done
    assert (done.package, done.version, done.kind) == ("idna", "3.7", "checkout") and done.records > 0
    assert not run(db, index_url=index.url, jobs=1).done  # nothing changed: nothing mined
    core = root / "idna" / "core.py"
    core.write_text(core.read_text().replace("Empty domain", "No domain given"))
    again = run(db, index_url=index.url, jobs=1)
    assert [a.key for a in again.done] == [("idna", "3.7")]
    assert again.cache_misses == 1  # the one file edited
    with open_store(db) as store:
        messages = {r.error_message for r in store.records(package="idna", version="3.7")}
    assert "No domain given" in messages and "Empty domain" not in messages


def test_a_package_s_second_release_waits_for_the_first_to_use_its_files(
    index: PackageIndex, archives: dict[str, Path], tmp_path: Path
) -> None:
    from errdex.store.artifacts import Artifact

    db = corpus(tmp_path / "corpus.db", ["packaging>=23.1"])
    report = run(db, index_url=index.url, jobs=2)  # two workers, one package of two releases
    assert [a.version for a in report.done] == ["23.1", "23.2"]
    # Independently: the files 23.2 mines whose bytes are 23.1's at the same path.
    old = digests(unpacked(archives["packaging-23.1.tar.gz"], tmp_path / "old"))
    new_root = unpacked(archives["packaging-23.2.tar.gz"], tmp_path / "new")
    new = digests(new_root)
    source = artifact_source(new_root, Artifact("packaging", "23.2", "", "", None, None, "sdist"))
    same = [f.relative for f in (*source.files, *source.tests) if old.get(f.relative) == new[f.relative]]
    assert same and report.cache_hits == len(same)
