"""The HTTP API: the existing dataset's routes and shapes, answered by errdex's one matcher.

Every route reads; the store is opened read-only.  Two limits keep one client from taking the
server: a request body larger than ``max_body`` bytes is refused with 413 before it is read
whole, and a lookup that takes longer than ``time_budget`` seconds answers 503.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errdex import __version__
from errdex.errors import ErrdexError
from errdex.match.parse import MAX_PASTE_BYTES
from errdex.record import dumps, json_schema
from errdex.session import MAX_LIMIT, Session

#: A paste may be 1 MB; its JSON envelope (escapes, the key) needs a little more.
MAX_BODY = 2 * MAX_PASTE_BYTES
TIME_BUDGET = 5.0

T = TypeVar("T")


class ExplainRequest(BaseModel):
    text: str = Field(description="An error message, a last line or a whole traceback (at most 1 MB).")
    top: int = Field(5, ge=1, le=MAX_LIMIT, description="How many matches to return.")


def create_app(db: str, *, max_body: int = MAX_BODY, time_budget: float = TIME_BUDGET) -> FastAPI:
    """The API (and the pages) over the store at ``db``."""
    session = Session(db, freeze_index=True)
    app = FastAPI(
        title="errdex",
        version=__version__,
        summary="Which library line raised an error, why, and how to fix it.",
    )
    app.state.session = session
    app.state.time_budget = time_budget
    app.add_middleware(BodyLimit, max_body=max_body)

    @app.exception_handler(ErrdexError)
    async def bad_input(request: Request, exc: ErrdexError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    # Answers are plain JSON built by errdex (``dumps``): handing FastAPI the dicts would have
    # it walk and re-encode every nested record, which costs more than the lookup.
    @app.get("/api/search", summary="Records that explain an error message", response_class=Json)
    async def search(
        q: Annotated[str, Query(min_length=1, max_length=MAX_PASTE_BYTES, description="The message.")],
        repo: Annotated[str | None, Query(description="Only this OWNER/NAME.")] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 10,
    ) -> Json:
        def answer() -> dict[str, Any]:
            hits = session.search(q, repo, limit)
            return {"matches": [hit.to_json() for hit in hits], "datasetVersion": session.dataset_version()}

        return Json(await within_budget(request_budget(app), answer))

    @app.post(
        "/api/explain",
        summary="Explain a pasted error or traceback, as `errdex explain --json`",
        response_class=Json,
    )
    async def explain(body: ExplainRequest) -> Json:
        def answer() -> dict[str, Any]:
            return session.explain(body.text, body.top).to_json()

        return Json(await within_budget(request_budget(app), answer))

    @app.get("/api/errors/{key:path}", summary="One record, by id or OWNER/NAME/slug", response_class=Json)
    async def error(key: str) -> Json:
        def answer() -> dict[str, Any] | None:
            record = session.get(key)
            if record is None:
                return None
            return {"record": record.to_errlookup(), "datasetVersion": session.dataset_version()}

        found = await within_budget(request_budget(app), answer)
        if found is None:
            raise HTTPException(404, f"no record {key!r}")
        return Json(found)

    @app.get("/api/repos", summary="The repositories and distributions the store holds", response_class=Json)
    async def repos() -> Json:
        def answer() -> dict[str, Any]:
            infos = session.repos()
            return {
                "repos": [info.model_dump(by_alias=True, mode="json") for info in infos],
                "datasetVersion": session.dataset_version(),
            }

        return Json(await within_budget(request_budget(app), answer))

    schema_document = Json(json_schema())  # the same for the server's whole life

    @app.get("/schema.json", summary="The JSON Schema of an errdex record", response_class=Json)
    async def schema() -> Json:
        return schema_document

    from errdex.serve.pages import router as pages

    app.include_router(pages)
    return app


SERVE_DB = "ERRDEX_SERVE_DB"
SERVE_BUDGET = "ERRDEX_SERVE_TIME_BUDGET"


def app_from_environment() -> FastAPI:
    """The app a worker process of ``errdex serve --workers N`` builds (uvicorn's factory)."""
    return create_app(os.environ[SERVE_DB], time_budget=float(os.environ.get(SERVE_BUDGET, TIME_BUDGET)))


def request_budget(app: FastAPI) -> float:
    budget: float = app.state.time_budget
    return budget


async def within_budget(budget: float, function: Callable[..., T], *args: Any) -> T:
    """Run a lookup in a worker thread; past the budget, answer 503 (the thread finishes alone:
    lookups are linear in the input, which the body limit bounds)."""
    try:
        with anyio.fail_after(budget):
            return await anyio.to_thread.run_sync(function, *args, abandon_on_cancel=True)
    except TimeoutError:
        raise HTTPException(503, f"the lookup took longer than {budget:g} s") from None


class Json(Response):
    """A JSON answer written by errdex's own encoder (compact, any string UTF-8 can hold)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return dumps(content).encode("utf-8")


class BodyLimit:
    """Refuse a request body over ``max_body`` bytes with 413, whether it declares its length or
    streams it in chunks, reading no more than the limit.

    The body is read here and handed on whole: an error raised while the framework reads it
    would be reported as a malformed body (400), not as a body too large.
    """

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _too_large(self.max_body, send)
            return
        chunks: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_body:
                await _too_large(self.max_body, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole: Message | None = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> Message:
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return await receive()  # after the body: only a disconnect can come

        await self.app(scope, replay, send)


async def _too_large(limit: int, send: Send) -> None:
    body = json.dumps({"detail": f"the request body is larger than {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
