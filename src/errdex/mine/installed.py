"""Where a known raise helper of another package raises, when that package is installed beside
the mined one: a call of it is a site of the calling package, and the stack of the error it
makes starts in the helper (``Site.via``), at a line only the installed file can tell.

A package mined inside a ``node_modules`` tree (``path_prefix="node_modules/joi/"``) finds a
dependency as Node does, in the ``node_modules`` folders up from its own, but never above the
tree its prefix names: the via is a path of that tree (``node_modules/@hapi/hoek/lib/assert.js``).
The helper's file is read and extracted, never run."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from errdex.languages import Language
from errdex.languages.ir import HelperDef
from errdex.mine.sources import DEFAULT_MAX_FILE_SIZE, SourceFile


def installed_helpers(language: Language, files: list[SourceFile], prefix: str) -> Mapping[str, HelperDef]:
    """The language's known helpers, each whose package is installed beside the mined files
    with its raise's path and line."""
    known = language.known_helpers()
    root = _root(files)
    if root is None or not prefix or not any(h.defined_in for h in known.values()):
        return known
    # One helper is often known by several names (``@hapi/hoek.assert``, its file's default).
    found: dict[int, tuple[str, int] | None] = {}
    out = dict(known)
    for key, helper in known.items():
        sink = helper.sink
        if helper.defined_in is None or sink is None:
            continue
        if id(helper) not in found:
            found[id(helper)] = _raise_of(helper, helper.defined_in, root, prefix, language)
        where = found[id(helper)]
        if where is not None:
            out[key] = replace(helper, sink=replace(sink, path=where[0], line=where[1]))
    return out


def _root(files: list[SourceFile]) -> Path | None:
    """The mined directory, as its files' paths show."""
    for f in files:
        depth = len(Path(f.relative).parts)
        if depth and len(f.path.parts) > depth:
            return f.path.parents[depth - 1]
    return None


def _raise_of(
    helper: HelperDef, spec: str, root: Path, prefix: str, language: Language
) -> tuple[str, int] | None:
    """Where ``helper`` (its ``defined_in``, ``spec``) raises its message parameter, installed:
    the path from the mined root (``../@hapi/hoek/lib/assert.js``, which the prefix's tree
    holds) and the line; else None."""
    levels = len(Path(prefix).parts)  # how far up the tree the prefix names goes
    top = root.parents[levels - 1] if levels <= len(root.parents) else None
    if top is None:
        return None
    for up in range(levels + 1):
        folder = root.parents[up - 1] if up else root
        base = (folder if folder.name == "node_modules" else folder / "node_modules") / spec
        for path in (base.with_name(base.name + ".js"), base / "index.js"):
            if not path.is_file() or not path.resolve().is_relative_to(top.resolve()):
                continue
            relative = Path(os.path.relpath(path, root)).as_posix()
            if posixpath.normpath(prefix + relative).startswith(".."):
                return None
            line = _line(helper, path, relative, language)
            return None if line is None else (relative, line)
    return None


def _line(helper: HelperDef, path: Path, named: str, language: Language) -> int | None:
    try:
        text = language.read_source(path, DEFAULT_MAX_FILE_SIZE)
    except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
        return None
    result = language.extract(text, named, None, False)
    raises = (
        s.line
        for s in result.sites
        if s.kind == "raise" and s.template is not None and helper.param in s.template.placeholders
    )
    return next(raises, None)
