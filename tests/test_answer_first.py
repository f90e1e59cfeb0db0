"""``errdex explain`` answers first: on an 80-column screen, the message as it was raised, where,
what it means and how to fix it come before the source, and the source is the few lines around
the raise unless ``--long`` asks for the whole stored window.

The errors are real: tracebacks printed by running real ``packaging``, ``ipaddress`` and
``fractions`` code, and by a tiny module written here whose message holds ``[ax]`` (which Rich
would read as markup) and whose raising line is longer than the screen.  The CLI runs as a
subprocess; what each check expects (the prose, the site, the window) is read from the same
store through ``--json``, never written down here.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import packaging
import pytest

from conftest import innermost, real_traceback
from errdex.mine import mine
from errdex.store import open_store

ERRDEX = Path(sys.executable).with_name("errdex")
SCREEN = {"PATH": "/usr/bin:/bin", "COLUMNS": "80", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
FIRST_SCREEN = 25
SHORT = 12

#: The tiny tree: a message holding ``[ax]``, longer than a line, raised from a line longer than
#: the screen; ``other.py`` raises the same message, so it is the other candidate.
MESSAGE = (
    "mode [ax] must be 'a' or 'b', not {mode!r}; see the options table for every mode this function"
    " takes and what it does with each of them in turn, from the first to the last one listed there"
)
OPTIONS = f'''\
"""Options [ax]."""


def pick(mode):
    """Pick a mode: [ax] or [bold]b[/bold]."""
    if mode not in ("a", "b"):
        raise ValueError(f"{MESSAGE}")
    return mode
'''
#: One message raised at two lines of one function, under different tests: one record, two sites.
TWICE = """\
def scale(factor, unit):
    if factor < 0:
        raise ValueError(f"cannot scale by {factor} {unit}")
    if unit not in ("m", "s"):
        raise ValueError(f"cannot scale by {factor} {unit}")
    return factor
"""
TRAIL = 'them in turn, from the first to the last one listed there")'  # the raising line's end

CASES = {
    "packaging": ('from packaging.version import Version; Version("2.0-final-final")', "version.py"),
    "ipaddress": ('import ipaddress; ipaddress.ip_address("999.1.1.1")', "ipaddress.py"),
    "fractions": ('import fractions; fractions.Fraction("one half")', "fractions.py"),
}
NUMBERED = re.compile(r"^([❱ ]) *(\d+) ")


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the store, the tiny tree): a copy of the installed ``packaging``, this interpreter's
    ``ipaddress`` and ``fractions`` as CPython lays them out, and the tiny tree."""
    import ipaddress

    packages = tmp_path_factory.mktemp("packaging")
    shutil.copytree(Path(packaging.__file__).parent, packages / "packaging")
    stdlib = tmp_path_factory.mktemp("stdlib")
    for module in ("ipaddress.py", "fractions.py"):
        shutil.copy(Path(ipaddress.__file__).parent / module, stdlib / module)
    tiny = tmp_path_factory.mktemp("tiny")
    (tiny / "errdex_options.py").write_text(OPTIONS, encoding="utf-8")
    (tiny / "errdex_other.py").write_text(OPTIONS, encoding="utf-8")
    (tiny / "errdex_twice.py").write_text(TWICE, encoding="utf-8")
    db = tmp_path_factory.mktemp("answer-first-db") / "errdex.db"
    with open_store(db) as store:
        for root, repo, prefix in (
            (packages, "pypa/packaging", "src/"),
            (stdlib, "python/cpython", "Lib/"),
            (tiny, "acme/options", ""),
        ):
            result = mine(root, repo=repo, sha="0" * 40, path_prefix=prefix, jobs=1)
            store.replace_repo(result.info, result.records)
    return db, tiny


def errdex(*args: str, db: Path, stdin: str = "") -> str:
    done = subprocess.run(
        [ERRDEX, *args, "--db", str(db)],
        input=stdin.encode(),
        capture_output=True,
        env=SCREEN,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode()
    return done.stdout.decode("utf-8")


def run_tiny(tiny: Path, code: str) -> str:
    """What Python prints on stderr running ``code`` with the tiny tree importable."""
    env = {"PYTHONPATH": str(tiny)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    return done.stderr


def answer(db: Path, traceback: str) -> dict[str, Any]:
    """The top match as ``--json`` gives it: the record with its prose, the site, the captures."""
    matches = json.loads(errdex("explain", "--json", db=db, stdin=traceback))["matches"]
    assert matches, traceback
    return matches[0]


def flat(lines: list[str]) -> str:
    """Lines as one run of words: what wrapping does not change."""
    return " ".join(" ".join(lines).split())


def source_block(lines: list[str]) -> tuple[int, list[int], list[int], list[str]]:
    """Where the source starts (its header line), the line numbers it shows, those marked, and
    its lines as printed (a wrapped line goes on, unnumbered, on the next)."""
    header = next(i for i, line in enumerate(lines) if line.startswith("Source  "))
    first = next(i for i in range(header + 1, len(lines)) if NUMBERED.match(lines[i]))
    numbers, marked, block = [], [], []
    for line in lines[first:]:
        if not line.startswith((" ", "❱")):
            break  # the next section
        block.append(line)
        if found := NUMBERED.match(line):
            numbers.append(int(found[2]))
            if found[1] == "❱":
                marked.append(int(found[2]))
    return header, numbers, marked, block


def row(lines: list[str], label: str) -> tuple[int, str]:
    """Where a labelled row starts, and its text (a row that wraps goes on, indented)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{label} "))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    return start, flat(lines[start:end]).removeprefix(f"{label} ")


def shown_line(match: dict[str, Any]) -> int:
    """The line the source should mark: the site's where the stored window holds it."""
    record, site = match["record"], match["site"]
    inside = site["filePath"] == record["filePath"]
    inside = inside and record["sourceCodeStart"] <= site["lineNumber"] <= record["sourceCodeEnd"]
    return site["lineNumber"] if inside else record["lineNumber"]


@pytest.mark.parametrize("case", CASES)
def test_the_answer_fits_the_first_screen_before_the_source(trees: tuple[Path, Path], case: str) -> None:
    code, file_name = CASES[case]
    traceback = real_traceback(code)
    last = traceback.rstrip().splitlines()[-1]
    raised = last.split(": ", 1)[1]
    match = answer(trees[0], traceback)
    record, site = match["record"], match["site"]
    assert site["lineNumber"] == innermost(traceback, file_name)  # the frame that raised
    assert record["documentation"], record["id"]

    lines = errdex("explain", db=trees[0], stdin=traceback).splitlines()
    assert lines[0] == f"{record['errorClass']}: {raised}"  # the message as raised, values and all
    assert lines[1].startswith(f"{match['evidence']} match, score")
    first_screen = flat(lines[:FIRST_SCREEN])
    assert flat([record["documentation"]]) in first_screen, lines[:FIRST_SCREEN]
    if record["solutions"]:  # none is written without a fact behind it: the tiny tree's has one
        assert flat([record["solutions"][0]]) in first_screen, lines[:FIRST_SCREEN]
    where = f"{site['filePath']}:{site['lineNumber']}"
    at, raised_in = row(lines, "raised in")
    assert raised_in.endswith(f"{site['function']} · {where}")
    header, numbers, marked, _ = source_block(lines)
    assert at < header and at < FIRST_SCREEN
    fix = [i for i, line in enumerate(lines) if line.startswith("How to fix it")]
    if record["solutions"]:
        assert fix and fix[0] < header
    else:
        assert not fix
    assert len(numbers) <= SHORT and numbers == list(range(numbers[0], numbers[-1] + 1))
    assert marked == [shown_line(match)]


@pytest.mark.parametrize("case", ["packaging", "fractions"])
def test_long_shows_the_whole_stored_window(trees: tuple[Path, Path], case: str) -> None:
    db = trees[0]
    traceback = real_traceback(CASES[case][0])
    match = answer(db, traceback)
    record = match["record"]
    window = list(range(record["sourceCodeStart"], record["sourceCodeEnd"] + 1))
    assert len(window) > SHORT
    for command in (["explain", "--long"], ["show", record["id"], "--long"]):
        _, numbers, marked, _ = source_block(errdex(*command, db=db, stdin=traceback).splitlines())
        assert numbers == window
        assert marked == [shown_line(match) if command[0] == "explain" else record["lineNumber"]]
    _, numbers, marked, _ = source_block(errdex("show", record["id"], db=db).splitlines())
    assert len(numbers) <= SHORT and marked == [record["lineNumber"]]


def test_markup_shows_literally_and_long_lines_wrap(trees: tuple[Path, Path]) -> None:
    db, tiny = trees
    stderr = run_tiny(tiny, "import errdex_options; errdex_options.pick('[ax]')")
    raised = stderr.rstrip().splitlines()[-1]
    assert raised.startswith("ValueError: mode [ax] must be") and "not '[ax]'" in raised
    top, *others = json.loads(errdex("explain", "--json", db=db, stdin=stderr))["matches"]
    assert top["site"]["filePath"] == "errdex_options.py"
    lines = errdex("explain", db=db, stdin=stderr).splitlines()
    assert all(len(line.rstrip()) <= 80 for line in lines)
    evidence = next(i for i, line in enumerate(lines) if line.startswith("frame match"))
    assert 1 < evidence < 5 and flat(lines[:evidence]) == raised  # wrapped, whole, [ax] kept
    # Its guard (``mode not in ("a", "b")``) gives it a fix: that too on the first screen.
    record = top["record"]
    assert record["documentation"] and record["solutions"], record["id"]
    first_screen = flat(lines[:FIRST_SCREEN])
    assert flat([record["documentation"]]) in first_screen and flat([record["solutions"][0]]) in first_screen
    _, _, marked, block = source_block(lines)
    assert marked == [top["site"]["lineNumber"]]
    (at,) = [i for i, line in enumerate(block) if line.startswith("❱")]
    end = next(i for i in range(at + 1, len(block)) if NUMBERED.match(block[i]))
    assert end > at + 1  # the raising line goes on, wrapped, to its very end
    raising = flat(block[at:end])
    assert raising.startswith(f"❱ {marked[0]} raise ValueError(") and raising.endswith(TRAIL)

    # The other file raising it is a candidate: its message cut between words, and marked so.
    (other,) = [m for m in others if m["record"]["filePath"] == "errdex_other.py"]
    rest = lines[lines.index("Other candidates") + 1 :]
    candidate = flat(rest)
    assert f"{other['score']:.2f} {other['evidence']} ValueError: mode [ax] must be" in candidate
    template = other["record"]["errorMessage"]
    shown = candidate.split("ValueError: ", 1)[1].split(" …", 1)[0]
    assert template.startswith(shown) and template[len(shown)] == " "  # cut at a word's end
    assert (
        f"(acme/options errdex_other.py:{other['site']['lineNumber']}, {other['record']['id']})" in candidate
    )


def test_where_names_the_public_call_the_traceback_went_through(trees: tuple[Path, Path]) -> None:
    """A raise deep in private helpers is shown with the public function a user calls and the
    functions between, in the order the real call stack went through them."""
    db = trees[0]
    traceback = real_traceback('from packaging.requirements import Requirement; Requirement("foo[bar baz]")')
    stack = re.findall(r'File "[^"]*", line \d+, in (\S+)', traceback.split("\n\nThe above exception")[0])
    matches = json.loads(errdex("explain", "--json", db=db, stdin=traceback))["matches"]
    (cause,) = [m for m in matches if m["record"]["errorClass"] == "ParserSyntaxError"][:1]
    record = cause["record"]
    entry = record["facts"]["entryPoints"][0]
    assert entry["function"] != record["function"]
    lines = errdex("show", record["id"], db=db).splitlines()
    chain, place = row(lines, "raised in")[1].split(" · ")
    assert place == f"{record['filePath']}:{record['lineNumber']}"
    public, *through = chain.split(" → ")
    assert public == entry["name"] and through[-1] == record["function"]
    # The public function, then each one shown, is a frame of the real stack, in its order.
    called = iter(stack)
    for function in [entry["function"], *through]:
        assert function.rpartition(".")[2] in called, (function, stack)


def test_prose_written_for_another_site_says_whose_line_it_is(trees: tuple[Path, Path]) -> None:
    """A record keeps every line raising its message; its prose is written for the first.  When
    a traceback ran another one, the answer shows that line and its own test, and heads the
    prose with the line it was written for."""
    db, tiny = trees
    stderr = run_tiny(tiny, "import errdex_twice; errdex_twice.scale(1, 'kg')")
    ran = innermost(stderr, "errdex_twice.py")
    top = json.loads(errdex("explain", "--json", db=db, stdin=stderr))["matches"][0]
    record = top["record"]
    assert top["site"]["lineNumber"] == ran != record["lineNumber"]
    lines = errdex("explain", db=db, stdin=stderr).splitlines()
    assert row(lines, "raised in")[1].endswith(f"errdex_twice.py:{ran}")
    assert row(lines, "if")[1] == top["site"]["conditions"][0]
    written = f"(written for line {record['lineNumber']}, where it is first raised)"
    text = flat(lines)
    assert record["triggerScenarios"] and f"When it happens {written}" in text
    assert not record["solutions"] or f"How to fix it {written}" in text
