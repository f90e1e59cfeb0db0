"""What an index's explanations are worth, counted over every record, with readings of our own.

    .venv/bin/python bench/index_report.py --db STORE

For an index of a real environment (``errdex index --python PYTHON --db STORE``), per package
and in total:

* ``solution``: share of records with at least one solution;
* ``leaks``: solutions that still hold one of the template's own ``{placeholder}``s (a set
  literal such as ``{None, True}`` is no leak);
* ``private try``: code fields whose ``try`` body calls a name with a private segment
  (``_helper``, ``obj._x``), read with ``ast`` from the code itself;
* ``warn except``: code fields catching a ``Warning`` class with ``except`` (right only where a
  ``warnings.simplefilter("error", ...)`` turns the warning into an error first: counted apart);
* ``no compile``: code fields that do not compile;
* ``orm outside``: records tagged with an ORM family whose package is no ORM library;
* ``unguarded``: records whose prose says the raise is unguarded although the raising line sits
  in an ``except`` handler, a loop, an ``else`` branch, a ``match`` case, under an ``if`` or
  after an early exit, as ``tests/guard_reader.py`` (an ``ast`` pass of its own) reads the source.

The source is read from the environment the index describes (its ``site-packages`` and standard
library, as the store's environment setting names them), never from errdex's facts.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from errdex.record import Record
from errdex.store import open_store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from guard_reader import UNGUARDED, Around, read

ORM_PACKAGES = {"SQLAlchemy", "Django", "peewee", "tortoise-orm", "pony", "sqlmodel"}
CODE_FIELDS = ("example_fix", "validation_code", "type_guard", "try_catch_pattern")


def private_calls(tree: ast.AST) -> bool:
    """Whether a ``try`` body calls a name with a segment that starts with ``_`` (not dunder)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            for call in (n for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Call)):
                name = ast.unparse(call.func)
                if any(p.startswith("_") and not p.startswith("__") for p in name.split(".")):
                    return True
    return False


def catches_warning(tree: ast.AST) -> bool:
    return any(
        isinstance(node, ast.ExceptHandler) and node.type is not None and "Warning" in ast.unparse(node.type)
        for node in ast.walk(tree)
    )


def source_roots(store_path: str) -> list[Path]:
    with open_store(store_path, readonly=True) as store:
        env = json.loads(store.meta_get("environment") or "{}")
    return [Path(p) for p in [*env.get("site", []), env.get("stdlib", "")] if p]


def guards_of(roots: list[Path], record: Record, cache: dict[str, dict[int, Around]]) -> dict[int, Around]:
    """What stands around each statement of the record's file (``tests/guard_reader.py``)."""
    path = record.file_path.removeprefix("Lib/") if record.repo == "python/cpython" else record.file_path
    if path not in cache:
        cache[path] = {}
        for root in roots:
            if (root / path).is_file():
                with contextlib.suppress(SyntaxError, ValueError, RecursionError):
                    cache[path] = read((root / path).read_bytes().decode("utf-8", "replace"))
                break
    return cache[path]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", required=True)
    args = parser.parse_args()
    roots = source_roots(args.db)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    around: dict[str, dict[int, Around]] = {}
    with open_store(args.db, readonly=True) as store:
        for record in store.records():
            for key in (record.package or record.repo, "total"):
                c = counts[key]
                c["records"] += 1
                c["solution"] += bool(record.solutions)
                marks = [f"{{{name}}}" for name in record.placeholders]
                c["leaks"] += sum(any(m in s for m in marks) for s in record.solutions)
                for name in CODE_FIELDS:
                    code = getattr(record, name)
                    if not code:
                        continue
                    c["code"] += 1
                    try:
                        tree = ast.parse(code)
                    except SyntaxError:
                        c["no compile"] += 1
                        continue
                    c["private try"] += private_calls(tree)
                    if catches_warning(tree):
                        c["warn except" if "simplefilter" not in code else "warn as error"] += 1
                tag = record.background_tag or ""
                c["orm outside"] += "orm" in tag.split("-") and (record.package or "") not in ORM_PACKAGES
                prose = " ".join([record.trigger_scenarios or "", record.documentation or ""])
                if UNGUARDED.search(prose):
                    c["says unguarded"] += 1
                    found = guards_of(roots, record, around).get(record.line_number)
                    if found is not None and found.kinds:
                        c["unguarded"] += 1
    columns = (
        "records", "solution", "leaks", "code", "no compile", "private try", "warn except", "warn as error",
        "orm outside", "says unguarded", "unguarded",
    )  # fmt: skip
    print(f"{'package':<14}" + "".join(f"{c:>15}" for c in columns))
    for key, c in sorted(counts.items(), key=lambda kv: (kv[0] == "total", kv[0])):
        cells = [str(c["records"]), f"{c['solution'] / c['records']:.0%}"] + [str(c[k]) for k in columns[2:]]
        print(f"{key[:14]:<14}" + "".join(f"{cell:>15}" for cell in cells))


if __name__ == "__main__":
    main()
