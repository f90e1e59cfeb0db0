"""What a language's claim reader returns: code someone else wrote (a model's fix, a code span in
its prose) taken apart into what it asks of the library, and a test read as structure.

Nothing here resolves a name: ``errdex.enrich.verify`` looks each chain up in the symbol tables
(``errdex.symbols``) and compares each test with the record's guards (``errdex.enrich.claims``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

#: How the first name of a chain is bound in the snippet: an import (its module path), a name the
#: snippet assigns from a chain (``trainer = Trainer()``), one it binds otherwise (a parameter, a
#: loop variable), the language's own (``len``, ``JSON``), a literal's type (``"x".strip()``), or
#: nothing at all (a free name: the user's own object).
Rooted = Literal["import", "assigned", "local", "builtin", "literal", "free"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step along a chain: an attribute (``name``), or a call of what came before it."""

    name: str | None = None
    #: For a call: the keyword arguments it passes by name, and whether it spreads a mapping
    #: (``**kw``: any keyword may be in it).
    call: bool = False
    keywords: tuple[str, ...] = ()
    spread: bool = False


@dataclass(frozen=True, slots=True)
class Chain:
    """What a piece of code reaches from one name: ``lightning.Fabric(devices=2).setup`` is the
    import ``lightning`` then ``Fabric``, a call with ``devices``, then ``setup``."""

    rooted: Rooted
    #: The import's module path (``lightning.pytorch``), the name itself, or the literal's type.
    root: str
    steps: tuple[Step, ...] = ()
    #: For ``assigned``: the chain the name was assigned from.
    source: Chain | None = None

    @property
    def written(self) -> str:
        """The chain as text, for a reason (``lightning.Fabric().setup``)."""
        parts = [self.root]
        for step in self.steps:
            parts.append("()" if step.call else f".{step.name}")
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class Snippet:
    """A piece of code, read."""

    #: Modules imported (``os.path``; ``./x`` or ``.x`` for a relative one).
    imports: tuple[str, ...] = ()
    #: Every chain the code reads or calls, longest first within an expression.
    chains: tuple[Chain, ...] = ()
    #: Classes caught (``except X``, ``instanceof X``) and raised, as chains.
    caught: tuple[Chain, ...] = ()
    raised: tuple[Chain, ...] = ()
    #: Calls the language counts as actions on the user's system (``os.system``,
    #: ``child_process.exec``, a network call), each as written, with why.
    dangerous: tuple[tuple[str, str], ...] = ()
    #: The tests the code makes (an ``if``'s), as the language reads them.
    tests: tuple[str, ...] = ()
    #: The names the code defines itself: functions, classes, methods, attributes it sets and
    #: keys of objects it builds (what ``obj.name()`` may call without any library having it).
    defines: frozenset[str] = frozenset()


#: The relations a test states of its subject, as every language reads them.
Relation = Literal[
    "none", "not-none", "truthy", "falsy", "==", "!=", "<", "<=", ">", ">=", "is-a", "not-a", "in",
    "not-in", "has", "lacks",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Atom:
    """One test, as ``subject relation operand``: ``model is None`` is (``model``, ``none``);
    ``typeof fn !== 'function'`` is (``fn``, ``not-a``, ``function``); ``n > 1`` is (``n``, ``>``, ``1``)."""

    subject: str
    relation: Relation
    operand: str | None = None


@dataclass(frozen=True, slots=True)
class Test:
    """A test read as atoms that must all hold (``a and b``); ``exact`` is False where the test
    also says more than the atoms do (an ``or``, a call the reader cannot read)."""

    atoms: tuple[Atom, ...]
    exact: bool = True


#: A call whose arguments do not parse as written (``f(a, ...: b)``): its callee, read alone.
ELIDED_CALL = re.compile(r"([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\((.*)\)", re.S)
