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
import errno
import fnmatch
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import Message
from email.parser import HeaderParser
from pathlib import Path, PurePosixPath

from errdex.errors import ErrdexError
from errdex.languages import LANGUAGES, for_path
from errdex.reading import file_kind, read_regular
from errdex.record import SourceKind, is_commit, is_repo_name

_LANGUAGE_EXCLUDES = tuple(dict.fromkeys(g for entry in LANGUAGES.values() for g in entry.excludes))
#: A glob starting with ``/`` is matched from the root only: a project's own ``testing/``
#: holds its tests (pytest's does), a package's (``numpy/testing``) the public assertions
#: users' tests fail with.
DEFAULT_EXCLUDES = (
    "tests", "test", "/testing", "docs", "doc", "examples", "example", "benchmarks",
    "benchmark", "vendor", "vendored", "_vendor", "third_party", "node_modules", ".*",
    *_LANGUAGE_EXCLUDES,
)  # fmt: skip
DEFAULT_MAX_FILE_SIZE = 2_000_000
#: Caps on git's own files: HEAD, a loose ref, ``commondir`` and a ``.git`` file hold one line;
#: ``packed-refs`` and ``config`` of a repository with many tags and branches run to megabytes.
GIT_LINE_LIMIT = 4096
GIT_LIST_LIMIT = 16_000_000
#: A distribution's ``METADATA`` (its long description included) and its ``RECORD``.
METADATA_LIMIT = 16_000_000
RECORD_LIMIT = 64_000_000
#: A character no path on GitHub, no permalink and no one-line report can carry: control
#: characters (a newline), line separators, and the lone surrogates that stand for bytes of a
#: name that is not UTF-8.
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")

_GITHUB_REMOTE = re.compile(r"github\.com[:/]+([^/\s]+)/([^/\s]+?)(?:\.git)?/?$")
_GITHUB = re.compile(r"https?://(?:www\.)?github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)")
#: GitHub paths that are not repositories.
_NOT_OWNERS = frozenset({"sponsors", "orgs", "features", "apps", "marketplace", "topics", "settings"})
#: Project-URL labels that name the source, most telling first.
_SOURCE_LABELS = ("source", "source code", "repository", "code", "github", "homepage", "home")
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
    #: The size it was selected under: read with this cap, in case it grew since.
    max_size: int = DEFAULT_MAX_FILE_SIZE


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file left out, or a part of one (``path:line``), and why."""

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
    #: The distributions (npm packages) its metadata says it depends on, extras included.
    dependencies: tuple[str, ...] = ()


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
    #: For an npm package: the files Node starts from, each with how (``require`` for its
    #: CommonJS entry, ``import`` for its ES module one), relative to the root.
    entries: dict[str, str] = field(default_factory=dict)


def directory_source(
    root: Path,
    *,
    repo: str | None = None,
    sha: str | None = None,
    path_prefix: str = "",
    exclude: Iterable[str] = (),
    default_excludes: bool = True,
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
) -> Source:
    """A directory as a source: a checkout, an unpacked wheel or sdist, an editable install.

    The repository is ``repo``, else the checkout's GitHub remote, else the GitHub repository
    the package's metadata links to; the commit is ``sha``, else the checkout's ``HEAD``, else
    unknown: then the records have no commit and no permalink (``Source.sha`` is None)."""
    if not root.is_dir():
        raise ErrdexError(f"{root} is not a directory")
    origin = describe(root)
    if origin.kind == "npm":  # its entry files too, and its monorepo directory as the prefix
        from errdex.mine.npm import package_source, read_package

        return package_source(
            read_package(root, root.name or None),
            repo=repo,
            sha=sha,
            path_prefix=path_prefix or None,
            exclude=exclude,
            default_excludes=default_excludes,
            max_file_size=max_file_size,
        )
    repo = repo or origin.repo
    sha = (sha or origin.sha or "").lower() or None
    if repo is None:
        why = _NO_REPO.get(origin.kind, "nothing in it names a GitHub repository")
        if origin.kind == "directory" and (unusable := _manifest_problem(root)):
            why = f"not a git checkout, and {unusable}"
        raise ErrdexError(f"cannot tell which repository {root} is ({why}): pass --repo OWNER/NAME")
    if not is_repo_name(repo):
        raise ErrdexError(f"--repo must look like OWNER/NAME, not {repo!r}")
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


#: Why ``describe`` found no repository, by what the directory is.
_NO_REPO: dict[str, str] = {
    "checkout": "its git remote origin is missing or not on GitHub",
    "wheel": "its package metadata links to no GitHub repository",
    "sdist": "its package metadata links to no GitHub repository",
    "directory": "not a git checkout, and no package metadata",
}


def _manifest_problem(root: Path) -> str | None:
    """Why a directory's ``package.json`` made it no npm package, where it has one."""
    from errdex.mine.npm import PackageError, is_package_dir, read_package

    if not is_package_dir(root):
        return None
    try:
        read_package(root, root.name or None)
    except PackageError as exc:
        return str(exc)
    return None


def select_files(
    root: Path,
    exclude: Iterable[str] = (),
    default_excludes: bool = True,
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
) -> Selection:
    """The source files under root worth mining, in a stable order.

    Directory symlinks are never followed and file symlinks that leave the root are skipped,
    so a checkout cannot point errdex at files outside it; what ``_unusable`` refuses (a loop,
    a FIFO, a newline in a name) is skipped with its reason and the rest is mined.
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
            reason = _unusable(path, rel, root, max_file_size)
            if reason is not None:
                selection.skipped.append(Skipped(_shown(rel), reason))
                continue
            found.append((path, rel))
    for path, rel in found:
        language = for_path(path)
        assert language is not None
        # A language with no package file (JavaScript) names modules by their whole path.
        parts = _import_path(path, packages) if language.package_file else rel.split("/")
        module, is_package = language.module_name(parts)
        selection.files.append(
            SourceFile(path, rel, module, is_package, language.name, max_size=max_file_size)
        )
    return selection


_TEST_DIRS = frozenset({"tests", "test"})


def _in_tests(directories: list[str]) -> bool:
    """Whether a directory path holds tests: ``tests/`` anywhere, ``testing/`` at the root only
    (below it, ``numpy/testing`` is the package's own code, mined as sources)."""
    return any(part in _TEST_DIRS for part in directories) or directories[:1] == ["testing"]


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
        in_tests = _in_tests(rel_dir.split("/"))
        for name in sorted(filenames):
            language = for_path(name)
            if language is None or not (in_tests or language.is_test_name(name)):
                continue
            if _excluded(name, _join(rel_dir, name), patterns):
                continue
            path, rel = here / name, _join(rel_dir, name)
            if _unusable(path, rel, root, max_file_size) is None:  # a test left out only lacks its evidence
                found.append(SourceFile(path, rel, None, False, language.name, True, max_file_size))
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
            reason = _unusable(path, rel, root, max_file_size)
            if reason is not None:
                selection.skipped.append(Skipped(_shown(rel), reason))
                continue
            module, is_package = language.module_name(parts)
            selection.files.append(
                SourceFile(path, rel, module, is_package, language.name, max_size=max_file_size)
            )
        elif (
            (_in_tests(parts[:-1]) or language.is_test_name(parts[-1]))
            and not _excluded_path(parts[:-1], tests_only)
            and _unusable(path, rel, root, max_file_size) is None
        ):
            tests.append(SourceFile(path, rel, None, False, language.name, True, max_file_size))
    return selection, tests


def _excluded_path(parts: list[str], patterns: re.Pattern[str] | None) -> bool:
    """Whether a path or any directory on it is excluded, as a walk that prunes would decide."""
    return any(_excluded(part, "/".join(parts[: i + 1]), patterns) for i, part in enumerate(parts))


def _unusable(path: Path, rel: str, root: Path, max_file_size: int) -> str | None:
    """Why a file must not be read, or None.

    Checked with ``lstat``, ``stat`` and ``realpath(strict=True)``, which never open the file
    and report a loop as ``ELOOP`` (``Path.resolve`` raises ``RuntimeError`` for one), so
    nothing here can block or abort the mine.  ``read_regular`` checks again when it reads.
    """
    if (bad := _UNSAFE_NAME.search(rel)) is not None:
        if "\ud800" <= bad[0] <= "\udfff":
            return "file name is not UTF-8"
        return f"file name holds {bad[0]!r}, which no path or permalink can carry"
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            try:
                target = Path(os.path.realpath(path, strict=True))
            except OSError as exc:
                return "dangling symlink" if exc.errno == errno.ENOENT else _cannot_read(exc)
            if not _inside(target, root):
                return "symlink pointing outside the mined directory"
        info = os.stat(path)
    except OSError as exc:
        return _cannot_read(exc)
    if not stat.S_ISREG(info.st_mode):
        return f"not a regular file ({file_kind(info.st_mode)})"
    if info.st_size > max_file_size:
        return f"larger than {max_file_size} bytes ({info.st_size})"
    return None


def _cannot_read(exc: OSError) -> str:
    # ELOOP: the file, or a directory on its path, is a symlink that leads back to itself.
    return "symlink loop" if exc.errno == errno.ELOOP else f"cannot be read: {exc.strerror or exc}"


def _shown(rel: str) -> str:
    """A path as a one-line report can print it: what no line can hold, escaped."""
    return _UNSAFE_NAME.sub(lambda m: ascii(m[0])[1:-1], rel)


def _read_small(path: Path, limit: int) -> str | None:
    """A file of git's as text, or None where it is missing, unreadable or over its cap: then
    what it would say is unknown, as if it were not there."""
    try:
        return read_regular(path, limit).decode("utf-8", errors="replace")
    except (OSError, ValueError):  # ValueError: a NUL in a path a file named
        return None


def _join(rel_dir: str, name: str) -> str:
    return name if rel_dir == "." else f"{rel_dir}/{name}"


def _glob_regex(globs: list[str]) -> re.Pattern[str] | None:
    """One regex for all exclude globs: matching each name against twenty globs in turn is slow."""
    return re.compile("|".join(fnmatch.translate(g) for g in globs)) if globs else None


def _excluded(name: str, rel: str, patterns: re.Pattern[str] | None) -> bool:
    """A glob matches a file's or directory's name or its path from the root; one that starts
    with ``/``, only that path."""
    return patterns is not None and bool(
        patterns.match(name) or patterns.match(rel) or patterns.match("/" + rel)
    )


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
    """Find what the directory is: a git checkout, an unpacked wheel or sdist, an npm package
    (``errdex.mine.npm``), or just files."""
    git = _git_dir(root)
    name, version, linked, declared = _distribution(root)
    if git is not None:
        repo, sha = _git_facts(git)
        # Its own remote only: a commit of a fork or a mirror need not exist where the
        # metadata's link leads, and a permalink there would lead nowhere.
        return Origin("checkout", repo, sha, name, version, declared)
    if name is not None:
        kind: SourceKind = "wheel" if any(root.glob("*.dist-info")) else "sdist"
        return Origin(kind, linked, None, name, version, declared)
    if os.path.lexists(root / "package.json"):  # an npm package: unpacked, or in node_modules
        from errdex.mine.npm import package_origin

        if (npm := package_origin(root)) is not None:
            return npm
    return Origin("directory")


def _git_dir(root: Path) -> Path | None:
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
        text = (_read_small(dot_git, GIT_LINE_LIMIT) or "").strip()
        if text.startswith("gitdir:"):
            target = _real(root / text.partition(":")[2].strip())
            return target if target is not None and target.is_dir() else None
    return None


def _real(path: Path) -> Path | None:
    """Where a path leads, or None where it dangles or loops (``Path.resolve`` raises
    ``RuntimeError`` on a loop)."""
    try:
        return Path(os.path.realpath(path, strict=True))
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return None


def _git_facts(git: Path) -> tuple[str | None, str | None]:
    """owner/name from the origin remote, and the commit HEAD points at.

    Each file is read capped and only if regular (``_read_small``): one that is missing, a
    FIFO or oversized leaves its fact unknown, never blocks or fails the mine.
    """
    common = git
    if commondir := (_read_small(git / "commondir", GIT_LINE_LIMIT) or "").strip():
        common = _real(git / commondir) or git
    repo = None
    config = configparser.ConfigParser(strict=False, interpolation=None)
    with contextlib.suppress(configparser.Error):
        config.read_string(_read_small(common / "config", GIT_LIST_LIMIT) or "")
    url = config.get('remote "origin"', "url", fallback="")
    if (m := _GITHUB_REMOTE.search(url.strip())) and is_repo_name(f"{m[1]}/{m[2]}"):
        repo = f"{m[1]}/{m[2]}"
    head = _read_small(git / "HEAD", GIT_LINE_LIMIT)
    if head is None:
        return repo, None
    head, sha = head.strip(), None
    if is_commit(head):
        sha = head
    elif head.startswith("ref:"):
        ref = head.partition(":")[2].strip()
        sha = _resolve_ref(git, ref) or _resolve_ref(common, ref)
    return repo, sha


def _resolve_ref(git: Path, ref: str) -> str | None:
    """The commit a ref names, from its loose file or ``packed-refs``; None where unknown."""
    if not ref.startswith("refs/") or ".." in ref.split("/"):
        return None  # HEAD names no ref inside the git directory
    if os.path.lexists(loose := git / ref):  # a loose ref overrides packed-refs, readable or not
        value = (_read_small(loose, GIT_LINE_LIMIT) or "").strip()
        return value if is_commit(value) else None
    for line in (_read_small(git / "packed-refs", GIT_LIST_LIMIT) or "").splitlines():
        sha, _, name = line.partition(" ")
        if name == ref and is_commit(sha):
            return sha
    return None


def _distribution(root: Path) -> tuple[str | None, str | None, str | None, tuple[str, ...]]:
    """Name, version, GitHub repository (``metadata_repo``) and dependencies (``requirements``)
    from a wheel's ``*.dist-info/METADATA`` or an sdist's ``PKG-INFO``; for a checkout, the
    dependencies its ``pyproject.toml`` declares."""
    candidates = [*sorted(root.glob("*.dist-info/METADATA")), root / "PKG-INFO"]
    for meta in candidates:
        try:
            text = read_regular(meta, METADATA_LIMIT).decode("utf-8", errors="replace")
        except OSError:
            continue
        headers = HeaderParser().parsestr(text)
        if headers.get("Name"):
            declared = requirements(headers.get_all("Requires-Dist") or [])
            return (
                headers["Name"],
                headers.get("Version"),
                metadata_repo(headers),
                declared or _declared(root),
            )
    return None, None, None, _declared(root)


def requirements(lines: Iterable[object]) -> tuple[str, ...]:
    """The distribution names of PEP 508 requirements (``torch >=2.1 ; extra == "x"`` is
    ``torch``), extras' included; a line that is no requirement is left out."""
    from packaging.requirements import InvalidRequirement, Requirement

    names = []
    for line in lines:
        try:
            names.append(Requirement(str(line)).name)
        except InvalidRequirement:
            continue
    return tuple(dict.fromkeys(names))


def _declared(root: Path) -> tuple[str, ...]:
    """What a source tree's ``pyproject.toml`` says it depends on (``[project]``'s
    ``dependencies`` and ``optional-dependencies``)."""
    import tomllib

    try:
        project = tomllib.loads(read_regular(root / "pyproject.toml", METADATA_LIMIT).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ()
    table = project.get("project")
    if not isinstance(table, dict):
        return ()
    lines = table.get("dependencies")
    found = [str(x) for x in lines] if isinstance(lines, list) else []
    extras = table.get("optional-dependencies")
    for group in extras.values() if isinstance(extras, dict) else ():
        found += [str(x) for x in group] if isinstance(group, list) else []
    return requirements(found)


def metadata_repo(metadata: Message) -> str | None:
    """owner/name of the GitHub repository a distribution's metadata (``METADATA``, ``PKG-INFO``)
    points to, from its ``Project-URL`` entries and ``Home-page``, preferring a source link."""
    labelled = []
    for entry in metadata.get_all("Project-URL") or []:
        label, _, url = str(entry).partition(",")
        labelled.append((label.strip().lower(), url.strip()))
    if home_page := metadata.get("Home-page"):
        labelled.append(("home", str(home_page).strip()))
    ranked = sorted(
        labelled,
        key=lambda lu: _SOURCE_LABELS.index(lu[0]) if lu[0] in _SOURCE_LABELS else len(_SOURCE_LABELS),
    )
    for _, url in ranked:
        if repo := github_repo(url):
            return repo
    return None


def github_repo(url: str) -> str | None:
    """owner/name of a GitHub repository's address, or None for any other address."""
    m = _GITHUB.match(url)
    if m is None or m[1].lower() in _NOT_OWNERS:
        return None
    repo = f"{m[1]}/{m[2].removesuffix('.git')}"
    return repo if is_repo_name(repo) else None


def normalise_prefix(prefix: str) -> str:
    """``src`` → ``src/``; rejects prefixes that would climb out of the repository."""
    prefix = prefix.strip().replace("\\", "/")
    if not prefix:
        return ""
    posix = PurePosixPath(prefix)
    if posix.is_absolute() or ".." in posix.parts or _UNSAFE_NAME.search(prefix):
        raise ErrdexError(f"--path-prefix must be a relative path inside the repository, not {prefix!r}")
    return posix.as_posix().rstrip("/") + "/"
