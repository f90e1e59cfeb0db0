"""The language registry: every entry fills the interface, and is found by its files."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex import languages
from errdex.errors import ErrdexError
from errdex.languages.base import Language


@pytest.mark.parametrize("entry", list(languages.LANGUAGES.values()), ids=lambda e: e.name)
def test_every_entry_fills_the_interface_and_names_its_files(entry: Language, tmp_path: Path) -> None:
    for method in vars(Language):
        if not method.startswith("_") and callable(getattr(Language, method)):
            assert getattr(type(entry), method) is not getattr(Language, method) or method in (
                "known_helpers",
                "is_import_error",
                "import_entries",
            ), f"{entry.name} lacks {method}"
    assert entry.code is not None and entry.paste is not None and entry.claims is not None
    for extension in entry.extensions:
        assert languages.NAMES[extension] == entry.name
        assert languages.for_path(f"pkg/module{extension}") is entry
    source = tmp_path / f"m{entry.extensions[0]}"
    source.write_text("")
    assert entry.read_source(source, 100) == ""


def test_a_file_no_entry_reads_is_named_but_not_read() -> None:
    assert languages.for_path("main.go") is None
    assert languages.language_name("main.go") == "go"
    assert languages.language_name("notes.txt") == "unknown"
    with pytest.raises(ErrdexError, match="errdex does not read go"):
        languages.get("go")


def test_javascript_and_typescript_share_one_reader_by_extension() -> None:
    js, ts = languages.get("javascript"), languages.get("typescript")
    assert languages.for_path("lib/index.js") is js and languages.for_path("dist/x.cjs") is js
    assert languages.for_path("src/index.ts") is ts and languages.for_path("src/app.tsx") is ts
    assert js.paste is ts.paste and js.code is ts.code
