"""Pages rendered on the server, usable without JavaScript: paste an error, read the records.

Almost everything these pages show was mined from other people's code (messages, source,
function names, prose written from docstrings), so it is untrusted text.  It reaches HTML only
through Jinja2 with autoescaping always on (for every template, not just ``.html`` names),
never through ``|safe`` or markup built here, and every page carries a Content-Security-Policy
that allows no script at all: an escaping mistake would show text, never run it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Final
from urllib.parse import urlencode

import anyio
import jinja2
from fastapi import APIRouter, Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates

# Starlette's, not FastAPI's subclass: form parsing raises the former, the time budget the latter.
from starlette.exceptions import HTTPException

from errdex.deadline import Deadline
from errdex.errors import ErrdexError
from errdex.match.explain import MAX_ERRORS, Evidence, Match, Origin, releases_text
from errdex.match.parse import MAX_PASTE_BYTES, ParsedError
from errdex.record import Record, RepoInfo, Site
from errdex.serve.http import MAX_BODY, request_budget, request_session, within_budget
from errdex.session import Session

__all__ = ["CSP", "router"]

#: No script from anywhere, styles only from errdex itself, forms only back to errdex.
CSP: Final = (
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
_HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    # A linked result carries the paste in its URL: keep it from GitHub when a permalink is followed.
    "Referrer-Policy": "same-origin",
}
#: Matches shown for each error of a paste.
TOP = 5
#: Pastes longer than this get no shareable ``GET /explain?text=...`` link: URLs that long break.
LINK_CHARS = 4000
EVIDENCE: Final[dict[Evidence, str]] = {
    "frame": "a traceback frame points at this raise",
    "code": "the error code the paste prints is this record's",
    "pattern+class": "the message fits this template and the class agrees",
    "pattern": "the message fits this template",
    "fuzzy": "the closest template (none produces this message exactly)",
}

_templates = Jinja2Templates(
    env=jinja2.Environment(
        loader=jinja2.PackageLoader("errdex.serve", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
)
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def code_spans(text: str) -> list[tuple[str, bool]]:
    """errdex's prose quotes code in backticks: the parts of ``text``, each flagged when it is code,
    so that a template can set code apart while escaping every part (no markup is built here)."""
    parts = _CODE_SPAN.split(text)
    return [(part, i % 2 == 1) for i, part in enumerate(parts) if part]


_templates.env.filters["code_spans"] = code_spans
_STYLESHEET: Final = (files("errdex.serve") / "static" / "errdex.css").read_text("utf-8")

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True, slots=True)
class Found:
    """One match as the page shows it: the record with its prose, written in the worker thread.
    Where it is raised is the match's own ``site`` (the one a traceback frame hit, if any)."""

    match: Match
    record: Record

    @property
    def releases(self) -> str | None:
        return releases_text(self.match.releases, self.record.version)


@dataclass(frozen=True, slots=True)
class Explained:
    """One error of the paste and the records that explain it, best first; where no record is
    its site, the frame that raised it."""

    error: ParsedError
    found: list[Found]
    origin: Origin | None = None


@router.get("/static/errdex.css")
async def stylesheet() -> Response:
    return Response(
        _STYLESHEET,
        media_type="text/css",
        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "max-age=3600"},
    )


@router.get("/")
async def home(request: Request) -> Response:
    infos = await anyio.to_thread.run_sync(request_session(request).repos)
    return _page(request, "index.html", {"repos": _grouped(infos), "text": ""})


@router.post("/explain")
async def explain_paste(request: Request) -> Response:
    """The form's answer.  The form posts ``multipart/form-data``, which does not inflate the
    paste as URL-encoding can (up to three times), so a 1 MB paste stays within the body limit."""
    try:
        form = await request.form(max_files=0, max_fields=8, max_part_size=MAX_BODY)
    except HTTPException as exc:
        return _problem(request, exc.status_code, str(exc.detail))
    text = form.get("text")
    return await _explain(request, text if isinstance(text, str) else "")


@router.get("/explain")
async def explain_link(request: Request, text: str | None = None) -> Response:
    """The same answer for a link; without ``text``, the empty form."""
    if text is None:
        return _page(request, "explain.html", _explain_context("", [], None))
    return await _explain(request, text)


@router.get("/repos/{owner}/{name}")
async def repo(request: Request, owner: str, name: str) -> Response:
    key = f"{owner}/{name}"
    infos, records = await anyio.to_thread.run_sync(_repo, request_session(request), key)
    if not infos:
        return _problem(request, 404, f"The store holds no repository {key}.")
    records.sort(key=lambda r: (r.file_path, r.line_number))
    return _page(request, "repo.html", {"repo": key, "infos": infos, "records": records})


@router.get("/errors/{record_id}")
async def record_by_id(request: Request, record_id: str) -> Response:
    return await _record(request, record_id)


@router.get("/errors/{owner}/{name}/{slug}")
async def record_by_slug(request: Request, owner: str, name: str, slug: str) -> Response:
    return await _record(request, f"{owner}/{name}/{slug}")


async def _explain(request: Request, text: str) -> Response:
    try:
        session = request_session(request)
        explained, unexplained = await within_budget(
            request_budget(request), lambda deadline: _answer(session, text, deadline)
        )
    except ErrdexError as exc:
        return _explain_problem(request, text, 400, str(exc))
    except HTTPException as exc:
        return _explain_problem(request, text, exc.status_code, str(exc.detail))
    link = "/explain?" + urlencode({"text": text}) if len(text) <= LINK_CHARS else None
    context = {**_explain_context(text, explained, link), "unexplained": unexplained}
    return _page(request, "explain.html", context)


def _explain_problem(request: Request, text: str, status: int, problem: str) -> Response:
    # A paste over the limit is not sent back: the page would be as large as the paste.
    shown = text if len(text) <= MAX_PASTE_BYTES else ""
    return _page(request, "explain.html", {**_explain_context(shown, [], None), "problem": problem}, status)


def _explain_context(text: str, explained: list[Explained], link: str | None) -> dict[str, Any]:
    return {
        "text": text,
        "explained": explained,
        "link": link,
        "problem": None,
        "evidence": EVIDENCE,
        "unexplained": 0,
        "max_errors": MAX_ERRORS,
    }


def _answer(session: Session, text: str, deadline: Deadline) -> tuple[list[Explained], int]:
    """The errors looked up, in the order the matcher explains them, each with its records, and
    how many more the paste held; prose included, all written here in the worker thread (never
    on the event loop)."""
    answer = session.explain(text, TOP, deadline)
    errors = answer.query.errors
    explained = [
        Explained(errors[i], [Found(m, m.record) for m in answer.for_error(i)], answer.origin(i))
        for i in answer.order
    ]
    return explained, answer.unexplained


def _repo(session: Session, key: str) -> tuple[list[RepoInfo], list[Record]]:
    infos = [info for info in session.repos() if info.repo == key]
    return infos, session.records(key) if infos else []


async def _record(request: Request, key: str) -> Response:
    found = await anyio.to_thread.run_sync(_lookup, request_session(request), key)
    if found is None:
        return _problem(request, 404, f"The store holds no record {key}.")
    record, related, releases = found
    return _page(
        request,
        "record.html",
        {
            "record": record,
            "releases": releases_text(releases, record.version),
            "source": list(enumerate(record.source_code.split("\n"), start=record.source_code_start)),
            "others": _other_sites(record),
            "related": related,
        },
    )


def _lookup(session: Session, key: str) -> tuple[Record, list[Record], list[str]] | None:
    record = session.get(key)
    return None if record is None else (record, session.related(record), session.releases(record))


def _other_sites(record: Record) -> list[Site]:
    return [s for s in record.sites if (s.file_path, s.line_number) != (record.file_path, record.line_number)]


def _grouped(infos: list[RepoInfo]) -> list[tuple[str, list[RepoInfo]]]:
    """Distributions that share a repository listed under it once (the store lists them in order)."""
    groups: dict[str, list[RepoInfo]] = {}
    for info in infos:
        groups.setdefault(info.repo, []).append(info)
    return list(groups.items())


def _problem(request: Request, status: int, message: str) -> Response:
    return _page(request, "problem.html", {"status": status, "message": message}, status)


def _page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> Response:
    return _templates.TemplateResponse(request, template, context, status_code=status, headers=_HEADERS)
