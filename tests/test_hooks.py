"""errdex explaining errors where they happen: excepthooks, the start-up .pth, IPython, pytest.

Each hook runs for real: a Python, IPython or pytest process running real click 8.1.8 code
that fails, with errdex reading a store mined from that same click.  The line errdex must name
is read from the traceback the process printed, never written down here.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import errdex
from errdex.cli import app
from errdex.hooks.pth import PTH_NAME
from errdex.mine import mine
from errdex.store import open_store

SHA = "0" * 40

#: A real click error: a required option not given.  The first line is the setup under test;
#: every setup is one line, so the program's own line numbers never move.
MISSING_OPTION = """\
{setup}
import click

@click.command()
@click.option("--name", required=True)
def hello(name):
    pass

{run}
"""
RUN = "hello.main([], standalone_mode=False)"
INSTALL = "import errdex; errdex.install()"
FAILED = "errdex: could not explain this error:"


@pytest.fixture(scope="module")
def click_store(
    tmp_path_factory: pytest.TempPathFactory, pypi_package: Callable[[str, str], Path]
) -> tuple[Path, Path]:
    """click 8.1.8 mined into a store, and its unpacked wheel to run."""
    root = pypi_package("click", "8.1.8")
    db = tmp_path_factory.mktemp("hooks") / "errdex.db"
    result = mine(root, repo="pallets/click", sha=SHA, jobs=1)
    with open_store(db) as store:
        store.replace_repo(result.info, result.records)
    return db, root


@pytest.fixture(scope="module")
def plain(click_store: tuple[Path, Path]) -> str:
    """What Python itself prints for the program, errdex nowhere in sight."""
    done = python(program(), click_store)
    assert done.returncode == 1
    assert done.stderr.startswith("Traceback (most recent call last):")
    assert done.stderr.rstrip().endswith("click.exceptions.MissingParameter: Missing parameter: name")
    return done.stderr


def program(setup: str = "pass", run: str = RUN) -> str:
    return MISSING_OPTION.format(setup=setup, run=run)


def python(
    code: str, click_store: tuple[Path, Path], *, cwd: Path | None = None, **env: str | None
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter that sees click and the store (``env`` adds or, with
    None, removes variables)."""
    db, click_root = click_store
    variables: dict[str, str | None] = {"PYTHONPATH": str(click_root), "ERRDEX_DB": str(db), **env}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={k: v for k, v in variables.items() if v is not None},
        cwd=cwd,
        check=False,
        timeout=120,
    )


def raise_site(traceback_text: str) -> tuple[str, int]:
    """The function and line of click/core.py the printed traceback says raised."""
    function, line = re.findall(r'click/core\.py", line (\d+), in (\w+)', traceback_text)[-1][::-1]
    return function, int(line)


def assert_explains_missing_option(block: str, traceback_text: str) -> None:
    """errdex's block names click's MissingParameter, raised at the line the traceback shows."""
    function, line = raise_site(traceback_text)
    lines = block.splitlines()
    assert lines[0].startswith("errdex: click.exceptions.MissingParameter: Missing parameter: "), block
    assert re.fullmatch(
        rf"  raised in (\w+\.)?{function} \(click/core\.py:{line}\), click 8\.1\.8", lines[1]
    ), block
    assert "  evidence: frame " in block
    assert FAILED not in block


def test_an_uncaught_error_prints_its_traceback_then_where_it_was_raised(
    click_store: tuple[Path, Path], plain: str
) -> None:
    hooked = python(program(INSTALL), click_store)
    assert hooked.returncode == 1
    # The traceback exactly as Python prints it, first; errdex's answer after it.
    assert hooked.stderr.startswith(plain)
    assert_explains_missing_option(hooked.stderr[len(plain) :], plain)


@pytest.mark.parametrize(
    ("setup", "first"),
    [
        (
            "import sys; sys.excepthook = lambda t, v, tb: (print('custom hook saw', t.__name__, "
            "file=sys.stderr), sys.__excepthook__(t, v, tb)); " + INSTALL,
            "custom hook saw MissingParameter\nTraceback (most recent call last):",
        ),
        ("import rich.traceback; rich.traceback.install(); " + INSTALL, "Traceback (most recent call last)"),
    ],
    ids=["custom", "rich"],
)
def test_the_hook_installed_before_still_runs_first(
    click_store: tuple[Path, Path], plain: str, setup: str, first: str
) -> None:
    hooked = python(program(setup), click_store)
    assert hooked.returncode == 1
    theirs, _, ours = hooked.stderr.partition("\nerrdex: ")
    assert first in theirs
    assert "Missing parameter: name" in theirs
    assert_explains_missing_option("errdex: " + ours, plain)


def test_an_error_in_a_thread_is_explained_too(click_store: tuple[Path, Path]) -> None:
    run = f"import threading; t = threading.Thread(target=lambda: {RUN}); t.start(); t.join()"
    done = python(program(INSTALL, run), click_store)
    assert done.returncode == 0  # a thread's error does not end the program
    theirs, _, ours = done.stderr.partition("\nerrdex: ")
    assert theirs.startswith("Exception in thread Thread-1")
    assert theirs.rstrip().endswith("click.exceptions.MissingParameter: Missing parameter: name")
    assert_explains_missing_option("errdex: " + ours, theirs)


@pytest.mark.parametrize("store", ["not a database", "missing file", "no environment index"])
def test_errdex_failing_never_hides_the_error(
    click_store: tuple[Path, Path], plain: str, tmp_path: Path, store: str
) -> None:
    env: dict[str, str | None] = {}
    if store == "not a database":
        junk = tmp_path / "junk.db"
        junk.write_text("this is not an SQLite file\n" * 100)
        env["ERRDEX_DB"] = str(junk)
    elif store == "missing file":
        env["ERRDEX_DB"] = str(tmp_path / "nothing-here.db")
    else:
        # No store configured: errdex looks for this environment's index, which was never built.
        env.update(ERRDEX_DB=None, XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    hooked = python(program(INSTALL), click_store, cwd=tmp_path, **env)
    assert hooked.returncode == 1
    assert hooked.stderr.startswith(plain)
    extra = hooked.stderr[len(plain) :].splitlines()
    assert len(extra) == 1 and extra[0].startswith(FAILED), extra
    if store != "not a database":
        assert "no errdex database at" in extra[0] and "errdex index" in extra[0]
    if store == "no environment index":
        assert str(tmp_path / "data") in extra[0]


@pytest.fixture
def restored_hooks(click_store: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hooks in this process, explaining from the click store; whatever a test does to the
    process's hooks is undone after it."""
    monkeypatch.setenv("ERRDEX_DB", str(click_store[0]))
    saved = sys.excepthook, threading.excepthook
    yield
    errdex.uninstall()
    sys.excepthook, threading.excepthook = saved


def raised(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException as caught:
        return caught


def test_installing_twice_explains_once_and_uninstall_restores(
    restored_hooks: None, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sys.excepthook, threading.excepthook
    errdex.install()
    errdex.install()
    error = raised(ValueError("No such command 'x'."))
    sys.excepthook(type(error), error, error.__traceback__)
    printed = capsys.readouterr().err
    assert printed.startswith("Traceback (most recent call last):")
    assert printed.count("\nerrdex: ") == 1
    assert FAILED not in printed

    # Interrupts and exits are not errors: Python's own output only.
    for stop in (KeyboardInterrupt(), SystemExit("bye"), GeneratorExit()):
        sys.excepthook(type(stop), stop, None)
        assert "errdex" not in capsys.readouterr().err

    errdex.uninstall()
    assert (sys.excepthook, threading.excepthook) == before
    errdex.uninstall()  # a second time does nothing


def test_a_hook_wrapping_errdex_is_wrapped_in_turn_without_explaining_twice(
    restored_hooks: None, capsys: pytest.CaptureFixture[str]
) -> None:
    errdex.install()
    errdex_hook = sys.excepthook
    seen = []

    def logging_hook(*args: object) -> None:
        seen.append(args[0])
        errdex_hook(*args)  # type: ignore[arg-type]

    sys.excepthook = logging_hook
    errdex.install()
    assert sys.excepthook is not logging_hook
    error = raised(ValueError("No such command 'x'."))
    sys.excepthook(type(error), error, error.__traceback__)
    assert seen == [ValueError]
    assert capsys.readouterr().err.count("\nerrdex: ") == 1


def test_hook_install_and_uninstall_commands(tmp_path: Path) -> None:
    runner = CliRunner()
    pth = tmp_path / PTH_NAME
    installed = runner.invoke(app, ["hook", "install", "--site-dir", str(tmp_path)])
    assert installed.exit_code == 0, installed.output
    assert f"wrote {pth}" in installed.output
    (line,) = pth.read_text().splitlines()
    assert line.startswith("import ")  # what site.py executes in a .pth file
    removed = runner.invoke(app, ["hook", "uninstall", "--site-dir", str(tmp_path)])
    assert removed.exit_code == 0 and f"removed {pth}" in removed.output
    assert not pth.exists()
    again = runner.invoke(app, ["hook", "uninstall", "--site-dir", str(tmp_path)])
    assert again.exit_code == 0
    assert f"no errdex hook at {pth}: nothing to remove" in again.output


def test_the_pth_file_turns_the_hook_on_in_every_new_interpreter(
    click_store: tuple[Path, Path], plain: str, tmp_path: Path
) -> None:
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    assert CliRunner().invoke(app, ["hook", "install", "--site-dir", str(site_dir)]).exit_code == 0
    # What the interpreter does with its own site-packages at start-up.
    setup = f"import site; site.addsitedir({str(site_dir)!r})"
    hooked = python(program(setup), click_store)
    assert hooked.returncode == 1
    assert hooked.stderr.startswith(plain)
    assert_explains_missing_option(hooked.stderr[len(plain) :], plain)

    off = python(program(setup), click_store, ERRDEX_HOOK="0")
    assert off.stderr == plain

    # Start-up pays for two hooks, not for the store, the matcher or pydantic.
    check = (
        "import sys; before = set(sys.modules); " + setup + "; "
        "print(type(sys.excepthook).__module__); print(*sorted(set(sys.modules) - before))"
    )
    hook_module, loaded = python(check, click_store).stdout.splitlines()
    assert hook_module == "errdex.hooks.excepthook"
    heavy = ("errdex.store", "errdex.match", "pydantic", "sqlite3")
    assert [module for module in loaded.split() if module.startswith(heavy)] == []


def test_a_pth_file_left_behind_without_errdex_is_silent(tmp_path: Path) -> None:
    CliRunner().invoke(app, ["hook", "install", "--site-dir", str(tmp_path)])
    # -S: no site-packages, so errdex cannot be imported, as after `pip uninstall errdex`.
    code = f"import site, sys; site.addsitedir({str(tmp_path)!r}); print('errdex' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, env={}, cwd=tmp_path, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "False\n", "")


IPYTHON_SESSION = f"""\
%load_ext errdex
{program()}
1 + * 2
%unload_ext errdex
1 / 0
"""


def test_ipython_shows_its_traceback_then_the_answer(click_store: tuple[Path, Path], tmp_path: Path) -> None:
    db, click_root = click_store
    done = subprocess.run(
        [sys.executable, "-m", "IPython", "--no-banner", "--colors=NoColor", "--quick"],
        input=IPYTHON_SESSION,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(click_root), "ERRDEX_DB": str(db), "IPYTHONDIR": str(tmp_path)},
        check=False,
        timeout=120,
    )
    out = done.stdout
    theirs, _, ours = out.partition("\nerrdex: ")
    # IPython's own traceback first: its arrow at the raise, then the error.
    assert "MissingParameter                          Traceback (most recent call last)" in theirs
    assert "MissingParameter: Missing parameter: name" in theirs
    function, line = re.findall(r"click/core\.py:(\d+), in \w+\.(\w+)\(", theirs)[-1][::-1]
    ours, _, rest = ours.partition("SyntaxError: invalid syntax")
    assert_explains_missing_option("errdex: " + ours, f'click/core.py", line {line}, in {function}')
    # A typing mistake in the cell is IPython's to show, not a library error to explain.
    typo, _, after_unload = rest.partition("ZeroDivisionError")
    assert "errdex" not in typo
    # After %unload_ext, IPython's traceback only.
    assert "division by zero" in after_unload and "errdex" not in after_unload
    assert FAILED not in out


FAILING_TEST = f"""
{program(run="")}

def test_hello():
    {RUN}
"""


def failure_block(output: list[str]) -> tuple[list[str], list[str]]:
    """The failure pytest printed for ``test_hello``, split at the errdex section."""
    start = next(i for i, line in enumerate(output) if re.fullmatch(r"_+ test_hello _+", line))
    end = next(i for i in range(start + 1, len(output)) if output[i].startswith("="))
    # Object addresses differ from run to run; nothing else may.
    block = [re.sub(r"0x[0-9a-f]+", "0x...", line) for line in output[start:end]]
    cut = next((i for i, line in enumerate(block) if re.fullmatch(r"-+ errdex -+", line)), len(block))
    return block[:cut], block[cut + 1 :]


@pytest.fixture
def run_pytest(
    pytester: pytest.Pytester, click_store: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., pytest.RunResult]:
    """A real pytest in its own process, importing the unpacked click wheel: in this process,
    another click (a dependency of the server) may be imported already."""
    monkeypatch.setenv("PYTHONPATH", str(click_store[1]))
    pytester.makepyfile(test_click=FAILING_TEST)
    return lambda *args: pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def test_pytest_plugin_adds_an_errdex_section_under_the_failure(
    click_store: tuple[Path, Path], run_pytest: Callable[..., pytest.RunResult]
) -> None:
    db = click_store[0]
    plain = run_pytest()
    explained = run_pytest("--errdex", "--errdex-db", str(db))
    plain.assert_outcomes(failed=1)
    explained.assert_outcomes(failed=1)
    failure, section = failure_block(plain.outlines)
    assert section == []
    explained_failure, section = failure_block(explained.outlines)
    assert explained_failure == failure  # the failure itself, untouched
    line = re.findall(r"click/core\.py:(\d+): MissingParameter$", "\n".join(failure), re.M)[-1]
    function = re.findall(r"^    def (\w+)\(", "\n".join(failure), re.M)[-1]
    assert_explains_missing_option("\n".join(section), f'click/core.py", line {line}, in {function}')


def test_pytest_plugin_reports_its_own_failure_in_one_line(
    run_pytest: Callable[..., pytest.RunResult], tmp_path: Path
) -> None:
    missing = tmp_path / "none.db"
    result = run_pytest("--errdex", "--errdex-db", str(missing))
    result.assert_outcomes(failed=1)
    _, section = failure_block(result.outlines)
    assert section == [f"{FAILED} no errdex database at {missing} (run `errdex index` to build one)"]


def test_an_error_an_operation_raised_is_explained_by_its_frame(click_store: tuple[Path, Path]) -> None:
    # click.echo writes to what it was given: the attribute lookup fails, no raise statement.
    done = python(f"{INSTALL}\nimport click\nclick.echo('x', file=object())", click_store)
    assert done.returncode == 1
    traceback, _, ours = done.stderr.partition("\nerrdex: ")
    line = int(re.findall(r'click/utils\.py", line (\d+), in echo', traceback)[-1])
    assert ours.startswith("AttributeError: 'object' object has no attribute 'write'\n"), ours
    said = " ".join(ours.split("\n", 1)[1].split())
    assert re.match(rf"Raised at \S+click/utils\.py:{line} \(in echo\) by `file\.write\(out\)", said), said
    assert "not a raise statement" in said and FAILED not in done.stderr
