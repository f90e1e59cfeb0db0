"""``errdex hook install``: a ``.pth`` file that turns errdex's excepthook on in every process.

Python's ``site`` module runs a ``.pth`` line that starts with ``import`` at every start-up, in
every interpreter using that site-packages.  The line written here imports one tiny module and
guards even that, so a later ``pip uninstall errdex`` that leaves the file behind costs an
``ImportError`` caught in silence, not a broken Python.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

PTH_NAME = "errdex-hook.pth"
#: One line (``site`` executes each line on its own), hence ``exec`` for the ``try``.
PTH_LINE = (
    'import sys; exec("try:\\n from errdex.hooks.startup import activate\\n activate()\\n'
    'except Exception:\\n pass")\n'
)


def site_packages() -> Path:
    """The pure-Python site-packages of the interpreter running errdex."""
    return Path(sysconfig.get_paths()["purelib"])


def pth_path(directory: Path | None = None) -> Path:
    """Where the ``.pth`` file goes: ``directory``, else this interpreter's site-packages."""
    return (directory if directory is not None else site_packages()) / PTH_NAME


def install_pth(directory: Path | None = None) -> Path:
    """Write the ``.pth`` file (again, if present) and return its path."""
    path = pth_path(directory)
    path.write_text(PTH_LINE, encoding="utf-8")
    return path


def uninstall_pth(directory: Path | None = None) -> tuple[Path, bool]:
    """Remove the ``.pth`` file; the path, and whether there was one to remove."""
    path = pth_path(directory)
    try:
        path.unlink()
    except FileNotFoundError:
        return path, False
    return path, True
