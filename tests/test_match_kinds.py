"""The last line alone, as logs and issue titles keep it, finds the raise that real code hit
where the message is not the raise's first argument, where a library re-raises another's
error under its own class, and where a private copy of the standard library raises the same
template."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import innermost
from errdex.match.explain import LINE_DRIFT, Matcher
from errdex.mine import mine
from errdex.patterns import MessageMatcher
from errdex.store import Store, open_store

SHA = "0" * 40
#: Real packages at pinned versions; requests and httpx wrap urllib3's and httpcore's errors.
PACKAGES = (
    ("click", "8.5.1"),
    ("requests", "2.32.3"),
    ("urllib3", "2.3.0"),
    ("idna", "3.10"),
    ("httpx", "0.28.1"),
    ("httpcore", "1.0.9"),
)


@pytest.fixture(scope="module")
def roots(pypi_package: Callable[..., Path]) -> dict[str, Path]:
    return {name: pypi_package(name, version) for name, version in PACKAGES}


@pytest.fixture(scope="module")
def store(roots: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The packages and the standard library's ``textwrap`` and ``multiprocessing.pool``, mined
    into one store."""
    db = tmp_path_factory.mktemp("kinds") / "errdex.db"
    stdlib = tmp_path_factory.mktemp("kinds-stdlib")
    lib = Path(sysconfig.get_paths()["stdlib"])
    (stdlib / "textwrap.py").write_bytes((lib / "textwrap.py").read_bytes())
    (stdlib / "multiprocessing").mkdir()
    (stdlib / "multiprocessing" / "pool.py").write_bytes((lib / "multiprocessing" / "pool.py").read_bytes())
    with open_store(db) as store:
        for name, root in roots.items():
            result = mine(root, repo=f"pypi/{name}", sha=SHA, jobs=1)
            store.replace_repo(result.info, result.records)
        result = mine(stdlib, repo="python/cpython", sha=SHA, path_prefix="Lib/", jobs=1)
        store.replace_repo(result.info, result.records)
    return open_store(db)


def run(code: str, roots: dict[str, Path]) -> str:
    """The traceback real code prints, run with the pinned packages first on its path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(r) for r in roots.values())}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 1, done.stderr
    return done.stderr


def first_for_last_line(store: Store, traceback: str) -> tuple[str, int]:
    last = traceback.rstrip("\n").splitlines()[-1]
    best = Matcher(store).explain(last).matches[0]
    return best.site.file_path, best.site.line_number


def test_a_message_passed_up_by_the_constructor_is_the_template(store: Store, roots: dict[str, Path]) -> None:
    # BadOptionUsage(option_name, message) hands its second argument up to ClickException.
    traceback = run(
        "import click\n"
        "@click.command()\n"
        "@click.option('--debug/--no-debug')\n"
        "def run(debug): pass\n"
        "run.main(['--debug=yes'], standalone_mode=False)\n",
        roots,
    )
    assert traceback.rstrip().endswith("BadOptionUsage: Option '--debug' does not take a value.")
    assert first_for_last_line(store, traceback) == ("click/parser.py", innermost(traceback, "parser.py"))
    (record,) = [
        r
        for r in store.records()
        if r.file_path == "click/parser.py" and r.line_number == innermost(traceback, "parser.py")
    ]
    assert record.error_message == "Option {opt} does not take a value."


@pytest.mark.parametrize(
    ("code", "file_name", "wrapped"),
    [
        # except LocationParseError as e: raise InvalidURL(*e.args)
        ("import requests\nrequests.get('http://[::1/status')", "models.py", "urllib3"),
        # except Exception as exc: ... raise mapped_exc(str(exc)) from exc
        ("import httpx\nhttpx.get('example.com/api/v1/users')", "default.py", "httpcore"),
    ],
)
def test_a_wrapper_comes_before_the_error_it_wraps(
    store: Store, roots: dict[str, Path], code: str, file_name: str, wrapped: str
) -> None:
    traceback = run(code, roots)
    path, line = first_for_last_line(store, traceback)
    assert (path.rpartition("/")[2], line) == (file_name, innermost(traceback, file_name))
    # The wrapped library's own template is still offered, beside it.
    last = traceback.rstrip("\n").splitlines()[-1]
    assert wrapped in {m.stored.package for m in Matcher(store).explain(last).matches[1:]}


def test_the_original_comes_before_a_private_copy_of_it(store: Store, roots: dict[str, Path]) -> None:
    # click/_textwrap.py raises textwrap's own message, word for word.
    copied = [r for r in store.records() if r.file_path == "click/_textwrap.py"]
    assert any(r.error_message.startswith("invalid width") for r in copied)
    traceback = run("import textwrap\ntextwrap.wrap('some words', width=0)", roots)
    assert first_for_last_line(store, traceback) == ("Lib/textwrap.py", innermost(traceback, "textwrap.py"))


def test_a_raise_with_another_traceback_is_no_message(store: Store) -> None:
    # ``raise error.with_traceback(tb)`` raises ``error``: the traceback is never its message.
    assert not [r for r in store.records() if "__traceback__" in r.error_message or "{tb}" in r.error_message]


def test_a_computed_message_of_a_builtin_class_is_looked_up_by_its_class(
    store: Store, roots: dict[str, Path]
) -> None:
    # ``raise KeyError(key)``: no text to go on, the class still narrows it to a few sites.
    traceback = run("import httpx\nhttpx.Headers()['x-request-id']", roots)
    last = traceback.rstrip("\n").splitlines()[-1]
    assert last == "KeyError: 'x-request-id'"
    matches = Matcher(store).explain(last, top=50).matches
    tied = [m for m in matches if matches[0].score - m.score < 1e-9]
    assert {m.stored.error_class for m in tied} == {"KeyError"}
    assert ("httpx/_models.py", innermost(traceback, "_models.py")) in {
        (m.site.file_path, m.site.line_number) for m in tied
    }


def test_a_wrapped_error_is_matched_as_the_class_the_wrapper_prints_before_it(
    pypi_package: Callable[..., Path], tmp_path: Path
) -> None:
    # StatementError prints "(builtins.LookupError) 'archived' is not among ...": the text
    # after the prefix is LookupError's, raised in sqltypes.py, not the wrapper's own.
    root = pypi_package("sqlalchemy", "2.0.36")
    mined = tmp_path / "mined"
    for name in ("sql/sqltypes.py", "engine/base.py", "exc.py"):
        (mined / "sqlalchemy" / name).parent.mkdir(parents=True, exist_ok=True)
        (mined / "sqlalchemy" / name).write_bytes((root / "sqlalchemy" / name).read_bytes())
    with open_store(tmp_path / "errdex.db") as store:
        result = mine(mined, repo="pypi/sqlalchemy", sha=SHA, jobs=1)
        store.replace_repo(result.info, result.records)
        traceback = run(
            "from sqlalchemy import Column, Enum, MetaData, Table, create_engine, insert\n"
            "metadata = MetaData()\n"
            "docs = Table('docs', metadata, Column('status', Enum('draft', 'published',"
            " name='status', validate_strings=True)))\n"
            "engine = create_engine('sqlite://')\n"
            "metadata.create_all(engine)\n"
            "with engine.begin() as connection:\n"
            "    connection.execute(insert(docs), {'status': 'archived'})\n",
            {"sqlalchemy": root},
        )
        printed = traceback[traceback.index("sqlalchemy.exc.StatementError: (builtins.LookupError)") :]
        best = Matcher(store).explain(printed).matches[0]
        assert (best.site.file_path, best.site.line_number) == (
            "sqlalchemy/sql/sqltypes.py",
            innermost(traceback, "sqltypes.py"),
        )
        assert best.evidence == "pattern+class"


def test_a_module_that_names_itself_in_its_message_is_told_apart(
    pypi_package: Callable[..., Path], tmp_path: Path
) -> None:
    # f"module {__name__!r} has no attribute {name!r}", in two modules of one package: the
    # module name is known text, so the two raises are no longer twins.
    root = pypi_package("sqlalchemy", "2.0.36")
    mined = tmp_path / "mined"
    for name in ("__init__.py", "orm/evaluator.py"):
        (mined / "sqlalchemy" / name).parent.mkdir(parents=True, exist_ok=True)
        (mined / "sqlalchemy" / name).write_bytes((root / "sqlalchemy" / name).read_bytes())
    with open_store(tmp_path / "errdex.db") as store:
        result = mine(mined, repo="pypi/sqlalchemy", sha=SHA, jobs=1)
        store.replace_repo(result.info, result.records)
        traceback = run("import sqlalchemy\nsqlalchemy.Sessoin", {"sqlalchemy": root})
        last = traceback.rstrip("\n").splitlines()[-1]
        assert last == "AttributeError: module 'sqlalchemy' has no attribute 'Sessoin'"
        matches = Matcher(store).explain(last).matches
        assert (matches[0].site.file_path, matches[0].site.line_number) == (
            "sqlalchemy/__init__.py",
            innermost(traceback, "__init__.py"),
        )
        assert [m.stored.file_path for m in matches] == ["sqlalchemy/__init__.py"]


def test_a_raise_that_starts_a_new_traceback_stays_a_site(tmp_path: Path) -> None:
    # ``raise exc.with_traceback(None)`` drops the frames below: a traceback's innermost frame
    # is this line, so it must stay a site a frame can hit.
    (tmp_path / "parse.py").write_text(
        "def parse(text):\n"
        "    try:\n"
        "        return int(text)\n"
        "    except ValueError as exc:\n"
        "        raise exc.with_traceback(None)\n"
    )
    records = mine(tmp_path, repo="local/parse", sha=SHA, jobs=1).records
    assert [s.line_number for r in records for s in r.sites] == [5]


def test_a_traceback_of_another_release_finds_the_raise_not_a_neighbour_of_its_frames(
    store: Store, pypi_package: Callable[..., Path]
) -> None:
    # Run under click 8.1.8, explained against an index of 8.5.1: every line has moved.  The
    # frames of the calls on the way (core.py's parse_args) land near other raises; the one
    # that ran is ParamType.fail, whose line moved by more than the drift a frame may have.
    old = pypi_package("click", "8.1.8")
    traceback = run(
        "import click\n"
        "@click.command()\n"
        "@click.option('--count', type=int)\n"
        "def run(count): pass\n"
        "run.main(['--count', 'several'], standalone_mode=False)\n",
        {"click": old},
    )
    assert "click/types.py" in traceback.rstrip().splitlines()[-3]
    best = Matcher(store).explain(traceback).matches[0]
    message = traceback.rstrip().splitlines()[-1].partition(": ")[2]
    assert best.site.file_path == "click/types.py"
    assert MessageMatcher(best.stored.message_pattern).match(message) is not None


def _frame_line(traceback: str, file_name: str) -> str:
    """The source line Python printed under the innermost frame in ``file_name``."""
    lines = traceback.splitlines()
    at = max(i for i, line in enumerate(lines) if f'{file_name}", line' in line)
    return lines[at + 1].strip()


def test_an_error_an_operation_raised_is_answered_with_its_frame_not_a_record(
    store: Store, roots: dict[str, Path]
) -> None:
    # A dict lookup inside requests raises the KeyError: no raise statement ran, so no record is
    # its site, and the templates with no text of their own (``raise KeyError(key)`` by the
    # dozen) are coincidences, left out.
    traceback = run("from requests.structures import CaseInsensitiveDict\nCaseInsensitiveDict()['x']", roots)
    assert traceback.rstrip().endswith("KeyError: 'x'")
    line = innermost(traceback, "structures.py")
    answer = Matcher(store).explain(traceback, top=50)
    origin = answer.origin(answer.query.primary)
    assert origin is not None and not origin.statement
    assert origin.frame.path.endswith("/requests/structures.py") and origin.frame.line == line
    assert origin.frame.source == _frame_line(traceback, "structures.py")
    assert f"requests/structures.py:{line}" in origin.sentence() and origin.frame.source in origin.sentence()
    assert not any(
        (m.site.file_path, m.site.line_number) == ("requests/structures.py", line) for m in answer.matches
    )
    assert all(len("".join(MessageMatcher(m.stored.message_pattern).segments)) > 3 for m in answer.matches)
    # The last line alone has no frame to say where: the records that raise KeyError are the answer.
    last = Matcher(store).explain("KeyError: 'x'", top=50)
    assert last.origins == {} and last.matches


def test_a_socket_call_that_fails_is_the_origin_though_a_re_raise_is_on_the_way(
    store: Store, roots: dict[str, Path]
) -> None:
    # ``raise err`` re-raises what ``sock.connect`` raised in C: the traceback names both lines
    # of create_connection, the connect innermost.
    traceback = run(
        "import socket\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()\n"
        "from urllib3.util.connection import create_connection\n"
        "create_connection(('127.0.0.1', port))\n",
        roots,
    )
    assert "ConnectionRefusedError" in traceback.rstrip().splitlines()[-1]
    answer = Matcher(store).explain(traceback)
    origin = answer.origin(answer.query.primary)
    assert origin is not None and not origin.statement
    assert origin.frame.source == "sock.connect(sa)" == _frame_line(traceback, "connection.py")
    assert origin.frame.line == innermost(traceback, "connection.py")


def test_a_raise_no_record_is_made_of_is_the_origin_where_the_file_is_the_one_mined(
    store: Store, roots: dict[str, Path]
) -> None:
    # A pool re-raises the worker's error, which lost its traceback crossing processes, with
    # ``raise self._value``: a raise statement, but one with no message, so no record.  The
    # records around it show the file is the version mined; the worker's own traceback, sent
    # back as text, ends at the call that raised.
    traceback = run("import multiprocessing\nmultiprocessing.Pool(1).apply(int, ('x',))\n", roots)
    assert traceback.rstrip().endswith("ValueError: invalid literal for int() with base 10: 'x'")
    answer = Matcher(store).explain(traceback)
    primary = answer.query.primary
    origin = answer.origin(primary)
    assert origin is not None and origin.statement
    assert origin.frame.source == "raise self._value"
    assert origin.frame.line == innermost(traceback, "pool.py")
    assert not [
        r for r in store.records() if r.file_path.endswith("pool.py") and r.line_number == origin.frame.line
    ]
    # The worker's traceback: ``func(*args, **kwds)`` is a call, and int() in C raised.
    causes = [o for position, o in answer.origins.items() if position != primary]
    assert [o.frame.source for o in causes if not o.statement] == ["result = (True, func(*args, **kwds))"]


def test_a_raise_that_moved_past_the_drift_is_found_by_its_frames_function(
    store: Store, pypi_package: Callable[..., Path]
) -> None:
    # click 8.1.8's Context.fail raises at a line 8.5.1 holds far from there; its template,
    # ``{message}``, fits any message: the innermost frame's function in its file finds it, not
    # the raises near the lines of the calls on the way.
    traceback = run(
        "import click\n"
        "@click.command()\n"
        "@click.argument('src')\n"
        "def copy(src): pass\n"
        "copy.main(['a.txt', 'b.txt', 'c.txt'], standalone_mode=False)\n",
        {"click": pypi_package("click", "8.1.8")},
    )
    assert traceback.rstrip().endswith("UsageError: Got unexpected extra arguments (b.txt c.txt)")
    assert re.search(r'click/core\.py", line \d+, in fail\n', traceback)
    line = innermost(traceback, "core.py")
    moved = [r for r in store.records() if r.file_path == "click/core.py" and r.function == "Context.fail"]
    assert moved and all(abs(r.line_number - line) > LINE_DRIFT for r in moved)
    best = Matcher(store).explain(traceback).matches[0]
    assert (best.stored.file_path, best.stored.function) == ("click/core.py", "Context.fail")
    assert best.evidence == "frame"
