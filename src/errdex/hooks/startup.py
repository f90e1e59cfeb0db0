"""What ``errdex-hook.pth`` runs when the interpreter starts: switch the excepthook on, cheaply.

Every Python process of the environment pays for this, errors or not, so it only sets two hooks
(nothing of the store, the matcher or pydantic is imported), and it never raises: a start-up
that fails because of errdex would be far worse than an error left unexplained.
``ERRDEX_HOOK=0`` turns it off for one process without uninstalling it.
"""

from __future__ import annotations

import os


def activate() -> None:
    """Install errdex's excepthooks unless ``$ERRDEX_HOOK`` says not to; never raises."""
    try:
        if os.environ.get("ERRDEX_HOOK", "").strip().lower() in ("0", "off", "no", "false"):
            return
        from errdex.hooks.excepthook import install

        install()
    except Exception:
        pass
