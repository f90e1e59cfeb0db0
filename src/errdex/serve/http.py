"""What the API and the pages share over HTTP: the limits that keep one client from taking the
server, errdex's JSON response, and the app's session.

Two limits: a request body larger than ``max_body`` bytes is refused with 413 before it is read
whole (``BodyLimit``), and a lookup that takes longer than the time budget answers 503 and
stops (``within_budget``).  The API and the pages are sibling routers importing this module
and the session, never each other; ``serve/app.py`` assembles them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from fastapi import HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errdex.deadline import Deadline, Overtime
from errdex.errors import ErrdexError
from errdex.match.parse import MAX_PASTE_BYTES
from errdex.record import dumps
from errdex.session import Session

__all__ = [
    "MAX_BODY",
    "BodyLimit",
    "Json",
    "bad_input",
    "invalid_request",
    "request_budget",
    "request_session",
    "within_budget",
]

#: A paste may be 1 MB, and JSON may escape each of its characters in six bytes (``\\u00e9``,
#: two bytes in UTF-8): a body holding any paste within the limit is within this one.
MAX_BODY = 6 * MAX_PASTE_BYTES + 65_536

T = TypeVar("T")


def request_session(request: Request) -> Session:
    """The session the app reads its store through (``create_app`` sets it)."""
    session: Session = request.app.state.session
    return session


def request_budget(request: Request) -> float:
    """The seconds a lookup may take before the answer is 503 (``create_app`` sets it)."""
    budget: float = request.app.state.time_budget
    return budget


async def within_budget(budget: float, work: Callable[[Deadline], T]) -> T:
    """Run a lookup in a worker thread; past the budget, answer 503.

    The lookup is handed the deadline and stops itself there (``Overtime``): a thread cannot be
    cancelled from outside.  The answer does not wait for it: should one step of the work
    outlast the budget, the client still hears at the budget, and the thread stops at its next
    check."""
    deadline = Deadline.after(budget)
    try:
        with anyio.fail_after(budget):
            return await anyio.to_thread.run_sync(work, deadline, abandon_on_cancel=True)
    except (TimeoutError, Overtime):
        raise HTTPException(503, f"the lookup took longer than {budget:g} s") from None


async def bad_input(request: Request, exc: ErrdexError) -> JSONResponse:
    """errdex's own refusal of an input (an empty paste, a limit out of range) as a 400."""
    return JSONResponse({"detail": str(exc)}, status_code=400)


async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
    """A request that does not fit its route, as FastAPI answers it (422, what was wrong where),
    in JSON any reader accepts: a body may hold ``NaN`` or ``1e400``, which Python's JSON reads
    but strict JSON cannot write back (FastAPI's own answer then fails with a 500)."""
    return Json({"detail": _finite(jsonable_encoder(exc.errors()))}, status_code=422)


def _finite(value: Any) -> Any:
    """``value`` with every float that is not a finite number written as text (``"nan"``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


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
