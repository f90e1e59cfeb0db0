"""The file-level extraction cache: a file unchanged between releases is not extracted again.

Extraction reads one file alone (``errdex.mine.pipeline.extract_file``), so what it gives is a
function of the file's bytes, where it lies in the tree (its path and module) and the miner's
code.  The key holds all three; the miner's part is a digest of the source of everything
extraction runs, so a changed extractor misses instead of serving results it would no longer
give.  What cross-file stages do (resolve, callers, facts) runs per release, on the results.

Results are kept pickled, and read back by an unpickler that builds only the intermediate
representation's own plain-data classes: a shared store is written by many machines, and a
pickle that names anything else (a function to call) is refused, never run.
"""

from __future__ import annotations

import functools
import hashlib
import io
import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import errdex
from errdex.languages.ir import FileResult
from errdex.mine.sources import SourceFile

#: Modules whose plain-data classes a cached result is made of.
_DATA_MODULES = ("errdex.languages.ir", "errdex.patterns", "errdex.record", "errdex.symbols")
#: What besides the languages extraction runs: its driver and the template reader.
_MINER_FILES = ("mine/pipeline.py", "mine/sources.py", "patterns.py", "record.py", "reading.py", "symbols.py")
#: Files past this size are read for their digest in pieces.
_PIECE = 1 << 20


class ExtractionCache(Protocol):
    """What the cache needs of a store (``errdex.store.Store`` has it)."""

    def extractions_get(self, keys: Iterable[str]) -> dict[str, bytes]: ...

    def extractions_put(self, items: dict[str, bytes]) -> None: ...


@dataclass(slots=True)
class CacheCount:
    """How the cache did over some files: ``hits`` not extracted, ``misses`` extracted."""

    hits: int = 0
    misses: int = 0

    @property
    def rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


@functools.cache
def miner_version() -> str:
    """A digest of errdex's version and the source of the code extraction runs."""
    root = Path(errdex.__file__).parent
    digest = hashlib.sha256(errdex.__version__.encode())
    files = sorted((root / "languages").rglob("*.py")) + [root / name for name in _MINER_FILES]
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def file_key(f: SourceFile) -> str | None:
    """The key of one file's extraction, or None when it cannot be read now (extraction will
    say why, uncached)."""
    content = hashlib.sha256()
    try:
        with f.path.open("rb") as handle:
            while piece := handle.read(_PIECE):
                content.update(piece)
    except OSError:
        return None
    place = (f.language, f.relative, f.module or "", str(f.is_package), str(f.is_test), str(f.max_size))
    where = "\0".join(place)
    return hashlib.sha256(f"{miner_version()}\0{where}\0{content.hexdigest()}".encode()).hexdigest()


def dump(result: FileResult) -> bytes:
    return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def load(data: bytes) -> FileResult | None:
    """A cached result, or None for one that is not a result made of the allowed classes."""
    try:
        result = _Restricted(io.BytesIO(data)).load()
    except (pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError, IndexError):
        return None
    return result if isinstance(result, FileResult) else None


class _Restricted(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        if module in _DATA_MODULES:
            found = getattr(__import__(module, fromlist=[name]), name, None)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"a cached extraction may not name {module}.{name}")
