"""Where source comes from: the files to mine in a directory, and what the directory is.

A directory may be a git checkout, an unpacked wheel or an sdist.  Repository facts are read
from the files git keeps (``.git/HEAD``, refs, ``config``) instead of running ``git``: a
hostile checkout can configure git to run programs, and errdex never runs anything it mines.
Which files are sources, tests and packages is each language's to say (:mod:`errdex.languages`);
what no library holds (docs, examples, vendored code, hidden directories) is decided here.
"""

from __future__ import annotations

import configparser
import contextlib
import fnmatch
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.parser import HeaderParser
from pathlib import Path, PurePosixPath

from errdex.errors import ErrdexError
from errdex.languages import LANGUAGES, for_path
from errdex.record import SourceKind, is_commit, is_repo_name

_LANGUAGE_EXCLUDES = tuple(dict.fromkeys(g for entry in LANGUAGES.values() for g in entry.excludes))
DEFAULT_EXCLUDES = (
    "tests", "test", "testing", "docs", "doc", "examples", "example", "benchmarks",
    "benchmark", "vendor", "vendored", "_vendor", "third_party", "node_modules", ".*",
    *_LANGUAGE_EXCLUDES,
)  # fmt: skip
DEFAULT_MAX_FILE_SIZE = 2_000_000

_GITHUB_REMOTE = re.compile(r"github\.com[:/]+([^/\s]+)/([^/\s]+?)(?:\.git)?/?$")
_PACKAGE_FILES = frozenset(entry.package_file for entry in LANGUAGES.values() if entry.package_file)


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: Path
    #: Path relative to the mined root, in posix form.
    relative: str
    module: str | None
    is_package: bool
    #: The language that reads it (``errdex.languages``).
    language: str
    #: A test file: read for the errors its tests expect, not mined for sites.
    is_test: bool = False


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file left out, and why."""

    path: str
    reason: str


@dataclass(slots=True)
class Selection:
    files: list[SourceFile] = field(default_factory=list)
    #: Every file left out that might have been wanted.
    skipped: list[Skipped] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Origin:
    """What a directory says about itself: repository, commit, distribution."""

    kind: SourceKind
    repo: str | None = None
    sha: str | None = None
    package: str | None = None
    version: str | None = None


@dataclass(slots=True)
class Source:
    """One thing to mine: its files, and what its records say about where they come from."""

    files: list[SourceFile]
    tests: list[SourceFile]
    origin: Origin
    repo: str
    sha: str | None
    #: What permalinks point at (the commit, else a release tag); None where there is no GitHub page.
    ref: str | None
    path_prefix: str = ""
    fingerprint: str | None = None
    skipped: list[Skipped] = field(default_factory=list)


def directory_source(
    root: Path,
    *,
    repo: str | None = None,
    sha: str | None = None,
    path_prefix: str = "",
    exclude: Iterable[str] = (),
    default_excludes: bool = True,
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
    require_sha: bool = True,
) -> Source:
    """A directory as a source: a checkout, an unpacked wheel or sdist, an editable install."""
    if not root.is_dir():
        raise ErrdexError(f"{root} is not a directory")
    origin = describe(root)
    repo = repo or origin.repo
    sha = (sha or origin.sha or "").lower() or None
    if repo is None:
        raise ErrdexError(f"cannot tell which repository {root} is: pass --repo OWNER/NAME")
    if not is_repo_name(repo):
        raise ErrdexError(f"--repo must look like OWNER/NAME, not {repo!r}")
    if sha is None and require_sha:
        raise ErrdexError(f"cannot tell which commit {root} is: pass --sha with the 40-hex commit")
    if sha is not None and not is_commit(sha):
        raise ErrdexError(f"--sha must be a full 40-hex commit id, not {sha!r}")
    exclude = tuple(exclude)  # read twice: for sources and for tests
    selection = select_files(root, exclude, default_excludes, max_file_size)
    tests = select_tests(root, exclude, max_file_size) if default_excludes else []
    return Source(
        files=selection.files,
        tests=tests,
        origin=origin,
        repo=repo,
        sha=sha,
        ref=sha,
        path_prefix=normalise_prefix(path_prefix),
        skipped=selection.skipped,
    )


def select_files(
    root: Path,
    exclude: Iterable[str] = (),
    default_excludes: bool = True,
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
) -> Selection:
    """The source files under root worth mining, in a stable order.

    Directory symlinks are never followed and file symlinks that leave the root are skipped,
    so a checkout cannot point errdex at files outside it.
    """
    root = root.resolve()
    patterns = _glob_regex([*(DEFAULT_EXCLUDES if default_excludes else ()), *exclude])
    selection = Selection()
    packages: set[Path] = set()
    found: list[tuple[Path, str]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        rel_dir = here.relative_to(root).as_posix()
        dirnames[:] = sorted(d for d in dirnames if not _excluded(d, _join(rel_dir, d), patterns))
        if _PACKAGE_FILES.intersection(filenames):
            packages.add(here)
        for name in sorted(filenames):
            if for_path(name) is None:
                continue
            rel = _join(rel_dir, name)
            if _excluded(name, rel, patterns):
                continue
            path = here / name
            reason = _unusable(path, root, max_file_size)
            if reason is not None:
                selection.skipped.append(Skipped(rel, reason))
                continue
            found.append((path, rel))
    for path, rel in found:
        language = for_path(path)
        assert language is not None
        module, is_package = language.module_name(_import_path(path, packages))
        selection.files.append(SourceFile(path, rel, module, is_package, language.name))
    return selection


_TEST_DIRS = frozenset({"tests", "test", "testing"})
_NOT_TESTS = frozenset(
    {
        "node_modules",
        "vendor",
        "_vendor",
        "third_party",
        *(d for e in LANGUAGES.values() for d in e.not_tests),
    }
)


def select_tests(
    root: Path, exclude: Iterable[str] = (), max_file_size: int = DEFAULT_MAX_FILE_SIZE
) -> list[SourceFile]:
    """The test files under root (``tests/``, ``test_*.py``): what they expect tells how
    errors are triggered.  The caller's excludes and the rules for symlinks and sizes are
    those of ``select_files``."""
    root = root.resolve()
    patterns = _glob_regex(list(exclude))
    found = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        rel_dir = here.relative_to(root).as_posix()
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in _NOT_TESTS and not d.startswith(".") and not _excluded(d, _join(rel_dir, d), patterns)
        )
        in_tests = any(part in _TEST_DIRS for part in rel_dir.split("/"))
        for name in sorted(filenames):
            language = for_path(name)
            if language is None or not (in_tests or language.is_test_name(name)):
                continue
            if _excluded(name, _join(rel_dir, name), patterns):
                continue
            path = here / name
            if _unusable(path, root, max_file_size) is None:  # a test left out only lacks its evidence
                found.append(SourceFile(path, _join(rel_dir, name), None, False, language.name, is_test=True))
    return found


def select_listed(
    root: Path,
    relatives: Iterable[str],
    exclude: Iterable[str] = (),
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
) -> tuple[Selection, list[SourceFile]]:
    """Sources and tests among files a distribution lists (its ``RECORD``), under ``root``.

    The rules are ``select_files``'s and ``select_tests``'s; module names are the paths
    themselves, since ``root`` (site-packages) is what imports start from.
    """
    root = root.resolve()
    sources = _glob_regex([*DEFAULT_EXCLUDES, *exclude])
    tests_only = _glob_regex([*_NOT_TESTS, ".*", *exclude])
    selection = Selection()
    tests = []
    for rel in relatives:
        language = for_path(rel)
        if language is None:
            continue
        parts = rel.split("/")
        path = root / rel
        if not _excluded_path(parts, sources):
            reason = _unusable(path, root, max_file_size)
            if reason is not None:
                selection.skipped.append(Skipped(rel, reason))
                continue
            module, is_package = language.module_name(parts)
            selection.files.append(SourceFile(path, rel, module, is_package, language.name))
        elif (
            (any(p in _TEST_DIRS for p in parts[:-1]) or language.is_test_name(parts[-1]))
            and not _excluded_path(parts[:-1], tests_only)
            and _unusable(path, root, max_file_size) is None
        ):
            tests.append(SourceFile(path, rel, None, False, language.name, is_test=True))
    return selection, tests


def _excluded_path(parts: list[str], patterns: re.Pattern[str] | None) -> bool:
    """Whether a path or any directory on it is excluded, as a walk that prunes would decide."""
    return any(_excluded(part, "/".join(parts[: i + 1]), patterns) for i, part in enumerate(parts))


def _unusable(path: Path, root: Path, max_file_size: int) -> str | None:
    """Why a file must not be read (a symlink leaving the root, unreadable, too large), or None."""
    if path.is_symlink() and not _inside(path.resolve(), root):
        return "symlink pointing outside the mined directory"
    try:
        size = path.stat().st_size
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if size > max_file_size:
        return f"larger than {max_file_size} bytes ({size})"
    return None


def _join(rel_dir: str, name: str) -> str:
    return name if rel_dir == "." else f"{rel_dir}/{name}"


def _glob_regex(globs: list[str]) -> re.Pattern[str] | None:
    """One regex for all exclude globs: matching each name against twenty globs in turn is slow."""
    return re.compile("|".join(fnmatch.translate(g) for g in globs)) if globs else None


def _excluded(name: str, rel: str, patterns: re.Pattern[str] | None) -> bool:
    return patterns is not None and bool(patterns.match(name) or patterns.match(rel))


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _import_path(path: Path, packages: set[Path]) -> list[str]:
    """The file's path below the directory imports start from: the chain of packages above it."""
    parts = [path.name]
    directory = path.parent
    while directory in packages:
        parts.append(directory.name)
        directory = directory.parent
    return parts[::-1]


def describe(root: Path) -> Origin:
    """Find what the directory is: a git checkout, an unpacked wheel or sdist, or just files."""
    git = _git_dir(root)
    dist = _distribution(root)
    if git is not None:
        repo, sha = _git_facts(git)
        return Origin("checkout", repo, sha, *dist)
    if dist != (None, None):
        kind: SourceKind = "wheel" if any(root.glob("*.dist-info")) else "sdist"
        return Origin(kind, None, None, *dist)
    return Origin("directory")


def _git_dir(root: Path) -> Path | None:
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
        text = dot_git.read_text(errors="replace").strip()
        if text.startswith("gitdir:"):
            target = (root / text.partition(":")[2].strip()).resolve()
            return target if target.is_dir() else None
    return None


def _git_facts(git: Path) -> tuple[str | None, str | None]:
    """owner/name from the origin remote, and the commit HEAD points at."""
    common = git
    commondir = git / "commondir"
    if commondir.is_file():
        common = (git / commondir.read_text().strip()).resolve()
    repo = None
    config = configparser.ConfigParser(strict=False, interpolation=None)
    with contextlib.suppress(configparser.Error):
        config.read(common / "config", encoding="utf-8")
    url = config.get('remote "origin"', "url", fallback="")
    if m := _GITHUB_REMOTE.search(url.strip()):
        repo = f"{m[1]}/{m[2]}"
    sha = None
    try:
        head = (git / "HEAD").read_text().strip()
    except OSError:
        return repo, None
    if is_commit(head):
        sha = head
    elif head.startswith("ref:"):
        ref = head.partition(":")[2].strip()
        sha = _resolve_ref(git, ref) or _resolve_ref(common, ref)
    return repo, sha


def _resolve_ref(git: Path, ref: str) -> str | None:
    loose = git / ref
    if loose.is_file():
        value = loose.read_text().strip()
        return value if is_commit(value) else None
    packed = git / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(errors="replace").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref and is_commit(sha):
                return sha
    return None


def _distribution(root: Path) -> tuple[str | None, str | None]:
    """Name and version from a wheel's ``*.dist-info/METADATA`` or an sdist's ``PKG-INFO``."""
    candidates = [*sorted(root.glob("*.dist-info/METADATA")), root / "PKG-INFO"]
    for meta in candidates:
        if meta.is_file():
            try:
                headers = HeaderParser().parsestr(meta.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            if headers.get("Name"):
                return headers["Name"], headers.get("Version")
    return None, None


def normalise_prefix(prefix: str) -> str:
    """``src`` → ``src/``; rejects prefixes that would climb out of the repository."""
    prefix = prefix.strip().replace("\\", "/")
    if not prefix:
        return ""
    posix = PurePosixPath(prefix)
    if posix.is_absolute() or ".." in posix.parts:
        raise ErrdexError(f"--path-prefix must be a relative path inside the repository, not {prefix!r}")
    return posix.as_posix().rstrip("/") + "/"
