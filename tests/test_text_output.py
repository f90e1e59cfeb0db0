"""Mined and pasted text is shown as text: never Rich markup, never a terminal control.

The records come from real code mined for real: a copy of the installed ``packaging`` (whose
``Version("[/]")`` message once crashed the CLI's markup) and a module whose message, comments
and docstring hold markup, escape sequences, an OSC 8 hyperlink and bidi overrides.  The CLI runs
as a subprocess with Rich forced to a terminal, so colours are on and only Rich's own styling may
reach the output.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import packaging
import pytest

from errdex.display import visible
from errdex.hooks.explainer import Explainer
from errdex.match.parse import PasteError, parse
from errdex.mine import mine
from errdex.store import open_store

ERRDEX = Path(sys.executable).with_name("errdex")

#: Markup, an emoji code, a hyperlink in markup and in OSC 8, colour, BEL, CR, backspace, C1 CSI
#: and a right-to-left override, as the escapes a Python string literal spells them.
HOSTILE_MESSAGE = (
    r"[link=https://evil.example]click here[/link] \x1b]8;;https://evil\x07x\x1b]8;;\x07"
    r" \x1b[31mred\r\x08\x9b2J \u202egnp.exe\u202c :thumbs_up: [/]"
)
# The raw characters sit in a comment and the docstring, which the record keeps as written.
HOSTILE_MODULE = f'''\
"""Hostile text in every field errdex mines."""


def load(mode):
    """Load \x1b[2J\x1b]8;;https://evil\x07it\x1b]8;;\x07 \u202eevil\u202c."""
    if mode:  # \x1b[5mblink\x07 \u2066isolate\u2069 \x9b31m
        raise ValueError("{HOSTILE_MESSAGE}")
'''
#: Rich's styling: SGR sequences only (no OSC 8: errdex prints no links).
SGR = re.compile(r"\x1b\[[0-9;]*m")
#: What no output may hold raw once Rich's styling is taken out.
ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
TERMINAL = {"FORCE_COLOR": "1", "TTY_COMPATIBLE": "1", "COLUMNS": "400", "LC_ALL": "C.UTF-8"}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """(store, the hostile tree, the hostile record's id): ``packaging`` and the hostile module."""
    packages = tmp_path_factory.mktemp("packaging")
    shutil.copytree(Path(packaging.__file__).parent, packages / "packaging")
    tree = tmp_path_factory.mktemp("hostile")
    (tree / "errdex_hostile.py").write_text(HOSTILE_MODULE, encoding="utf-8")
    db = tmp_path_factory.mktemp("hostile-db") / "errdex.db"
    with open_store(db) as store:
        for root, repo in ((packages, "pypa/packaging"), (tree, "evil/hostile")):
            result = mine(root, repo=repo, sha="0" * 40, path_prefix="src/", jobs=1)
            store.replace_repo(result.info, result.records)
    (record,) = result.records
    assert "\x1b]8;;https://evil\x07" in record.error_message and "\x1b[2J" in record.source_code
    return db, tree, record.id


def errdex(
    *args: str | bytes, db: Path, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The real CLI, with Rich taking stdout for a terminal."""
    return subprocess.run(
        [ERRDEX, *args, "--db", str(db)],
        input=stdin,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", **TERMINAL, **(env or {})},
        check=False,
        timeout=120,
    )


def shown(done: subprocess.CompletedProcess[bytes]) -> str:
    """Stdout, which must be UTF-8, with Rich's own styling taken out and nothing acting left."""
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr
    text = done.stdout.decode("utf-8")
    assert "\x1b]" not in text  # no OSC, so no OSC 8 hyperlink
    plain = SGR.sub("", text)
    assert ACTING.search(plain) is None, ACTING.findall(plain)
    return plain


def assert_hostile_text_shown_escaped(plain: str) -> None:
    assert "[link=https://evil.example]click here[/link]" in plain
    assert r"\x1b]8;;https://evil\x07x\x1b]8;;\x07 \x1b[31mred\r\x08\x9b2J \u202egnp.exe\u202c" in plain
    assert ":thumbs_up: [/]" in plain
    assert r"Load \x1b[2J\x1b]8;;https://evil\x07it" in plain  # the docstring, in the source
    assert r"# \x1b[5mblink\x07 \u2066isolate\u2069 \x9b31m" in plain  # the comment


def test_explain_shows_a_pasted_markup_capture_as_text(hostile: tuple[Path, Path, str]) -> None:
    code = 'from packaging.version import Version; Version("[/]")'
    traceback = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False).stderr
    assert traceback.rstrip().endswith(b"InvalidVersion: Invalid version: '[/]'")
    text = shown(errdex("explain", db=hostile[0], stdin=traceback))
    assert "frame match, score" in text
    assert """ · captured {'version': "'[/]'"}""" in text
    assert text.startswith("InvalidVersion: Invalid version: '[/]'\n")  # the capture filled in
    assert "template  Invalid version: {version}" in text


def test_explain_and_show_print_the_hostile_record_escaped_with_labels_styled(
    hostile: tuple[Path, Path, str],
) -> None:
    db, tree, record_id = hostile
    run = subprocess.run(
        [sys.executable, "-c", "import errdex_hostile; errdex_hostile.load('w')"],
        capture_output=True,
        env={"PYTHONPATH": str(tree)},
        check=False,
    )
    assert b"ValueError: [link=" in run.stderr
    for done in (errdex("explain", "-", db=db, stdin=run.stderr), errdex("show", record_id, db=db)):
        assert_hostile_text_shown_escaped(shown(done))
        raw = done.stdout.decode()
        assert "\x1b[1mraised in" in raw and "\x1b[1mWhat it means" in raw  # Rich's bold, kept


def test_a_paste_no_record_explains_is_echoed_as_written(hostile: tuple[Path, Path, str]) -> None:
    text = shown(errdex("explain", "NoSuchThing: [bold]x[/] :thumbs_up: \x1b[2J", db=hostile[0]))
    assert "No record explains NoSuchThing: [bold]x[/] :thumbs_up:" in text


def test_the_hooks_show_the_hostile_record_escaped(
    hostile: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, tree, _ = hostile
    monkeypatch.syspath_prepend(str(tree))
    import errdex_hostile

    with pytest.raises(ValueError) as caught:
        errdex_hostile.load("w")
    brief = Explainer(db).brief(caught.value, caught.tb)
    assert brief.startswith("errdex: ValueError: [link=https://evil.example]click here[/link]"), brief
    assert r"click here[/link] \x1b]8;;https://evil\x07x\x1b]8;;\x07 \x1b[31mred" in brief  # then cut
    assert ACTING.search(brief) is None and "\x1b" not in brief


@pytest.mark.parametrize(
    ("text", "lines", "expected"),
    [
        ("a\x1b[31mb", False, r"a\x1b[31mb"),
        ("\x1b]8;;https://e\x07x\x1b]8;;\x1b\\", False, r"\x1b]8;;https://e\x07x\x1b]8;;\x1b" + "\\"),
        ("one\ntwo\tthree\r\x08\x00\x7f", False, r"one\ntwo\tthree\r\x08\x00\x7f"),
        ("one\ntwo\tthree\r", True, "one\ntwo\tthree\\r"),
        ("\x85\x9b\u202a\u202b\u202c\u202d\u202e", False, r"\x85\x9b\u202a\u202b\u202c\u202d\u202e"),
        ("\u2066\u2067\u2068\u2069\u200e\u200f\u061c", True, r"\u2066\u2067\u2068\u2069\u200e\u200f\u061c"),
        ("\u2028\u2029\ud800\udcff", True, r"\u2028\u2029\ud800\udcff"),
        ("é 中 😀 [b]x[/b] \\x", False, "é 中 😀 [b]x[/b] \\x"),
    ],
)
def test_visible_escapes_what_a_terminal_acts_on(text: str, lines: bool, expected: str) -> None:
    assert visible(text, lines=lines) == expected
    assert visible(expected, lines=lines) == expected  # already shown: shown as it is


STRICT = {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


def test_batch_answers_every_line_whatever_bytes_it_holds(hostile: tuple[Path, Path, str]) -> None:
    good = b'{"text": "InvalidVersion: Invalid version: \'[/]\'"}'
    lines = [
        good,
        b'{"text": "\\ud800"}',  # a lone surrogate, and nothing else: not text
        b"\xff\xfe not UTF-8",
        b'{"text": "caf\xc3\x28"}',  # invalid UTF-8 inside the JSON
        b"[" * 100_000,  # deeper than the JSON decoder goes
        b'{"text": 5}',
        b"   ",
        b'{"text": "InvalidVersion: Invalid version: \'x\\udcff\'"}',  # a stray surrogate in a paste
        good,
    ]
    done = errdex("explain", "--batch", db=hostile[0], stdin=b"\n".join(lines) + b"\n", env=STRICT)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(answers) == 8
    assert [a["error"].split(":")[0] for a in answers if "error" in a] == [
        f"line {n}" for n in (2, 3, 4, 5, 6)
    ]
    assert answers[1]["error"].startswith("line 2: the paste looks like binary data")
    assert "utf-8" in answers[2]["error"] and "utf-8" in answers[3]["error"]
    for answer in (answers[0], answers[7]):
        assert answer["matches"][0]["captures"] == {"version": "'[/]'"}
    assert answers[6]["matches"][0]["captures"] == {"version": "'x\\udcff'"}  # the escape, as text


def test_json_output_is_utf8_when_the_paste_holds_a_stray_byte(hostile: tuple[Path, Path, str]) -> None:
    paste = b"packaging.version.InvalidVersion: Invalid version: '1.0\xff'"
    for done in (
        errdex("explain", "--json", paste, db=hostile[0], env=STRICT),  # argv: a lone surrogate
        errdex("explain", "--json", "-", db=hostile[0], stdin=paste, env=STRICT),
    ):
        assert done.returncode == 0 and not done.stderr, done.stderr
        answer = json.loads(done.stdout.decode("utf-8"))
        assert answer["query"]["errors"][0]["message"] == "Invalid version: '1.0\\udcff'"
        assert answer["matches"][0]["captures"] == {"version": "'1.0\\udcff'"}


def test_json_output_escapes_what_a_terminal_acts_on(hostile: tuple[Path, Path, str]) -> None:
    db, _, record_id = hostile
    done = errdex("show", record_id, "--json", db=db)
    assert done.returncode == 0
    assert ACTING.search(done.stdout.decode("utf-8")) is None
    shown_record = json.loads(done.stdout)
    assert "\x9b2J \u202egnp.exe\u202c" in shown_record["errorMessage"]  # the same data, escaped


def test_undecodable_bytes_are_refused_as_binary_but_a_stray_one_parses(
    hostile: tuple[Path, Path, str],
) -> None:
    data = bytes(range(0x80, 0x100)) * 40
    with pytest.raises(PasteError, match="binary"):
        parse(data.decode("utf-8", "surrogateescape"))
    done = errdex("explain", "-", db=hostile[0], stdin=data, env=STRICT)
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == [
        "errdex: error: the paste looks like binary data: paste the error as text (at most 1,000,000 bytes)"
    ]
    code = "import ipaddress; ipaddress.ip_address('bogus')"
    traceback = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False).stderr
    stray = traceback.replace(b"'bogus'", b"'bo\xffgus'")
    (error,) = parse(stray.decode("utf-8", "surrogateescape")).errors
    assert error.error_class == "ValueError" and "bo\udcffgus" in error.message
    assert error.frames[-1].path.endswith("ipaddress.py")
    shown(errdex("explain", "-", db=hostile[0], stdin=stray, env=STRICT))  # answered, no traceback
