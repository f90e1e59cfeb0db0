"""Enrichment from facts alone, on real packages: the example's error, advice, tests, filler."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.enrich import enrich, repeated_prose
from errdex.enrich.advice import advice
from errdex.enrich.taxonomy import FAMILIES, VOCABULARY, classify
from errdex.mine import mine
from errdex.record import Record

SHA = "9fed5c27d2a62ff0efd6c3573599921d6ff67c14"
EXAMPLE_ID = "814018cfcd445ff0"


@pytest.fixture(scope="module")
def lightning(pypi_package: Callable[..., Path]) -> list[Record]:
    root = pypi_package("lightning", "2.6.6")
    return enrich(
        mine(root, repo="Lightning-AI/pytorch-lightning", sha=SHA, path_prefix="src/", jobs=2).records
    )


@pytest.fixture(scope="module")
def with_tests(pypi_package: Callable[..., Path]) -> dict[str, list[Record]]:
    """click and requests from their sdists, which ship their test suites."""
    out = {}
    for name, version in (("click", "8.1.8"), ("requests", "2.32.3")):
        root = pypi_package(name, version, sdist=True)
        out[name] = enrich(mine(root, repo=f"pypi/{name}", sha=SHA, jobs=2).records)
    return out


def test_the_example_error_is_explained_from_the_code_alone(lightning: list[Record]) -> None:
    record = next(r for r in lightning if r.id == EXAMPLE_ID)
    # The model-written example says: DeepSpeed strategy, backward without model=, more than
    # one model set up; first fix: pass model= to backward.  errdex reads the same from the code.
    trigger = record.trigger_scenarios
    assert "`self._strategy` is a `DeepSpeedStrategy`" in trigger
    assert "`model` is not passed" in trigger
    assert "`self._models_setup` is greater than `1`" in trigger
    first = record.solutions[0]
    assert "model=model" in first and "backward" in first
    assert record.provenance["solutions"][0] == "message"
    assert record.example_fix is not None and "fabric.backward(tensor, model=model)" in record.example_fix
    assert record.background_tag == "ambiguous-target"
    assert record.enrichment == "static"
    # Every enriched field says what backs it, and only facts the record has.
    assert set(record.provenance) >= {"documentation", "triggerScenarios", "solutions", "exampleFix"}


def test_advice_written_into_real_messages_becomes_the_first_solution(lightning: list[Record]) -> None:
    by_message = {r.error_message: r for r in lightning}
    forgot = by_message["No models were set up for backward. Did you forget to call `fabric.setup()`?"]
    assert forgot.solutions[0] == "Call `fabric.setup()`."
    assert [a.kind for a in advice(forgot.error_message)] == ["forgot"]
    # A wrong state: the fix is the step the message names, before the same call.
    assert forgot.example_fix == (
        "# before: `self._models_setup` equals `0`\nfabric.backward(tensor)\n"
        "# after\nfabric.setup()\nfabric.backward(tensor)"
    )
    # Messages that advise nothing get no advice: nothing is made up.
    assert advice("Attempted to start {action_name} which has already started.") == []


def test_tests_that_expect_an_error_are_kept_with_their_call(with_tests: dict[str, list[Record]]) -> None:
    record = next(r for r in with_tests["click"] if r.error_message == "iterable or length is required")
    test = record.facts.tests[0]
    assert (test.name, test.file_path, test.call) == (
        "test_progressbar_init_exceptions",
        "tests/test_termui.py",
        "click.progressbar()",
    )
    assert "click.progressbar()" in record.trigger_scenarios
    assert "tests" in record.provenance["triggerScenarios"]


def test_a_docstring_raises_section_naming_the_class_is_kept(lightning: list[Record]) -> None:
    documented = [r for r in lightning if r.facts.raises_doc]
    assert documented
    for record in documented:
        # Quoted as prose: reST's ````code```` and ``:class:`~a.X``` as plain backticked code.
        said = re.sub(r"(?::[\w.+-]+)+:`~[\w.]*?(\w+)`", r"`\1`", record.facts.raises_doc)
        said = re.sub("``+", "`", re.sub(r"(?::[\w.+-]+)+:`", "`", said))
        assert said[1:] in record.documentation  # "If ..." continues a sentence: "... if ..."
        assert "``" not in record.documentation and ":class:" not in record.documentation
        assert "raises_doc" in record.provenance["documentation"]


def test_no_prose_is_shared_with_a_record_in_another_function(
    lightning: list[Record], with_tests: dict[str, list[Record]]
) -> None:
    for records in (lightning, *with_tests.values()):
        assert repeated_prose(records) == {}
    # The check does catch filler: one generic sentence given to every record.
    generic = [r.model_copy(update={"solutions": ["Check your inputs."]}) for r in with_tests["requests"]]
    assert "Check your inputs." in repeated_prose(generic)


def test_fields_without_facts_stay_empty(lightning: list[Record]) -> None:
    bare = [r for r in lightning if not r.conditions and not r.facts.tests and not r.facts.raises_doc]
    assert bare
    for record in bare:
        assert record.validation_code is None and record.type_guard is None
        assert all(
            fact in {"message", "conditions", "raises_doc", "tests", "site", "guards", "class"}
            for fact in record.provenance.get("solutions", [])
        )
        # The class backs a solution only where the record is a warning: the filter that ignores it.
        if "class" in record.provenance.get("solutions", []):
            assert record.sites[0].kind in ("warn", "helper") and (record.error_class or "").endswith(
                "Warning"
            )
    # A record with no advice, docstring, test or condition has no solutions but what its site
    # says itself: an `assert` is an internal check, a method raising `NotImplementedError`
    # whatever it is given is left to subclasses, an import error in an `except` names its module.
    silent = [r for r in bare if not advice(r.error_message, r.message_pattern)]
    assert silent
    for record in silent:
        said = set(record.provenance.get("solutions", [])) - {"class", "message"}  # a warning's filter
        assert said <= {"site", "guards"}
        if "site" in said:
            kind, cls = record.sites[0].kind, record.error_class
            assert kind == "assert" or cls in ("AssertionError", "NotImplementedError")
        if "guards" in said:
            assert any(g.kind == "except" for g in record.facts.guards)
    assert any(r.solutions == [] for r in silent)


def test_families_are_declared_with_a_criterion_and_assigned_only_on_evidence() -> None:
    assert len(FAMILIES) >= 100
    assert all(f.criterion.endswith(".") for f in FAMILIES)
    assert len({f.tag for f in FAMILIES}) == len(FAMILIES) and {f.kind for f in FAMILIES} <= VOCABULARY
    found = classify("Unknown mode {mode}; must be one of ['a', 'b']", "ValueError", ["mode not in MODES"])
    assert found is not None and found.tag == "invalid-choice" and found.evidence == ("message", "condition")
    # A class alone is not enough to name a family.
    assert classify("{msg}", "ValueError", []) is None


def test_cli_enrich_rewrites_prose_without_mining_again(
    tmp_path: Path, pypi_package: Callable[..., Path]
) -> None:
    db = tmp_path / "errdex.db"
    root = pypi_package("requests", "2.32.3", sdist=True)
    errdex = [sys.executable, "-m", "errdex"]
    mined = subprocess.run(
        [*errdex, "mine", str(root), "--repo", "psf/requests", "--sha", SHA, "--db", str(db), "--no-enrich"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert mined.returncode == 0, mined.stderr
    exported = tmp_path / "bare.jsonl"
    subprocess.run(
        [*errdex, "export", "-f", "errlookup", "-o", str(exported), "--db", str(db)],
        check=True,
        capture_output=True,
    )
    bare = [json.loads(line)["record"] for line in exported.read_text().splitlines()]
    # Unenriched, the errlookup export still has its required prose: the where/when sentence.
    assert all(r["documentation"].startswith("Raised in ") for r in bare)

    done = subprocess.run([*errdex, "enrich", "--db", str(db)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"enriched {len(bare)} records"
    again = tmp_path / "enriched.jsonl"
    subprocess.run(
        [*errdex, "export", "-f", "errdex", "-o", str(again), "--db", str(db)],
        check=True,
        capture_output=True,
    )
    records = [json.loads(line) for line in again.read_text().splitlines()]
    assert {r["id"] for r in records} == {r["id"] for r in bare}
    assert all(r["enrichment"] == "static" for r in records)
    unknown = subprocess.run(
        [*errdex, "enrich", "--db", str(db), "--repo", "no/such"], capture_output=True, text=True
    )
    assert unknown.returncode == 1 and unknown.stderr.startswith("errdex:")


def test_callers_are_calls_on_the_object_not_any_method_of_that_name(lightning: list[Record]) -> None:
    record = next(r for r in lightning if r.id == EXAMPLE_ID)
    callers = {(c.function, c.file_path) for c in record.facts.callers}
    # LightningModule calls self._fabric.backward(...); the precision plugins call
    # tensor.backward(...), and wrappers.py only quotes `fabric.backward(loss)` in a message.
    assert ("LightningModule.manual_backward", "src/lightning/pytorch/core/module.py") in callers
    assert not any(function.endswith("Precision.backward") for function, _ in callers)
    assert ("_backward_hook", "src/lightning/fabric/wrappers.py") not in callers
    # no_backward_sync's docstring shows `fabric.backward(loss)`: an example, not a call.
    assert not any(function == "Fabric.no_backward_sync" for function, _ in callers)


def test_cli_enrich_keeps_prose_it_did_not_write(tmp_path: Path, pypi_package: Callable[..., Path]) -> None:
    errdex = [sys.executable, "-m", "errdex"]
    mined = tmp_path / "mined.db"
    root = pypi_package("requests", "2.32.3", sdist=True)
    common = ["--repo", "psf/requests", "--sha", SHA]
    subprocess.run([*errdex, "mine", str(root), *common, "--db", str(mined)], check=True, capture_output=True)
    exported = tmp_path / "errlookup.jsonl"
    subprocess.run(
        [*errdex, "export", "-f", "errlookup", "-o", str(exported), "--db", str(mined)],
        check=True,
        capture_output=True,
    )
    # One record as the existing dataset would publish it: prose a model wrote.
    line = json.loads(exported.read_text().splitlines()[0])
    line["record"]["documentation"] = "Written by a model."
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_text(json.dumps(line) + "\n")
    db = tmp_path / "imported.db"
    subprocess.run([*errdex, "import", str(theirs), "--db", str(db)], check=True, capture_output=True)

    kept = subprocess.run([*errdex, "enrich", "--db", str(db)], capture_output=True, text=True, check=True)
    assert kept.stdout.strip() == "enriched 0 records; kept 1 written by others (--force replaces them)"
    shown = json.loads(
        subprocess.run(
            [*errdex, "show", line["record"]["id"], "--json", "--db", str(db)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert (shown["documentation"], shown["enrichment"]) == ("Written by a model.", "imported")

    forced = subprocess.run(
        [*errdex, "enrich", "--force", "--db", str(db)], capture_output=True, text=True, check=True
    )
    assert forced.stdout.strip() == "enriched 1 records"
