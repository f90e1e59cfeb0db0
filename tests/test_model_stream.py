"""``errdex enrich --llm`` over a store of 50,000 real records holds a batch at a time: its peak
memory stays under 500 MB, however many records the store holds.

The records are lightning 2.6.6's, stored as 54 releases (each release a copy of the mine under
its own version), as a corpus holds many releases of one package; the server answers every
record with an empty object (no field errdex takes), so the run reads, keys and asks about
records without writing prose, and ``--limit`` bounds what is sent, not what is read.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from answer_server import MODEL, answer_server
from errdex.mine import mine
from errdex.store import open_store
from servers import ERRDEX

pytestmark = pytest.mark.pypi

RELEASES = 54
LIMIT_MB = 500


def _peak_mb(pid: int) -> float:
    """The process's peak resident memory so far (``VmHWM``), in MB; 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
    return int(found.group(1)) / 1024 if found else 0.0


def test_a_model_run_over_fifty_thousand_records_holds_one_batch(
    pypi_package: Callable[..., Path], tmp_path: Path
) -> None:
    root = pypi_package("lightning", "2.6.6")
    result = mine(root, repo="Lightning-AI/pytorch-lightning", sha="0" * 40, path_prefix="src/", jobs=2)
    db = tmp_path / "big.db"
    with open_store(db) as store:
        for n in range(RELEASES):
            version = f"2.6.{n}"
            info = result.info.model_copy(update={"version": version})
            records = [r.model_copy(update={"version": version}) for r in result.records]
            store.replace_repo(info, records, release=True)
        total = store.stats()["records"]
    assert total >= 50_000
    with answer_server({}) as url:
        process = subprocess.Popen(
            [ERRDEX, "enrich", "--db", str(db), "--llm", url, "--model", MODEL, "--limit", "200",
             "--concurrency", "4"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        peak = 0.0
        deadline = time.monotonic() + 1200
        while process.poll() is None and time.monotonic() < deadline:
            peak = max(peak, _peak_mb(process.pid))
            time.sleep(0.2)
        out, err = process.communicate(timeout=60)
    # Every record was read; the limit bounds the records sent, each answered with nothing to keep.
    assert f"{total} records: 200 sent" in " ".join(out.split()), out + err
    assert 0 < peak < LIMIT_MB, f"peak resident memory {peak:.0f} MB"
    print(f"\n{total} records read, peak resident memory {peak:.0f} MB")
