"""Real packages from the npm registry at pinned versions, downloaded once and cached (tests).

Two things are cached under ``<cache>/npm`` (``<cache>`` is ``$ERRDEX_TEST_CACHE``, else
``<repo>/.cache``):

* ``fetch_npm``: one release's tarball, checked against the registry's ``dist.integrity``
  and unpacked: what a GitHub checkout of a JavaScript project would be, minus its tests.
* ``node_modules``: a whole installed tree for a set of pinned packages, built by the real
  ``npm install``: the layout (hoisting, nested copies) errors are raised from at run time.

Install scripts never run (``--ignore-scripts``): errdex never runs what it mines, and a
fixture has no business running it either.  A lock per entry and build-in-temp-then-rename
keep parallel test processes from seeing or leaving a half-made copy.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

from pypi import REPO_ROOT, locked

REGISTRY = "https://registry.npmjs.org"
NPM = "/usr/bin/npm"
#: Transitive dependencies are resolved as the registry stood on this day, so that two machines
#: building the same spec get the same tree; every pinned version was published before it.
BEFORE = "2025-04-01"
#: Bounds on what one download or install may take.
DOWNLOAD_TIMEOUT = 120
DOWNLOAD_LIMIT = 64_000_000
INSTALL_TIMEOUT = 600


def cache_root() -> Path:
    """``<cache>/npm``: beside what ``pypi.py`` keeps, never inside its archive listing."""
    configured = os.environ.get("ERRDEX_TEST_CACHE")
    base = Path(configured) if configured else REPO_ROOT / ".cache"
    path = base / "npm"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _flat(name: str) -> str:
    """A package name as one path component: ``@babel/parser`` → ``@babel+parser``."""
    return name.replace("/", "+")


def tarball_url(name: str, version: str) -> str:
    """Where the registry keeps a release: ``/@scope/name/-/name-1.0.0.tgz`` for a scoped one."""
    return f"{REGISTRY}/{name}/-/{name.rpartition('/')[2]}-{version}.tgz"


def _get(url: str, limit: int) -> bytes:
    with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response:
        data: bytes = response.read(limit + 1)
    if len(data) > limit:
        raise RuntimeError(f"{url} is larger than {limit} bytes")
    return data


def registry_dist(name: str, version: str) -> dict[str, str]:
    """The registry's ``dist`` entry of one release (``integrity``, ``shasum``, ``tarball``)."""
    url = f"{REGISTRY}/{urllib.parse.quote(name, safe='@/')}/{urllib.parse.quote(version)}"
    meta = json.loads(_get(url, 16_000_000))
    if meta.get("version") != version:
        raise RuntimeError(f"the registry has no {name}@{version} (it answered {meta.get('version')!r})")
    dist: dict[str, str] = meta["dist"]
    return dist


def check_integrity(data: bytes, dist: dict[str, str], what: str) -> None:
    """Raise unless ``data`` is what the registry vouches for: its sha512 ``integrity`` (the
    old ``shasum`` only where a release predates integrity strings)."""
    integrity = dist.get("integrity", "")
    for entry in integrity.split():
        algorithm, _, expected = entry.partition("-")
        if algorithm == "sha512":
            actual = base64.b64encode(hashlib.sha512(data).digest()).decode()
            if actual != expected:
                raise RuntimeError(f"{what}: sha512 {actual} is not the registry's {expected}")
            return
    if shasum := dist.get("shasum"):
        if hashlib.sha1(data).hexdigest() != shasum:
            raise RuntimeError(f"{what}: sha1 does not match the registry's {shasum}")
        return
    raise RuntimeError(f"{what}: the registry gives no integrity to check against")


def _package_dir(unpacked: Path) -> Path:
    """npm tarballs hold one top folder, nearly always ``package/``."""
    entries = [p for p in unpacked.iterdir() if p.is_dir()]
    if len(entries) != 1:
        raise RuntimeError(f"{unpacked}: expected one top folder, found {[p.name for p in entries]}")
    return entries[0]


def fetch_npm(name: str, version: str) -> Path:
    """The unpacked ``package/`` folder of ``name@version``, downloaded and checked at most once."""
    cache = cache_root()
    unpacked = cache / f"{_flat(name)}-{version}"
    if unpacked.is_dir():
        return _package_dir(unpacked)
    with locked(cache / f"{unpacked.name}.lock"):
        if not unpacked.is_dir():  # another process may have finished while we waited
            archive = cache / f"{unpacked.name}.tgz"
            dist = registry_dist(name, version)
            data = (
                archive.read_bytes()
                if archive.is_file()
                else _get(tarball_url(name, version), DOWNLOAD_LIMIT)
            )
            check_integrity(data, dist, f"{name}@{version}")
            if not archive.is_file():
                archive.write_bytes(data)
            partial = Path(tempfile.mkdtemp(prefix=f".{unpacked.name}-", dir=cache))
            try:
                partial.chmod(0o755)  # mkdtemp makes it private to its creator
                with tarfile.open(archive) as tarred:
                    tarred.extractall(partial, filter="data")
                partial.rename(unpacked)
            except BaseException:
                shutil.rmtree(partial, ignore_errors=True)
                raise
    return _package_dir(unpacked)


def spec_digest(spec: dict[str, str], before: str = BEFORE) -> str:
    """What names a tree: the pinned packages and the day their dependencies resolve at."""
    key = json.dumps({"dependencies": dict(sorted(spec.items())), "before": before}, sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _install(where: Path, spec: dict[str, str], before: str) -> None:
    manifest = {"name": "errdex-test-tree", "private": True, "dependencies": dict(sorted(spec.items()))}
    (where / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    cache = cache_root().parent / "npm-cache"
    command = [
        NPM, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock",
        "--omit=dev", "--omit=peer", "--no-update-notifier", "--loglevel=error",
        f"--before={before}", f"--cache={cache}", f"--logs-dir={cache / '_logs'}",
        f"--registry={REGISTRY}/",
    ]  # fmt: skip
    env = {**os.environ, "npm_config_yes": "true", "NO_UPDATE_NOTIFIER": "1"}
    done = subprocess.run(
        command, cwd=where, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, env=env, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"npm install failed in {where}:\n{done.stdout[-4000:]}{done.stderr[-4000:]}")
    for name, version in spec.items():
        installed = json.loads((where / "node_modules" / name / "package.json").read_text())
        if installed.get("version") != version:
            raise RuntimeError(f"npm installed {name}@{installed.get('version')}, not {version}")


def node_modules(spec: dict[str, str], before: str = BEFORE) -> Path:
    """The folder holding ``node_modules/`` with ``spec``'s packages (name → exact version)
    and their dependencies installed by npm, built once per spec and reused.

    ``require`` finds the packages from a script inside that folder, or from anywhere with
    ``NODE_PATH=<folder>/node_modules``."""
    trees = cache_root() / "trees"
    trees.mkdir(exist_ok=True)
    tree = trees / spec_digest(spec, before)
    if (tree / "node_modules").is_dir():
        return tree
    with locked(trees / f"{tree.name}.lock"):
        if not (tree / "node_modules").is_dir():
            partial = Path(tempfile.mkdtemp(prefix=f".{tree.name}-", dir=trees))
            try:
                partial.chmod(0o755)
                _install(partial, spec, before)
                partial.rename(tree)  # npm writes relative links only: the tree may move
            except BaseException:
                shutil.rmtree(partial, ignore_errors=True)
                raise
    return tree


def installed_packages(tree: Path) -> dict[str, Path]:
    """Every package folder of an installed tree, nested copies too, by its path from the
    tree (``node_modules/express/node_modules/debug``)."""
    found: dict[str, Path] = {}

    def walk(modules: Path) -> None:
        if not modules.is_dir():
            return
        for entry in sorted(modules.iterdir()):
            if entry.name.startswith(".") or entry.is_symlink() or not entry.is_dir():
                continue
            folders = sorted(entry.iterdir()) if entry.name.startswith("@") else [entry]
            for folder in folders:
                if folder.is_dir() and not folder.is_symlink() and (folder / "package.json").is_file():
                    found[folder.relative_to(tree).as_posix()] = folder
                    walk(folder / "node_modules")

    walk(tree / "node_modules")
    return found
