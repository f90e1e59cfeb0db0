"""Which store, and which Python environment and node_modules, a command means when told none.

Kept apart from the indexing code so that the hooks and ``errdex.explain`` find the store
without importing the miner.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

import platformdirs

__all__ = ["choose_interpreter", "default_target", "environment_db", "find_node_modules"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def choose_interpreter(python: str | None = None, cwd: Path | None = None) -> str:
    """Which environment errdex means: ``--python``, else the active virtual environment,
    else a ``.venv`` in the working directory or a parent, else the interpreter running errdex."""
    if python:
        return python
    active = os.environ.get("VIRTUAL_ENV")
    if active and (found := _venv_python(Path(active))):
        return found
    here = (cwd or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        if (found := _venv_python(directory / ".venv")) is not None:
            return found
    return sys.executable


def find_node_modules(cwd: Path | None = None) -> Path | None:
    """The ``node_modules`` a program run here loads its packages from: in the working directory
    or the nearest parent that has one, as Node looks for it (and errdex for a ``.venv``).
    ``$ERRDEX_NODE_MODULES`` set to a directory names it instead; set empty, there is none."""
    configured = os.environ.get("ERRDEX_NODE_MODULES")
    if configured is not None:
        return Path(configured) if configured else None
    here = (cwd or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        if (directory / "node_modules").is_dir():
            return directory / "node_modules"
    return None


def _venv_python(venv: Path) -> str | None:
    for candidate in (venv / "bin" / "python", venv / "Scripts" / "python.exe"):
        if candidate.is_file():
            return str(candidate)
    return None


def environment_db(python: str) -> Path:
    """Where the index of the environment around ``python`` lives: one file per environment,
    named after it (``project-venv-<hash>.db`` for ``project/.venv/bin/python``).

    ``venv/bin/python`` and ``venv/bin/python3`` are one environment, and so are
    ``/usr/bin/python3`` and the ``/usr/bin/python3.11`` it links to.
    """
    home = environment_home(python)
    parts = (home.parent.name, home.name) if home.is_dir() else (home.name,)
    label = _UNSAFE.sub("-", "-".join(p.lstrip(".") for p in parts if p.lstrip(".")))
    digest = hashlib.sha256(str(home).encode()).hexdigest()[:12]
    return platformdirs.user_data_path("errdex") / "environments" / f"{label}-{digest}.db"


def environment_home(python: str) -> Path:
    """A virtual environment's directory (where its ``pyvenv.cfg`` is), else the interpreter's
    real path.  A venv's interpreter is a link to the base one, so it must not be resolved."""
    exe = Path(os.path.abspath(python))
    for directory in (exe.parent, exe.parent.parent):
        if (directory / "pyvenv.cfg").is_file():
            return directory
    return exe.resolve()


def default_target(db: str | os.PathLike[str] | None, python: str | None = None) -> tuple[str, str | None]:
    """The store a command uses, and the interpreter whose environment it indexes, if any.

    ``--db``, else ``$ERRDEX_DB``, else the index of the environment errdex finds
    (``--python``, the active virtual environment, a ``.venv`` here or above, this interpreter).
    """
    if db is not None:
        return os.fspath(db), None
    if configured := os.environ.get("ERRDEX_DB"):
        return configured, None
    interpreter = choose_interpreter(python)
    return str(environment_db(interpreter)), interpreter
