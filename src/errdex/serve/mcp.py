"""The MCP server: errdex's lookups as tools a coding agent calls over stdio.

An agent that meets an error while it runs code passes the traceback to ``explain_error`` and
reads back the library line that raised it, why, and how to fix it, from the same matcher the
HTTP API and ``errdex explain`` use (``Session``): the same input gives the same records.

stdout is the protocol's transport, so nothing else may reach it: logs go to stderr (the SDK
also points fd 1 at stderr while it serves, which catches stray prints).  errdex's own failures
on bad input (an empty paste, a limit out of range, a record that does not exist, a lookup past
the time budget) reach the agent as tool errors with errdex's message, and the server goes on
serving.  Each line stdin brings is checked before the SDK reads it (``inbound``): a line that
is not JSON, or not a JSON-RPC message, is answered with the error the protocol defines for it
instead of being dropped.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import IO, Annotated, Any, NotRequired, TypedDict, TypeVar, cast

import anyio
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    ToolAnnotations,
    jsonrpc_message_adapter,
)
from pydantic import Field, ValidationError

from errdex import __version__
from errdex.deadline import TIME_BUDGET, Deadline
from errdex.errors import ErrdexError
from errdex.match.parse import MAX_PASTE_BYTES
from errdex.session import MAX_LIMIT, Session

__all__ = ["MAX_LINE", "create_server", "inbound", "serve"]

#: The longest message read from stdin: a whole paste with its JSON escapes and envelope.
MAX_LINE = 8 * MAX_PASTE_BYTES
_SURROGATE = re.compile("[\ud800-\udfff]")

F = TypeVar("F", bound=Callable[..., Any])

INSTRUCTIONS = """\
errdex maps an error message or a Python traceback back to the library source line that raised
it, read from the library's code (never run): the exact message template, the class, file, line,
permalink, the conditions that lead there, and an explanation with fixes.  When code you run
fails inside a library, pass the whole traceback to explain_error; to look up one message,
use search_error; get_error returns one record in full; list_repos says which libraries the
store holds (an error from anything else will not be found)."""

#: Every tool only reads the store.
READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

# The ranges are advertised in the schema but checked by errdex, so that an agent reads
# errdex's one-line message rather than a validation report.
Limit = Annotated[
    int,
    Field(
        description=f"How many records to return, best first (1 to {MAX_LIMIT}).",
        json_schema_extra={"minimum": 1, "maximum": MAX_LIMIT},
    ),
]
Top = Annotated[
    int,
    Field(
        description=f"How many matches to return, best first (1 to {MAX_LIMIT}).",
        json_schema_extra={"minimum": 1, "maximum": MAX_LIMIT},
    ),
]
Repo = Annotated[
    str | None,
    Field(description="A repository as OWNER/NAME, exactly as list_repos gives it (e.g. python/cpython)."),
]


# The envelopes the HTTP API answers with; typed so that each tool publishes an output schema.
class Matches(TypedDict):
    """Records that explain a message, best first, in the existing API's shape."""

    matches: list[dict[str, object]]
    datasetVersion: str


class RecordAnswer(TypedDict):
    """One record, in the err-lookup dataset's schema v2 (and which fields a model wrote)."""

    record: dict[str, Any]
    datasetVersion: str
    modelProse: NotRequired[dict[str, Any]]


class Repos(TypedDict):
    """The sources the store holds, each with its version, commit and counts."""

    repos: list[dict[str, Any]]
    datasetVersion: str


def create_server(session: Session, time_budget: float = TIME_BUDGET) -> MCPServer[Any]:
    """The four tools over one ``Session``; each answers exactly as the HTTP API route of the same
    name does (``/api/search``, ``/api/explain``, ``/api/errors/ID``, ``/api/repos``), within the
    same time budget."""
    server: MCPServer[Any] = MCPServer(
        "errdex",
        title="errdex",
        description="Which library line raised an error, why, and how to fix it.",
        instructions=INSTRUCTIONS,
        version=__version__,
        # On stderr: crashes with their traceback, not every refused argument (INFO).
        log_level="WARNING",
    )

    def tool(fn: F) -> F:
        # The docstring, without its indentation, is what the agent reads.
        server.add_tool(fn, description=inspect.getdoc(fn), annotations=READ_ONLY)
        return fn

    @tool
    def search_error(
        message: Annotated[
            str,
            Field(
                description="The error message as printed, e.g. \"ValueError: '999.1.1.1' does not appear"
                ' to be an IPv4 or IPv6 address" (a class prefix helps; a whole traceback works too).'
            ),
        ],
        repo: Repo = None,
        limit: Limit = 10,
    ) -> Matches:
        """Find the records whose message template produces this error message, best first.

        Pass the message as printed, runtime values and all (names, numbers, paths): each
        record's template is matched against it, and a fuzzy likeness is used when no template
        produces it.  Returns {"matches": [{"id", "repo", "code", "message" (the template,
        placeholders in braces), "score" (0 to 1), "matchType" ("frame", "code",
        "pattern+class", "pattern" or "fuzzy"), "url" (permalink to the raising line)}], "datasetVersion"}.
        Use get_error with a match's id for the full record; for a whole traceback,
        explain_error says more."""
        with _errdex_failures():
            # An agent filling every optional parameter sends "" for "any repository".
            hits = session.search(message, repo or None, limit, Deadline.after(time_budget))
            return {"matches": [hit.to_json() for hit in hits], "datasetVersion": session.dataset_version()}

    @tool
    def explain_error(
        text: Annotated[
            str,
            Field(
                description="The whole traceback as printed (plain Python, pytest, IPython/Jupyter, Rich,"
                f" log lines), or just its last line or message; at most {MAX_PASTE_BYTES} bytes."
            ),
        ],
        top: Top = 5,
    ) -> dict[str, Any]:
        """Explain a failure: which library line raised it, why, and how to fix it.

        Pass the whole traceback, not only its last line: the frames point at the exact line
        that raised, which ranks first ("frame" evidence).  Returns what `errdex explain --json`
        prints: {"query": {"primary", "errors": [each error found in the paste, with its class,
        message and frames]}, "matches": [{"score", "evidence", "error" (which parsed error it
        explains), "captures" (the values the template's placeholders took), "record": the full
        errdex record: errorMessage, errorClass, filePath, lineNumber, githubUrl, sourceCode,
        function, conditions (the guards that lead to the raise), documentation,
        triggerScenarios, solutions, exampleFix, validationCode, ..., modelProse (the fields a
        language model wrote, each with its model; errdex's rules wrote the rest)}], "origins": [{"error",
        "frame", "statement", "sentence"}]}.  An origin says that no record is the error's site:
        its innermost frame raised it by an operation or compiled code ("statement" false) or by
        a raise no record is made of (true); that error's matches are then records of the same
        message raised elsewhere.  No matches and no origin means no library in the store
        raises it (see list_repos)."""
        with _errdex_failures():
            if not 1 <= top <= MAX_LIMIT:
                raise ErrdexError(f"top must be between 1 and {MAX_LIMIT}")
            return session.explain(text, top, Deadline.after(time_budget)).to_json()

    @tool
    def get_error(
        id: Annotated[
            str | None, Field(description="A record id, as search_error and explain_error return it.")
        ] = None,
        repo: Repo = None,
        slug: Annotated[str | None, Field(description="The record's slug within repo (with repo).")] = None,
    ) -> RecordAnswer:
        """Get one error record in full: pass its id, or repo and slug together.

        Returns {"record": the record in the err-lookup dataset's schema v2 (id, repo, slug,
        errorMessage, messagePattern, errorType, errorClass, filePath, lineNumber, githubUrl,
        sourceCode, documentation, triggerScenarios, commonSituations, solutions, exampleFix,
        validationCode, ...), "datasetVersion", and where a language model wrote some of its
        fields, "modelProse": each such field with its model and prompt version}."""
        with _errdex_failures():
            key = _record_key(id, repo, slug)
            record = session.get(key)
            if record is None:
                raise ErrdexError(
                    f"no record {key!r} in this store: search_error finds records by message,"
                    " list_repos lists the repositories it holds"
                )
            return cast(RecordAnswer, session.record_answer(record))

    @tool
    def list_repos() -> Repos:
        """List the repositories and Python distributions whose errors the store holds.

        An error raised by anything not listed cannot be explained.  Returns {"repos": [{"repo"
        (OWNER/NAME), "package", "version", "sha", "kind", "files", "records", "analyzedAt",
        ...}], "datasetVersion"}."""
        with _errdex_failures():
            infos = session.repos()
            return {
                "repos": [info.model_dump(by_alias=True, mode="json") for info in infos],
                "datasetVersion": session.dataset_version(),
            }

    return server


def _record_key(id: str | None, repo: str | None, slug: str | None) -> str:
    """The key ``Session.get`` takes: an id, or ``OWNER/NAME/slug``."""
    if id and (repo or slug):
        raise ErrdexError("give either id, or repo and slug, not both")
    if id:
        return id
    if repo and slug:
        return f"{repo.strip('/')}/{slug}"
    if repo or slug:
        raise ErrdexError("give repo and slug together (or an id)")
    raise ErrdexError("give a record id, or repo and slug (search_error finds ids by message)")


@contextmanager
def _errdex_failures() -> Iterator[None]:
    """Turn errdex's own failures into tool errors carrying its message.  Anything else is a bug:
    the SDK logs its traceback on stderr and tells the agent only that the tool failed."""
    try:
        yield
    except ErrdexError as exc:  # a store's failures too (``StoreError``)
        raise ToolError(str(exc)) from exc


def serve(db: str, time_budget: float = TIME_BUDGET) -> None:
    """Serve the store at ``db`` over stdio until the client closes stdin.

    The store is opened (read-only) before the protocol starts, so that a missing or unusable
    store fails at start-up with errdex's message (``ErrdexError``) instead of on every call."""
    session = Session(db, serving=True)  # a long-lived process of its own, like errdex serve
    server = create_server(session, time_budget)
    print(f"errdex: MCP server on stdio, store {db}", file=sys.stderr, flush=True)
    try:
        anyio.run(_serve_stdio, server, sys.stdin.buffer)
    finally:
        session.close()


async def _serve_stdio(server: MCPServer[Any], stdin: IO[bytes]) -> None:
    """``server.run("stdio")``, reading stdin through :class:`_Inbound`.

    The SDK drops a line it cannot read without a word (its transport hands the failure to a
    logger); given its own stdin it still owns stdout and the protocol.  Running the server on
    given streams has no public spelling in this SDK (pinned), hence ``_lowlevel_server``."""
    lines = _Inbound(stdin)
    async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
        lines.answer_to(write_stream)
        lowlevel = server._lowlevel_server
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


class _Inbound:
    """stdin's lines as the SDK's transport iterates them, each one checked first (``inbound``):
    a line that passes goes on, cleaned; one that fails is answered here with its error."""

    def __init__(self, stdin: IO[bytes]) -> None:
        self._stdin = stdin
        self._replies: MemoryObjectSendStream[SessionMessage] | None = None
        self._ready = anyio.Event()

    def answer_to(self, replies: MemoryObjectSendStream[SessionMessage]) -> None:
        self._replies = replies
        self._ready.set()

    async def _read(self) -> bytes:
        """A line, or its first ``MAX_LINE + 1`` bytes: what one read may hold is bounded."""
        return await anyio.to_thread.run_sync(self._stdin.readline, MAX_LINE + 1)

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while line := await self._read():
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while (rest := await self._read()) and not rest.endswith(b"\n"):
                    pass  # the rest of an over-long line, read and dropped in bounded pieces
                checked: str | JSONRPCError | None = _error(
                    None, INVALID_REQUEST, f"a message is at most {MAX_LINE} bytes"
                )
            else:
                checked = inbound(line)
            if isinstance(checked, str):
                yield checked
            elif checked is not None:
                await self._ready.wait()
                assert self._replies is not None
                await self._replies.send(SessionMessage(checked))


def inbound(line: bytes) -> str | JSONRPCError | None:
    """One line from the client: the JSON-RPC message to hand on, the error that answers it, or
    None for a blank line.

    Not UTF-8 or not JSON is a parse error (-32700); JSON that is not a JSON-RPC message is an
    invalid request (-32600), answered with its id when one can be read.  A lone surrogate
    escape (``"\\ud800"``) is valid JSON the SDK's parser refuses: it is replaced by U+FFFD,
    so the request is answered instead of dropped."""
    if not line.strip():
        return None
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _error(None, PARSE_ERROR, "not a JSON message (each line must be one JSON-RPC message)")
    text = _SURROGATE.sub("\ufffd", json.dumps(message, ensure_ascii=False))
    try:
        jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValidationError:
        return _error(
            _request_id(message), INVALID_REQUEST, "not a JSON-RPC 2.0 request, notification or response"
        )
    return text


def _request_id(message: object) -> int | str | None:
    """The id a reply may carry: the request's own, when it has a usable one."""
    found = message.get("id") if isinstance(message, dict) else None
    return (
        found if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)) else None
    )


def _error(request_id: int | str | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))
