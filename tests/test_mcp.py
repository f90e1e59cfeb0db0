"""The MCP server as a coding agent meets it: the SDK's own client over stdio, talking to a real
``errdex mcp`` process about errors real standard-library code raised."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

from conftest import innermost, real_traceback
from errdex.session import Session

ERRDEX = Path(sys.executable).with_name("errdex")
TOOLS = {"search_error", "explain_error", "get_error", "list_repos"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def db(stdlib_db: Path) -> Path:
    return stdlib_db


@pytest.fixture(scope="module")
def failure() -> tuple[str, int]:
    """A real traceback from a real program, and the line of ipaddress.py its innermost frame in
    that module names."""
    traceback = real_traceback('import ipaddress; ipaddress.ip_address("999.1.1.1")')
    return traceback, innermost(traceback, "ipaddress.py")


@asynccontextmanager
async def session(db: Path) -> AsyncIterator[ClientSession]:
    """An initialized client session with ``errdex mcp --db DB``, as an agent's host starts it."""
    params = StdioServerParameters(command=str(ERRDEX), args=["mcp", "--db", str(db)])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


async def call(client: ClientSession, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool's structured answer, checked against the text the same call gives."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, text(result)
    structured: dict[str, Any] | None = result.structured_content
    assert structured is not None
    assert json.loads(text(result)) == structured
    return structured


def text(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


@pytest.mark.anyio
async def test_an_agent_finds_the_line_that_raised_and_gets_what_the_api_gives(
    db: Path, failure: tuple[str, int]
) -> None:
    traceback, line = failure
    last_line = traceback.strip().splitlines()[-1]
    service = Session(db)  # what the HTTP API answers with, in-process
    async with session(db) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        assert set(tools["search_error"].input_schema["properties"]) == {"message", "repo", "limit"}
        assert tools["search_error"].input_schema["required"] == ["message"]
        assert set(tools["explain_error"].input_schema["properties"]) == {"text", "top"}
        assert set(tools["get_error"].input_schema["properties"]) == {"id", "repo", "slug"}
        assert tools["list_repos"].input_schema["properties"] == {}
        assert all(tool.description and tool.annotations for tool in tools.values())
        assert all(tool.annotations and tool.annotations.read_only_hint for tool in tools.values())

        explained = await call(client, "explain_error", {"text": traceback})
        assert explained == service.explain(traceback, 5).to_json()  # what `errdex explain --json` prints
        best = explained["matches"][0]
        assert best["evidence"] == "frame"
        sites = [(site["filePath"], site["lineNumber"]) for site in best["record"]["sites"]]
        assert ("Lib/ipaddress.py", line) in sites

        found = await call(client, "search_error", {"message": last_line})
        api = [hit.to_json() for hit in service.search(last_line)]
        assert found == {"matches": api, "datasetVersion": service.dataset_version()}
        assert found["matches"][0]["id"] == best["record"]["id"]
        narrowed = await call(
            client, "search_error", {"message": last_line, "repo": "python/cpython", "limit": 1}
        )
        assert [hit["id"] for hit in narrowed["matches"]] == [api[0]["id"]]

        record_id, slug = best["record"]["id"], best["record"]["slug"]
        by_id = await call(client, "get_error", {"id": record_id})
        by_slug = await call(client, "get_error", {"repo": "python/cpython", "slug": slug})
        assert by_id == by_slug
        stored = service.get(record_id)
        assert stored is not None
        assert by_id == {"record": stored.to_errlookup(), "datasetVersion": service.dataset_version()}
        record = by_id["record"]
        assert (record["id"], record["repo"], record["slug"]) == (record_id, "python/cpython", slug)
        assert record["errorMessage"] == "{address} does not appear to be an IPv4 or IPv6 address"
        assert record["githubUrl"].startswith("https://github.com/python/cpython/blob/")
        assert "sites" not in record  # schema v2 only

        repos = await call(client, "list_repos", {})
        assert [repo["repo"] for repo in repos["repos"]] == ["python/cpython"]
        assert repos["datasetVersion"] == service.dataset_version()
    service.close()


@pytest.mark.anyio
async def test_bad_input_is_a_tool_error_with_errdex_message_and_the_server_goes_on(db: Path) -> None:
    async with session(db) as client:
        refusals: list[tuple[str, dict[str, Any], str]] = [
            ("explain_error", {"text": ""}, "the paste is empty"),
            ("explain_error", {"text": "ValueError: x", "top": 0}, "top must be between 1 and 25"),
            ("search_error", {"message": "ValueError: x", "limit": 99}, "limit must be between 1 and 25"),
            ("search_error", {"message": ""}, "the paste is empty"),
            ("get_error", {}, "give a record id, or repo and slug"),
            ("get_error", {"repo": "python/cpython"}, "give repo and slug together"),
            ("get_error", {"id": "nope"}, "no record 'nope' in this store"),
        ]
        for name, arguments, message in refusals:
            result = await client.call_tool(name, arguments)
            assert result.is_error, (name, arguments, text(result))
            assert message in text(result), text(result)
            assert "Traceback" not in text(result)
        repos = await call(client, "list_repos", {})  # still serving
        assert repos["repos"]


def test_a_missing_store_fails_at_start_up_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    done = subprocess.run(
        [str(ERRDEX), "mcp", "--db", str(missing)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert done.stdout == ""  # stdout is the protocol's: nothing else goes there
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("errdex: error: no errdex database at ")
    assert str(missing) in done.stderr
    assert not missing.exists()  # read-only: never created
