"""The file-level extraction cache on a real package: what it serves is what extraction gives,
a changed file is extracted again, and a cached entry that is not plain data is never run."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from errdex.mine import directory_source, mine_sources
from errdex.mine.cache import file_key
from errdex.store.sqlite import SqliteStore
from pypi import fetch_package


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "idna"
    shutil.copytree(fetch_package("idna", "3.7"), root)
    return root


def mined(root: Path, store: SqliteStore) -> tuple[list[dict[str, object]], int, int]:
    result = next(mine_sources([directory_source(root, repo="kjd/idna")], jobs=1, cache=store))
    records = [{k: v for k, v in r.to_errdex().items() if k != "analyzedAt"} for r in result.records]
    return records, result.cache.hits, result.cache.misses


def test_the_cache_serves_what_extraction_gives(tree: Path, tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "cache.db")
    files = len(directory_source(tree, repo="kjd/idna").files)
    first, hits, misses = mined(tree, store)
    assert (hits, misses) == (0, files) and first
    again, hits, misses = mined(tree, store)
    assert (hits, misses) == (files, 0)
    assert again == first
    # A changed file is extracted again, and only that one.
    core = tree / "idna" / "core.py"
    core.write_text(core.read_text().replace("Empty domain", "No domain at all"))
    changed, hits, misses = mined(tree, store)
    assert (hits, misses) == (files - 1, 1)
    assert any(r["errorMessage"] == "No domain at all" for r in changed)
    assert not any(r["errorMessage"] == "Empty domain" for r in changed)


class _Hostile:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {_MARKER}",))


_MARKER = "/tmp/errdex-cache-ran-code"


def test_a_cached_entry_naming_anything_else_is_never_run(tree: Path, tmp_path: Path) -> None:
    Path(_MARKER).unlink(missing_ok=True)
    store = SqliteStore(tmp_path / "cache.db")
    source = directory_source(tree, repo="kjd/idna")
    keys = [key for f in source.files if (key := file_key(f))]
    # Someone with write access to a shared store put a pickle that runs a command.
    store.extractions_put({key: pickle.dumps(_Hostile()) for key in keys})
    records, hits, misses = mined(tree, store)
    assert not Path(_MARKER).exists()
    assert (hits, misses) == (0, len(source.files)) and records
    # What was extracted instead took those entries' place.
    again, hits, misses = mined(tree, store)
    assert (hits, misses) == (len(source.files), 0) and again == records
