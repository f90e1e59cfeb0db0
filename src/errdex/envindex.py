"""The default index: the user's own Python environment, mined and kept fresh incrementally.

Each distribution is one source in the store, keyed by repository and name and stamped with a
fingerprint of its ``RECORD``; a refresh re-mines only what was installed, upgraded or removed
since.  A snapshot of every fingerprint lets an unchanged environment be recognised from a
directory listing, so ``errdex explain`` can check freshness on every call.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from errdex.mine.environment import (
    STDLIB_PACKAGE,
    STDLIB_REPO,
    Distribution,
    Environment,
    distribution_source,
    distributions,
    file_list,
    metadata_dirs,
    probe,
    stdlib_fingerprint,
    stdlib_source,
)
from errdex.mine.sources import Skipped, Source
from errdex.store import OutdatedStore, Store, open_store, source_kinds, writing

if TYPE_CHECKING:
    from errdex.mine.pipeline import MineResult, Progress
    from errdex.record import RepoInfo

__all__ = [
    "REBUILDABLE_KINDS", "Refreshed", "cache_patterns", "current", "delete_outdated",
    "discard_outdated", "ensure_fresh", "refresh",
]  # fmt: skip

_ENVIRONMENT = "environment"
_SNAPSHOT = "environment-snapshot"
#: Sources a refresh owns: anything else in the store (a mined checkout, an import) is left alone.
_OWNED_KINDS = ("installed", "stdlib")
#: Kinds a refresh brings back (the environment's, and ``nodeindex``'s node_modules packages,
#: which share its store): an index in another schema holding only these is built anew.
REBUILDABLE_KINDS = frozenset({*_OWNED_KINDS, "node"})

Phase = Callable[[str], None]


@dataclass(slots=True)
class Refreshed:
    """What a refresh did, source by source."""

    environment: Environment
    mined: list[RepoInfo] = field(default_factory=list)
    removed: list[tuple[str, str | None]] = field(default_factory=list)
    unchanged: int = 0
    skipped: list[tuple[str, Skipped]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.mined or self.removed)


def refresh(
    store: Store,
    env: Environment,
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    force: bool = False,
    phase: Phase | None = None,
) -> Refreshed:
    """Bring the store's copy of the environment up to date; returns what changed."""
    from errdex.mine.pipeline import mine_sources

    done = Refreshed(env)
    # Taken first: what is installed while mining is new to the next refresh, not missed by it.
    installed_before = snapshot(env)
    problems: list[tuple[str, str]] = []
    installed = distributions(env, problems)
    done.skipped += [("metadata", Skipped(path, why)) for path, why in problems]
    wanted: dict[tuple[str, str | None], tuple[str, Callable[[], Source]]] = {
        (STDLIB_REPO, STDLIB_PACKAGE): (stdlib_fingerprint(env), lambda: stdlib_source(env)),
    }
    for dist in installed:
        wanted[(dist.repo, dist.name)] = (dist.fingerprint, _deferred(dist))
    stored = {(info.repo, info.package): info for info in store.repos()}
    for key, info in stored.items():
        if info.kind in _OWNED_KINDS and key not in wanted:
            store.remove(*key)
            done.removed.append(key)
    stale = [
        make
        for key, (fingerprint, make) in wanted.items()
        if force or key not in stored or stored[key].fingerprint != fingerprint
    ]
    done.unchanged = len(wanted) - len(stale)
    if stale:
        if phase:
            phase(f"reading {len(stale)} of {len(wanted)} libraries")
        sources = [make() for make in stale]
        for result in mine_sources(sources, jobs=jobs, progress=progress):
            _store(store, result, done)
    store.meta_put(_ENVIRONMENT, json.dumps(env.to_json()))
    store.meta_put(_SNAPSHOT, installed_before)
    return done


def _deferred(dist: Distribution) -> Callable[[], Source]:
    return lambda: distribution_source(dist)


def _store(store: Store, result: MineResult, done: Refreshed) -> None:
    # Stored as mined: readers enrich the few records they show (``enrich.with_prose``); a
    # model's prose about the same facts, asked before, is kept.
    from errdex.enrich.model import keep_model_prose

    info = store.replace_repo(result.info, keep_model_prose(store, result.records), symbols=result.symbols)
    done.mined.append(info)
    done.skipped += [(info.package or info.repo, skip) for skip in result.skipped]


def snapshot(env: Environment) -> str:
    """A digest of what is installed: each ``*.dist-info`` with its ``RECORD``'s size and time.

    Costs a directory listing and a stat per distribution, not a read of any metadata.
    """
    parts = [env.python, env.version, str(env.stdlib)]
    for site in env.site:
        for info in metadata_dirs(site):
            try:
                stat = file_list(info).stat()
                parts.append(f"{info.name}:{stat.st_size}:{stat.st_mtime_ns}")
            except OSError:
                parts.append(info.name)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def current(target: str, python: str) -> Refreshed | None:
    """What the index holds when it is up to date with the environment, else None.

    The common case, so it is cheap: two settings, a directory listing and a stat per
    distribution; no store is created and nothing is mined.
    """
    if not os.path.isfile(target):
        return None
    try:
        store = open_store(target, create=False)
    except OutdatedStore:
        return None  # another errdex's index: ``ensure_fresh`` builds it anew
    with store:
        env = _known(store, python)
        if env is None or store.meta_get(_SNAPSHOT) != snapshot(env):
            return None
        return Refreshed(env, unchanged=len(store.repos()))


def ensure_fresh(
    target: str,
    python: str,
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    phase: Phase | None = None,
    force: bool = False,
) -> Refreshed:
    """Build the environment's index, or refresh it when anything was installed or removed.

    One process at a time: another that is refreshing the same index is waited for (``phase``
    says so), and what it did is not done again.  A refresh ends by building the store's
    pattern index into its cache (when the records changed, or it is missing), so that the
    first lookup after it only loads the index, as every later one does."""
    if not force and (done := current(target, python)) is not None:
        return done
    with writing(target, phase):
        if not force and (done := current(target, python)) is not None:
            return done  # refreshed by the process this one waited for
        try:
            store = open_store(target)
        except OutdatedStore as outdated:
            delete_outdated(outdated, phase)
            store = open_store(target)
        with store:
            env = _known(store, python) or probe(python)
            if phase:
                phase(f"indexing the Python environment at {env.prefix} (first use, or it changed)")
            done = refresh(store, env, jobs=jobs, progress=progress, phase=phase, force=force)
            # Imported here: a freshness check (``current``) stays as light as a directory listing.
            from errdex.match.index import cache_index

            cache_index(store)
            return done


def cache_patterns(target: str, phase: Phase | None = None) -> bool:
    """Build the pattern index of the store at ``target`` into its cache when it is missing
    there (an index another errdex wrote, or records a mine or an import changed since);
    whether it was built.  Checked without the writer lock, built with it."""
    from errdex.match.index import cache_index, index_key

    with open_store(target, create=False) as store:
        if store.cache_get(index_key(store)) is not None:
            return False
    with writing(target, phase), open_store(target, create=False) as store:
        return cache_index(store)


def discard_outdated(outdated: OutdatedStore, phase: Phase | None = None) -> bool:
    """``delete_outdated`` under the store's writer lock; whether the index was deleted (not,
    where it holds more than refreshes rebuild)."""
    with writing(outdated.path, phase):
        if not outdated.path.exists():
            return True  # deleted by the process this one waited for
        try:
            delete_outdated(outdated, phase)
        except OutdatedStore:
            return False
        return True


def delete_outdated(outdated: OutdatedStore, phase: Phase | None) -> None:
    """Delete an index another errdex wrote, in a schema this one does not read, when it holds
    only what refreshes rebuild (``REBUILDABLE_KINDS``); else refuse, losing nothing.  The
    caller holds the writer lock."""
    path = outdated.path
    if not source_kinds(path) <= REBUILDABLE_KINDS:
        raise outdated  # it holds more than an index: mined checkouts, imports
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    if phase:
        phase(f"the index at {path} was written by another version of errdex: building it anew")


def _known(store: Store, python: str) -> Environment | None:
    """The environment as last probed, unless it may since have changed interpreter."""
    known = store.meta_get(_ENVIRONMENT)
    env = Environment.from_json(json.loads(known)) if known else None
    if env is None or env.python != python or not _interpreter_unchanged(env):
        return None
    return env


def _interpreter_unchanged(env: Environment) -> bool:
    """An environment recreated in place may hold another Python: its standard library moves."""
    return env.stdlib.is_dir() and all(site.is_dir() for site in env.site[:1])
