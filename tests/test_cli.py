"""The errdex command as a user runs it: a real process, a real SQLite file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SHA = "0123456789abcdef0123456789abcdef01234567"


def run(*args: str, db: Path | None = None) -> subprocess.CompletedProcess[str]:
    extra = ["--db", str(db)] if db is not None else []
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args, *extra], capture_output=True, text=True, check=False
    )


def make_package(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/core.py").write_text(
        "def load(path, mode):\n"
        "    if mode not in ('r', 'w'):\n"
        "        raise ValueError(f'mode must be r or w, not {mode!r}')\n"
        "    raise FileNotFoundError('nothing at ' + path)\n"
    )
    (root / "pkg/broken.py").write_text("def (:\n")
    return root


def test_mine_show_stats_export_import(tmp_path: Path) -> None:
    source = make_package(tmp_path / "src")
    db = tmp_path / "store.db"
    mined = run("mine", str(source), "--repo", "acme/pkg", "--sha", SHA, "--verbose", db=db)
    assert mined.returncode == 0, mined.stderr
    assert "2 records" in mined.stdout
    assert "skipped pkg/broken.py: does not parse" in mined.stderr

    shown = json.loads(run("show", "acme/pkg/mode-must-be-r-or-w-not-mode", "--json", db=db).stdout)
    assert shown["conditions"] == ["mode not in ('r', 'w')"]
    assert shown["errorMessage"] == "mode must be r or w, not {mode}"

    stats = run("stats", db=db).stdout
    assert "acme/pkg" in stats and "records: 2" in stats

    exported = tmp_path / "out.jsonl"
    assert run("export", "--format", "errdex", "--out", str(exported), db=db).returncode == 0
    copy = tmp_path / "copy.db"
    imported = run("import", str(exported), db=copy)
    assert imported.returncode == 0, imported.stderr
    again = tmp_path / "again.jsonl"
    run("export", "--format", "errdex", "--out", str(again), db=copy)
    assert again.read_text() == exported.read_text()


def test_failures_are_one_line_with_a_non_zero_exit(tmp_path: Path) -> None:
    not_a_db = tmp_path / "junk.db"
    not_a_db.write_bytes(b"this is not sqlite" * 100)
    cases = [
        run("mine", str(tmp_path / "missing"), "--repo", "a/b", "--sha", SHA, db=tmp_path / "x.db"),
        run("mine", str(tmp_path), db=tmp_path / "x.db"),
        run("show", "0000000000000000", db=tmp_path / "x.db"),
        run("stats", db=not_a_db),
        run("export", "--format", "csv", "--out", str(tmp_path / "o"), db=tmp_path / "x.db"),
        run("import", str(tmp_path / "nothing.jsonl"), db=tmp_path / "x.db"),
    ]
    for done in cases:
        assert done.returncode != 0
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert lines[0].startswith("errdex:"), lines[0]


def test_schema_prints_the_record_json_schema() -> None:
    done = run("schema")
    schema = json.loads(done.stdout)
    properties = schema["properties"]
    assert properties["errorType"]["enum"] == [
        "exception",
        "error_code",
        "console",
        "http",
        "validation",
        "panic",
    ]
    assert properties["schemaVersion"]["const"] == 2
    assert "sites" in properties and "Site" in schema["$defs"]
