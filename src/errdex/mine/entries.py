"""Which files of an npm package Node loads: its entries (``Source.entries``) and every file
they reach through relative ``require`` and ``import``, as the extractor resolved them.

A package often ships one message at several files (axios's ``lib/core/settle.js`` and its
bundle ``dist/node/axios.cjs``; ajv's TypeScript ``lib/`` and the ``dist/`` built from it):
a message alone cannot say which ran, and the copy Node loads is the likelier one.
"""

from __future__ import annotations

from collections.abc import Mapping

from errdex.languages.ir import FileResult
from errdex.record import Record

#: Files reached from an entry, at most: a bundle is one file, a package rarely thousands.
_MAX_REACHED = 50_000


def loaded_files(results: list[FileResult], entries: Mapping[str, str]) -> dict[str, str]:
    """Each file (relative to the package) Node loads, with how: ``require`` wherever the
    CommonJS entry reaches it, else ``import``."""
    by_path = {r.path: r for r in results}
    by_module = {r.module: r for r in results if r.module}
    loaded: dict[str, str] = {}
    for how in ("require", "import"):
        pending = [path for path, side in entries.items() if side == how and path in by_path]
        while pending and len(loaded) < _MAX_REACHED:
            path = pending.pop()
            if path in loaded:
                continue
            loaded[path] = how
            for target in by_path[path].imports.values():
                found = _module(target, by_module)
                if found is not None and found.path not in loaded:
                    pending.append(found.path)
    return loaded


def _module(target: str, modules: Mapping[str, FileResult]) -> FileResult | None:
    """The file an import names (``./lib/errors.NotFound`` is ``./lib/errors``'s)."""
    if not target.startswith("./"):
        return None  # another package, or Node's own
    name = target
    while name:
        if name in modules:
            return modules[name]
        name, dot, _ = name.rpartition(".")
        if not dot:
            return None
    return None


def mark_loaded(records: list[Record], loaded: Mapping[str, str], prefix: str) -> list[Record]:
    """The records, each whose file Node loads saying how (``facts.loaded``)."""
    if not loaded:
        return records
    marked = []
    for record in records:
        how = loaded.get(record.file_path.removeprefix(prefix))
        if how is not None:
            record = record.model_copy(update={"facts": record.facts.model_copy(update={"loaded": how})})
        marked.append(record)
    return marked
