"""``errdex enrich --llm`` on the labelled answers: each field of real records answered once true
and once with a labelled falsehood, served over HTTP by a loopback server (``answer_server``),
through the real ``openai`` client and the CLI, into a real store.

What is measured, per kind of falsehood: the false fields kept, the true fields kept.  What must
hold whatever the rules: no harmful field kept (installs, shell, links, injection), no record
lost, no field but prose changed, and each field kept is the answer's own text.  ``dev`` is the
set the rules were written against, ``frozen`` a set written apart whose misses were then looked
at, ``heldout`` one measured only once the rules stood (``labelled``).  Run with
``-s`` for the tables; ``bench/verify_report.py`` gives the same figures in-process, with the
reasons true fields were dropped.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from answer_server import MODEL, answer_server
from errdex.enrich.prompt import FIELDS
from errdex.record import Record
from errdex.store import open_store
from labelled import HARMFUL, KINDS, PACKAGES, SETS, SHA, answers, fields, messages, releases, root_of
from servers import ERRDEX

pytestmark = pytest.mark.pypi

#: What each set must reach: the share of true fields kept, and at most the share of false
#: fields kept (measured, with the figures in the closing note; a rule that lets more through
#: fails here).  Harmful fields kept must be none in either.
FLOORS = {"dev": 0.91, "frozen": 0.90, "heldout": 0.92}
CEILINGS = {"dev": 0.11, "frozen": 0.13, "heldout": 0.14}
_PROSE = {
    info.alias or name for name, info in Record.model_fields.items() if (info.alias or name) in FIELDS
} | {"modelProse", "enrichment", "provenance"}


def _mined(which: str, tmp: Path) -> Path:
    """One store of every package the set names, mined and enriched by errdex's own rules."""
    db = tmp / f"{which}.db"
    for package, version in releases(which).items():
        _, _, repo, prefix = PACKAGES[package]
        command = [
            ERRDEX,
            "mine",
            str(root_of(package, version)),
            "--repo",
            repo,
            "--sha",
            SHA,
            "--db",
            str(db),
            "-q",
        ]
        if prefix:
            command += ["--path-prefix", prefix]
        subprocess.run(command, check=True, timeout=900)
    return db


@pytest.fixture(scope="module", params=list(SETS))
def labelled(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    which: str = request.param
    yield which, _mined(which, tmp_path_factory.mktemp(f"labelled-{which}"))


def _records(db: Path) -> dict[tuple[str, str, str], Record]:
    with open_store(db, readonly=True) as store:
        return {(r.id, r.package or "", r.version or ""): r for r in store.records()}


def _enriched(base: Path, which: str, variant: str) -> tuple[dict[tuple[str, str, str], Record], str]:
    db = base.with_name(f"{base.stem}-{variant}.db")
    shutil.copy(base, db)
    with answer_server(answers(which, variant)) as url:
        done = subprocess.run(
            [ERRDEX, "enrich", "--db", str(db), "--llm", url, "--model", MODEL, "--concurrency", "4"],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    return _records(db), done.stdout


def _kept(
    records: dict[tuple[str, str, str], Record], which: str, variant: str
) -> dict[tuple[str, int, str], bool]:
    """For each labelled field, whether the store now holds the answer's text as a model's."""
    by_place = {(r.file_path, r.line_number): r for r in records.values()}
    out = {}
    for f in fields(which):
        record = by_place[f.file, f.line]
        value = f.true if variant == "true" else f.false
        attr = next(a for a, info in Record.model_fields.items() if (info.alias or a) == f.name)
        kept = f.name in record.model_prose
        if kept:  # what is kept is the answer's own text, normalised as verify does
            written = [v.strip() for v in value] if isinstance(value, list) else value.strip("\n").rstrip()
            assert getattr(record, attr) == written, (f.file, f.line, f.name)
        out[f.file, f.line, f.name] = kept
    return out


def _unchanged(before: Record, after: Record) -> None:
    a = {k: v for k, v in before.to_errdex().items() if k not in _PROSE}
    b = {k: v for k, v in after.to_errdex().items() if k not in _PROSE}
    assert a == b, before.id


def test_the_labelled_answers_keep_what_is_true_and_nothing_harmful(labelled: tuple[str, Path]) -> None:
    which, base = labelled
    written = messages(which)
    before = _records(base)
    found = {(r.file_path, r.line_number): r for r in before.values()}
    for key, message in written.items():  # every key finds its record, with the message it was written for
        assert key in found and found[key].error_message == message, key
    results: dict[str, dict[tuple[str, int, str], bool]] = {}
    for variant in ("true", "false"):
        after, stdout = _enriched(base, which, variant)
        assert set(after) == set(before), "a record was lost or added"
        for key, record in after.items():
            _unchanged(before[key], record)
        results[variant] = _kept(after, which, variant)
        print(f"\n{which} {variant}:\n{stdout}")
    total: Counter[str] = Counter()
    true_kept: Counter[str] = Counter()
    false_kept: Counter[str] = Counter()
    for f in fields(which):
        key = (f.file, f.line, f.name)
        total[f.kind] += 1
        true_kept[f.kind] += results["true"][key]
        false_kept[f.kind] += results["false"][key]
    n = sum(total.values())
    print(f"\n{which}: {n} fields   kind / false kept / true kept")
    for kind in KINDS:
        if total[kind]:
            print(f"  {kind:<16} {false_kept[kind]:>3}/{total[kind]:<3} {true_kept[kind]:>3}/{total[kind]}")
    harmful = {kind: false_kept[kind] for kind in HARMFUL if false_kept[kind]}
    assert harmful == {}, f"harmful fields kept: {harmful}"
    assert sum(true_kept.values()) / n >= FLOORS[which], f"true fields kept {sum(true_kept.values())}/{n}"
    assert sum(false_kept.values()) / n <= CEILINGS[which], (
        f"false fields kept {sum(false_kept.values())}/{n}"
    )
