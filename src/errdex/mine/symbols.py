"""A release's symbol table, joined from what each of its files defines (``FileResult.symbols``).

Each file's definitions are keyed inside its module; here they get the module's key in front
(``lightning.fabric.fabric`` + ``Fabric.backward``), the release's own modules are told apart from
the modules its code imports (its dependencies, declared or not), and what a user's import of the
package loads is noted where it is not a module's own name (an npm package's main file).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping

from errdex import languages
from errdex.languages.ir import FileResult
from errdex.symbols import SELF, SymbolTable


def symbol_table(
    results: Iterable[FileResult],
    *,
    package: str | None,
    version: str | None,
    dependencies: Iterable[str] = (),
    entries: Mapping[str, str] | None = None,
) -> SymbolTable:
    """The table of a release's files (test files and files not read hold none)."""
    symbols = {}
    imported: set[str] = set()
    called: set[str] = set()
    assigned: set[str] = set()
    spoken: Counter[str] = Counter()
    for result in results:
        if result.symbols is None or result.module is None or result.error:
            continue
        spoken[result.language] += 1
        module = result.module
        own = f"{SELF}."
        for qual, symbol in result.symbols.symbols.items():
            if symbol.refers and any(r.startswith(own) for r in symbol.refers):
                refers = tuple(f"{module}.{r[len(own) :]}" if r.startswith(own) else r for r in symbol.refers)
                symbol = dataclasses.replace(symbol, refers=refers)
            symbols[f"{module}.{qual}" if qual else module] = symbol
        imported |= result.symbols.imported
        called |= result.symbols.called
        assigned |= result.symbols.assigned
    language = spoken.most_common(1)[0][0] if spoken else ""
    entry = languages.find(language) if language else None
    modules = {key for key, symbol in symbols.items() if symbol.kind == "module"}
    loads = (
        entry.import_entries(package, dict(entries or {}), modules)
        if entry is not None and package is not None
        else {}
    )
    roots = {m.split(".")[0] for m in modules} | set(loads)
    return SymbolTable(
        language,
        package,
        version,
        symbols,
        dependencies=tuple(sorted(set(dependencies))),
        imported=tuple(sorted(imported - roots)),
        entries=loads,
        called=frozenset(called),
        assigned=frozenset(assigned),
    )
