"""Python's names: its builtin exceptions, and how code calls a function given its qualified name.

Kept free of the syntax-tree modules, so that reading a pasted traceback (which needs the
builtin exception names) does not load the extractor.
"""

from __future__ import annotations

import builtins
import re

#: The language's name in the registry and on its records.
LANGUAGE = "python"
BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
#: Every name Python has without an import: a condition reading only these (and arguments) is
#: one a caller can write too.
BUILTIN_NAMES = frozenset(dir(builtins))
#: The parameters that stand for the object or class a method is called on.
RECEIVERS = frozenset({"self", "cls"})


def owner_and_name(function: str | None) -> tuple[str, str] | None:
    """The class a function belongs to ("" for a module function) and its own name; None where
    code elsewhere cannot call it by name (a function local to another)."""
    if not function or "<locals>" in function:
        return None
    owner, _, name = function.rpartition(".")
    return owner.rpartition(".")[2], name


def instance_name(class_name: str) -> str:
    """What code usually calls an instance of a class: ``fabric`` for ``Fabric``,
    ``data_loader`` for ``DataLoader``."""
    return re.sub(r"(?<!^)(?=[A-Z][a-z])", "_", class_name.lstrip("_")).lower() or "obj"


def called_as(function: str | None) -> tuple[str | None, set[str] | None]:
    """The name a function is called by, and the receivers a call may have (None: any).

    A method is called on ``self`` or on an object named after its class (``fabric.backward``
    for ``Fabric.backward``), not on any object that has a method of that name.
    """
    split = owner_and_name(function)
    if split is None:
        return None, None
    owner, name = split
    if name == "__init__":  # a constructor is called by its class's name
        return owner or None, None
    if not name or (name.startswith("__") and name.endswith("__")):
        return None, None  # a special method: the language calls it, by no name
    if not owner:
        return name, None
    snake = instance_name(owner)
    short = snake.rpartition("_")[2]
    # An object kept on another is often a private attribute: ``self._checkpoint_connector``.
    return name, {"self", "cls", snake, short, owner, f"_{snake}", f"_{short}"}


def call_of(function: str | None) -> tuple[str | None, str | None]:
    """How a user's code calls a function, and the object it calls it on: ``fabric.backward``
    and ``fabric`` for ``Fabric.backward``, ``Fabric`` for its constructor, a private method by
    its bare name; None for special methods and functions local to another."""
    split = owner_and_name(function)
    if split is None:
        return None, None
    owner, name = split
    if name == "__init__" and owner:
        return owner, None
    if owner and not name.startswith("_"):
        receiver = instance_name(owner)
        return f"{receiver}.{name}", receiver
    if not name.startswith("__"):
        return name, None
    return None, None


def is_public(function: str, module: str | None) -> bool:
    """Whether a user's code is meant to call a function: no part of its qualified name or of
    its module starts with ``_`` (a special method, ``__init__`` or ``__call__``, is public: the
    language calls it for the class's users), and it is no function local to another."""
    if "<locals>" in function:
        return False
    if any(part.startswith("_") for part in (module or "").split(".")):
        return False
    return not any(
        part.startswith("_") and not (part.startswith("__") and part.endswith("__") and len(part) > 4)
        for part in function.split(".")
    )


def named_as(function: str) -> str:
    """A function as a user's code names it: a constructor by its class (``Fabric`` for
    ``Fabric.__init__``)."""
    return function.removesuffix(".__init__")
