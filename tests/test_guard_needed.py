"""``Guard.needed``, the one reading of "the condition under which this site runs", checked by
running the code: for every guard kind, the mined records' tests are evaluated under many values
and must hold exactly where the function really raises the record's message.

The functions below are this test's own code, written to hold one guard kind each (an ``if``, an
``if not``, an ``elif``, an ``else``, a ``while``, an ``assert``, early exits by ``return``,
``raise``, ``continue`` and ``break``, ``not`` of a comparison and of a conjunction); errdex
mines them without importing them, and the test then imports and runs them.  The JavaScript
twin runs under Debian's node.  The model's prompt and verifier read the same condition.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from errdex.enrich import claims
from errdex.enrich.prompt import facts_of
from errdex.enrich.verify import verify
from errdex.languages import get
from errdex.mine import mine
from errdex.record import TEST_KINDS, Record

NODE = "/usr/bin/node"

MODULE = """\
def if_plain(x, y):
    if x > 1:
        raise ValueError("plain")


def if_not(x, y):
    if not x:
        raise ValueError("if not")


def elif_branch(x, y):
    if x == 0:
        return 0
    elif x < 0:
        raise ValueError("elif")
    return 1


def else_branch(x, y):
    if x > 2:
        return x
    else:
        raise ValueError("else")


def while_test(x, y):
    while x > 2:
        raise ValueError("while")


def asserted(x, y):
    assert x != 1, "assert"


def exit_return(x, y):
    if x is None:
        return None
    raise ValueError("exit return")


def exit_not(x, y):
    if not x:
        return 0
    raise ValueError("exit not")


def exit_raise(x, y):
    if x == 3:
        raise TypeError("other")
    raise ValueError("exit raise")


def exit_continue(x, y):
    for value in (x,):
        if value is not None and value > 0:
            continue
        raise ValueError("exit continue")


def exit_break(x, y):
    while True:
        if y:
            break
        raise ValueError("exit break")


def not_compare(x, y):
    if not x < 3:
        raise ValueError("not compare")


def not_both(x, y):
    if not (x and y):
        raise ValueError("not both")


def nested(x, y):
    if x is not None:
        if not y:
            if x > 0:
                return 1
            raise ValueError("nested")
"""

VALUES = [None, 0, 1, 2, 3, 4, -1, "", "a"]


def _raises(function: object, x: object, y: object) -> str | None:
    try:
        function(x, y)  # type: ignore[operator]
    except (ValueError, TypeError, AssertionError) as exc:
        return str(exc)
    return None


def _holds(record: Record, x: object, y: object) -> bool | None:
    """Whether every test guard's ``needed`` holds for ``x`` and ``y``; None where a test cannot
    be evaluated there (``x > 1`` of ``None``: the function would fail before the raise too)."""
    env = {"x": x, "y": y, "value": x}
    for guard in record.facts.guards:
        if guard.kind in TEST_KINDS:
            try:
                if not eval(guard.needed, {}, env):
                    return False
            except TypeError:
                return None
    return True


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, list[Record]]:
    root = tmp_path_factory.mktemp("guards")
    path = root / "guarded.py"
    path.write_text(MODULE, encoding="utf-8")
    records = mine(root, repo="errdex/guards", sha="0" * 40, jobs=1).records
    spec = importlib.util.spec_from_file_location("guarded", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, records


def test_needed_holds_exactly_where_each_guard_kind_lets_the_raise_run(
    mined: tuple[object, list[Record]],
) -> None:
    module, records = mined
    kinds = set()
    checked = 0
    for record in records:
        if record.error_class != "ValueError" and record.error_class != "AssertionError":
            continue
        function = getattr(module, record.function or "")
        kinds |= {g.kind for g in record.facts.guards}
        for x, y in itertools.product(VALUES, VALUES):
            expected = _holds(record, x, y)
            if expected is None:
                continue
            raised = _raises(function, x, y) == record.error_message
            assert raised == expected, (record.function, x, y, [g.needed for g in record.facts.guards])
            checked += 1
    # Every kind of test guard was among them: if, elif, else, while, assert, early exits.
    assert {"if", "elif", "else", "while", "assert", "early-exit"} <= kinds
    assert checked > 500


def test_the_prompt_and_the_verifier_read_the_same_condition(mined: tuple[object, list[Record]]) -> None:
    _, records = mined
    reader = get("python").claims
    assert reader is not None
    for record in records:
        tests = [g for g in record.facts.guards if g.kind in TEST_KINDS]
        sent = [g["holds"] for g in facts_of(record)["guards"] if "holds" in g]
        assert sent == [g.needed for g in tests]
        # What the raise needs, said in prose, agrees with the guards; its negation does not.
        for guard in tests:
            test = reader.test(guard.needed)
            if test is None or not test.exact or len(test.atoms) != 1:
                continue
            said = f"This `{record.error_class}` is raised by `{record.function}` when `{guard.needed}`."
            flipped = said.replace(f"`{guard.needed}`", f"`not ({guard.needed})`")
            assert verify(record, {"documentation": said}).rejected == {}, said
            verdict = claims.judge(claims.Claim(test.atoms[0], "", True), claims.guard_atoms(tests, reader))
            assert verdict[0] == "agree", (guard, verdict)
            assert "documentation" in verify(record, {"documentation": flipped}).rejected, flipped


JS_MODULE = """\
function ifPlain(x, y) { if (x > 1) { throw new Error('plain'); } }
function ifNot(x, y) { if (!x) { throw new Error('if not'); } }
function elseBranch(x, y) { if (x > 2) { return x; } else { throw new Error('else'); } }
function exitReturn(x, y) { if (x === null) { return null; } throw new Error('exit return'); }
function exitNot(x, y) { if (!x) return 0; throw new Error('exit not'); }
function typed(x, y) { if (typeof x !== 'number') { throw new TypeError('typed'); } }
function both(x, y) { if (!(x && y)) { throw new Error('both'); } }
module.exports = { ifPlain, ifNot, elseBranch, exitReturn, exitNot, typed, both };
"""


@pytest.mark.skipif(shutil.which(NODE) is None, reason="needs Debian's node")
def test_needed_holds_exactly_where_javascript_raises(tmp_path: Path) -> None:
    (tmp_path / "index.js").write_text(JS_MODULE, encoding="utf-8")
    records = [r for r in mine(tmp_path, repo="errdex/guards", sha="0" * 40, jobs=1).records if r.function]
    values = ["null", "0", "1", "2", "3", "-1", "''", "'a'"]
    cases = []
    for record in records:
        needed = " && ".join(f"({g.needed})" for g in record.facts.guards if g.kind in TEST_KINDS) or "true"
        for x, y in itertools.product(values, values):
            cases.append(
                {
                    "function": record.function,
                    "x": x,
                    "y": y,
                    "needed": needed,
                    "message": record.error_message,
                }
            )
    harness = tmp_path / "harness.js"
    harness.write_text(
        "const m = require('./index.js');\n"
        "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "const out = cases.map((c) => {\n"
        "  const x = eval(c.x), y = eval(c.y);\n"
        "  let raised = null;\n"
        "  try { m[c.function](x, y); } catch (e) { raised = e.message; }\n"
        "  return [raised === c.message, Boolean(eval(c.needed))];\n"
        "});\n"
        "process.stdout.write(JSON.stringify(out));\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [NODE, str(harness)], input=json.dumps(cases), capture_output=True, text=True, check=True, timeout=60
    )
    results = json.loads(done.stdout)
    assert len(results) == len(cases) > 300
    wrong = [
        (c["function"], c["x"], c["y"], c["needed"])
        for c, (raised, held) in zip(cases, results, strict=True)
        if raised != held
    ]
    assert wrong == []
    assert {g.kind for r in records for g in r.facts.guards} >= {"if", "else", "early-exit"}


_FLIPS = {ast.IsNot: ast.Is, ast.NotIn: ast.In, ast.NotEq: ast.Eq}


def _formula(node: ast.expr, atoms: dict[str, int]) -> tuple[str, object]:
    """A test as a boolean formula over its atoms (comparisons, calls, names), each atom in its
    positive form (``x is not None`` is ``not (x is None)``): this test's own reading with
    ``ast`` alone.  Returns a formula as nested tuples."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ("not", _formula(node.operand, atoms))
    if isinstance(node, ast.BoolOp):
        return ("and" if isinstance(node.op, ast.And) else "or", [_formula(v, atoms) for v in node.values])
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _FLIPS:
        positive = ast.Compare(node.left, [_FLIPS[type(node.ops[0])]()], node.comparators)
        return ("not", _formula(positive, atoms))
    key = ast.dump(node, annotate_fields=False)
    return ("atom", atoms.setdefault(key, len(atoms)))


def _value(formula: tuple[str, object], valuation: tuple[bool, ...]) -> bool:
    kind, inner = formula
    if kind == "atom":
        return valuation[inner]  # type: ignore[index]
    if kind == "not":
        return not _value(inner, valuation)  # type: ignore[arg-type]
    parts = [_value(f, valuation) for f in inner]  # type: ignore[attr-defined]
    return all(parts) if kind == "and" else any(parts)


def _same(a: str, b: str) -> bool:
    """Whether two tests hold for the same values of their atoms (every valuation tried)."""
    atoms: dict[str, int] = {}
    fa = _formula(ast.parse(a, mode="eval").body, atoms)  # the text errdex kept must be code
    fb = _formula(ast.parse(b, mode="eval").body, atoms)
    if len(atoms) > 10:
        return True  # too many to enumerate: not this test's to judge
    return all(_value(fa, v) == _value(fb, v) for v in itertools.product((False, True), repeat=len(atoms)))


def test_the_guards_of_a_real_package_read_as_they_hold(pypi_package: object) -> None:
    """On lightning 2.6.6, each test guard's ``needed`` says its written test where the site
    runs inside it, and that test's negation where the site runs past it or in its ``else``
    (``if not x: return`` needs ``x``): read again here from the text as written."""
    root = pypi_package("lightning", "2.6.6")  # type: ignore[operator]
    records = mine(
        root, repo="Lightning-AI/pytorch-lightning", sha="0" * 40, path_prefix="src/", jobs=2
    ).records
    checked = inverted = 0
    for record in records:
        for guard in record.facts.guards:
            if guard.kind not in TEST_KINDS or not guard.text:
                continue
            wanted = f"not ({guard.text})" if guard.kind in ("else", "assert", "early-exit") else guard.text
            if not _same(guard.needed, wanted):
                inverted += 1
            checked += 1
    assert checked > 1500 and inverted == 0
