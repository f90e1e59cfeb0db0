"""Parsing pastes: every paste here is printed at test time by running real code.

Python, IPython, Rich, a Typer app, pytest and the logging module produce the text; the
assertions are facts about the code that ran: the class it raises, its message, and the
lines marked ``# at:NAME`` in the module the tests write.  No expected traceback is typed here.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import logging
import os
import random
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
import rich
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from errdex.match.parse import MAX_PASTE_BYTES, Frame, ParsedError, Paste, PasteError, parse

ERRMOD = '''\
"""Raises what the tests parse."""


class MissingThing(Exception):
    pass


def inner(x):
    raise ValueError(f"bad value {x}\\nsecond line\\nthird")  # at:inner


def middle():
    try:
        {}["k"]  # at:key
    except KeyError as e:
        raise RuntimeError("wrapped") from e  # at:wrapped


def outer():
    try:
        inner(1)  # at:outer-inner
    except ValueError:
        middle()  # at:outer-middle


def leaf(n):
    raise OSError(f"leaf {n}")  # at:leaf


def group():
    errors = []
    for n in range(2):
        try:
            leaf(n)  # at:group-leaf
        except OSError as e:
            errors.append(e)
    nested = ExceptionGroup("nested", [TypeError("b"), KeyError("c")])
    raise ExceptionGroup("many", [*errors, nested])  # at:group


def calc(d):
    return d["a"] + 1 * d["c"]  # at:calc


def missing():
    raise MissingThing("nothing here")  # at:missing


def stop():
    next(iter([]))  # at:stop


def loads():
    import json

    return json.loads("{")  # at:loads


def color():
    from rich.color import Color

    return Color.parse("notacolor")  # at:color
'''


def marks(source: str) -> dict[str, int]:
    """Line numbers of the ``# at:NAME`` comments in ``source``."""
    found = (re.search(r"# at:([\w-]+)", line) for line in source.splitlines())
    return {m[1]: n for n, m in enumerate(found, 1) if m}


AT = marks(ERRMOD)
VALUE_MESSAGE = "bad value {}\nsecond line\nthird"


@pytest.fixture(scope="module")
def moddir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding ``errmod.py``, importable by the subprocesses the tests start."""
    directory = tmp_path_factory.mktemp("errmod")
    (directory / "errmod.py").write_text(ERRMOD)
    return directory


@pytest.fixture(scope="module")
def errmod(moddir: Path) -> ModuleType:
    """The same module imported here, for output produced in this process."""
    spec = importlib.util.spec_from_file_location("errmod", moddir / "errmod.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def python(moddir: Path, *args: str, **env: str) -> str:
    """What Python prints to stderr running ``args`` with errmod importable."""
    done = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        cwd=moddir,
        env={**os.environ, "PYTHONPATH": str(moddir), **env},
        timeout=60,
    )
    assert done.returncode != 0, done.stdout
    return done.stderr


def caught(call: Callable[[], object]) -> BaseException:
    try:
        call()
    except BaseException as exc:
        return exc
    raise AssertionError("expected an exception")


def classes(paste: Paste) -> list[str | None]:
    return [e.error_class for e in paste.errors]


def at(frame: Frame, path: Path | str, mark: str, function: str | None) -> None:
    assert (frame.path, frame.line, frame.function) == (str(path), AT[mark], function)


# --- Python tracebacks ------------------------------------------------------------------------


def test_plain_traceback_ends_at_the_raise(moddir: Path) -> None:
    paste = parse(python(moddir, "-c", "import errmod; errmod.inner(7)"))
    (error,) = paste.errors
    assert (error.error_class, error.message, error.format) == (
        "ValueError",
        VALUE_MESSAGE.format(7),
        "python",
    )
    assert error.frames[0] == Frame("<string>", 1, "<module>")
    at(error.frames[-1], moddir / "errmod.py", "inner", "inner")


def test_chained_tracebacks_come_first_cause_first(moddir: Path) -> None:
    text = python(moddir, "-c", "import errmod; errmod.outer()")
    assert "During handling of the above exception, another exception occurred:" in text
    assert "The above exception was the direct cause of the following exception:" in text
    value, key, wrapped = parse(text).errors
    assert (value.error_class, value.message) == ("ValueError", VALUE_MESSAGE.format(1))
    assert (key.error_class, key.message) == ("KeyError", "'k'")
    assert (wrapped.error_class, wrapped.message) == ("RuntimeError", "wrapped")
    path = moddir / "errmod.py"
    at(value.frames[0], path, "outer-inner", "outer")
    at(value.frames[1], path, "inner", "inner")
    (key_frame,) = key.frames
    at(key_frame, path, "key", "middle")
    at(wrapped.frames[-2], path, "outer-middle", "outer")
    at(wrapped.frames[-1], path, "wrapped", "middle")


#: What ``errmod.group()`` raises, in paste order: the group, its leaves, a nested group.
GROUP_CLASSES = ["ExceptionGroup", "OSError", "OSError", "ExceptionGroup", "TypeError", "KeyError"]
GROUP_MESSAGES = ["many", "leaf 0", "leaf 1", "nested", "b", "'c'"]


def test_exception_group_yields_the_group_and_every_error_in_it(moddir: Path) -> None:
    text = python(moddir, "-c", "import errmod; errmod.group()")
    assert "  + Exception Group Traceback (most recent call last):" in text
    assert "+---------------- 1 ----------------" in text
    paste = parse(text)
    assert classes(paste) == GROUP_CLASSES
    assert [e.message for e in paste.errors] == GROUP_MESSAGES
    assert {e.format for e in paste.errors} == {"python"}
    path = moddir / "errmod.py"
    at(paste.errors[0].frames[-1], path, "group", "group")
    for leaf in paste.errors[1:3]:
        at(leaf.frames[0], path, "group-leaf", "group")
        at(leaf.frames[1], path, "leaf", "leaf")
    assert all(e.frames == () for e in paste.errors[3:])
    # The program ended with the group: its sub-exceptions are not errors of their own.
    assert [e.in_group for e in paste.errors] == [False, True, True, True, True, True]
    assert paste.primary == 0


def test_exception_group_printed_without_being_raised() -> None:
    group = ExceptionGroup("g", [ValueError("a"), ExceptionGroup("n", [TypeError("b")])])
    text = "".join(traceback.format_exception(group))
    assert "Traceback" not in text
    paste = parse(text)
    assert classes(paste) == ["ExceptionGroup", "ValueError", "ExceptionGroup", "TypeError"]
    assert [e.message for e in paste.errors] == ["g", "a", "n", "b"]
    assert paste.primary == 0


def test_syntax_error_has_a_frame_without_function(moddir: Path, tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text("x = 1\ny = (2,\n")
    expected = caught(lambda: compile(script.read_text(), str(script), "exec"))
    assert isinstance(expected, SyntaxError)
    (error,) = parse(python(moddir, str(script))).errors
    assert (error.error_class, error.message) == ("SyntaxError", expected.msg)
    assert error.frames == (Frame(str(script), expected.lineno or 0, source="y = (2,"),)


def test_syntax_error_on_import_keeps_the_importing_frames(moddir: Path, tmp_path: Path) -> None:
    (tmp_path / "broken_import.py").write_text("def f(:\n    pass\n")
    text = python(moddir, "-c", "import broken_import", PYTHONPATH=str(tmp_path))
    (error,) = parse(text).errors
    assert (error.error_class, error.message) == ("SyntaxError", "invalid syntax")
    assert error.frames == (
        Frame("<string>", 1, "<module>"),
        Frame(str(tmp_path / "broken_import.py"), 1, source="def f(:"),
    )


def test_position_markers_are_not_part_of_the_error(moddir: Path) -> None:
    text = python(moddir, "-c", "import errmod; errmod.calc({'a': 1, 'c': None})")
    assert re.search(r"^ +~*\^+~*$", text, re.MULTILINE)
    (error,) = parse(text).errors
    assert (error.error_class, error.message) == ("TypeError", str(caught(lambda: 1 * None)))
    at(error.frames[-1], moddir / "errmod.py", "calc", "calc")


def test_each_frame_keeps_the_source_line_python_printed_under_it(
    moddir: Path, ipython_cell: dict[str, str]
) -> None:
    (error,) = parse(python(moddir, "-c", "import errmod; errmod.calc({'a': 1, 'c': None})")).errors
    # ``-c`` code has no file to show; errmod's lines are the module's own, carets left out.
    assert error.frames[0].source is None
    assert error.frames[-1].source == ERRMOD.splitlines()[AT["calc"] - 1].strip()
    # IPython numbers the lines around a frame: no one of them is the frame's alone.
    assert all(f.source is None for e in parse(ipython_cell["NoColor"]).errors for f in e.frames)


@pytest.mark.parametrize(
    ("code", "cls"),
    [("import errmod; errmod.stop()", "StopIteration"), ("raise KeyboardInterrupt", "KeyboardInterrupt")],
)
def test_exception_without_message(moddir: Path, code: str, cls: str) -> None:
    (error,) = parse(python(moddir, "-c", code)).errors
    assert (error.error_class, error.message) == (cls, "")


def test_dotted_class_and_standard_library_frames(moddir: Path) -> None:
    expected = caught(lambda: json.loads("{"))
    (error,) = parse(python(moddir, "-c", "import errmod; errmod.loads()")).errors
    assert (error.error_class, error.message) == ("json.decoder.JSONDecodeError", str(expected))
    at(error.frames[1], moddir / "errmod.py", "loads", "loads")
    last = error.frames[-1]
    assert (last.path, last.relative) == (json.decoder.__file__, "json/decoder.py")
    assert "scan_once" in source_line(last)
    assert error.frames[1].relative is None


def test_site_packages_frames(moddir: Path) -> None:
    (error,) = parse(python(moddir, "-c", "import errmod; errmod.color()")).errors
    assert (error.error_class, error.message) == (
        "rich.color.ColorParseError",
        "'notacolor' is not a valid color",
    )
    last = error.frames[-1]
    assert (last.relative, last.function) == ("rich/color.py", "parse")
    assert last.path == str(Path(rich.__file__).parent / "color.py")
    assert "raise ColorParseError" in source_line(last)


def source_line(frame: Frame) -> str:
    return Path(frame.path).read_text().splitlines()[frame.line - 1]


def test_windows_paths(moddir: Path) -> None:
    """Real tracebacks with their paths moved to where Windows would have them."""
    places = {
        str(Path(rich.__file__).parent.parent): r"C:\Users\me\venv\Lib\site-packages",
        str(Path(json.__file__).parent.parent): r"C:\Python311\Lib",
        str(moddir): r"C:\Users\me\project",
    }
    text = python(moddir, "-c", "import errmod; errmod.color()") + python(
        moddir, "-c", "import errmod; errmod.loads()"
    )
    windows = re.sub(r'File "([^"]+)"', lambda m: f'File "{to_windows(m[1], places)}"', text)
    assert "C:\\Users\\me\\venv\\Lib\\site-packages\\rich\\color.py" in windows
    colour, decode = parse(windows).errors
    last = colour.frames[-1]
    assert (last.path, last.relative) == ("C:/Users/me/venv/Lib/site-packages/rich/color.py", "rich/color.py")
    source = ERRMOD.splitlines()[AT["color"] - 1].strip()
    assert colour.frames[1] == Frame("C:/Users/me/project/errmod.py", AT["color"], "color", source=source)
    last = decode.frames[-1]
    assert (last.path, last.relative) == ("C:/Python311/Lib/json/decoder.py", "json/decoder.py")


def to_windows(path: str, places: dict[str, str]) -> str:
    for posix, windows in places.items():
        if path.startswith(posix + "/"):
            return windows + path[len(posix) :].replace("/", "\\")
    return path


# --- IPython ------------------------------------------------------------------------------------

CELL = "import errmod\ndef f(a):\n    return errmod.inner(a)\nf(3)"


def ipython(moddir: Path, tmp_path: Path, code: str, colors: str) -> str:
    """IPython's output for one cell; its own files go to ``tmp_path``, outside errmod's directory."""
    done = subprocess.run(
        [sys.executable, "-m", "IPython", f"--colors={colors}", "-c", code],
        capture_output=True,
        text=True,
        cwd=moddir,
        env={**os.environ, "PYTHONPATH": str(moddir), "IPYTHONDIR": str(tmp_path), "HOME": str(tmp_path)},
        timeout=60,
    )
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def ipython_cell(moddir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("ipython")
    return {colors: ipython(moddir, home, CELL, colors) for colors in ("Linux", "NoColor")}


def test_ipython_with_colours(moddir: Path, ipython_cell: dict[str, str]) -> None:
    text = ipython_cell["Linux"]
    assert "\x1b[" in text
    (error,) = parse(text).errors
    assert (error.error_class, error.message, error.format) == (
        "ValueError",
        VALUE_MESSAGE.format(3),
        "ipython",
    )
    cell, function, raised = error.frames
    assert cell == Frame("Cell In[1]", 4)
    assert function == Frame("Cell In[1]", 3, "f")
    at(raised, moddir / "errmod.py", "inner", "inner")


def test_ipython_without_colours_reads_the_same(ipython_cell: dict[str, str]) -> None:
    assert "\x1b" not in ipython_cell["NoColor"]
    assert "----> 4 f(3)" in ipython_cell["NoColor"]
    assert parse(ipython_cell["NoColor"]) == parse(ipython_cell["Linux"])


def test_ipython_chain(moddir: Path, tmp_path: Path) -> None:
    text = ipython(moddir, tmp_path, "import errmod\nerrmod.outer()", "NoColor")
    assert re.search(r"^RuntimeError +Traceback \(most recent call last\)$", text, re.MULTILINE)
    paste = parse(text)
    assert classes(paste) == ["ValueError", "KeyError", "RuntimeError"]
    assert {e.format for e in paste.errors} == {"ipython"}
    cell, outer, middle = paste.errors[-1].frames
    assert cell == Frame("Cell In[1]", 2)
    at(outer, moddir / "errmod.py", "outer-middle", "outer")
    at(middle, moddir / "errmod.py", "wrapped", "middle")


def test_ipython_syntax_error(moddir: Path, tmp_path: Path) -> None:
    (error,) = parse(ipython(moddir, tmp_path, "x = 1\ndef f(:\n    pass", "Linux")).errors
    assert (error.error_class, error.message, error.frames) == (
        "SyntaxError",
        "invalid syntax",
        (Frame("Cell In[1]", 2),),
    )


# --- Rich and Typer ----------------------------------------------------------------------------


def rich_traceback(call: Callable[[], object], width: int = 100, **options: bool) -> str:
    out = io.StringIO()
    try:
        call()
    except BaseException:
        Console(file=out, width=width).print_exception(**options)
    return out.getvalue()


def test_rich_traceback(errmod: ModuleType, moddir: Path) -> None:
    text = rich_traceback(errmod.outer)
    assert "╭─" in text
    paste = parse(text)
    assert classes(paste) == ["ValueError", "KeyError", "RuntimeError"]
    assert [e.message for e in paste.errors] == [VALUE_MESSAGE.format(1), "'k'", "wrapped"]
    assert {e.format for e in paste.errors} == {"rich"}
    path = moddir / "errmod.py"
    at(paste.errors[0].frames[-1], path, "inner", "inner")
    at(paste.errors[2].frames[-2], path, "outer-middle", "outer")
    at(paste.errors[2].frames[-1], path, "wrapped", "middle")


def test_rich_locals_and_exception_groups(errmod: ModuleType, moddir: Path) -> None:
    text = rich_traceback(errmod.group, show_locals=True)
    assert "locals" in text and "Sub-exception #1" in text
    paste = parse(text)
    assert classes(paste) == GROUP_CLASSES
    assert [e.message for e in paste.errors] == GROUP_MESSAGES
    at(paste.errors[0].frames[-1], moddir / "errmod.py", "group", "group")
    at(paste.errors[1].frames[-1], moddir / "errmod.py", "leaf", "leaf")


def test_rich_wrapped_message_is_joined_again() -> None:
    words = " ".join(f"word{n}" for n in range(40))
    message = f"{words} https://example.org/{'x' * 90}\nits own second line"
    text = rich_traceback(lambda: raise_value(message), width=60)
    assert max(len(line) for line in text.splitlines()) <= 60
    (error,) = parse(text).errors
    assert (error.error_class, error.message) == ("ValueError", message)


def raise_value(message: str) -> None:
    raise ValueError(message)


def typer_app(tmp_path: Path) -> Path:
    app = tmp_path / "a_really_long_directory_name_to_wrap" / "another_long_directory_name" / "app_module.py"
    app.parent.mkdir(parents=True)
    app.write_text(TYPER_APP)
    return app


TYPER_APP = """\
import typer

app = typer.Typer()


def load(path: str) -> None:
    raise ValueError(f"cannot load {path}: not a config")  # at:typer-load


@app.command()
def main(path: str) -> None:
    load(path)  # at:typer-main


if __name__ == "__main__":
    app()
"""
TYPER_AT = marks(TYPER_APP)


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_typer_app_with_wrapped_paths(moddir: Path, tmp_path: Path, encoding: str) -> None:
    app = typer_app(tmp_path)
    text = python(moddir, str(app), "conf.toml", TERM="dumb", COLUMNS="80", PYTHONIOENCODING=encoding)
    assert str(app) not in text  # Rich wrapped it
    (error,) = parse(text).errors
    assert (error.error_class, error.message, error.format) == (
        "ValueError",
        "cannot load conf.toml: not a config",
        "rich",
    )
    main, load = error.frames[-2:]
    assert (main.line, main.function, load.line, load.function) == (
        TYPER_AT["typer-main"],
        "main",
        TYPER_AT["typer-load"],
        "load",
    )
    assert main.path.endswith("app_module.py") and load.path == str(app)


def test_typer_usage_error(moddir: Path, tmp_path: Path) -> None:
    text = python(moddir, str(typer_app(tmp_path)), "--bogus", TERM="dumb", COLUMNS="80")
    assert parse(text).errors == (ParsedError(None, "No such option: --bogus", (), "rich"),)


# --- pytest -------------------------------------------------------------------------------------

TEST_FILE = """\
import errmod


def test_value():
    errmod.inner(1)  # at:test-value


def test_chain():
    errmod.outer()  # at:test-chain


def test_qualified():
    errmod.color()  # at:test-qualified
"""
TEST_AT = marks(TEST_FILE)


@pytest.mark.parametrize("tb", [None, "short"], ids=["long", "short"])
def test_pytest_failures(moddir: Path, tmp_path: Path, tb: str | None) -> None:
    (tmp_path / "errmod.py").write_text(ERRMOD)
    (tmp_path / "test_uses_errmod.py").write_text(TEST_FILE)
    args = ["-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "test_uses_errmod.py"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        [sys.executable, *args, *([f"--tb={tb}"] if tb else [])],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    text = done.stdout
    assert re.search(r"^E +ValueError: bad value 1$", text, re.MULTILINE)
    assert "FAILED test_uses_errmod.py::test_value - ValueError: bad value 1" in text
    paste = parse(text)
    assert classes(paste) == [
        "ValueError",
        "ValueError",
        "KeyError",
        "RuntimeError",
        "rich.color.ColorParseError",
    ]
    assert {e.format for e in paste.errors} == {"pytest"}
    value, chained_value, key, wrapped, colour = paste.errors
    assert value.message == VALUE_MESSAGE.format(1) and key.message == "'k'" and wrapped.message == "wrapped"
    lines = [(Path(f.path).name, f.line, f.function) for f in value.frames]
    assert lines == [
        ("test_uses_errmod.py", TEST_AT["test-value"], "test_value"),
        ("errmod.py", AT["inner"], "inner"),
    ]
    lines = [(Path(f.path).name, f.line, f.function) for f in wrapped.frames]
    assert lines == [
        ("test_uses_errmod.py", TEST_AT["test-chain"], "test_chain"),
        ("errmod.py", AT["outer-middle"], "outer"),
        ("errmod.py", AT["wrapped"], "middle"),
    ]
    assert [f.line for f in chained_value.frames] == [AT["outer-inner"], AT["inner"]]
    assert (colour.message, colour.frames[-1].relative) == (
        "'notacolor' is not a valid color",
        "rich/color.py",
    )


# --- logging ------------------------------------------------------------------------------------

LOG_FORMATS = [
    "%(asctime)s %(levelname)s %(name)s: %(message)s",
    "[%(asctime)s] %(levelname)s in %(module)s: %(message)s",
    "%(asctime)s - %(name)s - %(levelname)s - %(message)s",
    logging.BASIC_FORMAT,
]


def log_output(errmod: ModuleType, fmt: str) -> str:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter(fmt))
    logger = logging.Logger("app.db")  # not registered: nothing global changes
    logger.addHandler(handler)
    logger.error("could not open %s", "db.sqlite")
    logger.info("connected")
    try:
        errmod.outer()
    except RuntimeError:
        logger.exception("handler failed")
    logger.warning("disk %d%% full", 93)
    return out.getvalue()


@pytest.mark.parametrize("fmt", LOG_FORMATS)
def test_logging(errmod: ModuleType, moddir: Path, fmt: str) -> None:
    text = log_output(errmod, fmt)
    paste = parse(text)
    assert [(e.error_class, e.message) for e in paste.errors] == [
        (None, "could not open db.sqlite"),
        (None, "handler failed"),
        ("ValueError", VALUE_MESSAGE.format(1)),
        ("KeyError", "'k'"),
        ("RuntimeError", "wrapped"),
        (None, "disk 93% full"),
    ]
    assert {e.format for e in paste.errors} == {"logging"}
    at(paste.errors[4].frames[-1], moddir / "errmod.py", "wrapped", "middle")


def test_basic_config_line_that_names_a_class() -> None:
    record = logging.LogRecord("root", logging.ERROR, __file__, 1, "KeyError: %r", ("x",), None)
    assert logging.Formatter(logging.BASIC_FORMAT).format(record) == "ERROR:root:KeyError: 'x'"
    assert parse("ERROR:root:KeyError: 'x'").errors == (ParsedError(None, "KeyError: 'x'", (), "logging"),)


# --- lines and messages ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda m: int("x"),
        lambda m: json.loads("{"),
        lambda m: m.missing(),
        lambda m: {}["k"],
        lambda m: m.color(),
        lambda m: re.compile("a)"),
    ],
    ids=["builtin", "stdlib", "own-module", "key", "site-packages", "lower-case"],
)
def test_bare_class_line(errmod: ModuleType, call: Callable[[ModuleType], object]) -> None:
    exc = caught(lambda: call(errmod))
    line = traceback.format_exception_only(exc)[-1]
    cls = line.split(":", 1)[0]
    assert "." in cls or type(exc).__module__ == "builtins"
    assert parse(line).errors == (ParsedError(cls, str(exc), (), "line"),)


def test_message_only() -> None:
    message = str(caught(lambda: int("x")))
    assert parse(f"  {message}\n").errors == (ParsedError(None, message, (), "message"),)


def test_errors_in_text_around_them(moddir: Path) -> None:
    text = (
        "I get this when I run it:\n\n"
        + python(moddir, "-c", "import errmod; errmod.inner(2)")
        + "\nAny idea?"
    )
    (error,) = parse(text).errors
    assert (error.error_class, error.message) == ("ValueError", VALUE_MESSAGE.format(2))


def test_several_errors_in_one_paste(moddir: Path, errmod: ModuleType) -> None:
    first = python(moddir, "-c", "import errmod; errmod.inner(1)")
    second = python(moddir, "-c", "import errmod; errmod.loads()")
    log = log_output(errmod, LOG_FORMATS[0]).splitlines()[0]
    paste = parse(first + second + log + "\n")
    assert classes(paste) == ["ValueError", "json.decoder.JSONDecodeError", None]
    assert [e.format for e in paste.errors] == ["python", "python", "logging"]
    assert paste.errors[-1].message == "could not open db.sqlite"


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\t \n", "\x1b[0m\r\n"])
def test_empty_paste(text: str) -> None:
    with pytest.raises(PasteError, match="empty"):
        parse(text)


def test_binary_paste() -> None:
    with_nul = (bytes(range(256)) * 64).decode("utf-8", errors="replace")
    without_nul = random.Random(0).randbytes(50_000).replace(b"\0", b"").decode("utf-8", errors="replace")
    for text in (with_nul, without_nul):
        with pytest.raises(PasteError, match="binary"):
            parse(text)


@pytest.mark.parametrize(
    "text", ["x" * 10_000_000, "é" * (MAX_PASTE_BYTES // 2 + 1)], ids=["10MB", "multibyte"]
)
def test_paste_over_the_limit(text: str) -> None:
    start = time.perf_counter()
    with pytest.raises(PasteError, match=f"limit of {MAX_PASTE_BYTES:,} bytes"):
        parse(text)
    assert time.perf_counter() - start < 0.5


def test_largest_paste_parses_quickly(moddir: Path) -> None:
    text = python(moddir, "-c", "import errmod; errmod.outer()")
    copies = MAX_PASTE_BYTES // len(text.encode())
    start = time.perf_counter()
    paste = parse(text * copies)
    assert time.perf_counter() - start < 5
    assert len(paste.errors) == 3 * copies


def test_truncated_inside_a_frame(moddir: Path) -> None:
    text = python(moddir, "-c", "import errmod; errmod.inner(1)")
    cut = text[: text.index(", in inner")]
    (error,) = parse(cut).errors
    assert (error.error_class, error.message) == (None, "")
    assert error.frames == (Frame("<string>", 1, "<module>"), Frame(str(moddir / "errmod.py"), AT["inner"]))


def test_header_without_frames(moddir: Path) -> None:
    text = python(moddir, "-c", "import errmod; errmod.inner(1)")
    header, *_ = text.splitlines(keepends=True)
    assert isinstance(parse(header), Paste)
    frameless = "".join(line for line in text.splitlines(keepends=True) if not line.startswith(" "))
    assert parse(frameless).errors == (ParsedError("ValueError", VALUE_MESSAGE.format(1), (), "python"),)


def test_random_text_mixed_into_a_traceback(moddir: Path) -> None:
    lines = python(moddir, "-c", "import errmod; errmod.outer()").splitlines()
    noisy = "\n".join(f"{line}\n(lorem ipsum {n})" if n % 3 == 0 else line for n, line in enumerate(lines))
    last = parse(noisy).errors[-1]
    assert (last.error_class, last.message) == ("RuntimeError", "wrapped")
    at(last.frames[-1], moddir / "errmod.py", "wrapped", "middle")


@pytest.mark.parametrize(
    "text",
    [
        "a" * (MAX_PASTE_BYTES - 1),
        'File "' * 150_000,
        '  File "x", line 1' * 50_000,
        ":1 in a" * 100_000,
        "ValueError: x\n" * 60_000,
        "\n".join("| " * k + "E: x (2 sub-exceptions)" for k in range(900)),
        "".join("│ " * k + "╭── Sub-exception #1 ──╮\n" for k in range(500)),
        ("x.py:1:" * 700 + "\n") * 200,
        "\x1b]" * 400_000,
    ],
    ids=[
        "long-line",
        "quotes",
        "frames",
        "rich-frames",
        "class-lines",
        "groups",
        "panels",
        "locations",
        "escapes",
    ],
)
def test_pathological_pastes_stay_fast(text: str) -> None:
    start = time.perf_counter()
    with contextlib.suppress(PasteError):
        parse(text)
    assert time.perf_counter() - start < 5


@pytest.fixture(scope="module")
def corpus(errmod: ModuleType) -> list[str]:
    """Real pastes of every kind that can be made in this process."""
    chain = "".join(traceback.format_exception(caught(errmod.outer)))
    group = "".join(traceback.format_exception(caught(errmod.group)))
    return [chain, group, rich_traceback(errmod.outer, show_locals=True), log_output(errmod, LOG_FORMATS[1])]


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_any_text_parses_or_is_refused(text: str) -> None:
    assert_parses_in_time(text)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_cut_of_a_real_paste_parses(corpus: list[str], data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(corpus))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    noise = data.draw(st.text(max_size=40))
    split = data.draw(st.integers(start, end))
    assert_parses_in_time(text[start:split] + noise + text[split:end])


def assert_parses_in_time(text: str) -> None:
    """``parse`` returns errors or refuses the paste with PasteError, and does so quickly."""
    started = time.perf_counter()
    try:
        paste: Paste | None = parse(text)
    except PasteError:
        paste = None
    assert time.perf_counter() - started < 1
    assert paste is None or (paste.errors and all(isinstance(e, ParsedError) for e in paste.errors))
