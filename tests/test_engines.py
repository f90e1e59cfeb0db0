"""The corpus engines, on real worker processes and real Ray clusters.

The task is a real idempotent one: it writes its row into a SQLite file (``INSERT OR REPLACE``
keyed by the task), and logs each run's start and end apart, so a test sees which runs
overlapped, which ran twice and which were killed before they ended.
"""

from __future__ import annotations

import itertools
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from errdex.corpus.engines import Lost, run_local, run_ray
from errdex.errors import ErrdexError


@dataclass(frozen=True)
class Job:
    key: str
    db: str
    sleep: float = 0.05
    large: bool = False
    kill_once: str = ""  # a marker file: the first run kills its own worker, later ones work
    kill_always: bool = False
    fail: bool = False


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The store the tasks write to, made before any runs (WAL: writers from many processes).

    Every connection here is closed at once: one left to the cyclic collector stays open in
    this process, and a pool forked then inherits SQLite's lock bookkeeping for the file,
    which breaks the workers' own connections (SQLITE_IOERR_SHORT_READ)."""
    path = tmp_path / "rows.db"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE rows (key TEXT PRIMARY KEY, pid INTEGER)")
        conn.execute("CREATE TABLE runs (key, pid, node, large, start REAL, end REAL)")
    return path


def _node() -> str:
    """The Ray node a task runs on, or '' in a pool worker."""
    ray = sys.modules.get("ray")
    return ray.get_runtime_context().get_node_id() if ray and ray.is_initialized() else ""


def store_row(job: Job) -> str:
    conn = sqlite3.connect(job.db, timeout=60, isolation_level=None)
    try:
        run = conn.execute(
            "INSERT INTO runs VALUES (?, ?, ?, ?, ?, NULL)",
            (job.key, os.getpid(), _node(), job.large, time.time()),
        ).lastrowid
        if job.kill_always or (job.kill_once and not os.path.exists(job.kill_once)):
            if job.kill_once:
                Path(job.kill_once).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        if job.fail:
            raise ValueError(f"cannot unpack {job.key}")
        time.sleep(job.sleep)
        conn.execute("INSERT OR REPLACE INTO rows VALUES (?, ?)", (job.key, os.getpid()))
        conn.execute("UPDATE runs SET end = ? WHERE rowid = ?", (time.time(), run))
    finally:
        conn.close()
    return job.key


def is_large(job: Job) -> bool:
    return job.large


def jobs(db: Path, count: int, **kwargs: object) -> list[Job]:
    return [Job(f"a{n}", str(db), **kwargs) for n in range(count)]  # type: ignore[arg-type]


def rows(db: Path) -> dict[str, int]:
    with closing(sqlite3.connect(db)) as conn:
        return dict(conn.execute("SELECT key, pid FROM rows"))


def runs(db: Path) -> list[tuple[str, int, str, int, float, float | None]]:
    with closing(sqlite3.connect(db)) as conn:
        return list(conn.execute("SELECT * FROM runs ORDER BY start"))


def assert_no_large_overlap(db: Path) -> None:
    """No two large runs on one node (one pool) at once."""
    larges = sorted((node, start, end) for _, _, node, large, start, end in runs(db) if large)
    assert len(larges) >= 2
    for (node, _, end), (other, start, _) in itertools.pairwise(larges):
        assert node != other or (end is not None and end <= start)


# --- the local pool --------------------------------------------------------------------------


def test_local_pool_runs_every_task(db: Path) -> None:
    tasks = jobs(db, 12)
    out = dict(run_local(store_row, tasks, jobs=2))
    assert out == {t: t.key for t in tasks}
    assert len(rows(db)) == 12
    assert len({pid for pid in rows(db).values()}) == 2  # both workers took tasks


def assert_chains_in_order(db: Path, chain: dict[str, str]) -> None:
    """Each chain's runs one after another, in the order of their keys."""
    by_chain: dict[str, list[tuple[float, float | None, str]]] = {}
    for key, _, _, _, start, end in runs(db):
        if key in chain:
            by_chain.setdefault(chain[key], []).append((start, end, key))
    assert by_chain
    for spans in by_chain.values():
        assert [k for *_, k in spans] == sorted((k for *_, k in spans), key=lambda k: int(k[1:]))
        for (_, end, _), (start, _, _) in itertools.pairwise(sorted(spans)):
            assert end is not None and end <= start


def test_local_chained_tasks_run_one_after_another(db: Path) -> None:
    tasks = jobs(db, 8, sleep=0.1)
    chain = {"a0": "x", "a1": "x", "a2": "x", "a4": "y", "a5": "y"}
    out = dict(run_local(store_row, tasks, jobs=2, chain=lambda t: chain.get(t.key)))
    assert out == {t: t.key for t in tasks}
    assert_chains_in_order(db, chain)
    assert len(set(rows(db).values())) == 2  # the others still ran beside them


def test_local_large_tasks_never_overlap(db: Path) -> None:
    tasks = [Job(f"a{n}", str(db), sleep=0.15, large=n % 2 == 0) for n in range(8)]
    out = dict(run_local(store_row, tasks, jobs=2, large=is_large))
    assert not any(isinstance(r, Lost) for r in out.values())
    assert_no_large_overlap(db)
    # Small ones still ran beside the large ones.
    spans = runs(db)
    assert any(
        a[3] and not b[3] and a[4] < b[5] and b[4] < a[5]  # type: ignore[operator]
        for a in spans
        for b in spans
    )


def test_local_worker_killed_once_is_rerun(tmp_path: Path, db: Path) -> None:
    """A worker killed mid-task breaks the pool: every task running then runs again, alone,
    and the one killed once succeeds the second time; none is Lost."""
    tasks = jobs(db, 10, sleep=0.1)
    tasks[3] = Job("a3", str(db), kill_once=str(tmp_path / "killed"))
    out = dict(run_local(store_row, tasks, jobs=2))
    assert out == {t: t.key for t in tasks}
    assert set(rows(db)) == {t.key for t in tasks}
    assert (tmp_path / "killed").exists()
    assert [r[0] for r in runs(db)].count("a3") == 2


def test_local_worker_that_always_dies_is_lost(db: Path) -> None:
    tasks = jobs(db, 8, sleep=0.1)
    tasks[2] = Job("a2", str(db), kill_always=True)
    tasks[5] = Job("a5", str(db), fail=True)
    out = dict(run_local(store_row, tasks, jobs=2))
    assert out[tasks[2]] == Lost(tasks[2], "its worker process died")
    assert out[tasks[5]] == Lost(tasks[5], "ValueError: cannot unpack a5")
    assert set(rows(db)) == {t.key for t in tasks} - {"a2", "a5"}


def test_local_closed_early_kills_running_work(db: Path) -> None:
    tasks = [Job("quick", str(db), sleep=0.0), *jobs(db, 6, sleep=30)]
    started = time.monotonic()
    results = run_local(store_row, tasks, jobs=2)
    assert next(results) == (tasks[0], "quick")
    results.close()
    assert time.monotonic() - started < 10
    assert set(rows(db)) == {"quick"}
    for pid in {r[1] for r in runs(db)}:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # gone, and reaped


# --- Ray ---------------------------------------------------------------------------------


ray = pytest.importorskip("ray")
#: Ray's test clusters: many nodes in one machine (as ``Any``: its annotations are partial).
Cluster: Any = pytest.importorskip("ray.cluster_utils").Cluster

#: Nodes small enough for a shared machine.
NODE = {"num_cpus": 1, "object_store_memory": 80 * 2**20}


@pytest.fixture(autouse=True)
def importable(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray workers import the task's module by name, as they would errdex's own: nodes started
    from here find this file's directory on ``PYTHONPATH``."""
    if request.node.name.startswith("test_ray"):
        here = str(Path(__file__).parent)
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))


#: The head notices a lost node within a second, not Ray's default fifteen.
FAST_HEALTH_CHECKS = {
    "health_check_initial_delay_ms": 0,
    "health_check_period_ms": 300,
    "health_check_timeout_ms": 300,
    "health_check_failure_threshold": 2,
}


@pytest.fixture
def cluster(importable: None) -> Iterator[Any]:
    """A head and a worker node of one CPU each; only the worker offers ``errdex_large``."""
    made = Cluster(
        initialize_head=True,
        head_node_args={**NODE, "include_dashboard": False, "_system_config": FAST_HEALTH_CHECKS},
    )
    made.add_node(**NODE, resources={"errdex_large": 1})
    made.wait_for_nodes()
    yield made
    if ray.is_initialized():
        ray.shutdown()
    made.shutdown()


def test_ray_missing_gives_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ErrdexError, match=r"pip install 'errdex\[cluster\]'"):
        next(run_ray(store_row, [], address=None, jobs=1))


def test_ray_chained_tasks_run_one_after_another(db: Path, cluster: Any) -> None:
    tasks = jobs(db, 6, sleep=0.2)
    chain = {"a0": "x", "a1": "x", "a3": "x"}
    out = dict(
        run_ray(store_row, tasks, address=cluster.address, jobs=None, chain=lambda t: chain.get(t.key))
    )
    assert out == {t: t.key for t in tasks}
    assert_chains_in_order(db, chain)


def test_ray_local_cluster_runs_and_shuts_down(db: Path) -> None:
    tasks = jobs(db, 6, sleep=0.01)
    tasks[1] = Job("a1", str(db), fail=True)
    out = dict(run_ray(store_row, tasks, address=None, jobs=1))
    lost = out.pop(tasks[1])
    assert isinstance(lost, Lost)
    assert lost.reason == "ValueError: cannot unpack a1"
    assert out == {t: t.key for t in tasks if t.key != "a1"}
    assert not ray.is_initialized()  # the cluster it started is gone


def test_ray_survives_a_lost_node(db: Path, cluster: Any) -> None:
    """The worker node dies (its raylet, and the worker process running a task) mid-run: Ray
    runs that task again on the head; the large tasks, left with no node offering
    ``errdex_large``, ask for the head's CPU instead, and for the resource again once a new
    node offers it.  Every row is written exactly once, none is lost, no two large tasks
    overlap on a node, and the cluster errdex joined is still up after."""
    tasks = [Job(f"a{n}", str(db), sleep=0.5, large=n % 3 == 0) for n in range(10)]
    worker = cluster.list_all_nodes()[1]
    out = {}
    added = None
    for task, result in run_ray(store_row, tasks, address=cluster.address, jobs=None, large=is_large):
        out[task] = result
        if len(out) == 1:
            victim, pid = running_on(db, worker.node_id)
            cluster.remove_node(worker, allow_graceful=False)
            os.kill(pid, signal.SIGKILL)  # a worker outlives its raylet for a while
        if added is None and cluster.head_node.node_id in large_nodes(db):  # fell back: grow again
            added = cluster.add_node(**NODE, resources={"errdex_large": 1})
    assert out == {t: t.key for t in tasks}
    assert set(rows(db)) == {t.key for t in tasks}
    assert {node for key, _, node, *_ in runs(db) if key == victim} - {worker.node_id}
    assert added is not None, "large tasks ran on the head, by CPUs, once errdex_large was gone"
    assert_no_large_overlap(db)
    assert not ray.is_initialized()
    ray.init(address=cluster.address, log_to_driver=False)
    alive = {node["NodeID"] for node in ray.nodes() if node["Alive"]}
    assert {cluster.head_node.node_id, added.node_id} <= alive


def gone(pid: int) -> bool:
    """Whether process ``pid`` ends within a few seconds (and is reaped)."""
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def large_nodes(db: Path) -> set[str]:
    return {node for _, _, node, large, *_ in runs(db) if large}


def running_on(db: Path, node: str) -> tuple[str, int]:
    """The task running on ``node`` that started last, and its worker (waiting for one)."""
    for _ in range(100):
        started = [r for r in runs(db) if r[2] == node and r[5] is None]
        if started:
            return started[-1][0], started[-1][1]
        time.sleep(0.05)
    raise AssertionError("no task started on the worker node")


def test_ray_cluster_without_large_resource(db: Path) -> None:
    """Without ``errdex_large`` a large task asks for all the CPUs of the smallest node, so two
    never share one.  A driver connected before is used and left connected, and closing the
    generator early cancels the tasks still out."""
    two = {**NODE, "num_cpus": 2}
    made = Cluster(initialize_head=True, head_node_args={**two, "include_dashboard": False})
    made.add_node(**two)  # two: on one, "slow" would hold a CPU and the large ones wait for it
    made.wait_for_nodes()
    try:
        ray.init(address=made.address, log_to_driver=False)
        tasks = [Job(f"a{n}", str(db), sleep=0.2, large=True) for n in range(4)]
        tasks += [Job("slow", str(db), sleep=30)]
        results = run_ray(store_row, tasks, address=made.address, jobs=None, large=is_large)
        out = dict(next(results) for _ in range(4))
        results.close()
        assert out == {t: t.key for t in tasks[:4]}
        assert_no_large_overlap(db)
        assert ray.is_initialized()
        time.sleep(1)  # had "slow" not been cancelled before it started, it would have now
        for _, pid, *_ in (r for r in runs(db) if r[0] == "slow"):
            assert gone(pid), "cancelled while running, its worker is killed"
        assert set(rows(db)) == {t.key for t in tasks[:4]}
    finally:
        if ray.is_initialized():
            ray.shutdown()
        made.shutdown()
