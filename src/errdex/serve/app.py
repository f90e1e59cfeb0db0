"""The FastAPI app ``errdex serve`` runs: the API and the pages over one read-only session.

The API (``serve/api.py``) and the pages (``serve/pages.py``) are sibling routers; what they
share over HTTP (limits, the JSON response) is ``serve/http.py``.  This module only assembles
them, once per process: ``errdex serve --workers N`` has uvicorn import
``app_from_environment`` by name in each worker.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError

from errdex import __version__
from errdex.deadline import TIME_BUDGET
from errdex.errors import ErrdexError
from errdex.serve import api, pages
from errdex.serve.http import MAX_BODY, BodyLimit, bad_input, invalid_request
from errdex.session import Session

__all__ = ["SERVE_BUDGET", "SERVE_DB", "app_from_environment", "create_app"]

#: What ``errdex serve --workers N`` hands its worker processes.
SERVE_DB = "ERRDEX_SERVE_DB"
SERVE_BUDGET = "ERRDEX_SERVE_TIME_BUDGET"
#: Lookups running at once in one process.  They hold Python's lock, so more threads only queue
#: for it, each keeping a connection to the store with its own page cache; the rest wait here,
#: within their time budget.
LOOKUP_THREADS = 8


@asynccontextmanager
async def _lookup_threads(app: FastAPI) -> AsyncIterator[None]:
    anyio.to_thread.current_default_thread_limiter().total_tokens = LOOKUP_THREADS
    yield


def create_app(db: str, *, max_body: int = MAX_BODY, time_budget: float = TIME_BUDGET) -> FastAPI:
    """The API and the pages over the store at ``db``, opened read-only (now: a store that
    cannot be opened fails here, with errdex's message)."""
    app = FastAPI(
        title="errdex",
        version=__version__,
        summary="Which library line raised an error, why, and how to fix it.",
        lifespan=_lookup_threads,
    )
    # The server owns its process (its pattern index may be frozen out of the collector's way)
    # and outlives changes to the store (a new index is built beside the requests).
    app.state.session = Session(db, serving=True)
    app.state.time_budget = time_budget
    app.add_middleware(BodyLimit, max_body=max_body)
    app.exception_handler(ErrdexError)(bad_input)
    app.exception_handler(RequestValidationError)(invalid_request)
    app.include_router(api.router)
    app.include_router(pages.router)
    return app


def app_from_environment() -> FastAPI:
    """The app a worker process of ``errdex serve --workers N`` builds (uvicorn's factory)."""
    return create_app(os.environ[SERVE_DB], time_budget=float(os.environ.get(SERVE_BUDGET, TIME_BUDGET)))
