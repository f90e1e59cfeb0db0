"""Read, independently of errdex, which blocks stand around each statement of a Python file.

errdex's walker records the guards on the path to every site; this reader is a second, separate
``ast`` pass that knows nothing of it, to check the prose written from those guards.  For each
line that starts a statement it says which of these lie on the way from the enclosing function
(or class, or module) to that statement:

* ``if``          inside the body of an ``if`` or ``elif``
* ``else``        inside the ``else`` of an ``if``, a ``for``, a ``while`` or a ``try``
* ``loop``        inside the body of a ``for`` or ``while``
* ``except``      inside an ``except`` handler (its classes are kept, innermost handler last)
* ``match-case``  inside a ``case`` of a ``match``
* ``early-exit``  after an ``if`` whose body ends in ``return``, ``raise``, ``continue`` or
                  ``break``, earlier in the same block or in a block around it

``tally`` holds errdex's records against it: which are guarded, which prose says they are not
(the words errdex uses for a site with no guard, ``UNGUARDED``), and which raises in a handler
name every class it catches in their ``triggerScenarios``.

Run it as ``python tests/guard_reader.py FILE LINE`` to print what it finds at one line.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The words errdex uses for a site with no guard at all (``enrich/static.py``, ``_when``).
UNGUARDED = re.compile(r"whenever that line is reached|finds no guard|no `if` guards it")
GUARDS = ("except", "early-exit", "loop", "else", "match-case", "if")

_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class Around:
    """What stands around one statement."""

    kinds: frozenset[str] = frozenset()
    #: The classes each enclosing ``except`` names, as written, outermost first; an empty
    #: tuple for a bare ``except``.
    handlers: tuple[tuple[str, ...], ...] = field(default=())

    def plus(self, kind: str, handler: tuple[str, ...] | None = None) -> Around:
        handlers = self.handlers if handler is None else (*self.handlers, handler)
        return Around(self.kinds | {kind}, handlers)


def read(source: str) -> dict[int, Around]:
    """Line -> what stands around the innermost statement that starts on it."""
    found: dict[int, Around] = {}
    _block(ast.parse(source).body, Around(), found)
    return found


def read_file(path: Path) -> dict[int, Around]:
    return read(path.read_text(encoding="utf-8"))


def _block(statements: list[ast.stmt], around: Around, found: dict[int, Around]) -> None:
    for statement in statements:
        found[statement.lineno] = around
        _statement(statement, around, found)
        if isinstance(statement, ast.If) and isinstance(statement.body[-1], _EXITS):
            around = around.plus("early-exit")


def _statement(node: ast.stmt, around: Around, found: dict[int, Around]) -> None:
    if isinstance(node, _SCOPES):
        _block(node.body, Around(), found)  # a new scope: nothing outside it guards its body
    elif isinstance(node, ast.If):
        _block(node.body, around.plus("if"), found)
        _block(node.orelse, around.plus("else"), found)
    elif isinstance(node, ast.For | ast.AsyncFor | ast.While):
        _block(node.body, around.plus("loop"), found)
        _block(node.orelse, around.plus("else"), found)
    elif isinstance(node, ast.Try | ast.TryStar):
        _block(node.body, around, found)
        for handler in node.handlers:
            _block(handler.body, around.plus("except", _classes(handler.type)), found)
        _block(node.orelse, around.plus("else"), found)
        _block(node.finalbody, around, found)
    elif isinstance(node, ast.With | ast.AsyncWith):
        _block(node.body, around, found)
    elif isinstance(node, ast.Match):
        for case in node.cases:
            _block(case.body, around.plus("match-case"), found)


def _classes(node: ast.expr | None) -> tuple[str, ...]:
    if node is None:
        return ()
    elements = node.elts if isinstance(node, ast.Tuple) else [node]
    return tuple(ast.unparse(e) for e in elements)


@dataclass
class Tally:
    """errdex's records against this reading."""

    read: int = 0
    #: Records whose first site is in no ``.py`` file this reader can open.
    unread: int = 0
    #: Records read with no ``triggerScenarios`` at all (their enrichment failed).
    unwritten: int = 0
    guarded: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    #: Guarded records whose prose says they are not: ``path:line [kinds]``.
    said_unguarded: list[str] = field(default_factory=list)
    #: Records the reader finds nothing around whose prose still names a guard, without any
    #: in their facts (none is expected: a ``with`` or ``assert`` is a fact the reader skips).
    guards_from_nowhere: list[str] = field(default_factory=list)
    in_handler: int = 0
    named: int = 0
    in_bare_handler: int = 0
    #: Raises in a handler whose triggers leave one of its classes out.
    unnamed: list[str] = field(default_factory=list)

    def add(self, root: Path, records: Iterable[Any]) -> None:
        files: dict[Path, dict[int, Around]] = {}
        for record in records:
            site = record.sites[0]
            path = root / site.file_path
            where = f"{site.file_path}:{site.line_number}"
            if path.suffix != ".py" or not path.is_file():
                self.unread += 1
                continue
            if path not in files:
                files[path] = read_file(path)
            around = files[path].get(site.line_number)
            if around is None:
                self.unread += 1
                continue
            self.read += 1
            self.unwritten += not record.trigger_scenarios
            kinds = [k for k in GUARDS if k in around.kinds]
            self.by_kind.update(kinds)
            prose = " ".join([record.trigger_scenarios, record.documentation, record.common_situations])
            if kinds:
                self.guarded += 1
                if UNGUARDED.search(prose):
                    self.said_unguarded.append(f"{where} {kinds}")
            elif not UNGUARDED.search(record.trigger_scenarios) and not record.facts.guards:
                self.guards_from_nowhere.append(where)
            if around.handlers and around.handlers[-1]:
                self.in_handler += 1
                if all(f"`{c}`" in record.trigger_scenarios for c in around.handlers[-1]):
                    self.named += 1
                else:
                    self.unnamed.append(where)
            elif around.handlers:
                self.in_bare_handler += 1

    @property
    def named_share(self) -> float:
        return self.named / self.in_handler if self.in_handler else 0.0

    def __str__(self) -> str:
        kinds = ", ".join(f"{k} {self.by_kind[k]}" for k in GUARDS)
        return (
            f"{self.read} records read ({self.unread} not, {self.unwritten} without triggers),"
            f" {self.guarded} guarded ({kinds});"
            f" {len(self.said_unguarded)} said to run unguarded; {self.in_handler} raised in a handler"
            f" that names its classes, {self.named} ({self.named_share:.1%}) name them all in"
            f" triggerScenarios; {self.in_bare_handler} in a bare except"
        )


if __name__ == "__main__":
    where = read_file(Path(sys.argv[1])).get(int(sys.argv[2]))
    print(where if where is not None else "no statement starts on that line")
