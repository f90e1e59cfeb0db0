"""Real packages from PyPI at pinned versions, downloaded once and cached (tests and bench/).

The cache lives in ``$ERRDEX_TEST_CACHE`` or ``<repo>/.cache/pypi``.  Each archive is unpacked
once into a sibling directory; a lock file per package and an unpack-to-temp-then-rename keep
parallel runs from seeing or leaving a half-written copy.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from errdex.record import canonical

REPO_ROOT = Path(__file__).resolve().parent.parent


def cache_dir() -> Path:
    configured = os.environ.get("ERRDEX_TEST_CACHE")
    path = Path(configured) if configured else REPO_ROOT / ".cache" / "pypi"
    path.mkdir(parents=True, exist_ok=True)
    return path


def archive_name_and_version(filename: str) -> tuple[str, str] | None:
    """``(name, version)`` of a wheel or sdist file name, or None for anything else."""
    if filename.endswith(".whl"):
        name, version, *_ = filename.split("-")
        return canonical(name), version
    for suffix in (".tar.gz", ".zip"):
        if filename.endswith(suffix):
            name, _, version = filename.removesuffix(suffix).rpartition("-")
            return canonical(name), version
    return None


def find_archive(cache: Path, name: str, version: str, kind: str) -> Path | None:
    """The cached ``wheel`` or ``sdist`` of ``name==version``."""
    wanted = (canonical(name), version)
    for path in sorted(cache.iterdir()):
        is_wheel = path.name.endswith(".whl")
        if path.is_file() and is_wheel == (kind == "wheel") and archive_name_and_version(path.name) == wanted:
            return path
    return None


def download(cache: Path, name: str, version: str, sdist: bool = False) -> Path:
    """Download ``name==version`` into the cache: the wheel if there is one (unless ``sdist``),
    else the sdist."""
    failures = []
    kinds = ["sdist"] if sdist else ["wheel", "sdist"]
    for kind in kinds:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--disable-pip-version-check",
            *(["--only-binary", ":all:"] if kind == "wheel" else ["--no-binary", ":all:"]),
            f"{name}=={version}",
            "-d",
            str(cache),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode == 0:
            archive = find_archive(cache, name, version, kind)
            if archive is not None:
                return archive
        failures.append(f"$ {' '.join(command)}\n{done.stdout}{done.stderr}")
    raise RuntimeError(f"could not download {name}=={version} from PyPI:\n" + "\n".join(failures))


def unpack(archive: Path, into: Path) -> None:
    if archive.name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as zipped:
            zipped.extractall(into)
    else:
        with tarfile.open(archive) as tarred:
            tarred.extractall(into, filter="data")


@contextmanager
def locked(lock_path: Path) -> Iterator[None]:
    with lock_path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def project_root(unpacked: Path) -> Path:
    """An sdist holds one ``name-version/`` folder: that folder is the project."""
    entries = list(unpacked.iterdir())
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return unpacked


def fetch_wheel(name: str, version: str) -> Path:
    """The wheel file of ``name==version``, downloaded at most once."""
    cache = cache_dir()
    with locked(cache / f"{canonical(name)}-{version}.whl.lock"):
        return find_archive(cache, name, version, "wheel") or download(cache, name, version)


def fetch_package(name: str, version: str, sdist: bool = False) -> Path:
    """The unpacked root of ``name==version`` from PyPI, downloaded and unpacked at most once.

    ``sdist`` asks for the source distribution, which (unlike a wheel) often holds the tests.
    """
    cache = cache_dir()
    unpacked = cache / f"{canonical(name)}-{version}{'-sdist' if sdist else ''}"
    if unpacked.is_dir():
        return project_root(unpacked)
    with locked(cache / f"{unpacked.name}.lock"):
        if not unpacked.is_dir():  # another process may have finished while we waited
            # A wheel asked for may not exist: then the sdist stands in (download says so).
            kind = "sdist" if sdist else "wheel"
            archive = find_archive(cache, name, version, kind) or download(cache, name, version, sdist)
            partial = Path(tempfile.mkdtemp(prefix=f".{unpacked.name}-", dir=cache))
            try:
                partial.chmod(0o755)  # mkdtemp makes it private to its creator
                unpack(archive, partial)
                partial.rename(unpacked)
            except BaseException:
                shutil.rmtree(partial, ignore_errors=True)
                raise
    return project_root(unpacked)
