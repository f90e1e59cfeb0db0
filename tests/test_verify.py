"""Each rule that checks a model's answer, on hand-written good and bad answers about a real
record: the standard library's ``Fraction(n, 0)``, mined from this interpreter's ``fractions``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errdex.enrich.prompt import FIELDS, answer_schema, content_key, messages
from errdex.enrich.verify import verify
from errdex.record import Record
from errdex.store import open_store


@pytest.fixture(scope="module")
def record(stdlib_db: Path) -> Record:
    with open_store(stdlib_db, readonly=True) as store:
        (found,) = [r for r in store.records() if r.error_class == "ZeroDivisionError"]
    # What the rules below lean on, read from the mined record, not assumed.
    assert found.function == "Fraction.__new__" and found.error_message == "Fraction(%s, 0)"
    assert [(g.kind, g.text, g.negated) for g in found.facts.guards] == [("if", "denominator == 0", False)]
    return found


GOOD = {
    "documentation": "Fraction raises ZeroDivisionError when its denominator is 0.",
    "triggerScenarios": "Raised when `denominator == 0`, as in Fraction(1, 0).",
    "solutions": ["Pass a denominator other than 0.", "Check the denominator before building the Fraction."],
    "exampleFix": "from fractions import Fraction\n\nvalue = Fraction(1, 2)\n",
    "tryCatchPattern": (
        "from fractions import Fraction\n\n"
        "try:\n    value = Fraction(1, 0)\nexcept ZeroDivisionError:\n    value = None\n"
    ),
    "validationCode": "import math\n\ndenominator = 2\nif denominator == 0 or math.isnan(denominator):\n"
    "    raise ArithmeticError('denominator must not be 0')\n",
}


def test_an_answer_the_facts_back_is_kept_whole(record: Record) -> None:
    verdict = verify(record, GOOD)
    assert verdict.rejected == {}
    assert verdict.kept["solutions"] == GOOD["solutions"]
    assert verdict.kept["exampleFix"] == GOOD["exampleFix"].rstrip()


@pytest.mark.parametrize(
    ("name", "value", "reason"),
    [
        ("confidence", "high", "not a field errdex takes"),
        ("documentation", "   ", "empty"),
        ("documentation", ["a list"], "not text"),
        ("documentation", "x" * 2001, "over 2000 characters"),
        ("solutions", "one string", "not a list of text"),
        ("solutions", ["fine", ""], "an empty item"),
        ("solutions", ["tip"] * 7, "more than 6 items"),
        ("exampleFix", "x" * 3001, "over 3000 characters"),
    ],
)
def test_a_field_of_the_wrong_shape_is_dropped(record: Record, name: str, value: object, reason: str) -> None:
    other = "documentation" if name != "documentation" else "commonSituations"
    verdict = verify(
        record, {name: value, other: "Fraction raises ZeroDivisionError for a zero denominator."}
    )
    assert verdict.rejected == {name: reason}
    assert len(verdict.kept) == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("See https://fractions.readthedocs.io/en/latest/ for details.", "names a URL the facts do not"),
        (
            "Run pip install fraction-tools to get a safe Fraction.",
            "installs a package the error does not name (fraction-tools)",
        ),
        ("Upgrade to version 3.14.2, where this is fixed.", "names a version the facts do not (3.14.2)"),
        (
            "Catch FractionDomainError around the call.",
            "says to catch `FractionDomainError`, which this error is not",
        ),
        ("A FractionDomainError is what you get.", "names an exception class the record does not"),
    ],
)
def test_prose_that_names_what_the_facts_do_not_is_dropped(record: Record, text: str, reason: str) -> None:
    verdict = verify(record, {"documentation": text, "solutions": ["Pass a non-zero denominator."]})
    assert verdict.rejected["documentation"].startswith(reason)
    assert "solutions" in verdict.kept


def test_what_the_facts_do_name_may_be_quoted(record: Record) -> None:
    assert record.github_url is not None
    text = f"The check is at {record.github_url}; it raises ZeroDivisionError, not ValueError."
    assert verify(record, {"documentation": text}).rejected == {}


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("value = Fraction(1, 0", "does not parse as python"),
        ("import numpy\nvalue = numpy.float64(1)\n", "imports what the facts do not name (numpy)"),
        (
            "from fractions import safe_fraction\nvalue = safe_fraction(1, 0)\n",
            "imports fractions.safe_fraction, which python/cpython does not have",
        ),
        (
            "from fractions import Fraction\nFraction(1, 0, exact=True)\n",
            "passes `exact=` to `fractions.Fraction`",
        ),
        (
            "from fractions import Fraction\ntry:\n    Fraction(1, 0)\nexcept FractionError:\n    pass\n",
            "catches or raises `FractionError`, which this error is not",
        ),
        (
            "from fractions import Fraction\ntry:\n    Fraction(1, 0)\nexcept fractions.Bad:\n    pass\n",
            "catches or raises `fractions.Bad`, which this error is not",
        ),
        (
            "from fractions import Fraction\ntry:\n    Fraction(1, 0)\nexcept ValueError:\n    pass\n",
            "catches or raises `ValueError`, which this error is not",
        ),
    ],
)
def test_code_that_does_not_parse_or_uses_what_the_facts_lack_is_dropped(
    record: Record, code: str, reason: str
) -> None:
    verdict = verify(
        record, {"exampleFix": code, "documentation": "Fraction(n, 0) raises ZeroDivisionError."}
    )
    assert set(verdict.rejected) == {"exampleFix"} and verdict.rejected["exampleFix"].startswith(reason)


def test_prose_contradicting_a_guard_is_dropped_but_a_fix_may_negate_it(record: Record) -> None:
    wrong = "Raised when `denominator != 0`."
    verdict = verify(
        record, {"triggerScenarios": wrong, "solutions": ["Make sure `denominator != 0` holds."]}
    )
    needs = "where the raise needs `denominator == 0`"
    assert verdict.rejected == {"triggerScenarios": f"says `denominator != 0`, {needs}"}
    assert "solutions" in verdict.kept


def test_the_prompt_asks_for_the_whitelist_under_a_schema_and_carries_the_facts(record: Record) -> None:
    schema = answer_schema()
    assert set(schema["properties"]) == set(FIELDS) and schema["additionalProperties"] is False
    system, user = messages(record)
    assert system["role"] == "system" and "JSON" in system["content"]
    facts = json.loads(user["content"].split("\n\nSource", 1)[0].removeprefix("Facts:\n"))
    assert facts["function"] == "Fraction.__new__" and facts["guards"][0]["test"] == "denominator == 0"
    # The source window, numbered as the file is: the raise's own line is there.
    raise_line = record.source_code.split("\n")[record.line_number - record.source_code_start].strip()
    assert f"{record.line_number:>5}  " in user["content"] and raise_line in user["content"]


def test_the_cache_key_changes_with_the_facts_the_model_and_nothing_else(record: Record) -> None:
    key = content_key(record, "smollm2")
    assert key == content_key(record.model_copy(update={"documentation": "other prose"}), "smollm2")
    assert key != content_key(record, "another-model")
    moved = record.model_copy(update={"source_code": record.source_code + "\n# changed"})
    assert key != content_key(moved, "smollm2")
