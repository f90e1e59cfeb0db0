"""Which store, and which Python environment, a command means when it is told neither.

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

__all__ = ["choose_interpreter", "default_target", "environment_db"]

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


def _venv_python(venv: Path) -> str | None:
    for candidate in (venv / "bin" / "python", venv / "Scripts" / "python.exe"):
        if candidate.is_file():
            return str(candidate)
    return None


def environment_db(python: str) -> Path:
    """Where the index of the environment around ``python`` lives: one file per interpreter path,
    named after its environment (``project-venv-<hash>.db`` for ``project/.venv/bin/python``)."""
    absolute = Path(os.path.abspath(python))
    prefix = absolute.parent.parent
    label = "-".join(part.lstrip(".") for part in (prefix.parent.name, prefix.name) if part.lstrip("."))
    digest = hashlib.sha256(str(absolute).encode()).hexdigest()[:12]
    return platformdirs.user_data_path("errdex") / "environments" / f"{_UNSAFE.sub('-', label)}-{digest}.db"


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
