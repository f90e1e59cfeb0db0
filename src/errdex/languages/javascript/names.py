"""JavaScript's names: its builtin errors, and how code calls a function given its qualified name.

Kept free of the parser, so that reading a pasted stack trace does not load tree-sitter.
"""

from __future__ import annotations

import functools
import re

JAVASCRIPT = "javascript"
TYPESCRIPT = "typescript"

#: Error classes every JavaScript runtime has, and the ones Node and browsers add.
BUILTIN_ERRORS = frozenset(
    {
        "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError",
        "URIError", "AggregateError", "DOMException", "SystemError", "AssertionError",
    }
)  # fmt: skip
#: Names every script has without an import or a ``require``.
GLOBALS = frozenset(
    {
        *BUILTIN_ERRORS, "Object", "Array", "String", "Number", "Boolean", "Symbol", "BigInt",
        "Math", "JSON", "Date", "RegExp", "Map", "Set", "WeakMap", "WeakSet", "Promise",
        "Reflect", "Proxy", "Buffer", "process", "console", "globalThis", "undefined", "NaN",
        "Infinity", "isNaN", "isFinite", "parseInt", "parseFloat", "require", "module",
        "exports", "setTimeout", "clearTimeout", "setImmediate", "queueMicrotask", "URL",
        "URLSearchParams", "TextEncoder", "TextDecoder", "fetch", "structuredClone",
    }
)  # fmt: skip
#: What a method is called on inside its own class.
RECEIVERS = frozenset({"this"})
CONSTRUCTOR = "constructor"


def owner_and_name(function: str | None) -> tuple[str, str] | None:
    """The class a function belongs to ("" for a plain function) and its own name; None where
    code elsewhere cannot call it by name (a function local to another, an anonymous one)."""
    if not function or "<locals>" in function or "<anonymous>" in function:
        return None
    owner, _, name = function.rpartition(".")
    return owner.rpartition(".")[2], name


def instance_name(class_name: str) -> str:
    """What code usually calls an instance of a class: ``router`` for ``Router``,
    ``axiosError`` for ``AxiosError``."""
    name = class_name.lstrip("_#$")
    return (name[:1].lower() + name[1:]) if name else "obj"


def called_as(function: str | None) -> tuple[str | None, set[str] | None]:
    """The name a function is called by, and the receivers a call may have (None: any): a
    method on ``this`` or on an object named after its class, a constructor by its class."""
    split = owner_and_name(function)
    if split is None:
        return None, None
    owner, name = split
    if name == CONSTRUCTOR:
        return owner or None, None
    if not owner:
        return name, None
    instance = instance_name(owner)
    return name, {"this", instance, owner, f"_{instance}", "self"}


def call_of(function: str | None) -> tuple[str | None, str | None]:
    """How a user's code calls a function, and the object it calls it on: ``router.use`` and
    ``router`` for ``Router.use``, ``new Router`` for its constructor; a private method
    (``#name``) by no name."""
    split = owner_and_name(function)
    if split is None:
        return None, None
    owner, name = split
    if name == CONSTRUCTOR:
        return (f"new {owner}", None) if owner else (None, None)
    if name.startswith("#"):
        return None, None
    if owner:
        receiver = instance_name(owner)
        return f"{receiver}.{name}", receiver
    return name, None


def special_use(function: str | None) -> tuple[str, str] | None:
    """JavaScript runs no method by another name that errdex reads (getters are read as properties)."""
    return None


_PRIVATE = re.compile(r"^[_#]")
#: A part of a dotted name that starts with ``_`` or ``#``.
_PRIVATE_PART = re.compile(r"(?:^|\.)[_#]")


def is_public(function: str, module: str | None) -> bool:
    """Whether a user's code is meant to call a function: no part of its name starts with
    ``_`` or ``#``, it is not local to another, and its module is in no ``internal`` or
    ``_private`` directory."""
    if "<locals>" in function or "<anonymous>" in function:
        return False
    return not _private_module(module) and _PRIVATE_PART.search(function) is None


@functools.lru_cache(maxsize=4096)
def _private_module(module: str | None) -> bool:
    """Whether a module lies in an ``internal`` or ``_private`` directory (asked once per
    module, not once per function)."""
    return any(_PRIVATE.match(part) or part == "internal" for part in (module or "").split("/"))


def named_as(function: str) -> str:
    """A function as a user's code names it: a constructor by its class."""
    return function.removesuffix(f".{CONSTRUCTOR}")
