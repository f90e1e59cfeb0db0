"""Code that runs and solutions a user can act on, checked on every record of real packages.

The checks read what enrichment wrote with ``ast`` and the mined source's own ``def`` (see
tests/snippets.py), never errdex's facts: every code field compiles, holds no ``...`` for code
left out, calls no private name inside a ``try``, catches a warning only where a filter makes
it an error, calls the raising function as its ``def`` allows (no keyword twice, nothing
missing), awaits it where it is ``async def``, reads a property instead of calling it, and
places a caller's check before the call, reading only values the function does not rebind;
no solution shows a placeholder of the message.  Then snippets that are meant to run (a
``try`` around a public function of the standard library or ``packaging``) are run, with
values bound to the names a caller supplies.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from errdex.enrich import enrich
from errdex.enrich.advice import advice
from errdex.mine import mine
from errdex.record import Record
from snippets import CODE_FIELDS, code_problems, free_names, is_warning, placeholder_leaks

pytestmark = pytest.mark.pypi

SHA = "0" * 40


@pytest.fixture(scope="module")
def mined(enriched_packages: dict[str, tuple[Path, list[Record]]]) -> dict[str, tuple[Path, list[Record]]]:
    return enriched_packages


def test_every_code_field_of_every_record_is_code_a_caller_can_run(
    mined: dict[str, tuple[Path, list[Record]]],
) -> None:
    problems = []
    written = dict.fromkeys(CODE_FIELDS, 0)
    awaited = properties = warnings_caught = 0
    for name, (root, records) in mined.items():
        for record in records:
            for kind, detail in code_problems(record, root / record.file_path):
                problems.append(f"{name} {record.id} {record.function}: {kind}: {detail}")
            for field in CODE_FIELDS:
                written[field] += bool(getattr(record, field))
            code = record.try_catch_pattern or ""
            awaited += record.facts.is_async and "await " in code
            properties += bool(code) and any(d == "property" for d in record.facts.decorators)
            warnings_caught += is_warning(record) and "simplefilter" in code
    assert problems == []
    # Not a check that passes for want of code: each kind of field is written, async functions
    # are awaited, properties read and warnings caught through a filter, in these packages.
    assert written["try_catch_pattern"] > 1000 and written["validation_code"] > 100
    assert written["example_fix"] > 20 and written["type_guard"] > 5
    assert awaited >= 3 and properties >= 20 and warnings_caught >= 20


def test_no_solution_shows_a_placeholder_and_none_is_cut_short(
    mined: dict[str, tuple[Path, list[Record]]],
) -> None:
    leaks, cut = [], []
    for name, (_, records) in mined.items():
        for record in records:
            if found := placeholder_leaks(record):
                leaks.append(f"{name} {record.id}: {found} in {record.solutions}")
            quoted = {a.text.rstrip(".") for a in advice(record.error_message, record.message_pattern)}
            for solution in (s for s in record.solutions if s.rstrip(".") in quoted):  # the message's words
                words = solution.rstrip(".!?").split()
                if words and words[-1].lower() in {
                    "e.g",
                    "e.g.",
                    "with",
                    "to",
                    "the",
                    "a",
                    "of",
                    "and",
                    "or",
                }:
                    cut.append(f"{name} {record.id}: {solution}")
                if solution.count("`") % 2:
                    cut.append(f"{name} {record.id}: {solution}")
    assert leaks == [] and cut == []
    templated = [r for _, records in mined.values() for r in records if r.placeholders and r.solutions]
    assert len(templated) > 300  # messages with placeholders do get solutions


def test_the_checks_catch_what_they_check(tmp_path: Path) -> None:
    """Each check flags the mistake it names, on code as errdex wrote it before."""
    (tmp_path / "demo.py").write_text(
        "import warnings\n\n\ndef f(valid, feature):\n"
        "    warnings.warn(f'Use one of {valid}, but got {feature}')\n"
    )
    (record,) = enrich(mine(tmp_path, repo="pypi/demo", sha=SHA, jobs=1).records)
    assert is_warning(record) and list(code_problems(record, tmp_path / "demo.py")) == []
    assert placeholder_leaks(record) == []
    before = record.model_copy(
        update={
            "solutions": ["Use one of {valid}, but got {feature}."],
            "example_fix": "f(a, b=1, b=2)",
            "validation_code": "if x:\n    ...  # change the arguments or state first",
            "type_guard": "if isinstance(x, str):\n    f(x",
            "try_catch_pattern": "try:\n    _helper()\nexcept UserWarning as exc:\n    print(exc)",
        }
    )
    kinds = {kind for kind, _ in code_problems(before, tmp_path / "demo.py")}
    assert kinds == {"compile", "ellipsis", "private-try", "warning-except"}
    assert sorted(placeholder_leaks(before)) == ["{feature}", "{valid}"]


def test_calls_follow_the_real_signature_async_and_property(tmp_path: Path) -> None:
    """The signature, ``await`` and property checks, on a module of known shape."""
    source = tmp_path / "demo.py"
    source.write_text(
        "class Client:\n"
        "    async def get(self, url, *, timeout=None):\n"
        "        raise ValueError('bad url')\n"
        "    @property\n"
        "    def size(self):\n"
        "        raise ValueError('no size')\n"
    )
    records = enrich(mine(tmp_path, repo="pypi/demo", sha=SHA, jobs=1).records)
    by_function = {r.function: r for r in records}
    get, size = by_function["Client.get"], by_function["Client.size"]
    assert "await client.get(url)" in (get.try_catch_pattern or "")
    assert "client.size\n" in (size.try_catch_pattern or "") and "client.size(" not in (
        size.try_catch_pattern or ""
    )
    assert list(code_problems(get, source)) == [] and list(code_problems(size, source)) == []
    wrong = get.model_copy(update={"try_catch_pattern": "client.get(url, url=url)\nclient.get(url)"})
    found = [kind for kind, _ in code_problems(wrong, source)]
    assert found == ["bad-call", "no-await", "no-await"]
    called = size.model_copy(update={"try_catch_pattern": "client.size()"})
    assert [kind for kind, _ in code_problems(called, source)] == ["property-call"]


# -- running the snippets ----------------------------------------------------------------------

#: Standard modules whose functions raise on bad input without touching the machine much.
STDLIB = (
    "ipaddress.py", "fractions.py", "shlex.py", "base64.py", "textwrap.py", "statistics.py", "calendar.py",
    "colorsys.py", "difflib.py", "fnmatch.py", "graphlib.py", "heapq.py", "uuid.py", "urllib/__init__.py",
    "urllib/parse.py", "configparser.py", "string.py", "datetime.py", "plistlib.py", "quopri.py", "bisect.py",
    "json", "tomllib", "html", "email/__init__.py", "email/utils.py", "email/_parseaddr.py", "gettext.py",
    "numbers.py", "secrets.py",
)  # fmt: skip
#: What a caller's value may be, tried in turn for every name a snippet leaves to its caller.
VALUES = ("None", "''", "'x'", "'1.2.3.999'", "-1", "0", "3", "1.5", "[]", "{}", "b'x'", "object()")
#: How Python says a call does not fit the function's signature.
SIGNATURE_ERROR = re.compile(
    r"got multiple values for argument|required (?:positional|keyword-only) arguments?|"
    r"unexpected keyword argument|positional arguments? but \d+ (?:were|was) given|takes no arguments|"
    r"is not callable"
)
HARNESS = r"""
import asyncio, contextlib, io, json, signal, sys, traceback
cases, values = json.load(sys.stdin)

class Late(Exception):
    pass

def late(*_):
    raise Late()

signal.signal(signal.SIGALRM, late)
out = []
for case in cases:
    for value in values:
        names = {"__name__": "snippet"}
        printed = io.StringIO()
        result = {"id": case["id"], "value": value, "outcome": "ran"}
        signal.alarm(2)
        try:
            with contextlib.redirect_stdout(printed):
                for name in case["free"]:
                    names[name] = eval(value)
                exec(compile(case["code"], "<snippet>", "exec"), names)
                if "main" in names and asyncio.iscoroutinefunction(names["main"]):
                    asyncio.run(names["main"]())
        except Late:
            result["outcome"] = "late"
        except BaseException as exc:
            frames = traceback.extract_tb(exc.__traceback__)
            result["outcome"] = "raised"
            result["class"] = type(exc).__name__
            result["message"] = str(exc)[:300]
            result["in_snippet"] = frames[-1].filename == "<snippet>" if frames else True
        finally:
            signal.alarm(0)
        text = printed.getvalue()
        if " failed: " in text:
            result["handled"] = text.split(" failed: ", 1)[1].strip()[:300]
        out.append(result)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def runnable(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Records of real standard modules and of ``packaging`` and ``jinja2``, as installed here."""
    import jinja2
    import packaging

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    root = tmp_path_factory.mktemp("runnable")
    for name in STDLIB:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (stdlib / name).is_dir():
            shutil.copytree(stdlib / name, target)
        else:
            shutil.copy(stdlib / name, target)
    for package in (packaging, jinja2):
        shutil.copytree(Path(package.__file__).parent, root / package.__name__)
    return enrich(mine(root, repo="python/cpython", sha=SHA, jobs=2).records)


def _cases(records: list[Record], field: str) -> list[dict[str, object]]:
    """The snippets of ``field`` that are whole programs but for the caller's values: a call of
    a module's function or class, which the snippet imports by name."""
    cases = []
    for record in records:
        code = getattr(record, field)
        if not code or not re.search(r"^from [\w.]+ import \w+$", code, re.MULTILINE):
            continue
        if field == "example_fix":  # what to run is the fix: the imports and the code after it
            code = _halves(code)[1]
        cases.append({"id": record.id, "code": code, "free": sorted(free_names(code))})
    return cases


def _halves(code: str) -> tuple[str, str]:
    """An example fix as two programs: the code before its ``# after`` line, and the code after
    it beneath what comes before the ``# before`` line (the imports, an ``async def main``)."""
    parts = re.split(r"^[ \t]*# after\b.*$", code, maxsplit=1, flags=re.MULTILINE)
    if len(parts) == 1:
        return code, code
    head, fixed = parts
    prelude = re.split(r"^[ \t]*# before\b", head, maxsplit=1, flags=re.MULTILINE)[0]
    return head, prelude.rstrip("\n") + "\n" + fixed.strip("\n")


def _run(cases: list[dict[str, object]], tmp_path: Path) -> list[dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-c", HARNESS],
        input=json.dumps([cases, VALUES]),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def _snippet_faults(results: list[dict[str, object]]) -> list[dict[str, object]]:
    """Failures of the snippet itself: a name it lacks, an import that fails, a call its
    function's signature refuses."""
    missing = ("NameError", "UnboundLocalError", "SyntaxError", "ImportError", "ModuleNotFoundError")
    return [
        r
        for r in results
        if r["outcome"] == "raised"
        and r["in_snippet"]
        and (
            r["class"] in missing or (r["class"] == "TypeError" and SIGNATURE_ERROR.search(str(r["message"])))
        )
    ]


def test_try_catch_patterns_run_and_catch_the_real_error(runnable: list[Record], tmp_path: Path) -> None:
    cases = _cases(runnable, "try_catch_pattern")
    assert len(cases) > 100
    results = _run(cases, tmp_path)
    assert _snippet_faults(results) == []
    # The handler ran on the error the record is about: the function raised it for one of the
    # values, and its message is one the record's pattern produces.
    by_id = {r.id: r for r in runnable}
    caught = {
        r["id"]
        for r in results
        if "handled" in r and re.search(by_id[str(r["id"])].message_pattern, str(r["handled"]))
    }
    assert len(caught) >= 25, caught


@pytest.mark.parametrize("field", ["example_fix", "type_guard"])
def test_example_fixes_and_type_guards_run_as_written(
    runnable: list[Record], tmp_path: Path, field: str
) -> None:
    cases = _cases(runnable, field)
    assert len(cases) >= 2
    assert _snippet_faults(_run(cases, tmp_path)) == []


def test_an_example_fix_avoids_the_raise_its_before_call_reaches(
    runnable: list[Record], tmp_path: Path
) -> None:
    """Where a fix changes one argument (``# before: this call can raise it``), both halves are
    run with every caller value: the fixed call never raises the record's error, and for some
    records the call before it does, for real."""
    fixes = [r for r in runnable if r.example_fix and "# before: this call can raise it" in r.example_fix]
    before, after = [], []
    for record in fixes:
        head, fixed = _halves(record.example_fix or "")
        before.append({"id": record.id, "code": head, "free": sorted(free_names(head))})
        after.append({"id": record.id, "code": fixed, "free": sorted(free_names(fixed))})
    assert len(fixes) >= 5, len(fixes)
    by_id = {r.id: r for r in runnable}

    def raised_it(result: dict[str, object]) -> bool:
        record = by_id[str(result["id"])]
        return (
            result["outcome"] == "raised"
            and str(result["class"]) == (record.error_class or "").rpartition(".")[2]
            and re.search(record.message_pattern, str(result["message"])) is not None
        )

    ran_before, ran_after = _run(before, tmp_path), _run(after, tmp_path)
    assert _snippet_faults(ran_before) == [] and _snippet_faults(ran_after) == []
    assert [r for r in ran_after if raised_it(r)] == []
    assert len({r["id"] for r in ran_before if raised_it(r)}) >= 3
