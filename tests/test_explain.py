"""Explaining real errors raised by real standard-library code, from the three things people paste."""

from __future__ import annotations

import ipaddress
import json
import re
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from errdex.match.explain import Matcher
from errdex.mine import mine
from errdex.store import Store, open_store

SHA = "0" * 40


@pytest.fixture(scope="module")
def store(stdlib_db: Path) -> Store:
    """The real ipaddress and fractions modules of this interpreter, mined."""
    return open_store(stdlib_db)


def raised(code: str) -> tuple[BaseException, traceback.FrameSummary]:
    try:
        exec(code, {"ipaddress": ipaddress, "fractions": __import__("fractions")})
    except Exception as exc:
        return exc, traceback.extract_tb(exc.__traceback__)[-1]
    raise AssertionError("no error")


def at(record_sites: list[tuple[str, int]], frame: traceback.FrameSummary) -> bool:
    name = Path(frame.filename).name
    return (f"Lib/{name}", frame.lineno) in record_sites


@pytest.mark.parametrize(
    "code",
    ['ipaddress.ip_address("x")', 'ipaddress.ip_network("10.0.0.1/24")', 'fractions.Fraction("x")'],
)
def test_message_last_line_and_traceback_all_find_the_raise_site(store: Store, code: str) -> None:
    exc, frame = raised(code)
    matcher = Matcher(store)
    inputs = {
        "message": str(exc),
        "last line": "".join(traceback.format_exception_only(exc)),
        "traceback": "".join(traceback.format_exception(exc)),
    }
    for kind, text in inputs.items():
        best = matcher.explain(text).matches[0]
        sites = [(s.file_path, s.line_number) for s in best.record.sites]
        assert at(sites, frame), (kind, best.record.error_message, sites)
    evidences = [matcher.explain(text).matches[0].evidence for text in inputs.values()]
    assert evidences == ["pattern", "pattern+class", "frame"]


def test_a_match_carries_the_site_and_frame_it_was_found_at(store: Store) -> None:
    exc, frame = raised('ipaddress.ip_network("10.0.0.1/24")')
    traced = Matcher(store).explain("".join(traceback.format_exception(exc)))
    best = traced.matches[0]
    assert best.evidence == "frame" and best.frame is not None
    hit = traced.query.errors[best.error].frames[best.frame]
    assert (hit.line, best.site.line_number) == (frame.lineno, frame.lineno)
    assert best.site in best.stored.sites and best.site.file_path == "Lib/ipaddress.py"
    shown = best.to_json()
    assert (shown["frame"], shown["site"]["lineNumber"]) == (best.frame, frame.lineno)
    # Without a frame, the record's first site, and no frame.
    (worded,) = Matcher(store).explain(str(exc), top=1).matches
    assert (worded.frame, worded.site) == (None, worded.stored.sites[0])


def test_captures_name_the_values_that_were_interpolated(store: Store) -> None:
    exc, _ = raised('ipaddress.ip_address("not-an-ip")')
    best = Matcher(store).explain(str(exc)).matches[0]
    assert best.record.error_message == "{address} does not appear to be an IPv4 or IPv6 address"
    assert best.captures == {"address": "'not-an-ip'"}


def test_a_message_no_template_produces_still_finds_its_likeness(store: Store) -> None:
    answer = Matcher(store).explain(
        "ValueError: '10.1.2.3.4' does not look like an IPv4 or IPv6 address at all"
    )
    assert answer.matches
    assert answer.matches[0].evidence == "fuzzy"
    assert "does not appear to be an IPv4 or IPv6 address" in answer.matches[0].record.error_message


def test_python_api_takes_an_exception_object(store: Store) -> None:
    exc, frame = raised('fractions.Fraction("x")')
    assert isinstance(store, errdex.store.sqlite.SqliteStore)  # type: ignore[attr-defined]
    answer = errdex.explain(exc, db=store.path)
    assert answer.matches[0].evidence == "frame"
    assert at([(s.file_path, s.line_number) for s in answer.matches[0].record.sites], frame)


def cli(*args: str, stdin: str | bytes = "", db: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    extra = ["--db", str(db)] if db else []
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "errdex", "explain", *args, *extra],
        input=data,
        capture_output=True,
        check=False,
    )


def test_cli_explains_a_traceback_from_stdin_as_json(store: Store) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import ipaddress; ipaddress.ip_address('bogus')"],
        capture_output=True,
        text=True,
    )
    answer = json.loads(cli("--json", "-", stdin=done.stderr, db=store.path).stdout)  # type: ignore[attr-defined]
    (error,) = answer["query"]["errors"]
    assert error["errorClass"] == "ValueError"
    assert error["frames"][-1]["relative"] == "ipaddress.py"
    best = answer["matches"][0]
    assert best["evidence"] == "frame"
    assert best["record"]["function"] == "ip_address"
    assert best["captures"] == {"address": "'bogus'"}


def test_cli_batch_answers_each_line_and_reports_bad_ones(store: Store) -> None:
    lines = [
        json.dumps({"text": "ValueError: Invalid literal for Fraction: 'x'"}),
        "not json",
        json.dumps({"text": ""}),
    ]
    done = cli("--batch", "--top", "1", stdin="\n".join(lines) + "\n", db=store.path)  # type: ignore[attr-defined]
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(answers) == 3
    assert answers[0]["matches"][0]["record"]["errorMessage"] == "Invalid literal for Fraction: %r"
    assert answers[1]["error"].startswith("line 2:")
    assert answers[2]["error"].startswith("line 3:")


@pytest.mark.parametrize(
    ("stdin", "says"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        (b"\x00\x01\x02binary\x00" * 50, "binary"),
        ("x" * 10_000_000, "1,000,000"),
    ],
)
def test_cli_bad_input_gets_one_clear_line(store: Store, stdin: str | bytes, says: str) -> None:
    done = cli("-", stdin=stdin, db=store.path)  # type: ignore[attr-defined]
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 1
    assert len(lines) == 1 and says in lines[0].lower(), lines
    assert "Traceback" not in done.stderr.decode()


def test_cli_without_a_store_says_how_to_make_one(tmp_path: Path) -> None:
    done = cli("ValueError: x", db=tmp_path / "none.db")
    assert done.returncode == 1
    assert "errdex mine" in done.stderr.decode()


CLICK_MISSING = """
import click

@click.command()
@click.option("--name", required=True)
def hello(name):
    pass

hello.main([], standalone_mode=False)
"""


@pytest.fixture(scope="module")
def libraries(
    tmp_path_factory: pytest.TempPathFactory, pypi_package: Callable[[str, str], Path]
) -> tuple[Store, Path]:
    """click, werkzeug and httpx mined into one store, and click's unpacked wheel to run."""
    db = tmp_path_factory.mktemp("libraries") / "errdex.db"
    with open_store(db) as writable:
        for name, version in (("click", "8.1.8"), ("werkzeug", "3.1.3"), ("httpx", "0.28.1")):
            result = mine(pypi_package(name, version), repo=f"pypi/{name}", sha=SHA, jobs=1)
            writable.replace_repo(result.info, result.records)
    return open_store(db), pypi_package("click", "8.1.8")


def run_click(click_root: Path, code: str, module: str, answer: str = "") -> tuple[str, int]:
    """Run real click code; the last line of its traceback and the line of ``module`` that raised."""
    run = subprocess.run(
        [sys.executable, "-c", code],
        input=answer,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(click_root)},
        check=False,
    )
    raise_line = int(re.findall(rf'click/{module}\.py", line (\d+)', run.stderr)[-1])
    return run.stderr.strip().splitlines()[-1], raise_line


def test_a_class_named_by_its_package_outranks_look_alikes_elsewhere(libraries: tuple[Store, Path]) -> None:
    store, click_root = libraries
    # A real click error: MissingParameter builds "Missing parameter: name" in __str__.
    last, raise_line = run_click(click_root, CLICK_MISSING, "core")
    assert last == "click.exceptions.MissingParameter: Missing parameter: name"
    best = Matcher(store).explain(last).matches[0]
    assert best.evidence == "pattern+class"
    assert ("click/core.py", raise_line) in [(s.file_path, s.line_number) for s in best.record.sites]


def test_a_class_printed_without_a_message_finds_the_raises_of_that_class(
    libraries: tuple[Store, Path],
) -> None:
    store, click_root = libraries
    # click.confirm(..., abort=True) answered "n" raises Abort(), which prints no message.
    code = "import click; click.confirm('go on?', abort=True)"
    last, raise_line = run_click(click_root, code, "termui", answer="n\n")
    assert last == "click.exceptions.Abort"
    matches = Matcher(store).explain(last, top=50).matches
    assert matches and all(m.record.qualified_class == "click.exceptions.Abort" for m in matches)
    assert ("click/termui.py", raise_line) in [
        (s.file_path, s.line_number) for m in matches for s in m.record.sites
    ]


def test_a_reraise_of_an_error_built_elsewhere_is_found_by_its_package(tmp_path: Path) -> None:
    # jsonschema's validate() ends in `raise error`, error picked from errors yielded elsewhere:
    # the message is not at the raise, but the printed class names the package that raises it.
    root = tmp_path / "src"
    (root / "shapes").mkdir(parents=True)
    (root / "shapes" / "__init__.py").write_text("")
    (root / "shapes" / "errors.py").write_text("class ValidationError(Exception):\n    pass\n")
    (root / "shapes" / "check.py").write_text(
        "from shapes.errors import ValidationError\n\n"
        "def iter_errors(value):\n"
        "    if not isinstance(value, str):\n"
        "        yield ValidationError(f'{value!r} is not a string')\n\n"
        "def best(errors):\n"
        "    return min(errors, key=str)\n\n"
        "def validate(value):\n"
        "    error = best(iter_errors(value))\n"
        "    raise error\n"
    )
    db = tmp_path / "errdex.db"
    with open_store(db) as store:
        result = mine(root, repo="acme/shapes", sha=SHA, jobs=1)
        store.replace_repo(result.info, result.records)
        matches = Matcher(store).explain("shapes.errors.ValidationError: 3 is not a string").matches
    assert [(m.record.file_path, m.record.line_number) for m in matches] == [("shapes/check.py", 12)]
