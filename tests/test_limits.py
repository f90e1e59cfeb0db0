"""What one paste may cost: errors looked up and matches answered are bounded, and the time
budget stops the lookup itself, on every front end that has one (the API, the pages, MCP)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from conftest import real_traceback
from errdex.deadline import Deadline, Overtime
from errdex.match.explain import MAX_ERRORS, MAX_MATCHES, Matcher
from errdex.serve.app import create_app
from errdex.serve.http import MAX_BODY
from errdex.session import Session

ERRDEX = Path(sys.executable).with_name("errdex")
BAD_ADDRESS = 'import ipaddress; ipaddress.ip_address("999.1.1.1")'


def one_line_errors(count: int) -> str:
    """``count`` real one-line errors, each with its own value (the last line of a real run)."""
    last = real_traceback(BAD_ADDRESS).strip().splitlines()[-1]
    return "".join(last.replace("999.1.1.1", f"999.1.1.{n}") + "\n" for n in range(count))


def test_a_paste_of_thousands_of_errors_costs_what_the_limit_does(stdlib_db: Path) -> None:
    paste = one_line_errors(5000)
    with Session(stdlib_db) as session:
        start = time.process_time()
        answer = session.explain(paste, top=5)
        spent = time.process_time() - start
        few = session.explain(one_line_errors(MAX_ERRORS), top=5)
    assert len(answer.query.errors) == MAX_ERRORS and answer.unexplained == 5000 - MAX_ERRORS
    # The errors looked up are the last ones: the program ended with the last.
    values = [m.captures["address"] for m in answer.matches]
    assert set(values) == {f"'999.1.1.{n}'" for n in range(5000 - MAX_ERRORS, 5000)}
    # Each match names the error it explains among those kept.
    messages = [answer.query.errors[m.error].message for m in answer.matches]
    assert messages == [f"{v} does not appear to be an IPv4 or IPv6 address" for v in values]
    assert answer.to_json()["unexplained"] == 5000 - MAX_ERRORS
    assert few.unexplained == 0 and len(few.matches) == len(answer.matches)
    assert spent < 5, spent  # parsing 5,000 errors, looking up 20: well under a second here


def test_matches_per_answer_are_bounded_over_all_errors(stdlib_db: Path) -> None:
    with Session(stdlib_db) as session:
        answer = session.explain(one_line_errors(MAX_ERRORS), top=25)
    assert len(answer.matches) <= MAX_MATCHES
    # The matches stop at the bound: errors past it are counted, not looked up.
    assert len(answer.query.errors) * 25 >= len(answer.matches)
    assert answer.unexplained == MAX_ERRORS - len(answer.query.errors)


def test_the_cli_says_how_many_errors_it_did_not_look_up(stdlib_db: Path) -> None:
    paste = one_line_errors(300)
    done = subprocess.run(
        [ERRDEX, "explain", "--db", str(stdlib_db), "-"], input=paste, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert f"{300 - MAX_ERRORS} more errors in the paste were not looked up" in done.stderr
    as_json = subprocess.run(
        [ERRDEX, "explain", "--db", str(stdlib_db), "--json", "-"],
        input=paste,
        capture_output=True,
        text=True,
    )
    assert json.loads(as_json.stdout)["unexplained"] == 300 - MAX_ERRORS


def test_a_deadline_stops_the_matcher(stdlib_db: Path) -> None:
    with Session(stdlib_db) as session:
        matcher: Matcher = session.matcher()
        with pytest.raises(Overtime, match=r"longer than 0\.5 s"):
            matcher.explain(one_line_errors(3), 5, Deadline(time.monotonic() - 1, 0.5))
        # A deadline not yet reached changes nothing.
        assert matcher.explain(one_line_errors(3), 5, Deadline.after(60)).matches


def test_past_its_budget_the_servers_lookup_stops_not_only_its_answer(
    stdlib_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each error made slow (50 ms): with a 0.2 s budget the answer is 503 and, unlike a thread
    merely abandoned, the lookup goes no further than the error it was at."""
    looked_up: list[float] = []
    original = Matcher.match_error

    def slow(self: Matcher, *args: Any, **kwargs: Any) -> Any:
        looked_up.append(time.monotonic())
        time.sleep(0.05)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Matcher, "match_error", slow)
    with TestClient(create_app(str(stdlib_db), time_budget=0.2)) as client:
        answer = client.post("/api/explain", json={"text": one_line_errors(MAX_ERRORS)})
        assert answer.status_code == 503 and "longer than 0.2 s" in answer.json()["detail"]
        page = client.post("/explain", files={"text": (None, one_line_errors(MAX_ERRORS))})
        assert page.status_code == 503
        time.sleep(1.5)  # what an abandoned lookup would still be doing: 20 errors of 50 ms
    assert len(looked_up) <= 2 * 6, len(looked_up)  # about 0.2 / 0.05 for each request, not 20


def test_a_paste_within_the_limit_is_never_too_large_as_json(stdlib_db: Path) -> None:
    """JSON may escape every character (``ensure_ascii``): a 1 MB paste is then up to six."""
    paste = real_traceback(BAD_ADDRESS).replace("999.1.1.1", "é" * 400_000)  # about 800 KB
    body = json.dumps({"text": paste}).encode()  # ASCII: each é is \\u00e9
    assert len(paste.encode()) < 1_000_000 < len(body) <= MAX_BODY
    with TestClient(create_app(str(stdlib_db))) as client:
        answer = client.post("/api/explain", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["query"]["errors"][-1]["errorClass"] == "ValueError"


@pytest.mark.parametrize(
    "body", [b'{"text": NaN}', b'{"text": "x", "top": Infinity}', b'{"text": "x", "top": 1e400}', b"[NaN]"]
)
def test_numbers_strict_json_cannot_hold_get_a_422_not_a_500(stdlib_db: Path, body: bytes) -> None:
    with TestClient(create_app(str(stdlib_db)), raise_server_exceptions=False) as client:
        answer = client.post("/api/explain", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert json.loads(answer.content)["detail"]  # strict JSON: no bare NaN in the answer


def mcp_process(db: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [ERRDEX, "mcp", "--db", str(db), *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def exchange(server: subprocess.Popen[bytes], lines: list[bytes], replies: int) -> list[dict[str, Any]]:
    """Send raw lines to an MCP server and read ``replies`` answers (with a watchdog)."""
    assert server.stdin is not None and server.stdout is not None
    watchdog = threading.Timer(60, server.kill)
    watchdog.start()
    try:
        server.stdin.write(b"".join(lines))
        server.stdin.flush()
        return [json.loads(server.stdout.readline()) for _ in range(replies)]
    finally:
        watchdog.cancel()


INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
).encode()
INITIALIZED = b'{"jsonrpc": "2.0", "method": "notifications/initialized"}'


def call(request_id: int, tool: str, arguments: str) -> bytes:
    params = f'{{"name": "{tool}", "arguments": {arguments}}}'
    return f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": {params}}}'.encode()


def test_mcp_answers_lines_that_are_not_json_rpc_with_the_protocols_errors(stdlib_db: Path) -> None:
    server = mcp_process(stdlib_db)
    try:
        replies = exchange(
            server,
            [
                INITIALIZE + b"\n",
                INITIALIZED + b"\n",
                b"this is not json\n",
                b"\xff\xfe not UTF-8\n",
                b'{"jsonrpc": "2.0", "id": 7, "method": 12}\n',
                b"[1, 2, 3]\n",
                # A lone surrogate escape is valid JSON: the request is answered, not dropped.
                call(8, "search_error", '{"message": "ValueError: \\ud800 does not appear"}') + b"\n",
                call(9, "list_repos", "{}") + b"\n",
            ],
            7,
        )
    finally:
        server.stdin.close()  # type: ignore[union-attr]
        server.wait(30)
    by_id: dict[Any, list[dict[str, Any]]] = {}
    for reply in replies:
        by_id.setdefault(reply.get("id"), []).append(reply)
    assert by_id[0][0]["result"]["serverInfo"]["name"] == "errdex"
    codes = sorted(reply["error"]["code"] for reply in by_id[None])
    assert codes == [-32700, -32700, -32600]  # two unreadable lines, one array
    assert by_id[7][0]["error"]["code"] == -32600  # its id can be read: the answer carries it
    assert by_id[8][0]["result"]["isError"] is False
    assert "python/cpython" in json.dumps(by_id[9][0]["result"])
    assert server.returncode == 0


def test_mcp_lookups_have_a_time_budget(stdlib_db: Path) -> None:
    server = mcp_process(stdlib_db, "--time-budget", "0.01")
    paste = json.dumps({"text": one_line_errors(MAX_ERRORS) * 40})
    try:
        initialized, answer = exchange(
            server, [INITIALIZE + b"\n", INITIALIZED + b"\n", call(1, "explain_error", paste) + b"\n"], 2
        )
    finally:
        server.stdin.close()  # type: ignore[union-attr]
        server.wait(30)
    assert initialized["id"] == 0
    assert answer["result"]["isError"] is True
    assert "longer than 0.01 s" in answer["result"]["content"][0]["text"]


def test_a_real_server_answers_an_oversized_paste_within_its_budget(stdlib_db: Path) -> None:
    from servers import serving

    paste = one_line_errors(20_000)[:990_000]
    with serving(stdlib_db) as url:
        answer = httpx.post(f"{url}/api/explain", json={"text": paste}, timeout=30)
    assert answer.status_code == 200
    assert answer.json()["unexplained"] > 10_000
