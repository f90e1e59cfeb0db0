"""Writers beside readers and beside each other: nothing waits on a cache, nothing mined is lost,
and a server answers while its store is rebuilt under it.  Real processes, one real SQLite file."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errdex import session as session_module
from errdex.mine import mine
from errdex.session import Session
from errdex.store import open_store, writing

ERRDEX = str(Path(sys.executable).with_name("errdex"))
MESSAGE = "ValueError: '999.1.1.1' does not appear to be an IPv4 or IPv6 address"


def package(root: Path, name: str) -> Path:
    (root / name).mkdir(parents=True)
    (root / name / "core.py").write_text(
        f"def load(mode):\n    raise ValueError('{name} cannot load ' + mode)\n"
    )
    return root


@pytest.fixture
def db(stdlib_db: Path, tmp_path: Path) -> Path:
    """A copy of the standard-library store without its cached pattern index: the first explain
    builds one and tries to keep it."""
    copy = tmp_path / "errdex.db"
    shutil.copy(stdlib_db, copy)
    with sqlite3.connect(copy) as raw:
        raw.execute("DELETE FROM cache")
    return copy


def test_an_explain_beside_a_writer_answers_without_waiting_for_its_cache(db: Path) -> None:
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process's mine, in the middle of its write
    try:
        start = time.monotonic()
        done = subprocess.run([ERRDEX, "explain", "--db", str(db), MESSAGE], capture_output=True, text=True)
        took = time.monotonic() - start
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert done.returncode == 0, done.stderr
    assert "ipaddress" in done.stdout
    assert took < 4, took  # SQLite's busy timeout is 5 s: the cache write gave up long before


def test_a_second_writer_waits_its_turn_and_loses_nothing(db: Path, tmp_path: Path) -> None:
    source = package(tmp_path / "src", "widgets")
    with writing(db):
        # The first writer also holds SQLite's write lock, as a mine storing its records does.
        writer = sqlite3.connect(db, isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")
        second = subprocess.Popen(
            [ERRDEX, "mine", str(source), "--repo", "acme/widgets", "--sha", "0" * 40, "--db", str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(6)  # longer than SQLite lets a writer wait
        assert second.poll() is None, second.communicate()
        writer.execute("ROLLBACK")
        writer.close()
    out, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    assert "waiting for another errdex" in err and "1 records" in out
    with open_store(db, readonly=True) as store:
        assert [r.error_message for r in store.records("acme/widgets")] == ["widgets cannot load {mode}"]


def test_two_mines_at_once_both_land(db: Path, tmp_path: Path) -> None:
    mines = [
        subprocess.Popen(
            [
                ERRDEX,
                "mine",
                str(package(tmp_path / name, name)),
                "--repo",
                f"acme/{name}",
                "--sha",
                "1" * 40,
                "--db",
                str(db),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in ("alpha", "beta", "gamma")
    ]
    for process in mines:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    with open_store(db, readonly=True) as store:
        assert {"acme/alpha", "acme/beta", "acme/gamma"} <= {info.repo for info in store.repos()}


def patterned(session: Session, message: str) -> list[str]:
    """The repositories of the records whose pattern (the index, not full-text search) fits."""
    return [m.stored.repo for m in session.explain(message).matches if m.evidence.startswith("pattern")]


def test_a_serving_session_answers_from_its_index_while_a_new_one_is_built(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session_module, "QUIET", 0.2)
    served = Session(db, serving=True)
    assert served.explain(MESSAGE).matches  # the index, built on first use
    built = session_module.load_index

    def slow(store: object) -> object:
        time.sleep(1.5)  # a large store's index
        return built(store)  # type: ignore[arg-type]

    monkeypatch.setattr(session_module, "load_index", slow)
    result = mine(package(tmp_path / "src", "widgets"), repo="acme/widgets", sha="0" * 40, jobs=1)
    with open_store(db) as store:
        store.replace_repo(result.info, result.records)
    start = time.monotonic()
    answer = served.explain(MESSAGE)  # the records changed: answered from the index it has
    assert time.monotonic() - start < 1.0
    assert answer.matches and not patterned(served, "ValueError: widgets cannot load r")
    for _ in range(100):  # the new index, once built, is the one used
        found = patterned(served, "ValueError: widgets cannot load r")
        if found:
            break
        time.sleep(0.1)
    assert found == ["acme/widgets"]
    served.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, read from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="the kernel ends the workers on Linux")
def test_a_killed_mine_leaves_no_worker_running(tmp_path: Path) -> None:
    import os
    import signal

    root = tmp_path / "big"
    for n in range(1500):  # enough work that the workers are busy when the mine is killed
        package = root / f"pkg{n % 30}"
        package.mkdir(parents=True, exist_ok=True)
        body = "".join(
            f"def f{i}(x):\n    if x > {i}:\n        raise ValueError(f'x={{x}} over {i}')\n"
            for i in range(60)
        )
        (package / f"m{n}.py").write_text(body)
    mine_process = subprocess.Popen(
        [
            ERRDEX,
            "mine",
            str(root),
            "--repo",
            "acme/big",
            "--sha",
            "2" * 40,
            "--jobs",
            "2",
            "--db",
            str(tmp_path / "x.db"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    for _ in range(300):
        workers = children(mine_process.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.05)
    assert len(workers) >= 2, "the mine never started its workers"
    os.kill(mine_process.pid, signal.SIGKILL)
    mine_process.wait(10)
    for _ in range(100):
        alive = [pid for pid in workers if Path(f"/proc/{pid}").exists() and "Z" not in state(pid)]
        if not alive:
            break
        time.sleep(0.05)
    assert not alive, f"workers {alive} outlived the mine"


def state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
