"""JavaScript's definitions as a symbol table, from the nodes the extractor's query already found.

A module's keys are what a stack frame and an importer name: its functions (``Router.use``,
``app.engine``), classes with the class they extend, the properties its code assigns
(``exports.json = ...`` is the module's ``json``, ``X.prototype.f`` is ``X.f``), and the names it
imports and exports as aliases.  CommonJS lets a module's exports be any value, so the table
answers "is this a name the package defines?" well and "which object has it?" only roughly:
``errdex.languages.javascript.claims`` asks it the first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import tree_sitter as ts

from errdex.languages.javascript.syntax import dotted, text_of
from errdex.record import Parameter
from errdex.symbols import SELF, STAR, FileSymbols, Symbol, SymbolKind

#: The owner of the names a file's computed properties may have (``proto[method] = ...``): no
#: importer reaches it by that key, but each is a name the package may define.
COMPUTED = "<computed>"
#: Where an assignment's target names the module's own exports.
_EXPORTS = ("module.exports.", "exports.")


def _public(qual: str) -> bool:
    return not any(part.startswith(("_", "#")) for part in qual.split("."))


def file_symbols(
    functions: Iterable[tuple[str, ts.Node]],
    classes: Iterable[tuple[str, str | None, ts.Node]],
    members: Iterable[ts.Node],
    imports: Mapping[str, str],
    parameters: Callable[[ts.Node], tuple[Parameter, ...]],
    computed: Iterable[ts.Node] = (),
) -> FileSymbols:
    """A file's definitions: ``functions`` by qualified name, ``classes`` with the class each
    extends (qualified), ``members`` the assignments to a property, ``imports`` the names the
    file binds to other modules (and exports from them)."""
    out = FileSymbols()
    symbols = out.symbols
    symbols[""] = Symbol("module")
    for name, base, _ in classes:
        symbols[name] = Symbol("class", _public(name), None, (base,) if base else ())
    quals: dict[int, str] = {}
    for qual, node in functions:
        quals[node.id] = qual
        if "<" in qual:  # anonymous, or local to another function: no importer reaches it
            continue
        owner, _, own = qual.rpartition(".")
        if own == "constructor" and owner in symbols:
            held = symbols[owner]
            symbols[owner] = Symbol(held.kind, held.public, parameters(node), held.refers, held.open)
            continue
        symbols[qual] = Symbol("function", _public(qual), parameters(node))
    for node in members:
        left = node.child_by_field_name("left")
        written = dotted(left) if left is not None else None
        if written and written.startswith("this.") and written.count(".") == 1:
            # ``this.registeredArguments = []`` in a method: an attribute of the class's objects.
            holder = _this_owner(node, quals)
            if holder is not None and holder in symbols:
                symbols.setdefault(f"{holder}.{written[5:]}", Symbol("attribute", _public(written[5:])))
            continue
        if not written or written.startswith(("this.", "super.")):
            continue
        for prefix in _EXPORTS:
            if written.startswith(prefix):
                written = written[len(prefix) :]
                break
        owner, _, own = written.rpartition(".")
        if owner.endswith(".prototype"):
            written = f"{owner.removesuffix('.prototype').rpartition('.')[2]}.{own}"
        value = _value(node.child_by_field_name("right"), imports)
        if value is None:
            symbols.setdefault(written, Symbol("attribute", _public(written)))
        elif value[1] != f"{SELF}.{written}":  # ``exports.Command = Command``: a name it has already
            symbols.setdefault(written, Symbol(value[0], _public(written), None, (value[1],)))
    for node in computed:
        assigned = node.child_by_field_name("left")
        receiver = assigned.child_by_field_name("object") if assigned is not None else None
        if receiver is not None and receiver.type == "this":
            # ``this[key] = value``: its objects get names made at run time (options stored as
            # properties): any name may be one of them.
            maker = _this_owner(node, quals)
            made = symbols.get(maker) if maker is not None else None
            if maker is not None and made is not None and made.kind == "class":
                symbols[maker] = Symbol(
                    made.kind, made.public, made.parameters, made.refers, True, made.built
                )
    for name, target in imports.items():
        if name.startswith("*"):
            star = symbols.get(STAR)
            symbols[STAR] = Symbol("alias", False, None, (*(star.refers if star else ()), target))
        else:
            symbols.setdefault(name, Symbol("alias", _public(name), None, (target,)))
        root = target.split(".")[0] if not target.startswith(".") else ""
        if root:
            out.imported.add(root)
    return out


def _value(right: ts.Node | None, imports: Mapping[str, str]) -> tuple[SymbolKind, str] | None:
    """What a property is assigned, where a table can follow it: another name (an alias), or an
    instance of a class (``exports.program = new Command()``); the name as the module sees it,
    ``SELF``-relative unless an import binds it."""
    if right is None:
        return None
    kind: SymbolKind = "alias"
    if right.type == "new_expression":
        kind, right = "instance", right.child_by_field_name("constructor")
        if right is None:
            return None
    if right.type not in ("identifier", "member_expression"):
        return None
    name = dotted(right)
    if not name or name.startswith(("this.", "super.")) or name in ("undefined", "null"):
        return None
    head, dot, rest = name.partition(".")
    if head in imports:
        return kind, f"{imports[head]}{dot}{rest}"
    return kind, name if kind == "instance" and name in _GLOBAL_CLASSES else f"{SELF}.{name}"


#: Classes of the language an exported instance may be made of: their members are known.
_GLOBAL_CLASSES = frozenset({"Map", "Set", "WeakMap", "WeakSet", "Array", "Object", "Error", "EventEmitter"})


#: Where ``this`` is bound anew; an arrow function keeps its enclosing one's.
_BINDS_THIS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "method_definition",
        "generator_function_declaration",
        "generator_function",
    }
)


def _this_owner(node: ts.Node, quals: Mapping[int, str]) -> str | None:
    """The class (or constructor function) whose objects ``this`` is where ``node`` stands: a
    method's class (``Command.option`` -> ``Command``), a capitalised function's own name."""
    at = node.parent
    while at is not None and at.type not in _BINDS_THIS:
        at = at.parent
    if at is None:
        return None
    qual = quals.get(at.id)
    if qual is None or "<" in qual:
        return None
    if at.type == "method_definition":
        return qual.rpartition(".")[0] or None
    return qual if "." not in qual and qual[:1].isupper() else None


def object_keys(node: ts.Node) -> list[str]:
    """The keys of an object literal (``module.exports = { parse, format: fmt }``)."""
    keys = []
    for child in node.named_children:
        if child.type == "shorthand_property_identifier":
            keys.append(text_of(child))
        elif child.type in ("pair", "method_definition"):
            key = child.child_by_field_name("key") or child.child_by_field_name("name")
            if key is not None and key.type in ("property_identifier", "identifier"):
                keys.append(text_of(key))
    return keys
