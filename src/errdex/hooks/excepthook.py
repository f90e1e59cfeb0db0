"""``sys.excepthook`` and ``threading.excepthook`` that explain an uncaught error after printing it.

errdex never replaces the hook it finds: Python's default, Rich's or Typer's runs first and the
traceback prints exactly as it would have; errdex's answer follows.  This module is imported at
interpreter start-up when ``errdex hook install`` is in effect, so it imports nothing heavy: the
store and the matcher load only when an error reaches the hook.
"""

from __future__ import annotations

import sys
import threading

# Not ``typing.TYPE_CHECKING``: importing typing would double what start-up pays for this module.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from errdex.hooks.explainer import Db

    SysHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]
    ThreadHook = Callable[[threading.ExceptHookArgs], object]

_lock = threading.Lock()


class _Hook:
    """What both hooks share: the store to ask, and whether errdex still speaks at all.

    ``uninstall()`` cannot take a hook out of the middle of a chain (another library may have
    wrapped it since), so it switches the hook off instead and the hook only passes errors on.
    """

    def __init__(self, db: Db) -> None:
        self.db = db
        self.active = True

    def explain(self, exc: BaseException, tb: TracebackType | None) -> None:
        stream = sys.stderr
        if not self.active or stream is None:
            return
        try:
            from errdex.hooks.explainer import Explainer, should_explain

            if not should_explain(type(exc)):
                return
            text = Explainer(self.db).brief(exc, tb)
        except BaseException as error:  # even a broken errdex install must not hide the user's error
            text = f"errdex: could not explain this error: {type(error).__name__}: {error}"
        try:
            stream.flush()
            stream.write(text + "\n")
            stream.flush()
        except Exception:
            pass


class _SysHook(_Hook):
    def __init__(self, previous: SysHook, db: Db) -> None:
        super().__init__(db)
        self.previous = previous

    def __call__(self, exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        self.previous(exc_type, exc, tb)
        self.explain(exc, tb)


class _ThreadHook(_Hook):
    def __init__(self, previous: ThreadHook, db: Db) -> None:
        super().__init__(db)
        self.previous = previous

    def __call__(self, args: threading.ExceptHookArgs) -> None:
        self.previous(args)
        if args.exc_value is not None:
            self.explain(args.exc_value, args.exc_traceback)


_installed: tuple[_SysHook, _ThreadHook] | None = None


def install(db: Db = None) -> None:
    """Explain uncaught errors (main thread and other threads) on stderr, after their traceback.

    ``db`` is the store (default, looked up when an error happens: ``$ERRDEX_DB``, else the
    index ``errdex index`` builds of this Python environment).  Installing again only changes
    ``db``, unless another hook has replaced errdex's since: then errdex wraps that one too, and
    its earlier hook falls silent.
    """
    global _installed
    with _lock:
        if _installed is not None:
            sys_hook, thread_hook = _installed
            if sys.excepthook is sys_hook and threading.excepthook is thread_hook:
                sys_hook.db = thread_hook.db = db
                return
            sys_hook.active = thread_hook.active = False
        sys_hook = _SysHook(sys.excepthook, db)
        thread_hook = _ThreadHook(threading.excepthook, db)
        sys.excepthook = sys_hook
        threading.excepthook = thread_hook
        _installed = sys_hook, thread_hook


def uninstall() -> None:
    """Stop explaining and put back the hooks ``install()`` found, where errdex's are still on top."""
    global _installed
    with _lock:
        if _installed is None:
            return
        sys_hook, thread_hook = _installed
        sys_hook.active = thread_hook.active = False
        if sys.excepthook is sys_hook:
            sys.excepthook = sys_hook.previous
        if threading.excepthook is thread_hook:
            threading.excepthook = thread_hook.previous
        _installed = None


def installed() -> bool:
    """Whether errdex is explaining uncaught errors in this process."""
    return _installed is not None
