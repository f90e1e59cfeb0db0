"""Prose about when a raise happens, checked against a second reading of the real source.

errdex writes "when ..." from the guards its walker kept.  Here ``guard_reader`` (its own small
``ast`` pass, sharing nothing with errdex's walker) reads the files errdex mined from real
packages and says, for each record's first site, whether it stands in an ``except`` handler,
after an early exit, in a loop, in an ``else`` branch, in a ``case`` or under an ``if``.  No
such record may be said to run "whenever that line is reached", and a raise in a handler must
name the class the handler catches.  ``pytest -s`` prints the counts.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.enrich import enrich
from errdex.mine import mine
from errdex.record import Record
from guard_reader import UNGUARDED, Tally

pytestmark = pytest.mark.pypi

SHA = "0" * 40
PACKAGES = (("click", "8.1.8"), ("requests", "2.32.3"), ("lightning", "2.6.6"))
#: Standard-library modules and packages, copied from the running interpreter.
STDLIB = ("multiprocessing", "ipaddress.py", "fractions.py", "zoneinfo", "json")


def _stdlib(root: Path) -> Path:
    lib = Path(shutil.__file__).parent
    for name in STDLIB:
        if (lib / name).is_dir():
            shutil.copytree(lib / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(lib / name, root / name)
    return root


@pytest.fixture(scope="module")
def mined(
    pypi_package: Callable[[str, str], Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Path, list[Record]]]:
    roots = {name: pypi_package(name, version) for name, version in PACKAGES}
    roots["stdlib"] = _stdlib(tmp_path_factory.mktemp("stdlib"))
    return {
        name: (root, enrich(mine(root, repo=f"pypi/{name}", sha=SHA, jobs=2).records))
        for name, root in roots.items()
    }


def test_guarded_raises_are_never_said_to_run_unguarded(mined: dict[str, tuple[Path, list[Record]]]) -> None:
    tally = Tally()
    for root, records in mined.values():
        tally.add(root, records)
    print(f"\nguard truth: {tally}", file=sys.stderr)
    assert tally.read > 1000 and tally.unread == tally.unwritten == 0 and tally.guarded > tally.read / 2
    assert tally.said_unguarded == [], tally.said_unguarded[:20]
    assert tally.guards_from_nowhere == [], tally.guards_from_nowhere[:20]
    assert tally.in_handler > 50 and tally.named_share >= 0.95, tally.unnamed[:20]


def test_a_failed_conversion_is_said_to_fail_in_the_call_that_raised(
    mined: dict[str, tuple[Path, list[Record]]],
) -> None:
    """click 8.1.8 ``_NumberParamTypeBase.convert``: ``self.fail(...)`` runs only where
    ``self._number_class(value)`` raised ``ValueError``."""
    root, records = mined["click"]
    (record,) = [
        r
        for r in records
        if r.function == "_NumberParamTypeBase.convert" and "is not a valid" in r.error_message
    ]
    source = (root / record.file_path).read_text().splitlines()
    line = record.sites[0].line_number
    handler = next(n for n in range(line - 1, 0, -1) if source[n - 1].strip().startswith("except"))
    assert source[handler - 1].strip() == "except ValueError:"
    assert source[handler - 2].strip() == "return self._number_class(value)"
    assert "when `self._number_class(value)` raises `ValueError`" in record.trigger_scenarios
    assert not UNGUARDED.search(record.trigger_scenarios)


def test_a_process_checked_before_it_starts_reads_without_a_double_negation(
    mined: dict[str, tuple[Path, list[Record]]],
) -> None:
    """``multiprocessing``'s ``assert self._popen is None``: the assertion fails where
    ``self._popen`` is not None, which the prose says once, as it holds."""
    _, records = mined["stdlib"]
    start = next(r for r in records if r.error_message == "cannot start a process twice")
    assert "`self._popen` is not `None`" in start.trigger_scenarios
    joined = next(r for r in records if r.error_message == "can only join a started process")
    assert "`self._popen` is `None`" in joined.trigger_scenarios
    for record in (start, joined):
        assert "not (" not in record.trigger_scenarios and "not `None` is" not in record.trigger_scenarios


def _mined(tmp_path: Path, source: str) -> dict[str, Record]:
    import textwrap

    (tmp_path / "m.py").write_text(textwrap.dedent(source))
    records = enrich(mine(tmp_path, repo="acme/widgets", sha=SHA, jobs=1).records)
    return {r.error_message: r for r in records}


def test_each_block_keeps_what_it_means(tmp_path: Path) -> None:
    records = _mined(
        tmp_path,
        """
        def f(items, mode, x, d, table):
            try:
                return int(x)
            except (ValueError, TypeError) as exc:
                raise RuntimeError("not a number")
            try:
                found = None
                import numpy
            except ImportError:
                raise RuntimeError("no numpy")
            except NETWORK_ERRORS:
                raise RuntimeError("network")
            except:
                raise RuntimeError("anything")
            else:
                raise RuntimeError("imported")
            try:
                table[x] = d
                d.pop(x)
            except KeyError:
                raise RuntimeError("several")
            for item in items:
                if item == x:
                    break
            else:
                raise KeyError("no match")
            while mode:
                if mode == 3:
                    break
            else:
                raise KeyError("ran out")
            match mode:
                case 1:
                    raise ValueError("one")
                case _:
                    raise ValueError("other")
        """,
    )
    handler = records["not a number"].facts.guards[0]
    assert (handler.kind, handler.caught, handler.guarded, handler.subject) == (
        "except", ("ValueError", "TypeError"), "int(x)", "exc",
    )  # fmt: skip
    assert "when `int(x)` raises `ValueError` or `TypeError`" in records["not a number"].trigger_scenarios
    # ``found = None`` cannot raise: the import is what the ``try`` guards.
    assert records["no numpy"].facts.guards[0].guarded == "import numpy"
    assert "when `import numpy` raises `ImportError`" in records["no numpy"].trigger_scenarios
    # A constant holding classes is no class: what it catches is said as written.
    assert records["network"].facts.guards[0].caught == ()
    assert "raises an exception matching `NETWORK_ERRORS`" in records["network"].trigger_scenarios
    assert "when `import numpy` raises any exception" in records["anything"].trigger_scenarios
    assert records["imported"].facts.guards[0].kind == "try-else"
    assert "when `import numpy` raises no exception" in records["imported"].trigger_scenarios
    # Two statements that may raise: neither is named.
    assert records["several"].facts.guards[0].guarded is None
    assert "when the `try` block before it raises `KeyError`" in records["several"].trigger_scenarios
    assert (
        "when the loop over `items` runs to its end without a `break`"
        in records["no match"].trigger_scenarios
    )
    assert "the `while mode` loop runs to its end without a `break`" in records["ran out"].trigger_scenarios
    assert "`mode` is false or empty" in records["ran out"].trigger_scenarios
    assert "when `mode` matches the case `1`" in records["one"].trigger_scenarios
    assert records["other"].facts.guards[-1].operator == "otherwise"
    assert "when `mode` matches none of the earlier cases" in records["other"].trigger_scenarios
    for record in records.values():
        assert not UNGUARDED.search(record.trigger_scenarios), record.trigger_scenarios


def test_what_an_early_exit_leaves_reads_as_what_holds(tmp_path: Path) -> None:
    records = _mined(
        tmp_path,
        """
        def g(a, b, key, table, n, msg, data, lock):
            if a is None:
                return
            if not b:
                return
            if key in table:
                return
            elif n == 0:
                raise ValueError("zero")
            if n < 0:
                return
            if not msg and not data:
                return
            if msg and data:
                return
            for item in data:
                with lock:
                    while True:
                        raise ValueError("past the exits")
        """,
    )
    record = records["past the exits"]
    codes = [g.code for g in record.facts.guards if g.kind == "early-exit"]
    assert codes == [
        "a is not None",
        "b",
        "key not in table",
        "n != 0",
        "not n < 0",
        "msg or data",
        "not (msg and data)",
    ]
    trigger = record.trigger_scenarios
    for words in (
        "`a` is given", "`b` is true", "`key` is not in `table`", "`n` differs from `0`",
        "`n` is not less than `0`", "`msg or data` holds", "`msg and data` does not hold",
        "while iterating over `data`", "inside the `with lock` block", "inside the `while True` loop",
    ):  # fmt: skip
        assert words in trigger, (words, trigger)
    assert "not (" not in trigger and "`not" not in trigger


def test_a_test_another_implies_is_said_once(tmp_path: Path) -> None:
    records = _mined(
        tmp_path,
        """
        def h(count=None):
            if count == 0:
                raise ValueError("none")
            if count > 1:
                raise ValueError("too many")
        """,
    )
    trigger = records["too many"].trigger_scenarios
    assert "`count` is greater than `1`" in trigger and "differs from `0`" not in trigger
    # The fact is kept; only the words leave out what the other test already says.
    assert [g.code for g in records["too many"].facts.guards] == ["count != 0", "count > 1"]
