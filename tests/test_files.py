from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pydantic import BaseModel

from errdex.errors import ErrdexError
from errdex.record import SCHEMA_V2_KEYS, Record, Site, base_slug, permalink, record_id
from errdex.store.files import PARQUET_SCHEMA, read_jsonl, write_jsonl, write_parquet

SHA = "3f786850e387550fdab836ed7e6dc881de23001b"


def make_record(
    message: str, *, file_path: str = "src/shop/cart.py", line: int = 40, **fields: Any
) -> Record:
    repo = "acme/shop"
    start, end = max(1, line - 18), line + 18
    values: dict[str, Any] = {
        "id": record_id(repo, message, file_path),
        "repo": repo,
        "slug": base_slug(None, message),
        "error_code": None,
        "error_message": message,
        "message_pattern": "^" + message.replace("{}", "(.+)") + "$",
        "error_type": "exception",
        "error_class": "ValueError",
        "http_status": None,
        "severity": "error",
        "file_path": file_path,
        "line_number": line,
        "source_code": f'raise ValueError("{message}")',
        "source_code_start": start,
        "source_code_end": end,
        "github_url": permalink(repo, SHA, file_path, start, end),
        "documentation": "Raised when the cart cannot take the item.",
        "trigger_scenarios": "Adding an item that is out of stock.",
        "common_situations": "Stale product pages.",
        "solutions": ["Refresh stock before adding.", "Catch ValueError and show a message."],
        "example_fix": "if item.in_stock:\n    cart.add(item)",
        "handling_strategy": "validation",
        "validation_code": None,
        "type_guard": None,
        "try_catch_pattern": "try:\n    cart.add(item)\nexcept ValueError:\n    ...",
        "prevention_tips": ["Check stock first."],
        "tags": ["cart", "stock"],
        "background_tag": None,
        "analyzed_sha": SHA,
        "analyzed_at": "2024-05-01T12:00:00.123Z",
        "language": "python",
    }
    return Record(**{**values, **fields})


RECORDS = [
    make_record(
        "item {} is out of stock",
        function="Cart.add",
        qualified_class="builtins.ValueError",
        conditions=["not item.in_stock"],
        placeholders=["item.name"],
        message_kind="template",
        package="shop",
        version="2.1.0",
        sites=[
            Site(
                file_path="src/shop/cart.py", line_number=40, kind="raise", conditions=["not item.in_stock"]
            ),
            Site(file_path="src/shop/cart.py", line_number=77, kind="raise", function="Cart.extend"),
        ],
    ),
    make_record("prix négatif refusé — vérifiez le panier", line=12),
    make_record(
        "payment service unavailable",
        file_path="src/shop/api.py",
        line=5,
        error_type="http",
        error_class=None,
        http_status=503,
        handling_strategy="retry",
    ),
]


def test_errdex_jsonl_round_trip_is_lossless(tmp_path: Path) -> None:
    out = tmp_path / "exports" / "shop.jsonl"

    assert write_jsonl(iter(RECORDS), out, "errdex", "ignored") == (3, 0)

    assert list(read_jsonl(out)) == RECORDS


def test_errlookup_export_matches_the_published_dataset(tmp_path: Path) -> None:
    out = tmp_path / "shop.jsonl"
    write_jsonl(RECORDS, out, "errlookup", "2024.05")

    text = out.read_text(encoding="utf-8")
    lines = [json.loads(line) for line in text.splitlines()]
    assert [list(line) for line in lines] == [["record", "datasetVersion"]] * 3
    assert all(tuple(line["record"]) == SCHEMA_V2_KEYS for line in lines)
    assert {line["datasetVersion"] for line in lines} == {"2024.05"}
    assert "prix négatif" in text
    assert text.startswith(f'{{"record":{{"id":"{RECORDS[0].id}","repo":')


def test_errlookup_import_keeps_every_v2_field_and_implies_sites(tmp_path: Path) -> None:
    out = tmp_path / "shop.jsonl"
    write_jsonl(RECORDS, out, "errlookup", "2024.05")

    imported = list(read_jsonl(out))

    assert [record.to_errlookup() for record in imported] == [record.to_errlookup() for record in RECORDS]
    assert [record.sites for record in imported] == [
        [Site(file_path="src/shop/cart.py", line_number=40, kind="raise")],
        [Site(file_path="src/shop/cart.py", line_number=12, kind="raise")],
        [Site(file_path="src/shop/api.py", line_number=5, kind="http")],
    ]
    assert {record.language for record in imported} == {"python"}


def test_read_jsonl_accepts_both_formats_in_one_file(tmp_path: Path) -> None:
    out = tmp_path / "mixed.jsonl"
    errlookup = json.dumps({"record": RECORDS[1].to_errlookup(), "datasetVersion": "1"})
    errdex = json.dumps(RECORDS[0].to_errdex())
    out.write_text(f"{errdex}\n\n{errlookup}\n", encoding="utf-8")

    first, second = read_jsonl(out)

    assert first == RECORDS[0]
    assert second.to_errlookup() == RECORDS[1].to_errlookup()


@pytest.mark.parametrize(
    ("bad_line", "problem"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"record": "x"}', "record"),
        (json.dumps({**RECORDS[0].to_errdex(), "id": "0000000000000000"}), "id does not match"),
        (json.dumps({**RECORDS[0].to_errdex(), "lineNumber": 0}), "lineNumber"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path: Path, bad_line: str, problem: str) -> None:
    path = tmp_path / "broken.jsonl"
    good = json.dumps(RECORDS[0].to_errdex())
    path.write_text(f"{good}\n{good}\n{bad_line}\n", encoding="utf-8")

    with pytest.raises(ErrdexError, match=problem) as raised:
        list(read_jsonl(path))

    message = str(raised.value)
    assert message.startswith(f"{path}:3: ")
    assert "\n" not in message


def test_parquet_export_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "shop.parquet"

    assert write_parquet(RECORDS, out) == 3

    table = pq.read_table(out)
    assert table.num_rows == 3
    assert table.schema.names == list(RECORDS[0].to_errdex())
    assert table.schema.equals(PARQUET_SCHEMA)
    assert table.column("id").to_pylist() == [record.id for record in RECORDS]
    assert table.column("httpStatus").to_pylist() == [None, None, 503]
    assert table.column("tags").to_pylist()[0] == ["cart", "stock"]
    sites = table.column("sites").to_pylist()[0]
    assert [(site["lineNumber"], site["function"]) for site in sites] == [(40, None), (77, "Cart.extend")]
    # Parquet maps read back as pairs unless asked for dicts.
    rows = table.to_pylist(maps_as_pydicts="strict")
    assert [Record.model_validate(row) for row in rows] == RECORDS


def test_parquet_export_of_nothing_is_a_valid_empty_file(tmp_path: Path) -> None:
    out = tmp_path / "empty.parquet"

    assert write_parquet([], out) == 0

    assert pq.read_table(out).num_rows == 0


def test_failed_export_leaves_the_previous_file(tmp_path: Path) -> None:
    def broken() -> Iterator[Record]:
        yield RECORDS[0]
        raise RuntimeError("store went away")

    jsonl, parquet = tmp_path / "shop.jsonl", tmp_path / "shop.parquet"
    write_jsonl(RECORDS, jsonl, "errdex", "1")
    write_parquet(RECORDS, parquet)
    before = jsonl.read_bytes(), parquet.read_bytes()

    with pytest.raises(RuntimeError):
        write_jsonl(broken(), jsonl, "errlookup", "2")
    with pytest.raises(RuntimeError):
        write_parquet(broken(), parquet)

    assert (jsonl.read_bytes(), parquet.read_bytes()) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shop.jsonl", "shop.parquet"]


def test_records_written_before_guards_were_structure_import_as_if_mined_now(tmp_path: Path) -> None:
    """A record of extension version 1 kept its guards and signature as text only."""
    import textwrap

    from errdex.enrich import enrich
    from errdex.mine import mine

    source = tmp_path / "src" / "shop"
    source.mkdir(parents=True)
    (source / "__init__.py").write_text("")
    (source / "cart.py").write_text(
        textwrap.dedent(
            """
            class Cart:
                def add(self, item, quantity=None, *, strict=False):
                    if not isinstance(item, str):
                        raise TypeError(f"expected a name, got {item!r}")
                    if quantity is None:
                        raise ValueError("pass a quantity")
                    elif quantity < 0 or strict:
                        raise ValueError(f"cannot add {quantity}")
            """
        )
    )
    mined = mine(tmp_path / "src", repo="acme/shop", sha="3f786850e387550fdab836ed7e6dc881de23001b").records
    old = tmp_path / "old.jsonl"
    with old.open("w") as lines:
        for record in mined:
            data = record.to_errdex()
            del data["extensionVersion"], data["facts"]["guards"], data["facts"]["parameters"]
            lines.write(json.dumps(data) + "\n")

    imported = list(read_jsonl(old))

    assert [r.extension_version for r in imported] == [2] * len(mined)
    for now, then in zip(mined, imported, strict=True):
        assert then.facts.parameters == now.facts.parameters
        # Version 1 kept the tests that must hold, not the blocks around them (early exits).
        tests = [g for g in now.facts.guards if g.kind in ("if", "elif", "else")]
        assert [(g.subject, g.operator, g.operand, g.code) for g in then.facts.guards] == [
            (g.subject, g.operator, g.operand, g.code) for g in tests
        ]
    # What enrichment writes from them is what it writes for the records mined now, but for
    # what only the blocks say: past ``if not isinstance(item, str): raise``, `item` is a `str`.
    fields = ("documentation", "trigger_scenarios", "solutions", "example_fix", "validation_code")
    past = 0
    for now, then in zip(enrich(mined), enrich(imported), strict=True):
        if any(g.kind == "early-exit" for g in now.facts.guards):
            past += 1
            assert "`item` is a `str`" in now.trigger_scenarios
            assert "`item` is a `str`" not in then.trigger_scenarios
        else:
            assert [getattr(then, f) for f in fields] == [getattr(now, f) for f in fields]
    assert past == 2


def _model_of(annotation: object) -> type[BaseModel] | None:
    """The record model a field holds, alone or in a list (``list[Site]``), if any."""
    for candidate in (annotation, *get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _columns_match(model: type[BaseModel], struct: pa.StructType | pa.Schema, where: str) -> list[str]:
    """Where the Parquet columns and the model's fields differ, at every depth."""
    names = [f.name for f in struct]
    fields = {(f.alias or name): f for name, f in model.model_fields.items()}
    problems = [] if names == list(fields) else [f"{where}: columns {names}, fields {list(fields)}"]
    for name, field in fields.items():
        nested = _model_of(field.annotation)
        if nested is None or name not in names:
            continue
        type_ = struct.field(names.index(name)).type
        if isinstance(type_, pa.ListType):
            type_ = type_.value_type
        elif isinstance(type_, pa.MapType):  # a dict of models: its values
            type_ = type_.item_type
        problems += _columns_match(nested, type_, f"{where}.{name}")
    return problems


def test_parquet_holds_every_field_of_a_record_at_every_depth() -> None:
    """A field the record has and the Parquet schema lacks would be dropped on export without a
    word: every model field, nested ones too (a site's, a caller's, an entry point's), is a column."""
    assert _columns_match(Record, PARQUET_SCHEMA, "record") == []
