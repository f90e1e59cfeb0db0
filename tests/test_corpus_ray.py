"""A corpus run on a real 2-node Ray cluster (``ray.cluster_utils.Cluster``, on this machine)
that loses a node mid-run: the store still ends complete, each release's records once, the
same as a run on the local pool.  Real sdists from PyPI on a loopback package index."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from ray.cluster_utils import Cluster

from errdex.corpus.run import RunReport, run
from errdex.store import open_store
from package_index import PackageIndex, corpus_archives

REQUIREMENTS = ["click>=8.1", "idna>=3.5", "packaging>=23"]


@pytest.fixture
def index() -> Iterator[PackageIndex]:
    with PackageIndex(corpus_archives()) as served:
        yield served


def stored(db: str) -> dict[tuple[str, str], set[str]]:
    """Each release's record ids, and no id twice within a release."""
    with open_store(db) as store:
        out: dict[tuple[str, str], set[str]] = {}
        for artifact in store.artifacts():
            ids = [r.id for r in store.records(package=artifact.package, version=artifact.version)]
            assert len(ids) == len(set(ids)) == artifact.records
            out[artifact.key] = set(ids)
        return out


def test_a_lost_node_leaves_a_complete_store(index: PackageIndex, tmp_path: Path) -> None:
    reference = os.fspath(tmp_path / "local.db")
    with open_store(reference) as store:
        store.corpus_add(REQUIREMENTS)
    assert len(run(reference, index_url=index.url, jobs=2).done) == 9

    db = os.fspath(tmp_path / "ray.db")
    with open_store(db) as store:
        store.corpus_add(REQUIREMENTS)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "resources": {"errdex_large": 1}})
    try:
        doomed = cluster.add_node(num_cpus=1, resources={"errdex_large": 1})
        cluster.wait_for_nodes()
        reports: list[RunReport] = []
        driver = threading.Thread(
            target=lambda: reports.append(run(db, index_url=index.url, engine="ray", address=cluster.address))
        )
        driver.start()
        deadline = time.monotonic() + 180
        done = 0
        while time.monotonic() < deadline and not done:
            time.sleep(0.02)
            with open_store(db) as store:
                done = sum(a.state == "done" for a in store.artifacts())
        cluster.remove_node(doomed)
        assert 0 < done < 9, "the node was not lost mid-run"
        driver.join(timeout=300)
        assert not driver.is_alive()
    finally:
        ray.shutdown()
        cluster.shutdown()
    (report,) = reports
    with open_store(db) as store:
        states = {a.key: a.state for a in store.artifacts()}
    # A task lost with the node is retried by Ray, or else left queued as the host's failure.
    assert all(a.failure == "host" for a in report.failed), report.failed
    if report.failed:
        assert len(run(db, index_url=index.url, jobs=2).done) == len(report.failed)
        with open_store(db) as store:
            states = {a.key: a.state for a in store.artifacts()}
    assert set(states.values()) == {"done"} and len(states) == 9
    assert stored(db) == stored(reference)
