"""The MCP server: errdex's lookups as tools a coding agent calls over stdio.

An agent that meets an error while it runs code passes the traceback to ``explain_error`` and
reads back the library line that raised it, why, and how to fix it, from the same matcher the
HTTP API and ``errdex explain`` use (``Session``): the same input gives the same records.

stdout is the protocol's transport, so nothing else may reach it: logs go to stderr (the SDK
also points fd 1 at stderr while it serves, which catches stray prints).  errdex's own failures
on bad input (an empty paste, a limit out of range, a record that does not exist) reach the
agent as tool errors with errdex's message, and the server goes on serving.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypedDict, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from errdex import __version__
from errdex.errors import ErrdexError
from errdex.match.parse import MAX_PASTE_BYTES
from errdex.session import MAX_LIMIT, Session

__all__ = ["create_server", "serve"]

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
    """One record, in the err-lookup dataset's schema v2."""

    record: dict[str, Any]
    datasetVersion: str


class Repos(TypedDict):
    """The sources the store holds, each with its version, commit and counts."""

    repos: list[dict[str, Any]]
    datasetVersion: str


def create_server(session: Session) -> MCPServer[Any]:
    """The four tools over one ``Session``; each answers exactly as the HTTP API route of the same
    name does (``/api/search``, ``/api/explain``, ``/api/errors/ID``, ``/api/repos``)."""
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
        placeholders in braces), "score" (0 to 1), "matchType" ("frame", "pattern+class",
        "pattern" or "fuzzy"), "url" (permalink to the raising line)}], "datasetVersion"}.
        Use get_error with a match's id for the full record; for a whole traceback,
        explain_error says more."""
        with _errdex_failures():
            # An agent filling every optional parameter sends "" for "any repository".
            hits = session.search(message, repo or None, limit)
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
        triggerScenarios, solutions, exampleFix, validationCode, ...}]}.  No matches means no
        library in the store raises it (see list_repos)."""
        with _errdex_failures():
            if not 1 <= top <= MAX_LIMIT:
                raise ErrdexError(f"top must be between 1 and {MAX_LIMIT}")
            return session.explain(text, top).to_json()

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
        validationCode, ...), "datasetVersion"}."""
        with _errdex_failures():
            key = _record_key(id, repo, slug)
            record = session.get(key)
            if record is None:
                raise ErrdexError(
                    f"no record {key!r} in this store: search_error finds records by message,"
                    " list_repos lists the repositories it holds"
                )
            return {"record": record.to_errlookup(), "datasetVersion": session.dataset_version()}

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


def serve(db: str) -> None:
    """Serve the store at ``db`` over stdio until the client closes stdin.

    The store is opened (read-only) before the protocol starts, so that a missing or unusable
    store fails at start-up with errdex's message (``ErrdexError``) instead of on every call."""
    session = Session(db)
    server = create_server(session)
    print(f"errdex: MCP server on stdio, store {db}", file=sys.stderr, flush=True)
    try:
        server.run("stdio")
    finally:
        session.close()
