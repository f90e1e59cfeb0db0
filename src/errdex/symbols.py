"""A mined release's symbol table: what its code defines, so that a claim about its API can be
checked against the API itself.

A model's answer may call ``fabric.setup_jointly(...)`` or pass ``Trainer(fallback_to_cpu=True)``:
names that read well and do not exist.  Mining already walks every definition, so it keeps them
(each language's extractor adds its file's ``FileSymbols``; ``errdex.mine.symbols`` joins a
release's), and the store keeps one table per release beside its records.

Names are dotted keys, a module's own key followed by the qualified name inside it
(``lightning.fabric.fabric.Fabric.backward``; for JavaScript the module is the file as a relative
``require`` names it, ``./lib/router.Router``).  Nothing here knows a language: the table says
what is defined and what stands for what; the language's snippet reader says what a piece of code
asks of it (``errdex.languages.base.ClaimReader``).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol

from errdex.record import Parameter, ParameterKind

#: ``instance``: a value made by calling a class (``exports.program = new Command()``), whose
#: members are the class's.
SymbolKind = Literal["module", "class", "function", "attribute", "alias", "instance"]
#: How deep aliases and bases are followed: a re-export of a re-export, a base of a base.
MAX_HOPS = 16
#: How a file's table names its own module, before the module's key is known (``SELF.Command``).
SELF = "<module>"
#: How a forward names a method of the function's own class (``self.m``) and of its bases
#: (``super().m``): ``OWN_CLASS.m``, ``BASES.m``.
OWN_CLASS = "<class>"
BASES = "<bases>"
#: A member called or set, as source text writes it: ``.zero_grad(`` (what a table's ``called``
#: holds), ``.datamodule =`` (its ``assigned``, the object's name read back from just before it).
_MEMBER_USE = re.compile(r"\.[ \t]*([A-Za-z_$][\w$]*)[ \t]*(?:(\()|=(?!=))")
_OWNER = re.compile(r"([A-Za-z_$][\w$]*)$")


def member_uses(text: str, receivers: frozenset[str]) -> tuple[set[str], set[str]]:
    """What a file's code calls as methods, and the attributes it sets on other objects as a
    table keeps them: ``trainer.datamodule`` for ``self.trainer.datamodule = None``, the
    object's name folded as ``object_name`` folds a class's; not what is set on ``receivers``
    (``self.x =``: a class's own are in its table already).  One pass over the text."""
    called: set[str] = set()
    assigned: set[str] = set()
    for match in _MEMBER_USE.finditer(text):
        name = match.group(1)
        if match.group(2):
            called.add(name)
            continue
        start = match.start()
        owner = _OWNER.search(text, max(0, start - 64), start)
        if owner is not None and owner.group(1) not in receivers:
            assigned.add(f"{object_name(owner.group(1))}.{name}")
    return called, assigned


def object_name(name: str) -> str:
    """How code names an object of a class, folded: ``Trainer``, ``trainer``, ``data_module``
    and ``DataModule`` alike."""
    return name.replace("_", "").lower()


#: The key of a module's star imports (``from x import *``) inside it.
STAR = "*"
#: The key of the names a star import of a module takes, where it lists them (``__all__``).
EXPORTS = "__all__"
#: The most a table's JSON may hold once decompressed: a table read from a snapshot someone
#: else wrote is refused past it, not inflated without end (the largest libraries' are tens of MB).
MAX_TABLE_BYTES = 256 << 20


@dataclass(frozen=True, slots=True)
class Symbol:
    """One name a release defines."""

    kind: SymbolKind
    #: Whether a user's code is meant to use it, by the language's naming rules.
    public: bool = True
    #: A function's parameters as declared (the receiver left out of a method's); a class's own
    #: constructor's; None where it declares none (a class inheriting its constructor).
    parameters: tuple[Parameter, ...] | None = None
    #: A class's bases, an alias's target, a module's star imports, where a function passes its
    #: ``**kwargs`` on (``super().__init__``, ``?`` for a callee its file cannot name): dotted
    #: keys, each qualified as far as its file could tell (``torch.nn.Module`` lies outside the table).
    #: A forward may end ``@param`` (what the parameter defaults to: void where a caller passes
    #: it) and ``+a,b`` (its own parameters the forwarding call passes on).
    refers: tuple[str, ...] = ()
    #: Whether names beyond those listed may resolve on it: a class with its own ``__getattr__``
    #: or a base no name gives (``Generic[T]``, ``namedtuple(...)``): any name; a module that
    #: makes its names at run time (``__getattr__``, a CommonJS ``module.exports = value``): any
    #: name the release defines somewhere.
    open: bool = False
    #: For a class: a constructor the language makes for it (a decorator such as
    #: ``@dataclass``, a metaclass, ``__new__``), whose parameters no definition shows.
    built: bool = False


@dataclass(slots=True)
class FileSymbols:
    """What one file defines, as its extractor read it: the release's table is their union."""

    #: Qualified name inside the module (``""`` for the module itself) -> symbol.
    symbols: dict[str, Symbol] = field(default_factory=dict)
    #: Top-level modules the file imports (``torch`` for ``import torch.nn as nn``).
    imported: set[str] = field(default_factory=set)
    #: The names its code calls as methods (``x.name(``), whatever object they are called on.
    called: set[str] = field(default_factory=set)
    #: The attributes its code sets on other objects (``trainer.datamodule``: ``member_uses``).
    assigned: set[str] = field(default_factory=set)


Found = Literal["found", "missing", "unknown"]


@dataclass(frozen=True, slots=True)
class Resolved:
    """Where a name leads: a symbol (``found``), nothing (``missing``), or somewhere no table
    follows (``unknown``: outside every table errdex has, or computed at run time).

    ``key`` is the symbol's dotted key in ``table``; a built-in class of the language has no table
    (``key`` is its name).  ``instance`` marks a value of the class (what calling it gives)."""

    state: Found
    key: str | None = None
    symbol: Symbol | None = None
    table: SymbolTable | None = field(default=None, compare=False, repr=False)
    instance: bool = False

    @property
    def found(self) -> bool:
        return self.state == "found"

    @property
    def kind(self) -> SymbolKind | None:
        return self.symbol.kind if self.symbol is not None else None


UNKNOWN = Resolved("unknown")
MISSING = Resolved("missing")


@dataclass
class SymbolTable:
    """Every module, class, function, method and attribute one release defines.  Read-only once
    made: what it derives (its modules, roots, names) is worked out once."""

    language: str
    package: str | None = None
    version: str | None = None
    symbols: dict[str, Symbol] = field(default_factory=dict)
    #: The distributions (npm packages) its metadata declares it depends on, as named there.
    dependencies: tuple[str, ...] = ()
    #: Top-level modules outside the release its own code imports: dependencies, declared or not.
    imported: tuple[str, ...] = ()
    #: What a user's import names -> the module it loads, where the two differ (an npm package's
    #: name and its main file: ``express`` -> ``./index``).
    entries: dict[str, str] = field(default_factory=dict)
    #: Every name its own code calls as a method (``x.zero_grad()``), on its own objects or on
    #: its dependencies': where an object's class is open, what a method of it may be called.
    called: frozenset[str] = frozenset()
    #: Every attribute its own code sets on an object, with the object's name as ``object_name``
    #: folds it (``trainer.datamodule`` for ``self.trainer.datamodule = dm`` in another class):
    #: the objects of a class of that name may have it though the class never names it.
    assigned: frozenset[str] = frozenset()

    # -- reading ---------------------------------------------------------------------------------

    @cached_property
    def modules(self) -> frozenset[str]:
        return frozenset(key for key, s in self.symbols.items() if s.kind == "module")

    @cached_property
    def roots(self) -> frozenset[str]:
        """The top-level names a user imports the release by (``lightning``; ``express``)."""
        tops = {m.split(".")[0] for m in self.modules if not m.startswith(".")}
        return frozenset(tops | set(self.entries))

    @cached_property
    def names(self) -> frozenset[str]:
        """Every name the release defines anywhere, by its last part: a function's, a class's, a
        method's, an attribute's, a parameter's (what prose may quote without a path)."""
        found: set[str] = set()
        for key, symbol in self.symbols.items():
            found.add(key.rpartition(".")[2])
            found.update(p.name for p in symbol.parameters or ())
        return frozenset(found)

    @cached_property
    def _by_name(self) -> dict[str, list[str]]:
        by: dict[str, list[str]] = {}
        for key, symbol in self.symbols.items():
            if symbol.kind in ("class", "function"):
                by.setdefault(key.rpartition(".")[2], []).append(key)
        return by

    def named(self, name: str) -> list[str]:
        """The keys of the classes and functions whose own name is ``name``, public ones first."""
        keys = self._by_name.get(name, [])
        return sorted(keys, key=lambda k: (not self.symbols[k].public, k.count("."), k))

    def module_of(self, dotted: str) -> str | None:
        """The longest module key ``dotted`` starts with (the module it names a part of)."""
        modules = self.modules
        probe = dotted
        while probe:
            if probe in modules:
                return probe
            head, dot, _ = probe.rpartition(".")
            if not dot:
                return None
            probe = head
        return None

    # -- as data ---------------------------------------------------------------------------------

    def dumps(self) -> bytes:
        """The table as compressed JSON: the store's and the snapshots' one form."""
        rows = {
            key: [s.kind, int(s.public), _params_out(s.parameters), list(s.refers), int(s.open), int(s.built)]
            for key, s in sorted(self.symbols.items())
        }
        data = {
            "language": self.language,
            "package": self.package,
            "version": self.version,
            "dependencies": list(self.dependencies),
            "imported": list(self.imported),
            "entries": self.entries,
            "called": sorted(self.called),
            "assigned": sorted(self.assigned),
            "symbols": rows,
        }
        return zlib.compress(json.dumps(data, separators=(",", ":")).encode("utf-8", "surrogatepass"), 6)

    @classmethod
    def loads(cls, data: bytes) -> SymbolTable | None:
        """A table read back; None for bytes that are not one (another version's, damaged)."""
        try:
            inflate = zlib.decompressobj()
            text = inflate.decompress(data, MAX_TABLE_BYTES)
            if inflate.unconsumed_tail or not inflate.eof:
                return None  # larger than any table errdex writes, or cut short
            raw = json.loads(text.decode("utf-8", "surrogatepass"))
            symbols = {
                str(key): Symbol(
                    kind, bool(public), _params_in(params), tuple(refers), bool(is_open), bool(built)
                )
                for key, (kind, public, params, refers, is_open, built) in raw["symbols"].items()
            }
            return cls(
                str(raw["language"]),
                raw["package"],
                raw["version"],
                symbols,
                tuple(raw["dependencies"]),
                tuple(raw["imported"]),
                dict(raw["entries"]),
                frozenset(str(n) for n in raw.get("called", ())),
                frozenset(str(n) for n in raw.get("assigned", ())),
            )
        except (ValueError, KeyError, TypeError, zlib.error):
            return None


class Vocabulary(Protocol):
    """What a language knows with no table of a release: its built-in classes and, where errdex
    can read it without running it, its standard library."""

    #: Each built-in class (by name) with its bases, nearest first (``ValueError``:
    #: ``Exception``, ``BaseException``, ``object``).
    builtin_bases: Mapping[str, tuple[str, ...]]
    #: The member of a built-in class that stands for its instances (JavaScript's
    #: ``prototype``), where the language has one.
    instances: str | None

    def builtin_members(self, name: str) -> frozenset[str] | None:
        """The attributes a built-in class (or the language's global object) has; None for a
        name that is none of them."""
        ...

    def members(self) -> frozenset[str]:
        """Every member any built-in class or value of the language has (``flat``, ``strip``):
        what a method of an object no table follows may be."""
        ...

    def standard(self, module: str) -> SymbolTable | None:
        """The table of a standard-library module (``os``, ``json``; Node's ``fs``), where errdex
        has it; None for any other module."""
        ...


class Resolver:
    """Names looked up across the tables errdex has: the release's own, the other releases a
    store holds (``others``: by top-level name), the language's standard library and built-ins.
    A name rooted in none of them is ``unknown``, never ``missing``."""

    def __init__(
        self,
        own: SymbolTable | None,
        vocabulary: Vocabulary,
        others: Callable[[str], SymbolTable | None] | None = None,
    ) -> None:
        self.own = own
        self.vocabulary = vocabulary
        self._others = others

    def table_for(self, dotted: str) -> SymbolTable | None:
        """The table that answers for ``dotted``: the one whose modules it is rooted in."""
        own = self.own
        root = dotted.split(".")[0]
        if own is not None and (root in own.roots or own.module_of(dotted) is not None):
            return own
        if self._others is not None and (other := self._others(root)) is not None:
            return other
        return self.vocabulary.standard(dotted)

    def resolve(self, dotted: str, hops: int = 0) -> Resolved:
        """Where a dotted name leads, through aliases (re-exports), star imports, submodules
        and the bases of classes."""
        if hops > MAX_HOPS:
            return UNKNOWN
        if self.own is not None and self.own.entries:
            for name, entry in self.own.entries.items():
                if dotted == name or dotted.startswith(name + "."):
                    dotted = entry + dotted[len(name) :]
                    break
        table = self.table_for(dotted)
        if table is None:
            name, dot, rest = dotted.partition(".")
            if self.vocabulary.builtin_members(name) is None:
                return UNKNOWN
            at = Resolved("found", name, Symbol("class"))
            if not dot:
                return at
            return self.member(at, rest, hops) if "." not in rest else UNKNOWN
        found_module = table.module_of(dotted)
        if found_module is None:
            # A parent package with no file of its own (a namespace package) still holds its
            # modules: ``lightning`` of ``lightning.fabric.x``.
            if any(m.startswith(dotted + ".") for m in table.modules):
                return Resolved("found", dotted, Symbol("module"), table)
            return MISSING if dotted.split(".")[0] in table.roots else UNKNOWN
        module: str = found_module
        at = Resolved("found", module, table.symbols[module], table)
        for name in dotted[len(module) + 1 :].split(".") if len(dotted) > len(module) else ():
            at = self.member(at, name, hops)
            if not at.found:
                return at
        return at

    def member(self, owner: Resolved, name: str, hops: int = 0) -> Resolved:
        """``name`` looked up on ``owner``: a module's names, its star imports and submodules; a
        class's (or an instance's) members and those of its bases.  What a function returns,
        and an attribute's value, have members no table knows: ``unknown``."""
        if not owner.found or owner.key is None or owner.symbol is None or hops > MAX_HOPS:
            return owner if not owner.found else UNKNOWN
        key, symbol, table = owner.key, owner.symbol, owner.table
        if symbol.kind == "alias":
            return self.member(self.target(owner, hops), name, hops + 1)
        if symbol.kind == "instance":
            made = self.target(owner, hops)
            if not made.found or made.kind != "class":
                return UNKNOWN
            return self.member(
                Resolved("found", made.key, made.symbol, made.table, instance=True), name, hops + 1
            )
        if symbol.kind not in ("module", "class"):
            return UNKNOWN
        if table is None:  # a built-in class
            if name == self.vocabulary.instances:  # what its instances have (``Array.prototype.flat``)
                return Resolved("found", key, symbol, None, instance=True)
            members = self.vocabulary.builtin_members(key)
            if members is None:
                return UNKNOWN
            return Resolved("found", f"{key}.{name}", Symbol("attribute")) if name in members else MISSING
        own = f"{key}.{name}"
        if own in table.symbols:
            found = Resolved("found", own, table.symbols[own], table)
            return self.target(found, hops) if found.kind == "alias" else found
        if symbol.kind == "module":
            star = table.symbols.get(f"{key}.{STAR}")
            for target in star.refers if star is not None else ():
                listed = self._exports(target)
                if listed is not None and name not in listed:
                    continue  # ``from x import *`` takes only what ``x.__all__`` lists
                via = self.resolve(f"{target}.{name}", hops + 1)
                if via.state != "missing":
                    return via
            # A module that makes its names at run time (``__getattr__``, ``module.exports = x``)
            # may have any name the release defines somewhere, and no other.
            return UNKNOWN if symbol.open and name in table.names else MISSING
        # Set on its objects from outside it: ``trainer.datamodule = dm`` in another class.
        unknown = symbol.open or f"{object_name(key.rpartition('.')[2])}.{name}" in table.assigned
        for base in symbol.refers:
            via = self.member(self.resolve(base, hops + 1), name, hops + 1)
            if via.found:
                return via
            unknown = unknown or via.state == "unknown"
        return UNKNOWN if unknown else MISSING

    def _exports(self, module: str) -> tuple[str, ...] | None:
        """What a star import of ``module`` takes, where the module lists it."""
        table = self.table_for(module)
        listed = table.symbols.get(f"{module}.{EXPORTS}") if table is not None else None
        return listed.refers if listed is not None and listed.kind == "attribute" else None

    def target(self, alias: Resolved, hops: int = 0) -> Resolved:
        """What an alias (an import, a re-export) stands for."""
        if alias.symbol is None or not alias.symbol.refers:
            return UNKNOWN
        return self.resolve(alias.symbol.refers[0], hops + 1)

    def constructor(self, resolved: Resolved) -> tuple[Parameter, ...] | None:
        """The parameters a class is called with: its own constructor's, else its nearest base's;
        None where no table tells (a base outside them, a constructor the language builds)."""
        at = resolved
        for _ in range(MAX_HOPS):
            if not at.found or at.symbol is None or at.symbol.kind != "class" or at.table is None:
                return None
            if at.symbol.built:
                return None
            if at.symbol.parameters is not None:
                return at.symbol.parameters
            if at.symbol.open or not at.symbol.refers:
                return None
            at = self.resolve(at.symbol.refers[0])
        return None

    def takes(
        self, called: Resolved, keyword: str, depth: int = 0, passed: frozenset[str] = frozenset()
    ) -> bool:
        """Whether a call of ``called`` (a class or a function) may pass ``keyword=``: a parameter
        of that name, or ``**kwargs`` that go on to a callee taking it; True where no table can
        tell (a signature not known, keywords passed on to what errdex cannot name).  ``passed``:
        the other arguments the call gives by name, which void a default the function forwards
        to (``option(cls=MyOption)`` is no call of ``Option``)."""
        if depth > 4 or not called.found or called.symbol is None:
            return True
        function = self._runs(called)
        if function is None or function.symbol is None:
            return True
        params = function.symbol.parameters
        if params is None:
            return True
        if any(p.name == keyword and p.kind in ("positional", "keyword") for p in params):
            return True
        if not any(p.kind == "var-keyword" for p in params):
            return False
        forwards = function.symbol.refers if function.symbol.kind == "function" else ()
        if not forwards:
            return True  # kept by the function itself, or taken apart by it: any name may be read
        for forward in forwards:
            # ``target[@param][+passed,...]``: see ``FileSymbols``' forwards.
            target, _, gives = forward.partition("+")
            target, _, default_of = target.partition("@")
            if default_of and default_of in passed:
                return True  # the caller chose what is called in the default's place
            callee = self._forwarded(function, target)
            onward = frozenset(gives.split(",")) if gives else frozenset()
            if callee is None or self.takes(callee, keyword, depth + 1, onward):
                return True
        return False

    def _runs(self, called: Resolved) -> Resolved | None:
        """The function a call runs: the function itself, or a class's constructor (its own or a
        base's ``__init__``, else the class's own parameters as its table has them)."""
        if called.kind == "function":
            return called
        if called.kind != "class" or called.table is None:
            return None
        at: Resolved = called
        for _ in range(MAX_HOPS):
            if at.symbol is None or at.table is None or at.symbol.built:
                return None
            for method in ("__init__", "__new__"):  # the constructor a call of the class runs
                init = at.table.symbols.get(f"{at.key}.{method}")
                if init is not None:
                    if method == "__new__":  # its parameters, as the class holds them (``cls`` left out)
                        return at if at.symbol.parameters is not None else None
                    return Resolved("found", f"{at.key}.{method}", init, at.table)
            if at.symbol.parameters is not None:
                return at  # a constructor whose parameters the class itself holds (JavaScript's)
            if at.symbol.open or not at.symbol.refers:
                return None
            at = self.resolve(at.symbol.refers[0])
            if not at.found or at.kind != "class":
                return None
        return None

    def _forwarded(self, function: Resolved, target: str) -> Resolved | None:
        """What a function passes its ``**kwargs`` to: ``BASES.m`` is its class's bases' ``m``,
        ``OWN_CLASS.m`` its own class's; None where that cannot be found."""
        if target == "?" or function.key is None:
            return None
        owner = function.key.rpartition(".")[0]
        head, _, name = target.partition(".")
        if head in (OWN_CLASS, BASES):
            table = function.table
            holder = table.symbols.get(owner) if table is not None else None
            if holder is None or holder.kind != "class":
                return None
            bases = holder.refers if head == BASES else (owner,)
            for base in bases:
                found = self.member(
                    self.resolve(base) if base != owner else Resolved("found", owner, holder, table), name
                )
                if found.found:
                    return found
            return None
        found = self.resolve(target)
        return found if found.found else None

    def ancestors(self, resolved: Resolved) -> list[str] | None:
        """A class's bases and theirs, nearest first, by their own names (``MisconfigurationException``:
        ``Exception``, ``BaseException``, ``object``); None where the class is not known."""
        builtin = self.vocabulary.builtin_bases
        if not resolved.found or resolved.kind != "class" or resolved.key is None:
            return None
        if resolved.table is None:
            return list(builtin.get(resolved.key, ()))
        out: list[str] = []
        queue, seen = [resolved], set[str]()
        while queue and len(seen) <= MAX_HOPS * 4:
            at = queue.pop(0)
            if at.key is None or at.key in seen or at.symbol is None:
                continue
            seen.add(at.key)
            for base in at.symbol.refers:
                found = self.resolve(base)
                short = base.rpartition(".")[2]
                if short not in out:
                    out.append(short)
                if found.found and found.kind == "class":
                    if found.table is None:
                        out += [b for b in builtin.get(found.key or short, ()) if b not in out]
                    else:
                        queue.append(found)
        return out

    def class_named(self, name: str) -> Resolved:
        """A class by its written name: a dotted key, a built-in, or the release's one class of that
        own name (public first)."""
        found = self.resolve(name)
        if found.found or self.own is None:
            return found
        keys = [k for k in self.own.named(name.rpartition(".")[2]) if self.own.symbols[k].kind == "class"]
        if not keys:
            return found
        return Resolved("found", keys[0], self.own.symbols[keys[0]], self.own)


def _params_out(params: tuple[Parameter, ...] | None) -> list[list[str | None]] | None:
    return None if params is None else [[p.name, p.kind, p.default] for p in params]


_KINDS: dict[str, ParameterKind] = {
    "positional": "positional",
    "keyword": "keyword",
    "var-positional": "var-positional",
    "var-keyword": "var-keyword",
}


def _params_in(raw: Any) -> tuple[Parameter, ...] | None:
    if raw is None:
        return None
    return tuple(Parameter(str(name), _KINDS[kind], default) for name, kind, default in raw)


def accepts(parameters: Iterable[Parameter], keyword: str) -> bool:
    """Whether a call may pass ``keyword=`` to a function declaring ``parameters``."""
    params = list(parameters)
    return any(p.kind == "var-keyword" for p in params) or any(
        p.name == keyword and p.kind in ("positional", "keyword") for p in params
    )
