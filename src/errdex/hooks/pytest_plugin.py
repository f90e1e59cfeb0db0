"""``pytest --errdex``: an ``errdex`` section under each failure, saying where the error comes from.

Installed with errdex (a ``pytest11`` entry point), so it loads in every pytest run of the
environment; it does nothing unless ``--errdex`` is given.  The failure itself is never touched:
the answer is one more report section, printed after the traceback and captured output, and an
error inside errdex becomes that section's one line of text.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from errdex.hooks.explainer import Explainer

_EXPLAINER = pytest.StashKey[Explainer]()
SECTION = "errdex"
#: pytest's own frames above the test, which its report prunes too.
_HARNESS = ("_pytest", "pluggy", "pytest")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("errdex", "explaining failures with errdex")
    group.addoption(
        "--errdex",
        action="store_true",
        default=False,
        help="Add an 'errdex' section to each failure: which library line raised the error, and why.",
    )
    group.addoption(
        "--errdex-db",
        metavar="FILE",
        default=None,
        help="The errdex store --errdex reads (default: $ERRDEX_DB, else the environment's index).",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("errdex"):
        # One store for the whole run: a failing suite has many failures to explain.
        config.stash[_EXPLAINER] = Explainer(config.getoption("errdex_db"), keep=True, harness=_HARNESS)


def pytest_unconfigure(config: pytest.Config) -> None:
    explainer = config.stash.get(_EXPLAINER, None)
    if explainer is not None:
        explainer.close()
        del config.stash[_EXPLAINER]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    explainer = item.config.stash.get(_EXPLAINER, None)
    excinfo = call.excinfo
    if explainer is None or not report.failed or excinfo is None:
        return report
    # Only errors: pytest.fail(), skip() and exit() are BaseExceptions, and are not explained.
    if isinstance(excinfo.value, Exception):
        report.sections.append((SECTION, explainer.brief(excinfo.value, excinfo.tb)))
    return report
