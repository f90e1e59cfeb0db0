"""Which files of a project's releases a corpus run mines: read from a package index.

The index is read through its PEP 691 JSON simple API (with PEP 700's sizes and upload times
where it gives them), by the standard library alone: a corpus host needs nothing installed to
plan.  One artifact per release, so a project's history is mined once per version, from the
file that holds the most source: its sdist, else a pure-Python wheel, else any wheel.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename
from packaging.version import Version

from errdex.errors import ErrdexError
from errdex.store.artifacts import Artifact

DEFAULT_INDEX = "https://pypi.org/simple"
JSON_TYPE = "application/vnd.pypi.simple.v1+json"
#: A project page larger than this is refused: numpy's, botocore's (about 4,400 files) are
#: under 2 MB.
MAX_PAGE_BYTES = 64_000_000
_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


class PlanError(ErrdexError):
    """The index cannot say what to mine: no such project, an unreachable or odd index."""


@dataclass(frozen=True, slots=True)
class IndexFile:
    """One file of a project page, as the index lists it."""

    filename: str
    #: Absolute, resolved against the page's address (after redirects).
    url: str
    #: Hex, lower case; None where the index gives none (then the download cannot be verified).
    sha256: str | None
    #: PEP 700 fields: None where the index predates them.
    size: int | None
    upload_time: str | None
    #: PEP 691 gives a bool or a reason; any reason means yanked.
    yanked: bool
    requires_python: str | None


def project_files(index_url: str, name: str, *, timeout: float = 30.0) -> list[IndexFile]:
    """Every file the index lists for project ``name``, in the index's order.

    Files whose entries are malformed (no file name, a name with a path in it, no URL, or a
    URL of another scheme than http(s) or the index's own) are left out: a hostile index must
    not point a download at ``file:///etc/...``.
    """
    page = f"{index_url.rstrip('/')}/{canonicalize_name(name)}/"
    body, final_url = _get(page, index_url, name, timeout)
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlanError(f"{page} is not JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        raise PlanError(f"{page} is not a PEP 691 project page (no list of files)")
    version = str((data.get("meta") or {}).get("api-version", ""))
    if version.split(".")[0] != "1":
        raise PlanError(f"{page} speaks simple API version {version or 'unknown'}, not 1.x")
    allowed = {"http", "https", urllib.parse.urlsplit(final_url).scheme}
    return [f for entry in data["files"] if (f := _index_file(entry, final_url, allowed)) is not None]


def _get(page: str, index_url: str, name: str, timeout: float) -> tuple[bytes, str]:
    """The page's body, at most ``MAX_PAGE_BYTES``, and its final address."""
    request = urllib.request.Request(page, headers={"Accept": JSON_TYPE})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            content_type = response.headers.get_content_type()
            if content_type not in (JSON_TYPE, "application/json"):
                raise PlanError(f"{page} answered {content_type}, not the PEP 691 JSON API")
            length = response.headers.get("Content-Length")
            if length is not None and length.isdigit() and int(length) > MAX_PAGE_BYTES:
                raise PlanError(f"{page} is {length} bytes, over the {MAX_PAGE_BYTES} limit")
            body = response.read(MAX_PAGE_BYTES + 1)
            if len(body) > MAX_PAGE_BYTES:
                raise PlanError(f"{page} is over the {MAX_PAGE_BYTES}-byte limit")
            return body, response.geturl()
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            raise PlanError(f"no project {name} on {index_url}") from None
        raise PlanError(f"{page}: HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise PlanError(f"cannot reach {index_url}: {exc.reason}") from None
    except (OSError, ValueError) as exc:  # a timeout or reset mid-body; ValueError: a bad URL
        raise PlanError(f"cannot read {page}: {exc}") from None


def _index_file(entry: Any, page_url: str, schemes: set[str]) -> IndexFile | None:
    if not isinstance(entry, dict):
        return None
    filename, url = entry.get("filename"), entry.get("url")
    if not isinstance(filename, str) or not is_plain_filename(filename) or not isinstance(url, str):
        return None
    url = urllib.parse.urljoin(page_url, url)
    if urllib.parse.urlsplit(url).scheme not in schemes:
        return None
    hashes = entry.get("hashes")
    sha256 = hashes.get("sha256") if isinstance(hashes, dict) else None
    size = entry.get("size")
    upload_time = entry.get("upload-time")
    requires_python = entry.get("requires-python")
    return IndexFile(
        filename=filename,
        url=url,
        sha256=sha256.lower() if isinstance(sha256, str) and _SHA256.fullmatch(sha256) else None,
        size=size if type(size) is int and size >= 0 else None,
        upload_time=upload_time if isinstance(upload_time, str) else None,
        yanked=entry.get("yanked") not in (None, False),
        requires_python=requires_python if isinstance(requires_python, str) else None,
    )


def is_plain_filename(name: str) -> bool:
    """A name that is one file in one directory: no separator, no ``..``, no control."""
    return (
        bool(name)
        and name not in (".", "..")
        and not any(c in name for c in "/\\")
        and not any(ord(c) < 32 or ord(c) == 127 for c in name)
    )


def plan(requirement: str, *, index_url: str = DEFAULT_INDEX, timeout: float = 30.0) -> list[Artifact]:
    """The artifacts to mine for a PEP 508 requirement, one per release, oldest first.

    ``requests>=2.20`` is every release the specifier admits; ``click==8.1.7`` one; a bare
    name (``idna``) only the newest release, not the whole history.  Pre-releases are planned
    only where the specifier names one (``>=2.0rc1``), never because no final release fits;
    yanked files never, and a release whose files are all yanked not at all.
    ``requires-python`` is not read: errdex reads code, never runs it.  Extras and markers are
    ignored; a direct reference (``name @ URL``) has no index to plan from.

    A release's file is its sdist (``.tar.gz``, then ``.zip``), else a pure-Python wheel,
    else any wheel; files whose names do not parse as this project's sdist or wheel are
    ignored.  A file the index lists without a sha256 is still planned (``sha256=None``), but
    its download cannot be verified.

    One request per call: ``numpy>=0`` (4,415 files, 136 releases) planned from pypi.org in
    0.3 s, 0.23 s of it the page; a local index's three releases in about a millisecond.
    """
    try:
        wanted = Requirement(requirement)
    except InvalidRequirement as exc:
        raise PlanError(f"not a requirement: {requirement!r} ({exc})") from None
    if wanted.url:
        raise PlanError(f"{requirement!r} is a direct reference: there is no index to plan it from")
    name = canonicalize_name(wanted.name)
    releases = _releases(name, project_files(index_url, name, timeout=timeout))
    # Explicitly: packaging 26's default also admits pre-releases where no final release does.
    explicit = bool(wanted.specifier.prereleases)
    admitted = sorted(wanted.specifier.filter(releases, prereleases=explicit))
    if not wanted.specifier:
        admitted = admitted[-1:]
    return [_artifact(name, version, releases[version]) for version in admitted]


def _releases(name: str, files: Iterable[IndexFile]) -> dict[Version, list[IndexFile]]:
    """Files not yanked, grouped by the release their names say (``1.0`` and ``1.0.0`` are one)."""
    releases: dict[Version, list[IndexFile]] = {}
    for file in files:
        if file.yanked:
            continue
        parsed = _parse_filename(file.filename)
        if parsed is not None and parsed[0] == name:
            releases.setdefault(parsed[1], []).append(file)
    return releases


def _parse_filename(filename: str) -> tuple[str, Version] | None:
    try:
        if filename.endswith(".whl"):
            wheel_name, version, _, _ = parse_wheel_filename(filename)
            return wheel_name, version
        if filename.endswith((".tar.gz", ".zip")):
            sdist_name, version = parse_sdist_filename(filename)
            return sdist_name, version
    except ValueError:  # InvalidWheelFilename, InvalidSdistFilename, InvalidVersion
        return None
    return None


def _artifact(name: str, version: Version, files: list[IndexFile]) -> Artifact:
    chosen = min(files, key=lambda f: (_preference(f.filename), f.filename))
    return Artifact(
        package=name,
        version=str(version),
        filename=chosen.filename,
        url=chosen.url,
        sha256=chosen.sha256,
        size=chosen.size,
        kind="wheel" if chosen.filename.endswith(".whl") else "sdist",
        upload_time=chosen.upload_time,
    )


def _preference(filename: str) -> int:
    """Lower is better: the sdist holds the most source (tests too), a pure wheel all of it."""
    if filename.endswith(".tar.gz"):
        return 0
    if filename.endswith(".zip"):
        return 1
    tags = parse_wheel_filename(filename)[3]
    pure = any(t.interpreter == "py3" and t.abi == "none" and t.platform == "any" for t in tags)
    return 2 if pure else 3
