"""The HTTP API answering real errors: in-process through the app ``errdex serve`` runs, and for
real on loopback where the socket is the point (the server itself, its limits, its workers)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from conftest import innermost, real_traceback
from errdex.record import SCHEMA_V2_KEYS
from errdex.serve.app import create_app
from errdex.serve.http import MAX_BODY
from servers import ERRDEX, serving

BAD_ADDRESS = "import ipaddress; ipaddress.ip_address('999.1.1.1')"


@pytest.fixture(scope="module")
def api(stdlib_db: Path) -> Iterator[httpx.Client]:
    """The app ``errdex serve`` runs, in-process: every route's answer, without a socket."""
    with TestClient(create_app(str(stdlib_db))) as client:
        yield client


@pytest.fixture(scope="module")
def real_api(stdlib_db: Path) -> Iterator[httpx.Client]:
    """``errdex serve`` itself, on a loopback port."""
    with serving(stdlib_db) as url, httpx.Client(base_url=url, timeout=30) as client:
        yield client


def test_search_finds_the_raise_in_the_existing_apis_shape(api: httpx.Client) -> None:
    traceback = real_traceback(BAD_ADDRESS)
    found = api.get("/api/search", params={"q": traceback.splitlines()[-1], "limit": 3})
    assert found.status_code == 200
    body = found.json()
    assert set(body) == {"matches", "datasetVersion"}
    best = body["matches"][0]
    assert set(best) == {"id", "repo", "code", "message", "score", "matchType", "url"}
    assert best["matchType"] == "pattern+class" and best["repo"] == "python/cpython"

    record = api.get(f"/api/errors/{best['id']}").json()
    assert set(record) == {"record", "datasetVersion"}
    assert tuple(record["record"]) == SCHEMA_V2_KEYS  # the example's keys, in its order
    assert record["record"]["filePath"] == "Lib/ipaddress.py"
    line = innermost(traceback, "ipaddress.py")
    assert record["record"]["lineNumber"] <= line <= record["record"]["sourceCodeEnd"]
    assert record["record"]["solutions"], "served records carry their prose"
    by_slug = api.get(f"/api/errors/python/cpython/{record['record']['slug']}").json()
    assert by_slug["record"]["id"] == best["id"]


def test_errdex_serve_explains_as_the_cli_does(real_api: httpx.Client, stdlib_db: Path) -> None:
    traceback = real_traceback("from fractions import Fraction; Fraction(1, 0)")
    served = real_api.post("/api/explain", json={"text": traceback, "top": 3})
    assert served.status_code == 200
    cli = subprocess.run(
        [str(ERRDEX), "explain", "-", "--json", "--top", "3", "--db", str(stdlib_db)],
        input=traceback,
        capture_output=True,
        text=True,
        check=True,
    )
    assert served.json() == json.loads(cli.stdout)
    best = served.json()["matches"][0]
    assert best["evidence"] == "frame"
    assert best["record"]["lineNumber"] == innermost(traceback, "fractions.py")


def test_repos_schema_and_docs(api: httpx.Client) -> None:
    repos = api.get("/api/repos").json()
    assert [r["repo"] for r in repos["repos"]] == ["python/cpython"]
    assert repos["datasetVersion"] == repos["repos"][0]["analyzedAt"]
    assert "errorMessage" in api.get("/schema.json").json()["properties"]
    assert "/api/search" in api.get("/openapi.json").json()["paths"]
    assert api.get("/docs").status_code == 200


def test_bad_requests_get_clear_answers(api: httpx.Client) -> None:
    assert api.get("/api/search", params={"q": "x", "limit": 26}).status_code == 422
    assert api.get("/api/search", params={"q": "ValueError: x", "repo": "acme/none"}).json()["matches"] == []
    missing = api.get("/api/errors/0123456789abcdef")
    assert missing.status_code == 404 and "no record" in missing.json()["detail"]
    empty = api.post("/api/explain", json={"text": "  "})
    assert empty.status_code == 400 and "empty" in empty.json()["detail"]
    binary = api.post("/api/explain", json={"text": "\x00\x01binary\x00" * 20})
    assert binary.status_code == 400 and "binary" in binary.json()["detail"]
    # Over the paste limit but inside the body limit: errdex's own message.
    big = api.post("/api/explain", json={"text": "x" * 1_500_000})
    assert big.status_code == 400 and "1,000,000" in big.json()["detail"]


def test_a_real_server_refuses_too_large_bodies_and_answers_503_past_its_time_budget(
    real_api: httpx.Client, stdlib_db: Path
) -> None:
    # Over the body limit: refused before it is read, declared or streamed.
    huge = real_api.post(
        "/api/explain", content=b"x" * (MAX_BODY + 1), headers={"content-type": "application/json"}
    )
    assert huge.status_code == 413

    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY // 100_000 + 1):
            yield b"y" * 100_000

    streamed = real_api.post("/api/explain", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413 and "larger than" in streamed.json()["detail"]
    assert real_api.get("/api/repos").status_code == 200  # and the server is still up

    paste = real_traceback(BAD_ADDRESS) * 2000  # about 1 MB of frames to parse
    with serving(stdlib_db, "--time-budget", "0.01") as url:
        answer = httpx.post(f"{url}/api/explain", json={"text": paste[:999_000]}, timeout=30)
        assert answer.status_code == 503 and "longer than 0.01 s" in answer.json()["detail"]
        # The abandoned lookup finishes on its own; then the server answers within budget again.
        for _ in range(100):
            if httpx.get(f"{url}/api/repos", timeout=10).status_code == 200:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the server stayed over its budget")


def test_the_server_never_writes_the_store(stdlib_db: Path, api: httpx.Client) -> None:
    before = hashlib.sha256(stdlib_db.read_bytes()).hexdigest()
    api.get("/api/search", params={"q": "ValueError: Invalid literal for Fraction: 'x'"})
    api.post("/api/explain", json={"text": real_traceback(BAD_ADDRESS)})
    assert hashlib.sha256(stdlib_db.read_bytes()).hexdigest() == before


def test_several_worker_processes_serve_the_same_answers(stdlib_db: Path, api: httpx.Client) -> None:
    message = real_traceback(BAD_ADDRESS).splitlines()[-1]
    expected = api.get("/api/search", params={"q": message}).json()
    with serving(stdlib_db, "--workers", "2") as url, httpx.Client(base_url=url, timeout=30) as client:
        answers = [client.get("/api/search", params={"q": message}).json() for _ in range(6)]
    assert all(answer == expected for answer in answers)


def test_an_error_no_raise_statement_raised_is_answered_with_its_frame_everywhere(
    api: httpx.Client, stdlib_db: Path
) -> None:
    # float.as_integer_ratio, in C, raises inside Fraction(): the frame in fractions.py is the
    # answer, in the API's JSON as in the CLI's, and the CLI's text says it first.
    traceback = real_traceback("from fractions import Fraction; Fraction(float('nan'))")
    line = innermost(traceback, "fractions.py")
    served = api.post("/api/explain", json={"text": traceback}).json()
    cli = subprocess.run(
        [str(ERRDEX), "explain", "-", "--json", "--db", str(stdlib_db)],
        input=traceback,
        capture_output=True,
        text=True,
        check=True,
    )
    assert served == json.loads(cli.stdout)
    (origin,) = served["origins"]
    error = served["query"]["errors"][origin["error"]]
    frame = error["frames"][origin["frame"]]
    assert origin["frame"] == len(error["frames"]) - 1 and not origin["statement"]
    assert frame["path"].endswith("fractions.py") and frame["line"] == line
    assert frame["source"] in traceback and "as_integer_ratio()" in frame["source"]
    assert all(m["record"]["lineNumber"] != line for m in served["matches"])
    text = subprocess.run(
        [str(ERRDEX), "explain", "-", "--db", str(stdlib_db)],
        input=traceback,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    first = " ".join(text.split("\n\n")[0].split())
    shown = frame["relative"] or frame["path"]  # the path as records name files, where it is known
    assert first.startswith(f"Raised at {shown}:{line} (in __new__) by `{frame['source']}`"), text
    assert "which is not a raise statement" in first and "No record explains" not in text
