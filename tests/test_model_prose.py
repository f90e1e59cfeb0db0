"""Model prose once kept: marked as a model's, never overwritten by errdex's own rules unless
asked, brought back when the same facts are mined again, and dropped when they change.

The answers here are written by hand and checked by the same rules a model's go through
(``errdex.enrich.verify``); ``test_model_enrich.py`` asks a real model.
"""

from __future__ import annotations

import fractions
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from errdex.enrich import with_prose
from errdex.enrich.model import Answer, apply, enrich_with_model, keep_model_prose
from errdex.enrich.prompt import PROMPT_VERSION, content_key
from errdex.enrich.verify import verify
from errdex.mine import mine
from errdex.record import Record
from errdex.store import open_store
from servers import ERRDEX

SHA = "0" * 40
MODEL = "hand-written"
PROSE = "Fraction refuses a denominator of 0: it raises ZeroDivisionError instead of dividing."


def mined(root: Path) -> list[Record]:
    return mine(root, repo="python/cpython", sha=SHA, path_prefix="Lib/", jobs=1).records


@pytest.fixture
def stdlib(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    root.mkdir()
    shutil.copy(fractions.__file__, root / "fractions.py")
    return root


@pytest.fixture
def db(tmp_path: Path, stdlib: Path) -> Path:
    path = tmp_path / "errdex.db"
    result = mine(stdlib, repo="python/cpython", sha=SHA, path_prefix="Lib/", jobs=1)
    with open_store(path) as store:
        store.replace_repo(result.info, result.records)
    return path


def zero(records: list[Record]) -> Record:
    (record,) = [r for r in records if r.error_class == "ZeroDivisionError"]
    return record


class Cache:
    """A store's cache, metadata and prose writer in memory: what the model loop uses."""

    def __init__(self) -> None:
        self.cache: dict[str, bytes] = {}
        self.meta: dict[str, str] = {}
        self.written: list[Record] = []

    def cache_get(self, key: str) -> bytes | None:
        return self.cache.get(key)

    def cache_put(self, key: str, data: bytes) -> None:
        self.cache[key] = data

    def meta_get(self, key: str) -> str | None:
        return self.meta.get(key)

    def meta_put(self, key: str, value: str) -> None:
        self.meta[key] = value

    def update_prose(self, records: list[Record]) -> int:
        self.written += records
        return len(records)


def written(record: Record) -> Record:
    fix = "from fractions import Fraction\n\nhalf = Fraction(1, 2)\n"
    guard = "from fractions import Fractions\n\nFractions(1, 2)\n"
    verdict = verify(record, {"documentation": PROSE, "exampleFix": fix, "typeGuard": guard})
    # The guard imports what the module does not have: dropped, with the rule's reason.
    assert verdict.rejected == {
        "typeGuard": "imports fractions.Fractions, which python/cpython does not have"
    }
    answer = Answer(verdict.kept, verdict.rejected, MODEL, "b1")
    return apply(record, answer, content_key(record, MODEL))


def test_a_kept_field_names_its_model_and_the_rest_stay_errdexs(db: Path) -> None:
    with open_store(db) as store:
        record = zero(list(store.records()))
    enriched = written(record)
    assert enriched.documentation == PROSE
    assert set(enriched.model_prose) == {"documentation", "exampleFix"}
    assert enriched.model_prose["documentation"].model == MODEL
    assert enriched.model_prose["documentation"].key == content_key(record, MODEL)
    # Fields the model did not write, or wrote wrong, are errdex's, from the facts as before.
    static = with_prose(record)
    assert enriched.trigger_scenarios and enriched.trigger_scenarios == static.trigger_scenarios
    assert enriched.type_guard == static.type_guard
    assert enriched.model_authors() == [
        f"written by model {MODEL} (b1), prompt {PROMPT_VERSION}: documentation, exampleFix"
    ]


def test_static_enrichment_keeps_a_models_prose_unless_forced(db: Path) -> None:
    with open_store(db) as store:
        record = zero(list(store.records()))
        store.update_prose([written(record)])
    kept = subprocess.run([ERRDEX, "enrich", "--db", str(db)], capture_output=True, text=True, check=True)
    assert "kept the model prose of 1" in kept.stdout
    with open_store(db) as store:
        assert store.get(record.id).documentation == PROSE  # type: ignore[union-attr]
    subprocess.run([ERRDEX, "enrich", "--db", str(db), "--force"], capture_output=True, check=True)
    with open_store(db) as store:
        again = store.get(record.id)
    assert again is not None and again.documentation != PROSE and again.model_prose == {}


def test_mined_again_a_record_gets_back_the_prose_asked_about_its_facts_and_only_those(stdlib: Path) -> None:
    record = zero(mined(stdlib))
    cache = Cache()
    key = content_key(record, MODEL)
    answer = Answer({"documentation": PROSE}, {}, MODEL, None)
    cache.cache_put(f"model-prose:{key}", answer.dumps())
    cache.meta_put("model-prose-models", json.dumps([MODEL]))
    back = zero(keep_model_prose(cache, mined(stdlib)))  # type: ignore[arg-type]
    assert back.documentation == PROSE and back.model_prose["documentation"].key == key
    # The guard changes: the prose was about other facts, and is not brought back.
    source = (stdlib / "fractions.py").read_text()
    (stdlib / "fractions.py").write_text(
        source.replace("if denominator == 0:", "if denominator == 0 or False:")
    )
    changed = zero(keep_model_prose(cache, mined(stdlib)))  # type: ignore[arg-type]
    assert changed.model_prose == {} and changed.documentation != PROSE


def test_a_record_whose_answer_is_cached_is_not_sent_again(stdlib: Path) -> None:
    records = mined(stdlib)
    record = zero(records)
    cache = Cache()
    cache.cache_put(
        f"model-prose:{content_key(record, MODEL)}", Answer({"documentation": PROSE}, {}, MODEL, None).dumps()
    )

    class Refuses:
        model = MODEL

        def ask(self, record: Record) -> None:
            raise AssertionError(f"asked about {record.id}")

    summary = enrich_with_model(cache, [record], Refuses())  # type: ignore[arg-type]
    assert (summary.cached, summary.sent, summary.changed) == (1, 0, 1)
    assert cache.written[0].documentation == PROSE
    # And a record already holding that prose is current: nothing to write.
    again = enrich_with_model(cache, cache.written, Refuses())  # type: ignore[arg-type]
    assert (again.current, again.sent, again.changed) == (1, 0, 0)


def test_every_front_end_says_which_fields_a_model_wrote(db: Path) -> None:
    from fastapi.testclient import TestClient

    from errdex.serve.app import create_app

    with open_store(db) as store:
        record = written(zero(list(store.records())))
        store.update_prose([record])
    line = f"written by model {MODEL} (b1), prompt {PROMPT_VERSION}: documentation, exampleFix"
    shown = subprocess.run(
        [ERRDEX, "show", record.id, "--db", str(db)], capture_output=True, text=True, check=True
    )
    assert line in " ".join(shown.stdout.split())
    with TestClient(create_app(str(db))) as client:
        page = client.get(f"/errors/{record.id}").text
        assert f'<p class="model-prose">{line}' in page
        served = client.get(f"/api/errors/{record.id}").json()
        assert served["modelProse"]["documentation"]["model"] == MODEL
        assert served["record"]["documentation"] == PROSE
