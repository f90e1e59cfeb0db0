"""The labelled answers: for real records of real packages, each field a model may write,
written twice, once true and once with one labelled falsehood (``model_answers/``).

``dev/`` is the set the verifier's rules were written against.  ``frozen/`` was written apart,
before those rules, and measured; its misses then led to rules made general (so it is no longer
unseen).  ``heldout/`` was written last, by hands that never read errdex's source, on records of
neither, and measured once the rules stood.  Each file names its package and version; a record is
found by its key (the file and line of its first site) in the package mined as the tests mine it
(``mine_package``), and its message is checked, so a set never silently points at another record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.mine import MineResult, mine
from errdex.record import Record
from npm import fetch_npm
from pypi import fetch_package

ANSWERS = Path(__file__).resolve().parent / "model_answers"
SETS = ("dev", "frozen", "heldout")
SHA = "0" * 40
#: How each package is fetched and mined: registry, sdist?, repository, path prefix.
PACKAGES: dict[str, tuple[str, bool, str, str]] = {
    "lightning": ("pypi", False, "Lightning-AI/pytorch-lightning", "src/"),
    "click": ("pypi", True, "pallets/click", ""),
    "requests": ("pypi", True, "psf/requests", ""),
    "express": ("npm", False, "expressjs/express", ""),
    "axios": ("npm", False, "axios/axios", ""),
    "commander": ("npm", False, "tj/commander.js", ""),
}
#: The kinds of falsehood, and those no field may ever carry.
KINDS = (
    "wrong-condition", "invented-name", "missing-api", "wrong-class", "wrong-caught", "invented-url",
    "pip-install", "shell-code", "version-claim", "injection",
)  # fmt: skip
HARMFUL = frozenset({"pip-install", "shell-code", "invented-url", "injection"})


@dataclass(frozen=True, slots=True)
class Field:
    """One field of one record, true and false."""

    set: str
    package: str
    file: str
    line: int
    name: str
    true: Any
    false: Any
    kind: str
    note: str


def root_of(package: str, version: str) -> Path:
    registry, sdist, _, _ = PACKAGES[package]
    return fetch_package(package, version, sdist=sdist) if registry == "pypi" else fetch_npm(package, version)


def mine_package(package: str, version: str) -> MineResult:
    """The package mined as the sets' keys expect (its repository, a zero commit, its prefix)."""
    _, _, repo, prefix = PACKAGES[package]
    return mine(root_of(package, version), repo=repo, sha=SHA, path_prefix=prefix, jobs=1)


def files(which: str) -> list[Path]:
    return sorted((ANSWERS / which).glob("*.json"))


def fields(which: str) -> Iterator[Field]:
    """Every labelled field of one set."""
    for path in files(which):
        data = json.loads(path.read_text(encoding="utf-8"))
        for record in data["records"]:
            key = record["key"]
            for name, value in record["fields"].items():
                place = (data["package"], key["file"], int(key["line"]))
                yield Field(
                    which, *place, name, value["true"], value["false"], value["kind"], value.get("note", "")
                )


def releases(which: str) -> dict[str, str]:
    """The packages a set is about, with their versions."""
    found = {}
    for path in files(which):
        data = json.loads(path.read_text(encoding="utf-8"))
        found[data["package"]] = data["version"]
    return found


def by_key(records: list[Record]) -> dict[tuple[str, int], Record]:
    return {(r.file_path, r.line_number): r for r in records}


def answers(which: str, variant: str) -> dict[tuple[str, int], dict[str, Any]]:
    """What the test server answers for each record: every field's ``true`` (or ``false``) text."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for f in fields(which):
        out.setdefault((f.file, f.line), {})[f.name] = f.true if variant == "true" else f.false
    return out


def messages(which: str) -> dict[tuple[str, int], str]:
    """Each record's message as the set wrote it down, to check a key still finds it."""
    out = {}
    for path in files(which):
        data = json.loads(path.read_text(encoding="utf-8"))
        for record in data["records"]:
            out[record["key"]["file"], int(record["key"]["line"])] = record["message"]
    return out
