"""The pattern index: every record whose pattern matches a message, found from its rarest words."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.match.index import INDEX_FORMAT, PatternIndex, load_index, pattern_words
from errdex.mine import mine
from errdex.patterns import Placeholder, Template
from errdex.store import PatternRow, open_store
from errdex.store.sqlite import SqliteStore

SHA = "9fed5c27d2a62ff0efd6c3573599921d6ff67c14"


def row(num: int, template: Template) -> PatternRow:
    kind = "literal" if not template.placeholders else "template"
    return PatternRow(num, template.pattern, kind, None, None, None)


def test_words_touching_a_placeholder_are_not_relied_on() -> None:
    template = Template(
        ("cannot open file", Placeholder("n", "{n}"), ": not found ", Placeholder("x", "{x}"), "!")
    )
    # "file" may run on into the value ("file12"), and so may a word right before a placeholder.
    assert pattern_words(template.pattern) == [["cannot", "open"], ["not", "found"], []]


def test_index_finds_the_pattern_of_a_filled_in_message() -> None:
    templates = {
        1: Template(
            ("size ", Placeholder("size", "{size}"), " exceeds the limit of ", Placeholder("n", "{n}"))
        ),
        2: Template(("size must be non-negative",)),
        3: Template((Placeholder("a", "{a}"), ": ", Placeholder("b", "{b}"))),
        4: Template(("", Placeholder("msg", "{msg}"))),
    }
    index = PatternIndex.build(row(n, t) for n, t in templates.items())
    assert 4 not in index.patterns  # a message with no literal text matches anything: frames find it
    found = {c.num: c.captures for c in index.match("size 12 MB exceeds the limit of 10 MB")}
    assert found[1] == ("12 MB", "10 MB")
    # "{a}: {b}" has no word to file it under, so every query checks it.
    assert {c.num: c.captures for c in index.match("disk: full")} == {3: ("disk", "full")}
    assert [c.num for c in index.match("size must be non-negative")] == [2]


def test_serialised_index_answers_the_same(tmp_path: Path) -> None:
    index = PatternIndex.build(
        row(n, Template((f"widget {n} failed: ", Placeholder("why", "{why}")))) for n in range(50)
    )
    again = PatternIndex.loads(index.dumps())
    assert again is not None
    assert [c.num for c in again.match("widget 7 failed: out of cheese")] == [7]
    assert again.keys == index.keys and again.patterns == index.patterns


@pytest.mark.pypi
def test_every_lightning_template_is_found_from_a_runtime_message(
    pypi_package: Callable[[str, str], Path], tmp_path: Path
) -> None:
    result = mine(
        pypi_package("lightning", "2.6.6"),
        repo="Lightning-AI/pytorch-lightning",
        sha=SHA,
        path_prefix="src/",
        jobs=2,
    )
    store = open_store(tmp_path / "s.db")
    store.replace_repo(result.info, result.records)
    assert isinstance(store, SqliteStore)
    index = load_index(store)
    nums = {r.id: num for num, r in store.by_num(range(1, 10_000)).items()}
    rng = random.Random(0)
    checked = 0
    for record in result.records:
        if record.message_kind not in ("literal", "template"):
            continue
        values = [rng.choice(["42", "'model'", "cuda:0", "a b c", "x.y.z"]) for _ in record.placeholders]
        message = _fill(record.message_pattern, values)
        assert nums[record.id] in {c.num for c in index.match(message)}, (record.id, message)
        checked += 1
    assert checked > 700
    example = index.match(
        "When using multiple models + deepspeed, please provide the model used to perform the"
        " optimization: `self.backward(loss, model=model)`"
    )
    assert nums["814018cfcd445ff0"] in {c.num for c in example}


def test_the_index_is_cached_in_the_store_until_records_change(tmp_path: Path) -> None:
    root = tmp_path / "src"
    root.mkdir()
    (root / "m.py").write_text('def f(x):\n    raise ValueError(f"bad widget {x}")\n')
    with open_store(tmp_path / "s.db") as store:
        first = mine(root, repo="acme/w", sha="0" * 40, jobs=1)
        store.replace_repo(first.info, first.records)
        generation = store.generation()
        load_index(store)
        assert store.cache_get(f"pattern-index:{INDEX_FORMAT}:{generation}") is not None
        (root / "m.py").write_text('def f(x):\n    raise ValueError(f"worse widget {x}")\n')
        second = mine(root, repo="acme/w", sha="0" * 40, jobs=1)
        store.replace_repo(second.info, second.records)
        assert store.generation() == generation + 1
        assert store.cache_get(f"pattern-index:{INDEX_FORMAT}:{generation}") is None
        assert [c.captures for c in load_index(store).match("worse widget 3")] == [("3",)]


def _fill(pattern: str, values: list[str]) -> str:
    from errdex.patterns import split_pattern

    segments = split_pattern(pattern)
    out = [segments[0]]
    for value, segment in zip(values, segments[1:], strict=True):
        out.extend((value, segment))
    return "".join(out)


def test_a_pattern_is_a_candidate_only_when_the_message_holds_its_two_rarest_keys() -> None:
    # Many templates share "could not"; each has a rare word of its own.
    templates = {
        n: Template((f"could not load widget{n} from ", Placeholder("src", "{src}"), f" via channel{n}"))
        for n in range(500)
    }
    index = PatternIndex.build(row(n, t) for n, t in templates.items())
    message = "could not load widget7 from /tmp/x via channel7"
    assert index.candidates(message) == {7}
    assert [c.num for c in index.match(message)] == [7]
    # Its rarest word alone does not make it a candidate: the second key must be there too.
    assert index.candidates("could not load widget7 from /tmp/x via nothing") == set()
