"""The published example record, reproduced end to end from the real lightning 2.6.6 wheel."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.pypi

SHA = "9fed5c27d2a62ff0efd6c3573599921d6ff67c14"
EXAMPLE_ID = "814018cfcd445ff0"
EXAMPLE_KEYS = [
    "id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType", "errorClass",
    "httpStatus", "severity", "filePath", "lineNumber", "sourceCode", "sourceCodeStart",
    "sourceCodeEnd", "githubUrl", "documentation", "triggerScenarios", "commonSituations",
    "solutions", "exampleFix", "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern",
    "preventionTips", "tags", "backgroundTag", "analyzedSha", "analyzedAt", "schemaVersion",
]  # fmt: skip
MESSAGE = (
    "When using multiple models + deepspeed, please provide the model used to perform the"
    " optimization: `self.backward(loss, model=model)`"
)


def errdex(*args: str, db: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "errdex", *args, "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_example_record_reproduces_from_the_wheel(
    pypi_package: Callable[[str, str], Path], tmp_path: Path
) -> None:
    wheel = pypi_package("lightning", "2.6.6")
    db = tmp_path / "errdex.db"
    errdex(
        "mine",
        str(wheel),
        "--repo",
        "Lightning-AI/pytorch-lightning",
        "--sha",
        SHA,
        "--path-prefix",
        "src/",
        db=db,
    )
    out = tmp_path / "errlookup.jsonl"
    errdex("export", "--format", "errlookup", "--out", str(out), db=db)

    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(set(line) == {"record", "datasetVersion"} for line in lines)
    (record,) = [line["record"] for line in lines if line["record"]["id"] == EXAMPLE_ID]
    assert list(record) == EXAMPLE_KEYS

    source_lines = (wheel / "lightning/fabric/fabric.py").read_text().splitlines()
    assert record["repo"] == "Lightning-AI/pytorch-lightning"
    assert record["slug"] == "when-using-multiple-models-deepspeed-please-pro"
    assert record["errorCode"] is None
    assert record["errorMessage"] == MESSAGE
    assert record["messagePattern"] == (
        "When using multiple models \\+ deepspeed, please provide the model used to perform the"
        " optimization: `self\\.backward\\(loss, model=model\\)`"
    )
    assert record["errorClass"] == "ValueError"
    assert record["httpStatus"] is None
    assert record["filePath"] == "src/lightning/fabric/fabric.py"
    assert record["lineNumber"] == 512
    assert source_lines[511].strip() == "raise ValueError("
    assert (record["sourceCodeStart"], record["sourceCodeEnd"]) == (494, 530)
    assert record["sourceCode"] == "\n".join(source_lines[493:530])
    assert record["githubUrl"] == (
        f"https://github.com/Lightning-AI/pytorch-lightning/blob/{SHA}/src/lightning/fabric/fabric.py#L494-L530"
    )
    assert record["analyzedSha"] == SHA
    assert record["schemaVersion"] == 2

    shown = json.loads(errdex("show", EXAMPLE_ID, "--json", db=db))
    assert shown["function"] == "Fabric.backward"
    assert shown["conditions"] == [
        "isinstance(self._strategy, DeepSpeedStrategy)",
        "model is None",
        "self._models_setup > 1",
    ]
    assert shown["package"] == "lightning"
    assert shown["version"] == "2.6.6"
    # Mined and enriched from the code: the prose the example's model wrote, grounded.
    assert record["handlingStrategy"] == "validation" and record["backgroundTag"] == "ambiguous-target"
    page = errdex("show", EXAMPLE_ID, db=db)
    assert "How to fix it" in page and "fabric.backward(tensor, model=model)" in page


def test_every_mined_lightning_record_validates_and_exports_losslessly(
    pypi_package: Callable[[str, str], Path], tmp_path: Path
) -> None:
    from errdex.mine import mine
    from errdex.record import Record
    from errdex.store.files import read_jsonl, write_jsonl

    result = mine(pypi_package("lightning", "2.6.6"), repo="Lightning-AI/pytorch-lightning", sha=SHA, jobs=2)
    assert len(result.records) > 500
    for record in result.records:
        assert Record.model_validate(record.to_errdex()) == record
    out = tmp_path / "all.jsonl"
    write_jsonl(result.records, out, "errdex", "2026-01-01T00:00:00.000Z")
    assert list(read_jsonl(out)) == result.records
