"""A Python environment as errdex mines it: its standard library and its installed distributions.

Checking whether an index is fresh uses only this module's light half (``Environment``,
``distributions``); the miner is imported when something must actually be mined.

Nothing here imports what is installed.  The target interpreter runs once, isolated and without
``site`` (so no ``.pth`` file executes), only to say where its libraries live; distributions are
then read from ``*.dist-info`` on disk (``METADATA``, ``RECORD``, ``direct_url.json``).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path, PurePosixPath

from errdex.errors import ErrdexError
from errdex.mine.sources import (
    METADATA_LIMIT,
    RECORD_LIMIT,
    Origin,
    Source,
    describe,
    directory_source,
    github_repo,
    metadata_repo,
    requirements,
    select_files,
    select_listed,
)
from errdex.reading import read_regular
from errdex.record import canonical, is_commit, is_repo_name

#: Run by the target interpreter with ``-I -S``.  Without ``site`` a virtual environment does not
#: set ``sys.prefix`` to itself, so the probe finds its ``pyvenv.cfg`` the way ``site`` would.
_PROBE = """
import json, os, sys, sysconfig
exe = os.path.dirname(os.path.abspath(sys.executable))
prefix = sys.prefix
for candidate in (exe, os.path.dirname(exe)):
    if os.path.isfile(os.path.join(candidate, "pyvenv.cfg")):
        prefix = candidate
        break
paths = sysconfig.get_paths(vars={"base": prefix, "platbase": prefix})
print(json.dumps({
    "prefix": prefix,
    "version": "%d.%d.%d" % sys.version_info[:3],
    "stdlib": sysconfig.get_paths()["stdlib"],
    "site": [paths["purelib"], paths["platlib"]],
}))
"""
_PROBE_TIMEOUT = 30
#: Standard-library directories that are tests, demos or tools, not what programs call.
STDLIB_EXCLUDES = (
    "test", "tests", "idlelib", "turtledemo", "lib2to3", "ensurepip", "site-packages",
    "dist-packages", "__pycache__", "config-*", "tkinter", "pydoc_data",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Environment:
    """Where one interpreter's libraries live."""

    python: str
    prefix: Path
    version: str
    stdlib: Path
    site: tuple[Path, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "python": self.python,
            "prefix": str(self.prefix),
            "version": self.version,
            "stdlib": str(self.stdlib),
            "site": [str(p) for p in self.site],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Environment:
        site = data["site"]
        assert isinstance(site, list)
        return cls(
            str(data["python"]),
            Path(str(data["prefix"])),
            str(data["version"]),
            Path(str(data["stdlib"])),
            tuple(Path(str(p)) for p in site),
        )


@dataclass(frozen=True, slots=True)
class Distribution:
    """One installed distribution, as its ``*.dist-info`` describes it."""

    name: str
    version: str
    #: The site-packages directory its files are relative to.
    site: Path
    dist_info: Path
    #: ``owner/name`` on GitHub when its metadata names a repository, else ``pypi/<name>``.
    repo: str
    #: The commit it was installed from (``direct_url.json`` of a VCS install), if known.
    sha: str | None
    #: Changes whenever the distribution is reinstalled, even at the same version.
    fingerprint: str
    #: For an editable install, the source directory it points to.
    editable: Path | None = None
    #: The distributions its metadata says it depends on (``Requires-Dist``), extras included.
    dependencies: tuple[str, ...] = ()

    @property
    def on_github(self) -> bool:
        return not self.repo.startswith("pypi/")


def probe(python: str) -> Environment:
    """Ask the interpreter where its libraries are, without letting it run anything installed."""
    try:
        run = subprocess.run(
            [python, "-I", "-S", "-c", _PROBE],
            capture_output=True,
            text=True,
            timeout=_PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ErrdexError(f"cannot run {python} to find its libraries: {exc}") from exc
    try:
        data = json.loads(run.stdout)
    except json.JSONDecodeError:
        why = (run.stderr.strip().splitlines() or ["no output"])[-1]
        raise ErrdexError(f"{python} did not say where its libraries are: {why}") from None
    site = tuple(dict.fromkeys(Path(p) for p in data["site"]))
    return Environment(python, Path(data["prefix"]), data["version"], Path(data["stdlib"]), site)


def distributions(env: Environment, problems: list[tuple[str, str]] | None = None) -> list[Distribution]:
    """Every distribution installed in the environment's site-packages, by name.

    When two directories hold the same name (purelib and platlib), the first wins, as it would
    on ``sys.path``.  Metadata errdex cannot read is reported in ``problems`` as (path, why).
    """
    found: dict[str, Distribution] = {}
    for site in env.site:
        for info in metadata_dirs(site):
            try:
                dist = read_distribution(site, info)
            except ValueError as exc:
                if problems is not None:
                    problems.append((str(info), str(exc)))
                continue
            found.setdefault(canonical(dist.name), dist)
    return sorted(found.values(), key=lambda d: canonical(d.name))


def metadata_dirs(site: Path) -> Iterator[Path]:
    """Each distribution's metadata directory in ``site``, by name."""
    try:
        entries = sorted(os.scandir(site), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.endswith(METADATA_SUFFIXES) and entry.is_dir(follow_symlinks=False):
            yield Path(entry.path)


#: A wheel installs ``*.dist-info``; ``setup.py install`` and some system packages ``*.egg-info``.
METADATA_SUFFIXES = (".dist-info", ".egg-info")


def file_list(info: Path) -> Path:
    """The file listing what a distribution installed: ``RECORD``, or an egg-info's
    ``installed-files.txt``.  Rewritten by every (re)install, so its size and time say when."""
    return info / ("installed-files.txt" if info.name.endswith(".egg-info") else "RECORD")


def read_distribution(site: Path, info: Path) -> Distribution:
    """A distribution from its metadata; ``ValueError`` says why it cannot be read."""
    egg = info.name.endswith(".egg-info")
    listing = file_list(info)
    try:
        data = read_regular(info / ("PKG-INFO" if egg else "METADATA"), METADATA_LIMIT)
        stat = listing.stat() if listing.is_file() else info.stat()
    except OSError as exc:
        raise ValueError(f"metadata cannot be read: {exc.strerror or exc}") from None
    text = data.decode("utf-8", errors="replace")
    metadata = HeaderParser().parsestr(text)
    name, version = metadata.get("Name"), metadata.get("Version")
    if not name or not version:
        raise ValueError("metadata names no distribution (no Name or Version)")
    direct = _direct_url(info)
    editable = direct.get("editable")
    repo = direct.get("repo") or metadata_repo(metadata)
    repo = repo or f"pypi/{canonical(name.strip())}"
    if not is_repo_name(repo):  # its records could not be stored
        raise ValueError(f"the name {name.strip()!r} makes no repository name")
    return Distribution(
        name=name.strip(),
        version=version.strip(),
        site=site,
        dist_info=info,
        repo=repo,
        sha=direct.get("sha"),
        fingerprint=f"{version.strip()}:{stat.st_size}:{stat.st_mtime_ns}",
        editable=Path(editable) if editable else None,
        dependencies=requirements(metadata.get_all("Requires-Dist") or []),
    )


def _direct_url(dist_info: Path) -> dict[str, str]:
    """What PEP 610's ``direct_url.json`` says: the commit of a VCS install, an editable's source."""
    with contextlib.suppress(OSError, ValueError, AttributeError, TypeError):
        data = json.loads(read_regular(dist_info / "direct_url.json", METADATA_LIMIT))
        out: dict[str, str] = {}
        url = str(data.get("url", ""))
        commit = str((data.get("vcs_info") or {}).get("commit_id", ""))
        if is_commit(commit) and (repo := github_repo(url)):
            out["sha"], out["repo"] = commit, repo
        if (data.get("dir_info") or {}).get("editable") and url.startswith("file://"):
            out["editable"] = url.removeprefix("file://")
        return out
    return {}


def distribution_files(dist: Distribution) -> list[str]:
    """The ``.py`` files a distribution installed, relative to its site-packages: from ``RECORD``,
    or an egg-info's ``installed-files.txt`` (whose paths are relative to the egg-info).

    Entries that leave site-packages (scripts in ``bin/``, ``../../``) are not its library.
    """
    egg = dist.dist_info.name.endswith(".egg-info")
    try:
        text = read_regular(file_list(dist.dist_info), RECORD_LIMIT).decode("utf-8", errors="replace")
    except OSError:
        return []
    f = io.StringIO(text, newline="")
    entries = [line.strip() for line in f] if egg else [row[0] for row in csv.reader(f) if row]
    files = []
    for entry in entries:
        if not entry.endswith(".py"):
            continue
        path = PurePosixPath(entry.replace("\\", "/"))
        if egg:  # ``../pkg/mod.py`` from inside ``pkg-1.0.egg-info``
            path = PurePosixPath(os.path.normpath(PurePosixPath(dist.dist_info.name) / path))
        if path.is_absolute() or ".." in path.parts:
            continue
        files.append(path.as_posix())
    return sorted(set(files))


STDLIB_REPO = "python/cpython"
STDLIB_PACKAGE = "python"


def stdlib_fingerprint(env: Environment) -> str:
    """What changes when the standard library does: the interpreter's version and where it lives."""
    return f"{env.version}:{env.stdlib}"


def stdlib_source(env: Environment) -> Source:
    """The standard library, laid out as CPython's repository has it (``Lib/``), linked at the
    interpreter's release tag."""
    selection = select_files(env.stdlib, STDLIB_EXCLUDES)
    origin = Origin("stdlib", STDLIB_REPO, None, STDLIB_PACKAGE, env.version)
    return Source(
        files=selection.files,
        tests=[],  # Lib/test is CPython's own suite: large, and about the interpreter
        origin=origin,
        repo=STDLIB_REPO,
        sha=None,
        ref=f"v{env.version}",
        path_prefix="Lib/",
        fingerprint=stdlib_fingerprint(env),
        skipped=selection.skipped,
    )


def distribution_source(dist: Distribution) -> Source:
    """A distribution's own files: those its ``RECORD`` lists, or an editable install's tree.

    Paths are relative to site-packages, as tracebacks show them.  Permalinks point at the
    commit a VCS install records, else at the tag ``v<version>``: the common convention, which
    some projects do not follow (there is no way to tell offline).
    """
    origin = Origin("installed", dist.repo, dist.sha, dist.name, dist.version, dist.dependencies)
    ref = dist.sha or (f"v{dist.version}" if dist.on_github else None)
    if dist.editable is not None and dist.editable.is_dir():
        repo = describe(dist.editable).repo or dist.repo  # a checkout's own remote is surer
        source = directory_source(dist.editable, repo=repo)
        source.origin = origin
        source.fingerprint = dist.fingerprint
        source.sha = source.sha or dist.sha
        source.ref = source.sha or ref
        return source
    selection, tests = select_listed(dist.site, distribution_files(dist))
    return Source(
        files=selection.files,
        tests=tests,
        origin=origin,
        repo=dist.repo,
        sha=dist.sha,
        ref=ref,
        fingerprint=dist.fingerprint,
        skipped=selection.skipped,
    )
