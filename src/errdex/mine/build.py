"""Turn resolved sites into records: one per (repo, message or code, file), every site kept."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass, replace

from errdex import languages
from errdex.languages.ir import FileResult, RawSite
from errdex.patterns import message_kind
from errdex.record import (
    EXTENSION_VERSION,
    ErrorType,
    Facts,
    Record,
    base_slug,
    identity,
    kebab,
    permalink,
    record_id,
    source_window,
    unique_slugs,
)


@dataclass(frozen=True, slots=True)
class Context:
    """What every record of one mining run shares."""

    repo: str
    sha: str | None
    analyzed_at: str
    path_prefix: str = ""
    package: str | None = None
    version: str | None = None
    #: What permalinks point at: the commit, else a release tag; None where there is no GitHub page.
    ref: str | None = None


def build_records(results: list[FileResult], ctx: Context) -> list[Record]:
    drafts: list[tuple[str, int, dict[str, object]]] = []
    for result in results:
        if not result.sites:
            continue
        file_path = ctx.path_prefix + result.path
        groups: dict[str, list[tuple[RawSite, str]]] = defaultdict(list)
        for site in _codes_that_identify(result.sites):
            key, message = _identity(site)
            groups[key].append((site, message))
        # What every record of the file shares.
        language = languages.get(result.language)
        tags = list(dict.fromkeys(t for t in (kebab(p) for p in (result.module or "").split(".")[:2]) if t))
        for key, sites in groups.items():
            sites.sort(key=lambda s: s[0].line)
            draft = _draft(key, sites, result, file_path, ctx, language, tags)
            drafts.append((file_path, sites[0][0].line, draft))
    drafts.sort(key=lambda d: (d[0], d[1]))
    slugs = unique_slugs([str(d[2].pop("_slug")) for d in drafts])
    for (_, _, fields), slug in zip(drafts, slugs, strict=True):
        fields["slug"] = slug
    # Validation runs in pydantic's compiled core and costs less than model_construct's
    # pure-Python path, so mined records are checked like any others.
    return [Record.model_validate(fields) for _, _, fields in drafts]


def _codes_that_identify(sites: list[RawSite]) -> list[RawSite]:
    """The sites, each keeping its error code only where the code identifies one error of the
    file.  A record's id is its code's where it has one; a code the file gives several messages
    (axios's ``ERR_BAD_REQUEST``, for every bad request) would make them one record with one
    message, the rest unmatchable: those sites go by their messages, without the code."""
    messages: dict[str, set[str]] = defaultdict(set)
    for site in sites:
        if site.error_code:
            messages[site.error_code].add(site.template.message if site.template else "")
    shared = {code for code, found in messages.items() if len(found) > 1}
    if not shared:
        return sites
    return [replace(s, error_code=None) if s.error_code in shared else s for s in sites]


def _identity(site: RawSite) -> tuple[str, str]:
    """The key records are grouped by (the one ``record.identity`` the record's id is checked
    by), and the site's message."""
    template = site.template
    message = template.message if template else ""
    return identity(site.error_code, message, message_kind(template), site.class_written), message


#: The facts a mined record starts with besides its guards (``errdex.mine.facts`` adds the
#: rest), each given: a default left out is deep-copied by validation, once per record.
_NO_FACTS = {name: field.default for name, field in Facts.model_fields.items() if name != "guards"}


def error_type(site: RawSite, language: languages.Language) -> ErrorType:
    if site.error_code:
        return "error_code"
    if site.kind == "http" or site.http_status:
        return "http"
    if site.kind in ("log", "warn", "exit"):
        return "console"
    cls = (site.class_written or "").rpartition(".")[2]
    return "validation" if language.validation_class.search(cls) else "exception"


def _draft(
    key: str,
    sites: list[tuple[RawSite, str]],
    result: FileResult,
    file_path: str,
    ctx: Context,
    language: languages.Language,
    tags: list[str],
) -> dict[str, object]:
    primary, message = sites[0]
    template = primary.template
    code, start, end = source_window(result.lines, primary.line)
    return {
        "id": record_id(ctx.repo, key, file_path),
        "repo": ctx.repo,
        "_slug": base_slug(primary.error_code, message, primary.class_written or "error"),
        "error_code": primary.error_code,
        "error_message": message,
        "message_pattern": template.pattern if template else "",
        "error_type": error_type(primary, language),
        "error_class": primary.class_written,
        "http_status": primary.http_status,
        "severity": primary.severity,
        "file_path": file_path,
        "line_number": primary.line,
        "source_code": code,
        "source_code_start": start,
        "source_code_end": end,
        "github_url": permalink(ctx.repo, ctx.ref, file_path, start, end) if ctx.ref else None,
        # Prose is enrichment's: a mined record states facts only.
        "documentation": "",
        "trigger_scenarios": "",
        "common_situations": "",
        "solutions": [],
        "example_fix": None,
        "handling_strategy": None,
        "validation_code": None,
        "type_guard": None,
        "try_catch_pattern": None,
        "prevention_tips": [],
        "tags": list(tags),
        "background_tag": None,
        "analyzed_sha": ctx.sha,
        "analyzed_at": ctx.analyzed_at,
        "schema_version": 2,
        "extension_version": EXTENSION_VERSION,
        "language": result.language,
        "package": ctx.package,
        "version": ctx.version,
        "function": primary.function,
        "qualified_class": primary.class_qualified,
        "conditions": list(primary.conditions),
        "placeholders": template.placeholders if template else [],
        "message_kind": message_kind(template),
        "sites": [_site(s, own, file_path, message, ctx.path_prefix) for s, own in sites],
        # The rest of the facts need the whole tree: ``errdex.mine.facts`` adds them.
        "facts": {**_NO_FACTS, "guards": list(primary.guards), "delivery": primary.delivery},
        "enrichment": "none",
        "provenance": {},
    }


def _site(site: RawSite, message: str, file_path: str, record_message: str, prefix: str) -> dict[str, object]:
    return {
        "file_path": file_path,
        "line_number": site.line,
        "kind": site.kind,
        "function": site.function,
        "conditions": list(site.conditions),
        "error_class": site.class_written,
        "qualified_class": site.class_qualified,
        "error_message": message if message != record_message else None,
        # A helper of a package installed beside this one raises up the tree (``../@hapi/hoek/...``).
        "via_file_path": posixpath.normpath(prefix + site.via_path) if site.via_path else None,
        "via_line_number": site.via_line,
        "logger": site.logger,
    }
