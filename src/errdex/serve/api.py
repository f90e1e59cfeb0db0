"""The HTTP API: the existing dataset's routes and shapes, answered through the session.

Every route reads; the store is opened read-only.  Each lookup runs in a worker thread within
the app's time budget, and answers are plain JSON built by errdex (``Json``): handing FastAPI
the dicts would have it walk and re-encode every nested record, which costs more than the lookup.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, Field

from errdex.deadline import Deadline
from errdex.match.parse import MAX_PASTE_BYTES
from errdex.record import json_schema
from errdex.serve.http import Json, request_budget, request_session, within_budget
from errdex.session import MAX_LIMIT

__all__ = ["ExplainRequest", "router"]

router = APIRouter()


class ExplainRequest(BaseModel):
    text: str = Field(description="An error message, a last line or a whole traceback (at most 1 MB).")
    top: int = Field(5, ge=1, le=MAX_LIMIT, description="How many matches to return.")
    version: str | None = Field(
        None,
        max_length=200,
        description="Of records stored for several releases, answer this one's (8.1.6, or click==8.1.6)"
        " where the traceback's paths name none; default: the newest.",
    )


@router.get("/api/search", summary="Records that explain an error message", response_class=Json)
async def search(
    request: Request,
    q: Annotated[str, Query(min_length=1, max_length=MAX_PASTE_BYTES, description="The message.")],
    repo: Annotated[str | None, Query(description="Only this OWNER/NAME.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 10,
) -> Json:
    session = request_session(request)

    def answer(deadline: Deadline) -> dict[str, Any]:
        hits = session.search(q, repo, limit, deadline)
        return {"matches": [hit.to_json() for hit in hits], "datasetVersion": session.dataset_version()}

    return Json(await within_budget(request_budget(request), answer))


@router.post(
    "/api/explain",
    summary="Explain a pasted error or traceback, as `errdex explain --json`",
    response_class=Json,
)
async def explain(request: Request, body: ExplainRequest) -> Json:
    session = request_session(request)

    def answer(deadline: Deadline) -> dict[str, Any]:
        return session.explain(body.text, body.top, deadline, version=body.version).to_json()

    return Json(await within_budget(request_budget(request), answer))


@router.get("/api/errors/{key:path}", summary="One record, by id or OWNER/NAME/slug", response_class=Json)
async def error(
    request: Request,
    key: str,
    version: Annotated[
        str | None, Query(max_length=200, description="The release (default: the newest that has it).")
    ] = None,
) -> Json:
    session = request_session(request)

    def answer(deadline: Deadline) -> dict[str, Any] | None:
        record = session.get(key, version)
        if record is None:
            return None
        return session.record_answer(record)

    found = await within_budget(request_budget(request), answer)
    if found is None:
        raise HTTPException(404, f"no record {key!r}")
    return Json(found)


@router.get("/api/repos", summary="The repositories and distributions the store holds", response_class=Json)
async def repos(request: Request) -> Json:
    session = request_session(request)

    def answer(deadline: Deadline) -> dict[str, Any]:
        infos = session.repos()
        return {
            "repos": [info.model_dump(by_alias=True, mode="json") for info in infos],
            "datasetVersion": session.dataset_version(),
        }

    return Json(await within_budget(request_budget(request), answer))


@router.get("/schema.json", summary="The JSON Schema of an errdex record", response_class=Json)
async def schema() -> Json:
    return _schema_document()


@cache
def _schema_document() -> Json:
    """The same for the server's whole life: rendered once, on first request."""
    return Json(json_schema())
