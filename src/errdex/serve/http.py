"""What the API and the pages share over HTTP: the limits that keep one client from taking the
server, errdex's JSON response, and the app's session.

Two limits: a request body larger than ``max_body`` bytes is refused with 413 before it is read
whole (``BodyLimit``), and a lookup that takes longer than the time budget answers 503
(``within_budget``).  The API and the pages are sibling routers importing this module and the
session, never each other; ``serve/app.py`` assembles them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errdex.errors import ErrdexError
from errdex.match.parse import MAX_PASTE_BYTES
from errdex.record import dumps
from errdex.session import Session

__all__ = [
    "MAX_BODY",
    "TIME_BUDGET",
    "BodyLimit",
    "Json",
    "bad_input",
    "request_budget",
    "request_session",
    "within_budget",
]

#: A paste may be 1 MB; its JSON envelope (escapes, the key) needs a little more.
MAX_BODY = 2 * MAX_PASTE_BYTES
TIME_BUDGET = 5.0

T = TypeVar("T")


def request_session(request: Request) -> Session:
    """The session the app reads its store through (``create_app`` sets it)."""
    session: Session = request.app.state.session
    return session


def request_budget(request: Request) -> float:
    """The seconds a lookup may take before the answer is 503 (``create_app`` sets it)."""
    budget: float = request.app.state.time_budget
    return budget


async def within_budget(budget: float, function: Callable[..., T], *args: Any) -> T:
    """Run a lookup in a worker thread; past the budget, answer 503 (the thread finishes alone:
    lookups are linear in the input, which the body limit bounds)."""
    try:
        with anyio.fail_after(budget):
            return await anyio.to_thread.run_sync(function, *args, abandon_on_cancel=True)
    except TimeoutError:
        raise HTTPException(503, f"the lookup took longer than {budget:g} s") from None


async def bad_input(request: Request, exc: ErrdexError) -> JSONResponse:
    """errdex's own refusal of an input (an empty paste, a limit out of range) as a 400."""
    return JSONResponse({"detail": str(exc)}, status_code=400)


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
