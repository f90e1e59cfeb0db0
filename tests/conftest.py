"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pypi import fetch_package

#: ``pytester`` runs pytest on generated test files (the errdex pytest plugin's tests).
pytest_plugins = ["pytester"]


@pytest.fixture(scope="session")
def pypi_package() -> Callable[..., Path]:
    """``pypi_package(name, version, sdist=False)`` returns the unpacked package, from the cache after
    the first time; ``sdist=True`` asks for the source distribution, tests and all."""
    return fetch_package


@pytest.fixture(scope="session")
def stdlib_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of this interpreter's real ``ipaddress`` and ``fractions`` modules, mined as
    CPython lays them out (``Lib/``): errors any test can raise for real and look up."""
    import ipaddress
    import shutil

    from errdex.mine import mine
    from errdex.store import open_store

    root = tmp_path_factory.mktemp("stdlib")
    for module in ("ipaddress.py", "fractions.py"):
        shutil.copy(Path(ipaddress.__file__).parent / module, root / module)
    db = tmp_path_factory.mktemp("stdlib-db") / "errdex.db"
    with open_store(db) as store:
        result = mine(root, repo="python/cpython", sha="0" * 40, path_prefix="Lib/", jobs=1)
        store.replace_repo(result.info, result.records)
    return db


#: Standard-library modules with warnings, optional imports, handlers, generators, special
#: methods and private helpers their public functions pass arguments on to.
ENRICHED_STDLIB = (
    "zipfile.py", "tarfile.py", "statistics.py", "ipaddress.py", "random.py", "configparser.py",
    "subprocess.py", "pathlib.py", "fractions.py", "inspect.py", "argparse.py", "shutil.py",
    "base64.py", "weakref.py",
)  # fmt: skip


@pytest.fixture(scope="session")
def enriched_packages() -> dict[str, tuple[Path, list[Any]]]:
    """The pinned PyPI packages (``snippets.PACKAGES``), each mined and enriched once for every
    test module that reads them: its root and its records."""
    from errdex.enrich import enrich
    from errdex.mine import mine
    from snippets import PACKAGES

    out = {}
    for name, version, sdist in PACKAGES:
        root = fetch_package(name, version, sdist=sdist)
        out[name] = (root, enrich(mine(root, repo=f"pypi/{name}", sha="0" * 40, jobs=2).records))
    return out


@pytest.fixture(scope="session")
def enriched_stdlib(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """``ENRICHED_STDLIB`` of this interpreter's standard library, mined as CPython lays it out
    (``Lib/``) and enriched: the folder they were copied to, and the records."""
    import shutil
    import sysconfig

    from errdex.enrich import enrich
    from errdex.mine import mine

    lib = Path(sysconfig.get_paths()["stdlib"])
    root = tmp_path_factory.mktemp("stdlib-enriched")
    for module in ENRICHED_STDLIB:
        shutil.copy(lib / module, root / module)
    records = enrich(mine(root, repo="python/cpython", sha="0" * 40, path_prefix="Lib/", jobs=2).records)
    return root, records


def real_traceback(code: str) -> str:
    """The traceback a real Python prints for ``code``."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    return done.stderr


def innermost(traceback: str, file_name: str) -> int:
    """The line the innermost frame in ``file_name`` names: where the error was raised."""
    import re

    return int(re.findall(rf'{re.escape(file_name)}", line (\d+)', traceback)[-1])
