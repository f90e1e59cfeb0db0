"""An npm package as a source: a directory with a ``package.json`` (an unpacked ``npm pack``
tarball's ``package/``, or ``node_modules/<name>``).

``package.json`` is read as data, capped (``reading.read_regular``): its name, version, the
GitHub repository it names (and the package's directory inside it, for a monorepo) and the
files Node loads (``main``, ``module``, ``exports``, ``bin``).  Nothing in the package runs, its
scripts least of all.  The files mined are the default selection (``sources.select_files``)
plus every file those fields name, even where the default excludes would drop one (a minified
``main``): a stack trace points at what Node loaded.  Every copy of a site is kept, the bundle
(``dist/axios.cjs``) and the sources it was built from (``lib/``) alike.  A package's own
``node_modules`` are other packages, never mined as part of it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from errdex.errors import ErrdexError
from errdex.languages import LANGUAGES, for_path
from errdex.mine.sources import (
    DEFAULT_EXCLUDES,
    DEFAULT_MAX_FILE_SIZE,
    Origin,
    Skipped,
    Source,
    SourceFile,
    _excluded_path,
    _glob_regex,
    _unusable,
    github_repo,
    normalise_prefix,
    select_files,
    select_tests,
)
from errdex.reading import read_regular
from errdex.record import SourceKind, is_commit, is_repo_name

__all__ = [
    "MANIFEST",
    "MANIFEST_LIMIT",
    "Package",
    "PackageError",
    "entry_files",
    "is_package_dir",
    "package_origin",
    "package_source",
    "placeholder_repo",
    "read_manifest",
    "read_package",
    "repository",
]

MANIFEST = "package.json"
#: Old npm clients wrote the whole README into an installed ``package.json``: hundreds of KB.
MANIFEST_LIMIT = 4_000_000
#: npm's own limit on a name's length; a longer one is no package npm installed.
_NAME_LIMIT = 214
_VERSION_LIMIT = 256
_NAME = re.compile(r"^(?:@[^\s/@]+/)?[^\s/@][^\s/]*$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
#: A GitHub repository in any form npm takes: ``git+https://github.com/o/n.git``,
#: ``git@github.com:o/n``, ``git://github.com/o/n``, ``github.com/o/n/tree/main/packages/x``.
_GITHUB_URL = re.compile(
    r"(?:^|[/@.])github\.com[:/]+(?P<owner>[^/\s#?:]+)/(?P<name>[^/\s#?]+?)(?:\.git)?"
    r"(?:/tree/[^/\s#?]+/(?P<tree>[^\s#?]+?))?/?(?:[#?].*)?$"
)
#: ``github:owner/name``, and npm's bare ``owner/name``, which means GitHub.
_SHORTHAND = re.compile(
    r"^(?:github:)?(?P<owner>[A-Za-z0-9][A-Za-z0-9_-]*)/(?P<name>[A-Za-z0-9_.-]+?)(?:#.*)?$"
)
_NOT_OWNERS = frozenset({"sponsors", "orgs", "features", "apps", "marketplace", "topics", "settings"})
#: What Node tries after a ``main`` that names no file (``lib`` → ``lib.js``, ``lib/index.js``).
_FILE_SUFFIXES = ("", ".js", ".cjs", ".mjs", ".json", ".node")
_INDEX_FILES = ("index.js", "index.cjs", "index.mjs", "index.json", "index.node")
#: Conditions whose targets are type declarations: no code runs from them.
_TYPE_CONDITIONS = frozenset({"types", "typings"})
_DECLARATION = re.compile(r"\.d\.[cm]?ts$")
#: Bounds on what one ``package.json`` can make errdex do: targets read, nesting followed,
#: files a ``"./*"`` pattern is matched against.
_MAX_TARGETS = 10_000
_MAX_DEPTH = 32
_MAX_PATTERN_FILES = 50_000
#: A ``bin`` file without an extension is JavaScript when its first line asks for node.
_SHEBANG_LIMIT = 256
_NODE_SHEBANG = re.compile(rb"^#!.*\bnode\b")


class PackageError(ValueError):
    """Why a ``package.json`` cannot be used: the package is skipped with this reason."""


@dataclass(frozen=True, slots=True)
class Package:
    """What a package's ``package.json`` says about it."""

    root: Path
    name: str
    version: str | None
    #: ``owner/name`` on GitHub when ``repository``, ``bugs`` or ``homepage`` names one, else
    #: ``npm/<name>`` (``on_github`` False): records then have no permalink.
    repo: str
    on_github: bool
    #: The package's directory inside its repository (``repository.directory``), as a prefix
    #: (``packages/babel-core/``), so that permalinks lead to its files in a monorepo.
    directory: str = ""
    #: The commit it was published from (``gitHead``), when a full sha.
    sha: str | None = None
    manifest: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def dependencies(self) -> tuple[str, ...]:
        """The packages its ``package.json`` says it depends on (``dependencies``, and the peer
        and optional ones), by name; a field of another type counts for nothing."""
        names: list[str] = []
        for key in ("dependencies", "peerDependencies", "optionalDependencies"):
            listed = self.manifest.get(key)
            if isinstance(listed, dict):
                names += [name for name in listed if isinstance(name, str)]
        return tuple(dict.fromkeys(names))

    @property
    def ref(self) -> str | None:
        """What permalinks point at: the commit, else the release tag ``v<version>``, as for a
        Python distribution (``environment.distribution_source``): the common convention,
        which some projects do not follow (there is no way to tell offline)."""
        if self.sha:
            return self.sha
        return f"v{self.version}" if self.on_github and self.version else None


def is_package_dir(root: Path) -> bool:
    """Whether ``root`` has a ``package.json`` (of any kind: ``read_package`` says if it is usable)."""
    return os.path.lexists(root / MANIFEST)


def read_manifest(root: Path) -> dict[str, Any]:
    """``package.json`` as an object; ``PackageError`` says why it is not one (missing, not a
    regular file, over ``MANIFEST_LIMIT``, not UTF-8, not JSON, nested past what the decoder
    follows, not an object)."""
    try:
        data = read_regular(root / MANIFEST, MANIFEST_LIMIT)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PackageError(f"{MANIFEST} cannot be read: {why}") from None
    try:
        manifest = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise PackageError(f"{MANIFEST} is not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise PackageError(f"{MANIFEST} is not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise PackageError(f"{MANIFEST} is nested too deeply to read") from None
    if not isinstance(manifest, dict):
        raise PackageError(f"{MANIFEST} holds no object")
    return manifest


def read_package(root: Path, name: str | None = None) -> Package:
    """The package at ``root``; ``name`` is the one its place names (``node_modules/@s/n``),
    used where ``package.json`` names none.  Raises ``PackageError``."""
    manifest = read_manifest(root)
    given = manifest.get("name")
    package = given.strip() if isinstance(given, str) and given.strip() else name
    if package is None:
        raise PackageError(f"{MANIFEST} names no package")
    if len(package) > _NAME_LIMIT or not _NAME.match(package) or _CONTROL.search(package):
        raise PackageError(f"{MANIFEST} names no valid package ({package[:80]!r})")
    version = manifest.get("version")
    version = version.strip() if isinstance(version, str) else None
    if not version or len(version) > _VERSION_LIMIT or _CONTROL.search(version) or " " in version:
        version = None
    repo, directory = repository(manifest)
    on_github = repo is not None
    if repo is None:
        repo = placeholder_repo(package)
        if repo is None:
            raise PackageError(f"the name {package!r} makes no repository name")
    head = manifest.get("gitHead")
    sha = head.lower() if on_github and isinstance(head, str) and is_commit(head.lower()) else None
    return Package(root, package, version, repo, on_github, directory, sha, manifest)


def repository(manifest: Mapping[str, Any]) -> tuple[str | None, str]:
    """The GitHub ``owner/name`` a ``package.json`` names, and the package's directory in it.

    From ``repository`` (a string in any of npm's forms, or ``{type, url, directory}``), else
    from ``bugs`` or ``homepage`` where they lead to GitHub.  The directory is a path prefix
    (``packages/x/``), from ``directory`` or a ``/tree/<ref>/<path>`` address; one that climbs
    out of the repository is ignored."""
    value = manifest.get("repository")
    url, directory = None, ""
    if isinstance(value, str):
        url = value
    elif isinstance(value, dict):
        url = value.get("url") if isinstance(value.get("url"), str) else None
        directory = value["directory"] if isinstance(value.get("directory"), str) else ""
    found = repository_url(url) if url else None
    if found is not None:
        repo, tree = found
        return repo, _prefix(directory or tree)
    for key in ("bugs", "homepage"):
        link = manifest.get(key)
        if isinstance(link, dict):
            link = link.get("url")
        if isinstance(link, str) and (linked := github_repo(link.strip())):
            return linked, ""
    return None, ""


def repository_url(spec: str) -> tuple[str, str] | None:
    """``(owner/name, path in the tree or "")`` of a ``repository`` string that leads to GitHub."""
    spec = spec.strip()
    if len(spec) > 2048 or _CONTROL.search(spec):
        return None
    if (m := _SHORTHAND.match(spec)) and (spec.startswith("github:") or ":" not in spec):
        owner, name, tree = m["owner"], m["name"], ""
    elif m := _GITHUB_URL.search(spec.removeprefix("git+")):
        owner, name, tree = m["owner"], m["name"], m["tree"] or ""
    else:
        return None
    name = name.removesuffix(".git")
    repo = f"{owner}/{name}"
    if owner.lower() in _NOT_OWNERS or not is_repo_name(repo):
        return None
    return repo, tree


def _prefix(directory: str) -> str:
    try:
        prefix = normalise_prefix(directory)
    except ErrdexError:
        return ""  # climbs out, or a character no path holds: the files' own paths, then
    return "" if prefix == "./" else prefix


def placeholder_repo(name: str) -> str | None:
    """``npm/<name>`` for a package that names no GitHub repository; a scoped name is flattened
    as DefinitelyTyped does (``@babel/core`` → ``npm/babel__core``), and any character a
    repository name cannot hold becomes ``-``.  None where even that is no repository name."""
    flat = name[1:].replace("/", "__", 1) if name.startswith("@") else name
    repo = "npm/" + re.sub(r"[^A-Za-z0-9_.-]", "-", flat)
    return repo if is_repo_name(repo) else None


def package_origin(root: Path) -> Origin | None:
    """What ``describe`` says of a package directory, or None where its ``package.json`` is unusable."""
    try:
        package = read_package(root, root.name if root.name else None)
    except PackageError:
        return None
    return Origin("npm", package.repo, package.sha, package.name, package.version, package.dependencies)


def entry_files(root: Path, manifest: Mapping[str, Any]) -> list[str]:
    """The files Node (or a bundler) loads from the package, relative to ``root``, in order:
    ``main`` (by Node's rules: ``lib`` → ``lib.js``, ``lib/index.js``; ``index.js`` without
    one), ``module``, every target of ``exports`` (nested conditions, arrays of fallbacks,
    ``"./*"`` patterns matched against the files there are; ``null`` and ``types`` targets
    left out) and ``bin``.  Only files of a language errdex reads; none inside a nested
    ``node_modules``, none outside ``root``."""
    return [rel for rel, _ in _entries(root, manifest)]


def _entries(root: Path, manifest: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """``entry_files`` with, for each, whether a field names it exactly: a file a pattern or a
    folder mapping only allows is no more loaded than any other, and keeps the default excludes."""
    found: list[tuple[str, bool]] = []
    main = manifest.get("main")
    for target in (main if isinstance(main, str) and main.strip() else "index.js", manifest.get("module")):
        if isinstance(target, str) and (rel := _resolve_loose(root, target)):
            found.append((rel, True))
    listed: dict[str | None, list[str]] = {}  # a folder is listed once, however many patterns match in it
    for target in _targets(manifest.get("exports")):
        exact = "*" not in target and not target.endswith("/")
        found.extend((rel, exact) for rel in _resolve_export(root, target, listed))
        if len(found) > _MAX_PATTERN_FILES:
            break
    binaries = manifest.get("bin")
    if isinstance(binaries, dict):
        binaries = [b for b in list(binaries.values())[:_MAX_TARGETS] if isinstance(b, str)]
    for target in [binaries] if isinstance(binaries, str) else binaries or []:
        if isinstance(target, str) and (rel := _inside(target)) and _is_file(root, rel):
            found.append((rel, True))
    named: dict[str, bool] = {}
    for rel, exact in found:
        named[rel] = named.get(rel, False) or exact
    return [(rel, exact) for rel, exact in named.items() if _loads_as_code(root, rel)]


#: The conditions Node matches in ``exports``, by how the package is loaded; an object's keys
#: are tried in their order and the first one matched is taken.
_CONDITIONS = {
    "require": frozenset({"node", "require", "default"}),
    "import": frozenset({"node", "import", "default"}),
}


def runtime_entries(root: Path, manifest: Mapping[str, Any]) -> dict[str, str]:
    """The files Node starts from when a program loads the package by its name, each with
    how: ``require`` (the CommonJS entry) before ``import`` (the ES module one) where both
    name a file.  Without
    ``exports``, both load ``main``; a bundler's ``module`` and ``browser`` fields are not Node's."""
    exports = manifest.get("exports")
    found: dict[str, str] = {}
    if exports is None:
        main = manifest.get("main")
        rel = _resolve_loose(root, main if isinstance(main, str) and main.strip() else "index.js")
        return {rel: "require"} if rel is not None and _loads_as_code(root, rel) else {}
    for how in ("require", "import"):
        for target in _chosen(exports, _CONDITIONS[how]):
            for rel in _resolve_export(root, target, {}) if "*" not in target else ():
                if _loads_as_code(root, rel):
                    found.setdefault(rel, how)
    return found


def _chosen(value: object, conditions: frozenset[str], level: int = 0) -> Iterator[str]:
    """The targets the package's own name (the ``"."`` subpath: what ``require('axios')``
    loads) resolves to under ``conditions``: the first condition matched, in the object's
    order.  Other subpaths (``"./lib/adapters/http.js"``) load only where a user names them."""
    if level >= _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value[:_MAX_TARGETS]:
            yield from _chosen(item, conditions, level + 1)
            break  # a fallback array: Node takes the first it can read
    elif isinstance(value, dict):
        keys = list(value)[:_MAX_TARGETS]
        if keys and all(isinstance(k, str) and k.startswith(".") for k in keys):
            if "." in value:
                yield from _chosen(value["."], conditions, level + 1)
            return
        for key in keys:
            if key in conditions:
                yield from _chosen(value[key], conditions, level + 1)
                return


def _targets(value: object) -> Iterator[str]:
    """Every string target of an ``exports`` value, conditions of types left out."""
    seen = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack and seen < _MAX_TARGETS:
        item, level = stack.pop()
        seen += 1
        if isinstance(item, str):
            yield item
        elif level >= _MAX_DEPTH:
            continue
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in reversed(item))
        elif isinstance(item, dict):
            stack.extend((v, level + 1) for k, v in reversed(item.items()) if k not in _TYPE_CONDITIONS)


def _inside(target: str) -> str | None:
    """A target as a path relative to the package, or None where it leaves it, names a nested
    ``node_modules`` or holds a character no path can."""
    target = target.strip()
    if not target or _CONTROL.search(target) or "\\" in target:
        return None
    path = PurePosixPath(target)
    parts = [p for p in path.parts if p != "."]
    if path.is_absolute() or not parts or ".." in parts or "node_modules" in parts:
        return None
    return "/".join(parts)


def _is_file(root: Path, rel: str) -> bool:
    try:
        return (root / rel).is_file()
    except (OSError, ValueError):
        return False


def _resolve_loose(root: Path, target: str) -> str | None:
    """``main`` and ``module`` as Node's ``require`` resolves them: the file, the file with an
    extension added, or the directory's index."""
    rel = _inside(target)
    if rel is None:
        return None
    for suffix in _FILE_SUFFIXES:
        if _is_file(root, rel + suffix):
            return rel + suffix
    for index in _INDEX_FILES:
        if _is_file(root, f"{rel}/{index}"):
            return f"{rel}/{index}"
    return None


def _resolve_export(root: Path, target: str, listed: dict[str | None, list[str]]) -> list[str]:
    """The files an ``exports`` target names: itself (exports name files exactly, no extension
    is tried), the files under a ``"./dir/"`` folder mapping, or the files a ``*`` pattern
    matches (``*`` stands for any text, ``/`` included, as Node substitutes it)."""
    if not target.startswith("./"):
        return []  # a bare specifier or a URL: another package's file, or none
    if "*" not in target:
        if target.endswith("/"):
            rel = _inside(target)
            return _listed(root, rel, listed) if rel else []
        rel = _inside(target)
        return [rel] if rel and _is_file(root, rel) else []
    head, _, tail = target.partition("*")
    literal = head[2:]
    # The text before "*" may end inside a name (``./lib/x-*.js``): match below its folder.
    folder = literal.rsplit("/", 1)[0] if "/" in literal else ""
    if "*" in tail or ".." in tail.split("/") or (folder and _inside(folder) is None):
        return []  # Node takes one "*" in a target, and none that climbs out
    pattern = re.compile(re.escape(literal) + "(.+)" + re.escape(tail) + "$")
    return [rel for rel in _listed(root, folder or None, listed) if pattern.match(rel)]


def _listed(root: Path, folder: str | None, listed: dict[str | None, list[str]]) -> list[str]:
    if folder not in listed:
        listed[folder] = _files_under(root, folder)
    return listed[folder]


def _files_under(root: Path, folder: str | None) -> list[str]:
    """Files below ``folder`` of the package (the whole package for None), nested
    ``node_modules`` and directory symlinks left out, at most ``_MAX_PATTERN_FILES``."""
    start = root / folder if folder else root
    found: list[str] = []
    if folder is not None and _inside(folder) is None:
        return found
    for dirpath, dirnames, filenames in os.walk(start, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d != "node_modules")
        here = Path(dirpath).relative_to(root).as_posix()
        for name in sorted(filenames):
            found.append(name if here == "." else f"{here}/{name}")
            if len(found) >= _MAX_PATTERN_FILES:
                return found
    return found


def _loads_as_code(root: Path, rel: str) -> bool:
    """A file a language errdex reads, and no type declaration; an extensionless ``bin`` file
    counts when its first line runs node."""
    if _DECLARATION.search(rel):
        return False
    if for_path(rel) is not None:
        return True
    if "." in PurePosixPath(rel).name:
        return False  # .json, .node, .sh: not JavaScript
    real_root = Path(os.path.realpath(root))
    if _outside(root / rel, real_root) is not None:
        return False  # never opened: package_source says why it is left out
    try:
        with (root / rel).open("rb") as handle:  # a regular file: _is_file said so, _unusable checks again
            return _NODE_SHEBANG.match(handle.read(_SHEBANG_LIMIT)) is not None
    except OSError:
        return False


def package_source(
    package: Package,
    *,
    kind: SourceKind = "npm",
    repo: str | None = None,
    sha: str | None = None,
    path_prefix: str | None = None,
    exclude: Iterable[str] = (),
    default_excludes: bool = True,
    max_file_size: int = DEFAULT_MAX_FILE_SIZE,
    fingerprint: str | None = None,
) -> Source:
    """A package as a source: the default selection and tests, plus its entry files
    (``entry_files``) wherever the default excludes drop them; the caller's own ``exclude``
    applies to both.  ``repo``, ``sha`` and ``path_prefix`` override what ``package.json`` says
    (``errdex mine --repo``); records are named ``<directory>/<path in the package>``."""
    root = package.root
    exclude = tuple(exclude)
    # Its node_modules are other packages, even where the default excludes are off.
    selection = select_files(root, (*exclude, "node_modules"), default_excludes, max_file_size)
    tests = select_tests(root, exclude, max_file_size) if default_excludes else []
    have = {f.relative for f in selection.files} | {s.path for s in selection.skipped}
    patterns = _glob_regex(list(exclude))
    defaults = _glob_regex([*DEFAULT_EXCLUDES, *exclude]) if default_excludes else patterns
    real_root = Path(os.path.realpath(root))
    for rel, exact in _entries(root, package.manifest):
        if rel in have or _excluded_path(rel.split("/"), patterns if exact else defaults):
            continue
        path = root / rel
        reason = _unusable(path, rel, real_root, max_file_size) or _outside(path, real_root)
        if reason is not None:
            selection.skipped.append(Skipped(rel, reason))
            continue
        language = for_path(rel) or LANGUAGES["javascript"]
        # Named as select_files names a file of a language without package files: by its path.
        module, is_package = (
            language.module_name(rel.split("/")) if not language.package_file else (None, False)
        )
        selection.files.append(
            SourceFile(path, rel, module, is_package, language.name, max_size=max_file_size)
        )
        have.add(rel)
    files = sorted(selection.files, key=lambda f: f.relative)
    sha = (sha or package.sha or "").lower() or None
    if sha is not None and not is_commit(sha):
        raise ErrdexError(f"--sha must be a full 40-hex commit id, not {sha!r}")
    repo = repo or package.repo
    if not is_repo_name(repo):
        raise ErrdexError(f"--repo must look like OWNER/NAME, not {repo!r}")
    on_github = package.on_github or repo != package.repo
    ref = sha or (f"v{package.version}" if on_github and package.version else None)
    return Source(
        files=files,
        tests=tests,
        origin=Origin(kind, repo, sha, package.name, package.version, package.dependencies),
        repo=repo,
        sha=sha,
        ref=ref,
        path_prefix=normalise_prefix(path_prefix) if path_prefix else package.directory,
        fingerprint=fingerprint,
        skipped=selection.skipped,
        entries=runtime_entries(root, package.manifest),
    )


def _outside(path: Path, real_root: Path) -> str | None:
    """Why a file whose path passes through a directory symlink must not be read: it lands
    outside the package, or in a ``node_modules`` inside it.  ``_unusable`` checks only a
    symlink at the file itself."""
    try:
        real = Path(os.path.realpath(path, strict=True))
    except OSError:
        return "cannot be read: a directory on its path is missing or loops"
    if real_root not in real.parents:
        return "symlink pointing outside the mined directory"
    if "node_modules" in real.relative_to(real_root).parts:
        return "inside a nested node_modules (another package)"
    return None
