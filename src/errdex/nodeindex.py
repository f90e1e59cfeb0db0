"""The node_modules index: a project's installed npm packages, mined and kept fresh incrementally.

The parallel of :mod:`errdex.envindex` for JavaScript.  Every package in a ``node_modules``
(top-level, scoped, nested ``a/node_modules/b``, pnpm's ``.pnpm/<id>/node_modules/<name>``) is
one source of kind ``node``, keyed by its repository and ``<name>@<version>``: two copies of a
package at different versions are two sources, side by side as releases of one package (the
matcher prefers the one a traceback's lines fit), and copies at one version are mined once.
Each is stamped with a fingerprint (its version, ``package.json``'s size and time), so a
refresh re-mines only what was added, changed (reinstalled, touched) or removed.  A snapshot
of the tree (one listing per ``node_modules``, a stat per package) lets an unchanged tree be
recognised without reading any ``package.json``, on every ``errdex explain``.

One store may index the trees of several projects (the default store is per Python
environment, and many projects share one): each tree remembers the packages it holds
(``node-roots``), a package stays while any tree that still exists holds it, and a refresh
of one tree never removes what another holds.  Sources of other kinds (the Python
environment's ``installed`` and ``stdlib``, a mined checkout) are never touched here, and the
environment's refresh never touches ``node`` sources.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from errdex.envindex import delete_outdated, discard_outdated
from errdex.errors import ErrdexError
from errdex.mine.npm import MANIFEST, Package, PackageError, package_source, read_package
from errdex.mine.sources import Skipped
from errdex.store import OutdatedStore, Store, open_store, writing

if TYPE_CHECKING:
    from errdex.mine.pipeline import MineResult, Progress
    from errdex.record import RepoInfo, SourceKind

__all__ = [
    "KIND",
    "Installed",
    "Refreshed",
    "current",
    "discard_outdated",
    "ensure_fresh",
    "installed",
    "node_modules_of",
    "packages",
    "refresh",
    "snapshot",
    "source_package",
]

KIND: SourceKind = "node"
#: Settings in the store: each tree's packages and their fingerprints, and each tree's snapshot.
_ROOTS = "node-roots"
_SNAPSHOT = "node-snapshot:"
#: Bounds on a tree: packages read, and ``node_modules`` nested in one another.
MAX_PACKAGES = 20_000
MAX_NESTING = 64
_FORMAT = "node-snapshot 1"

Phase = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Installed:
    """One package directory in a tree, as the listing finds it."""

    #: The directory (a pnpm link to it included).
    path: Path
    #: Where it lies below the project: ``node_modules/a/node_modules/@s/b``.
    relative: str
    #: The name its place gives it (``@s/b``): what ``require`` and a stack trace call it.
    name: str
    #: ``package.json``'s size and time; None without one.  Every install writes it anew, and
    #: the directory's own time is not used: npm adding or removing the package's nested
    #: ``node_modules`` changes it, and that is other packages' business.
    stamp: tuple[int, int] | None


@dataclass(slots=True)
class Refreshed:
    """What a refresh of one tree did, package by package."""

    node_modules: Path
    mined: list[RepoInfo] = field(default_factory=list)
    removed: list[tuple[str, str | None]] = field(default_factory=list)
    unchanged: int = 0
    skipped: list[tuple[str, Skipped]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.mined or self.removed)


def node_modules_of(path: Path) -> Path:
    """The ``node_modules`` that ``path`` names: itself, or the one in it (a project's
    directory); ``ErrdexError`` where there is none."""
    if path.name == "node_modules" and path.is_dir():
        return path
    if (path / "node_modules").is_dir():
        return path / "node_modules"
    raise ErrdexError(f"{path} is no node_modules and holds none")


def source_package(name: str, version: str | None) -> str:
    """A ``node`` source's package in the store: ``<name>@<version>``, so that two versions of
    a package (a nested older copy) are two sources, and no Python distribution (whose names
    hold no ``@``) shares a key with one."""
    return f"{name}@{version or ''}"


def installed(node_modules: Path) -> list[Installed]:
    """Every package directory in the tree, shallowest first, each real directory once.

    A listing per ``node_modules`` (and per scope) and a stat per package; directory links
    (pnpm's, a workspace's) are followed to a package, never twice to the same one.  At most
    ``MAX_PACKAGES`` packages and ``MAX_NESTING`` levels of ``node_modules``."""
    found: list[Installed] = []
    scanned: set[str] = set()
    seen: set[str] = set()
    queue: deque[tuple[Path, str, int]] = deque([(node_modules, "node_modules", 0)])

    def candidate(path: Path, relative: str, name: str, depth: int) -> None:
        real = os.path.realpath(path)
        if real in seen or not os.path.isdir(path):
            return
        seen.add(real)
        found.append(Installed(path, relative, name, _stamp(path)))
        if depth < MAX_NESTING and os.path.isdir(path / "node_modules"):
            queue.append((path / "node_modules", f"{relative}/node_modules", depth + 1))

    while queue and len(found) < MAX_PACKAGES:
        directory, relative, depth = queue.popleft()
        real = os.path.realpath(directory)
        if real in scanned:
            continue
        scanned.add(real)
        for entry in _listing(directory):
            name = entry.name
            if name == ".pnpm":  # pnpm's store: .pnpm/<name>@<version>/node_modules/<name>
                for held in _listing(Path(entry.path)):
                    if held.name != "node_modules" and held.is_dir(follow_symlinks=False):
                        place = f"{relative}/.pnpm/{held.name}/node_modules"
                        queue.append((Path(held.path) / "node_modules", place, depth + 1))
            elif name.startswith("."):
                continue  # .bin, .cache, .package-lock.json
            elif name.startswith("@"):
                for child in _listing(Path(entry.path)):
                    candidate(
                        Path(child.path), f"{relative}/{name}/{child.name}", f"{name}/{child.name}", depth
                    )
            else:
                candidate(Path(entry.path), f"{relative}/{name}", name, depth)
    return found[:MAX_PACKAGES]


def _listing(directory: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(directory) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError:  # gone, not a directory, unreadable: nothing in it to index
        return []


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        manifest = os.stat(path / MANIFEST)
    except OSError:
        return None
    return manifest.st_size, manifest.st_mtime_ns


def snapshot(node_modules: Path) -> str:
    """A digest of the tree: each package's place with its stamp.  Costs the listings and
    stats of ``installed``, no read of any ``package.json``."""
    parts = [_FORMAT, str(node_modules)]
    parts += [f"{item.relative}\t{item.stamp}" for item in installed(node_modules)]
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def packages(node_modules: Path) -> tuple[list[tuple[Installed, Package]], list[Skipped]]:
    """Every package in the tree with what its ``package.json`` says, named as its place names
    it (an alias ``npm install x@npm:y`` is ``x``, as Node loads it); a directory without a
    usable ``package.json`` is a skip with its reason."""
    found: list[tuple[Installed, Package]] = []
    skipped: list[Skipped] = []
    listed = installed(node_modules)
    if len(listed) >= MAX_PACKAGES:
        skipped.append(Skipped(str(node_modules), f"more than {MAX_PACKAGES} packages: the rest left out"))
    for item in listed:
        if item.stamp is None:
            skipped.append(Skipped(item.relative, f"no {MANIFEST} that can be read"))
            continue
        try:
            package = read_package(item.path, item.name)
        except PackageError as exc:
            skipped.append(Skipped(f"{item.relative}/{MANIFEST}", str(exc)))
            continue
        if package.name != item.name:
            package = dataclasses.replace(package, name=item.name)
        found.append((item, package))
    return found, skipped


def _fingerprint(item: Installed, package: Package) -> str:
    size, mtime = item.stamp or (0, 0)
    return f"{package.version}:{size}:{mtime}"


def refresh(
    store: Store,
    node_modules: Path,
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    force: bool = False,
    phase: Phase | None = None,
) -> Refreshed:
    """Bring the store's copy of one tree up to date; returns what changed."""
    from errdex.mine.pipeline import mine_sources

    root = Path(os.path.realpath(node_modules))
    done = Refreshed(root)
    # Taken first: what is installed while mining is new to the next refresh, not missed by it.
    before = snapshot(root)
    found, problems = packages(root)
    done.skipped += [("node_modules", skip) for skip in problems]
    wanted: dict[tuple[str, str], tuple[Package, str]] = {}
    for item, package in found:  # shallowest first: of copies at one version, that one is mined
        key = (package.repo, source_package(package.name, package.version))
        wanted.setdefault(key, (package, _fingerprint(item, package)))
    trees = _trees(store)
    here = trees.get(str(root), {})
    # A tree that is gone holds nothing any more; another that is there keeps what it holds.
    elsewhere = {
        key for tree, held in trees.items() if tree != str(root) and os.path.isdir(tree) for key in held
    }
    stored = {(info.repo, info.package or ""): info for info in store.repos() if info.kind == KIND}
    for key in stored:
        if key not in wanted and key not in elsewhere:
            store.remove(*key)
            done.removed.append(key)
    stale = {
        key: (package, fingerprint)
        for key, (package, fingerprint) in wanted.items()
        if force or _stale(key, fingerprint, stored.get(key), here, elsewhere)
    }
    done.unchanged = len(wanted) - len(stale)
    if stale:
        if phase:
            phase(f"reading {len(stale)} of {len(wanted)} packages")
        sources = [package_source(p, kind=KIND, fingerprint=fp) for p, fp in stale.values()]
        for result in mine_sources(sources, jobs=jobs, progress=progress):
            _store(store, result, done)
    trees = {tree: held for tree, held in trees.items() if tree == str(root) or os.path.isdir(tree)}
    trees[str(root)] = {key: fingerprint for key, (_, fingerprint) in wanted.items()}
    store.meta_put(
        _ROOTS, json.dumps({tree: [[*k, fp] for k, fp in held.items()] for tree, held in trees.items()})
    )
    store.meta_put(_SNAPSHOT + str(root), before)
    return done


def _stale(
    key: tuple[str, str],
    fingerprint: str,
    info: RepoInfo | None,
    here: dict[tuple[str, str], str],
    elsewhere: set[tuple[str, str]],
) -> bool:
    """Whether a package must be mined: it is not stored; or this tree's copy changed since this
    tree was last indexed; or the copy stored was left by a tree now gone and differs.  A copy
    another tree holds at the same version is taken as it is: a release on npm never changes,
    and two trees' installs of it (at different times) must not mine it in turn."""
    if info is None:
        return True
    if key in here:
        return here[key] != fingerprint
    return key not in elsewhere and info.fingerprint != fingerprint


def _trees(store: Store) -> dict[str, dict[tuple[str, str], str]]:
    """Each tree indexed into the store, with its packages' keys and fingerprints."""
    try:
        data = json.loads(store.meta_get(_ROOTS) or "{}")
        return {tree: {(repo, package): fp for repo, package, fp in held} for tree, held in data.items()}
    except (ValueError, TypeError, AttributeError):
        return {}  # unreadable: every tree is as new, and its packages are checked against the store


def _store(store: Store, result: MineResult, done: Refreshed) -> None:
    from errdex.enrich.model import keep_model_prose

    package = source_package(result.info.package or "", result.info.version)
    info = result.info.model_copy(update={"package": package})
    info = store.replace_repo(info, keep_model_prose(store, result.records), symbols=result.symbols)
    done.mined.append(info)
    done.skipped += [(package, skip) for skip in result.skipped]


def current(target: str, node_modules: Path) -> Refreshed | None:
    """What the index holds of the tree when it is up to date (and no other tree it indexed is
    gone), else None.  Cheap: two settings, the tree's listings and a stat per package; no
    store is created and nothing is mined."""
    if not os.path.isfile(target):
        return None
    try:
        store = open_store(target, create=False)
    except OutdatedStore:
        return None  # another errdex's index: ``ensure_fresh`` builds it anew
    root = Path(os.path.realpath(node_modules))
    with store:
        known = store.meta_get(_SNAPSHOT + str(root))
        if known is None or known != snapshot(root):
            return None
        trees = _trees(store)
        if not all(os.path.isdir(tree) for tree in trees if tree != str(root)):
            return None  # another project's tree is gone: what only it held goes now
        return Refreshed(root, unchanged=len(trees.get(str(root), {})))


def ensure_fresh(
    target: str,
    node_modules: Path,
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    phase: Phase | None = None,
    force: bool = False,
) -> Refreshed:
    """Index the tree, or refresh it when anything was installed, changed or removed.

    One process at a time, as ``envindex.ensure_fresh``: another refreshing the same store is
    waited for, and what it did is not done again.  When records changed, the store's pattern
    index is built into its cache, so the first lookup only loads it."""
    if not force and (done := current(target, node_modules)) is not None:
        return done
    with writing(target, phase):
        if not force and (done := current(target, node_modules)) is not None:
            return done
        try:
            store = open_store(target)
        except OutdatedStore as outdated:
            delete_outdated(outdated, phase)
            store = open_store(target)
        with store:
            if phase:
                where = os.path.realpath(node_modules)
                phase(f"indexing node_modules at {where} (first use, or it changed)")
            done = refresh(store, node_modules, jobs=jobs, progress=progress, phase=phase, force=force)
            if done.changed:
                from errdex.match.index import cache_index

                cache_index(store)
            return done
