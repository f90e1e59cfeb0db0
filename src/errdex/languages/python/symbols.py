"""Python's definitions as a symbol table: what the walker passes on of each ``def``, ``class``,
assignment and import, and Python's own vocabulary (built-in classes, the standard library).

The walker visits every statement already; it hands each definition it meets at a module's or
a class's top (and each ``self.x = ...`` in a method) to a ``FileDefinitions``, so the table
costs no walk of its own.  The standard library is read the same way, from this interpreter's own
source files, on first use: never imported, so that a name a model wrote cannot run a module.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path
from typing import Any

from errdex.languages.python.names import is_public
from errdex.languages.python.syntax import dotted
from errdex.record import Parameter
from errdex.symbols import EXPORTS, STAR, FileSymbols, Symbol, SymbolTable

#: Decorators that make a method read like an attribute.
_PROPERTIES = frozenset({"property", "cached_property", "functools.cached_property"})
_ACCESSORS = (".setter", ".getter", ".deleter")
#: Methods that make any attribute resolve, or make the constructor the language's.
_OPEN_ATTRIBUTES = frozenset({"__getattr__", "__getattribute__"})


class FileDefinitions:
    """One module's definitions, as the walker meets them."""

    __slots__ = ("module", "out", "own_root", "public_module")

    def __init__(self, out: FileSymbols, module: str | None) -> None:
        self.out = out
        self.module = module
        self.own_root = (module or "").split(".")[0]
        self.public_module = not any(part.startswith("_") for part in (module or "").split("."))
        out.symbols[""] = Symbol("module", self.public_module)

    def _public(self, qual: str) -> bool:
        """``names.is_public`` of a name in this module, its module's part worked out once."""
        if not self.public_module:
            return False
        if qual[0] != "_" and "._" not in qual:
            return True
        return is_public(qual, None)

    def function(
        self,
        qual: str,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        params: tuple[Parameter, ...] | None,
        forwards: tuple[str, ...] = (),
    ) -> None:
        """A ``def`` at a module's or a class's top; ``params`` as declared, receiver left out;
        ``forwards``, where it passes its ``**kwargs`` on."""
        symbols = self.out.symbols
        decorators = {_decorator(d) for d in node.decorator_list} if node.decorator_list else set()
        if decorators and (decorators & _PROPERTIES or any(d.endswith(_ACCESSORS) for d in decorators)):
            symbols.setdefault(qual, Symbol("attribute", self._public(qual)))
            return
        symbols[qual] = Symbol("function", self._public(qual), params, forwards)
        owner, _, name = qual.rpartition(".")
        if name in _OPEN_ATTRIBUTES:
            holder = symbols.get(owner)
            if holder is not None:
                symbols[owner] = _replace(holder, open=True)
        elif name in ("__init__", "__new__") and owner in symbols and symbols[owner].kind == "class":
            holder = symbols[owner]
            if name == "__new__" and params:
                params = params[1:]  # ``cls``: a static method by the language, called with the class
            if name == "__init__" or holder.parameters is None:
                symbols[owner] = _replace(holder, parameters=params)

    def klass(self, qual: str, node: ast.ClassDef, bases: tuple[str, ...]) -> None:
        """A ``class`` at a module's or a class's top, its bases qualified as the file tells."""
        # A base the file cannot name (``Generic[T]``, ``namedtuple(...)``) may give it any member;
        # that, a metaclass or a decorator, a constructor no definition shows.
        unnamed = len(bases) != len(node.bases)
        built = bool(node.decorator_list or node.keywords) or unnamed
        self.out.symbols[qual] = Symbol("class", self._public(qual), None, bases, unnamed, built)

    def attribute(self, qual: str) -> None:
        """A name a module or a class binds (``X = ...``, ``self.x = ...``), unless defined already."""
        self.out.symbols.setdefault(qual, Symbol("attribute", self._public(qual)))

    def exports(self, names: tuple[str, ...]) -> None:
        """``__all__ = [...]``: the names a star import of the module takes."""
        self.out.symbols[EXPORTS] = Symbol("attribute", False, None, names)

    def alias(self, name: str, target: str) -> None:
        """A module-level import: ``name`` stands for ``target`` (``*module`` for a star import)."""
        symbols = self.out.symbols
        if name.startswith("*"):
            star = symbols.get(STAR)
            symbols[STAR] = Symbol("alias", False, None, (*(star.refers if star else ()), target))
            return
        symbols.setdefault(name, Symbol("alias", not name.startswith("_"), None, (target,)))

    def imported(self, target: str) -> None:
        """A module any import of the file names: the top-level ones outside the package are its
        dependencies, declared or not."""
        root = target.split(".")[0]
        if root and root != self.own_root:
            self.out.imported.add(root)


def _decorator(node: ast.expr) -> str:
    return dotted(node.func if isinstance(node, ast.Call) else node) or ""


def _replace(symbol: Symbol, **changes: Any) -> Symbol:
    return dataclasses.replace(symbol, **changes)


# -- Python's own vocabulary -------------------------------------------------------------------


def _bases_of(cls: type) -> tuple[str, ...]:
    return tuple(base.__name__ for base in cls.__mro__[1:])


#: Every built-in class with its bases, nearest first: the exception hierarchy above all.
BUILTIN_BASES: dict[str, tuple[str, ...]] = {
    name: _bases_of(value) for name, value in vars(builtins).items() if isinstance(value, type)
}


@lru_cache(maxsize=256)
def builtin_members(name: str) -> frozenset[str] | None:
    """The attributes of a built-in class (``str``, ``ValueError``), of ``builtins`` itself; and of
    a standard module errdex itself has loaded and that has no source to read (``sys``)."""
    if name == "builtins":
        return frozenset(dir(builtins))
    value = vars(builtins).get(name)
    if isinstance(value, type):
        return frozenset(dir(value))
    return None


#: Where this interpreter's standard library lies: read, never imported.
_STDLIB = Path(sysconfig.get_paths()["stdlib"])
#: The largest standard module errdex reads for its names (``typing.py`` is about 130 KB).
_STDLIB_LIMIT = 2 << 20


@lru_cache(maxsize=128)
def _standard_table(root: str) -> SymbolTable | None:
    """One standard top-level module's table: its file, or its package's files (not the tests)."""
    if root not in sys.stdlib_module_names or (root.startswith("_") and root not in sys.modules):
        return None
    from errdex.languages.python.extract import extract

    table = SymbolTable("python", "python", sys.version.split()[0])
    package = _STDLIB / root
    files: list[tuple[Path, str, bool]] = []
    if (package / "__init__.py").is_file():
        for path in sorted(package.rglob("*.py")):
            relative = path.relative_to(_STDLIB).with_suffix("")
            if "test" in relative.parts or "tests" in relative.parts:
                continue
            is_package = relative.name == "__init__"
            parts = relative.parts[:-1] if is_package else relative.parts
            files.append((path, ".".join(parts), is_package))
    elif (_STDLIB / f"{root}.py").is_file():
        files.append((_STDLIB / f"{root}.py", root, False))
    elif root in sys.modules:  # compiled in (``sys``, ``itertools``): what errdex has loaded
        loaded = sys.modules[root]
        table.symbols[root] = Symbol("module")
        for name in dir(loaded):
            table.symbols[f"{root}.{name}"] = Symbol("attribute", not name.startswith("_"))
        return table
    else:
        return None
    for path, module, is_package in files:
        try:
            if path.stat().st_size > _STDLIB_LIMIT:
                continue
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        result = extract(text, str(path), module, is_package)
        if result.symbols is None:
            continue
        for qual, symbol in result.symbols.symbols.items():
            table.symbols[f"{module}.{qual}" if qual else module] = symbol
    return table


def standard(module: str) -> SymbolTable | None:
    """The table of the standard-library module ``module`` is part of, read from this
    interpreter's own files; None for a module of no standard top-level name."""
    return _standard_table(module.split(".")[0])
