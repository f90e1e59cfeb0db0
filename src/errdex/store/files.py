"""Record exports and imports: JSON Lines in either format, and Parquet.

Writing and reading stream; an import holds the records it read until all are valid.  Writes
go to a temporary file beside the target that replaces it only when complete: an interrupted
export leaves the previous file, or none, but never half of one.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, Literal, NamedTuple, get_args

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import ValidationError

from errdex import languages
from errdex.errors import ErrdexError
from errdex.languages import language_name
from errdex.record import EXTENSION_VERSION, Record, RepoInfo, Site, dumps, site_kind
from errdex.store import Store
from errdex.symbols import SymbolTable

Format = Literal["errlookup", "errdex"]

_BATCH = 1000
#: The Parquet file's metadata key holding the symbol tables of the releases its rows hold.
SYMBOLS_KEY = "errdex.symbols"
#: A release: repository, package, version.
Release = tuple[str, str | None, str | None]

_TEXT = pa.string()
_INT = pa.int32()
_TEXTS = pa.list_(pa.string())


def _required(name: str, type_: pa.DataType) -> pa.Field:
    return pa.field(name, type_, nullable=False)


_SITE = pa.struct(
    [
        _required("filePath", _TEXT),
        _required("lineNumber", _INT),
        _required("kind", _TEXT),
        pa.field("function", _TEXT),
        _required("conditions", _TEXTS),
        pa.field("errorClass", _TEXT),
        pa.field("qualifiedClass", _TEXT),
        pa.field("errorMessage", _TEXT),
        pa.field("viaFilePath", _TEXT),
        pa.field("viaLineNumber", _INT),
        pa.field("logger", _TEXT),
    ]
)

_FACTS = pa.struct(
    [
        pa.field("signature", _TEXT),
        _required(
            "parameters",
            pa.list_(
                pa.struct([_required("name", _TEXT), _required("kind", _TEXT), pa.field("default", _TEXT)])
            ),
        ),
        _required(
            "guards",
            pa.list_(
                pa.struct(
                    [
                        _required("kind", _TEXT),
                        _required("text", _TEXT),
                        _required("negated", pa.bool_()),
                        pa.field("subject", _TEXT),
                        pa.field("operator", _TEXT),
                        pa.field("operand", _TEXT),
                        _required("names", _TEXTS),
                        pa.field("code", _TEXT),
                        _required("caught", _TEXTS),
                        pa.field("guarded", _TEXT),
                    ]
                )
            ),
        ),
        pa.field("docstring", _TEXT),
        pa.field("raisesDoc", _TEXT),
        _required(
            "callers",
            pa.list_(
                pa.struct(
                    [
                        _required("function", _TEXT),
                        _required("filePath", _TEXT),
                        _required("lineNumber", _INT),
                        _required("forwards", pa.bool_()),
                    ]
                )
            ),
        ),
        _required(
            "tests",
            pa.list_(
                pa.struct(
                    [
                        _required("name", _TEXT),
                        _required("filePath", _TEXT),
                        _required("lineNumber", _INT),
                        pa.field("call", _TEXT),
                        pa.field("match", _TEXT),
                    ]
                )
            ),
        ),
        _required(
            "entryPoints",
            pa.list_(
                pa.struct(
                    [
                        _required("function", _TEXT),
                        _required("filePath", _TEXT),
                        _required("lineNumber", _INT),
                        pa.field("name", _TEXT),
                        _required("via", _TEXTS),
                        _required("passes", pa.map_(_TEXT, _TEXT)),
                    ]
                )
            ),
        ),
        pa.field("classDoc", _TEXT),
        _required("parameterDocs", pa.map_(_TEXT, _TEXT)),
        _required("isAsync", pa.bool_()),
        _required("decorators", _TEXTS),
        _required("rebound", _TEXTS),
        pa.field("overrideNote", _TEXT),
        pa.field("loaded", _TEXT),
        pa.field("delivery", _TEXT),
    ]
)

#: Every errdex field, in ``Record`` order, so a Parquet row is a ``to_errdex()`` dict.
PARQUET_SCHEMA = pa.schema(
    [
        _required("id", _TEXT),
        _required("repo", _TEXT),
        _required("slug", _TEXT),
        pa.field("errorCode", _TEXT),
        _required("errorMessage", _TEXT),
        _required("messagePattern", _TEXT),
        _required("errorType", _TEXT),
        pa.field("errorClass", _TEXT),
        pa.field("httpStatus", _INT),
        _required("severity", _TEXT),
        _required("filePath", _TEXT),
        _required("lineNumber", _INT),
        _required("sourceCode", _TEXT),
        _required("sourceCodeStart", _INT),
        _required("sourceCodeEnd", _INT),
        pa.field("githubUrl", _TEXT),
        _required("documentation", _TEXT),
        _required("triggerScenarios", _TEXT),
        _required("commonSituations", _TEXT),
        _required("solutions", _TEXTS),
        pa.field("exampleFix", _TEXT),
        pa.field("handlingStrategy", _TEXT),
        pa.field("validationCode", _TEXT),
        pa.field("typeGuard", _TEXT),
        pa.field("tryCatchPattern", _TEXT),
        _required("preventionTips", _TEXTS),
        _required("tags", _TEXTS),
        pa.field("backgroundTag", _TEXT),
        pa.field("analyzedSha", _TEXT),
        # Kept as text: the exact string round-trips, whatever its sub-second precision.
        _required("analyzedAt", _TEXT),
        _required("schemaVersion", pa.int8()),
        _required("extensionVersion", pa.int8()),
        _required("language", _TEXT),
        pa.field("package", _TEXT),
        pa.field("version", _TEXT),
        pa.field("function", _TEXT),
        pa.field("qualifiedClass", _TEXT),
        _required("conditions", _TEXTS),
        _required("placeholders", _TEXTS),
        _required("messageKind", _TEXT),
        _required("sites", pa.list_(_SITE)),
        _required("facts", _FACTS),
        _required("enrichment", _TEXT),
        _required("provenance", pa.map_(_TEXT, _TEXTS)),
        _required(
            "modelProse",
            pa.map_(
                _TEXT,
                pa.struct(
                    [
                        _required("model", _TEXT),
                        pa.field("modelVersion", _TEXT),
                        _required("promptVersion", _TEXT),
                        _required("key", _TEXT),
                    ]
                ),
            ),
        ),
        # A double, as the record holds it: a float32 would not read back as the same number.
        pa.field("backgroundConfidence", pa.float64()),
    ]
)


class Written(NamedTuple):
    records: int
    #: Records the format cannot hold: schema v2 needs a commit and a GitHub permalink, which an
    #: installed distribution mined from site-packages may lack (the errdex format keeps them).
    left_out: int = 0


def write_jsonl(records: Iterable[Record], out: Path, fmt: Format, dataset_version: str) -> Written:
    """Write one record per line; returns how many were written and how many left out.

    ``errlookup`` lines are ``{"record": <schema v2>, "datasetVersion": ...}`` exactly as the
    existing dataset publishes them; ``errdex`` lines are the full record and carry no version.
    """
    if fmt not in get_args(Format):
        raise ErrdexError(f"unknown export format {fmt!r}; use errlookup or errdex")
    count = left_out = 0
    with replacing(out) as tmp, tmp.open("x", encoding="utf-8", newline="\n") as lines:
        for record in records:
            if fmt == "errlookup" and not record.fits_schema_v2:
                left_out += 1
                continue
            line = (
                {"record": record.to_errlookup(), "datasetVersion": dataset_version}
                if fmt == "errlookup"
                else record.to_errdex()
            )
            lines.write(dumps(line) + "\n")
            count += 1
    return Written(count, left_out)


def write_parquet(
    records: Iterable[Record],
    out: Path,
    symbols: Callable[[], Iterable[tuple[Release, SymbolTable]]] | None = None,
) -> int:
    """Write records as Parquet rows (camelCase columns, see ``PARQUET_SCHEMA``); return how many.
    ``symbols``, asked once the rows are written, gives the releases' symbol tables, kept in the
    file's metadata (``SYMBOLS_KEY``)."""
    count = 0
    with (
        replacing(out) as tmp,
        pq.ParquetWriter(tmp, PARQUET_SCHEMA, compression="zstd") as writer,
    ):
        for chunk in _chunks(records, _BATCH):
            rows = [record.to_errdex() for record in chunk]
            writer.write_batch(pa.RecordBatch.from_pylist(rows, schema=PARQUET_SCHEMA))
            count += len(chunk)
        tables = [
            [*release, base64.b64encode(table.dumps()).decode("ascii")]
            for release, table in (symbols() if symbols is not None else ())
        ]
        if tables:
            writer.add_key_value_metadata({SYMBOLS_KEY: json.dumps(tables, separators=(",", ":"))})
    return count


def parquet_symbols(path: Path) -> dict[Release, SymbolTable]:
    """The symbol tables a Parquet export keeps, by release; a table that cannot be read back
    is left out (its release imports without one), never a failure of the rows."""
    try:
        metadata = pq.read_metadata(path).metadata or {}
    except (pa.ArrowException, OSError) as exc:
        raise ErrdexError(f"{path}: not a readable Parquet file ({exc})") from exc
    found: dict[Release, SymbolTable] = {}
    try:
        rows = json.loads(metadata.get(SYMBOLS_KEY.encode(), b"[]"))
    except ValueError:
        return found
    for row in rows if isinstance(rows, list) else ():
        try:
            repo, package, version, data = row
            table = SymbolTable.loads(base64.b64decode(data, validate=True))
        except (ValueError, TypeError, binascii.Error):
            continue
        if table is not None and isinstance(repo, str):
            found[repo, package, version] = table
    return found


def read_jsonl(path: Path) -> Iterator[Record]:
    """Records from a JSONL file in either format, told apart line by line.

    An ``errlookup`` record has only schema v2 fields.  Extension fields then keep their
    defaults except those the v2 fields imply, so the imported record is as findable as a mined
    one: ``sites`` becomes its own location (kind ``http`` for http errors, ``log`` for console
    ones, else ``raise``), ``language`` follows the file extension (``unknown`` if unlisted), and
    ``enrichment`` is ``imported`` when the record brings prose of its own.  An ``errdex``
    record written before ``extensionVersion`` 2 has its guards and parameters read from the
    text it kept (``_upgraded``).
    """
    with path.open("rb") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = _parse(line)
            except ValidationError as exc:
                raise ErrdexError(f"{path}:{number}: invalid record: {describe(exc)}") from exc
            except ValueError as exc:
                raise ErrdexError(f"{path}:{number}: {exc}") from exc
            yield record


def read_parquet(path: Path) -> Iterator[Record]:
    """Records from a Parquet export, a batch at a time: each row is a ``to_errdex()`` dict.

    Maps are read back as dicts (pyarrow's default is pairs) and rows pass the same upgrade and
    validation as a JSONL line, so ``write_parquet`` then ``read_parquet`` gives the records back
    unchanged.  A file that is not Parquet, is cut short or lacks errdex's columns is refused
    with its reason."""
    try:
        parquet = pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise ErrdexError(f"{path}: not a readable Parquet file ({exc})") from exc
    with parquet:
        missing = [name for name in PARQUET_SCHEMA.names if name not in parquet.schema_arrow.names]
        if missing:
            raise ErrdexError(f"{path}: not an errdex Parquet export (no column {', '.join(missing[:3])})")
        batches = parquet.iter_batches(batch_size=_BATCH, columns=PARQUET_SCHEMA.names)
        number = 0
        while True:
            try:
                batch = next(batches, None)
            except (pa.ArrowException, OSError) as exc:
                raise ErrdexError(f"{path}: damaged Parquet file ({exc})") from exc
            if batch is None:
                return
            for row in batch.to_pylist(maps_as_pydicts="strict"):
                number += 1
                try:
                    record = Record.model_validate(_upgraded(row))
                except ValidationError as exc:
                    raise ErrdexError(f"{path}: row {number}: invalid record: {describe(exc)}") from exc
                yield record


def _parse(line: bytes) -> Record:
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise ValueError(f"not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object per line")
    if "record" not in data:
        return Record.model_validate(_upgraded(data))
    if not isinstance(data["record"], dict):
        raise ValueError('"record" must be a JSON object')
    return _from_errlookup(data["record"])


def _upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """An ``errdex`` record as this version writes it: one from extension version 1 kept its
    guards as text (``conditions``) and its parameters in the signature's text, which its
    language's entry reads into structure.  Anything malformed is left for validation to report."""
    if data.get("extensionVersion", 1) != 1:
        return data
    facts, conditions = data.get("facts", {}), data.get("conditions", [])
    language = languages.find(data["language"]) if isinstance(data.get("language"), str) else None
    if language is not None and isinstance(facts, dict) and isinstance(conditions, list):
        signature = facts.get("signature")
        texts = [c for c in conditions if isinstance(c, str)]
        facts = {**facts, **language.upgrade_facts(texts, signature if isinstance(signature, str) else None)}
    return {**data, "facts": facts, "extensionVersion": EXTENSION_VERSION}


def _from_errlookup(fields: dict[str, Any]) -> Record:
    file_path = fields.get("filePath")
    language = language_name(file_path) if isinstance(file_path, str) else "unknown"
    record = Record.model_validate({"language": language, **fields})
    site = Site(
        file_path=record.file_path,
        line_number=record.line_number,
        kind=site_kind(record.error_type),
    )
    written = record.documentation or record.trigger_scenarios or record.solutions
    implied = {
        "sites": [site],
        # Prose someone else wrote: `errdex enrich` leaves it alone unless told to replace it.
        "enrichment": "imported" if written else "none",
    }
    # A line that does carry extension fields keeps them.
    return record.model_copy(update={key: value for key, value in implied.items() if key not in fields})


def describe(exc: ValidationError, shown: int = 3) -> str:
    """Pydantic's multi-line report squeezed into one line: the first few problems."""
    errors = exc.errors()
    parts = [f"{'.'.join(map(str, e['loc'])) or 'record'}: {e['msg']}" for e in errors[:shown]]
    more = f" (and {len(errors) - shown} more)" if len(errors) > shown else ""
    return "; ".join(parts) + more


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    it = iter(records)
    while chunk := list(islice(it, size)):
        yield chunk


@contextmanager
def replacing(out: Path) -> Iterator[Path]:
    """A fresh path beside ``out`` to write to; it replaces ``out`` only if the block succeeds."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        yield tmp
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def import_records(
    records: Iterable[Record], store: Store, symbols: Mapping[Release, SymbolTable] | None = None
) -> list[RepoInfo]:
    """Load records into the store, replacing each release (repo, package, version) they hold
    and leaving the store's other releases as they are: importing the same file again changes
    nothing.

    Every record is read and validated before anything is written, so a bad line or row leaves
    the store as it was.  These formats carry records (and, in Parquet, symbol tables) only:
    each release's ``RepoInfo`` is rebuilt from its newest record, of kind ``import``.
    """
    tables = symbols or {}
    by_release: dict[tuple[str, str | None, str | None], list[Record]] = {}
    for record in records:
        by_release.setdefault((record.repo, record.package, record.version), []).append(record)
    infos = []
    for (repo, package, version), kept in by_release.items():
        newest = max(kept, key=lambda r: r.analyzed_at)
        info = RepoInfo(
            repo=repo,
            sha=newest.analyzed_sha,
            analyzed_at=newest.analyzed_at,
            kind="import",
            package=package,
            version=version,
        )
        infos.append(
            store.replace_repo(info, kept, release=True, symbols=tables.get((repo, package, version)))
        )
    return infos
