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

#: Names that stand for the object code is inside of, whatever it is.
RECEIVERS = frozenset({"self", "cls", "super"})


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


#: The methods a call of the class runs, with the arguments it is given.
_CONSTRUCTORS = frozenset({"__init__", "__new__"})


def call_of(function: str | None) -> tuple[str | None, str | None]:
    """How a user's code calls a function, and the object it calls it on: ``fabric.backward``
    and ``fabric`` for ``Fabric.backward``, ``Fabric`` for its constructor, a private method by
    its bare name; None for other special methods and functions local to another."""
    split = owner_and_name(function)
    if split is None:
        return None, None
    owner, name = split
    if name in _CONSTRUCTORS and owner:
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


#: What a user's code does to run a special method: the method's name, then that in words and
#: as code (``{cls}``: the class, ``{obj}``: an instance as code names one).  Methods with no
#: single way in (``__del__``, ``__subclasshook__``) are not listed.
_SPECIAL_USES: dict[str, tuple[str, str]] = {
    "__new__": ("creating a `{cls}` object", "{cls}(...)"),
    "__post_init__": ("creating a `{cls}` object (its dataclass `__init__` calls it)", "{cls}(...)"),
    "__call__": ("calling a `{cls}` object", "{obj}(...)"),
    "__setattr__": ("setting an attribute of a `{cls}` object", "{obj}.name = value"),
    "__delattr__": ("deleting an attribute of a `{cls}` object", "del {obj}.name"),
    "__getattr__": ("reading an attribute a `{cls}` object does not have otherwise", "{obj}.name"),
    "__getattribute__": ("reading an attribute of a `{cls}` object", "{obj}.name"),
    "__getitem__": ("indexing a `{cls}` object", "{obj}[key]"),
    "__setitem__": ("assigning to an item of a `{cls}` object", "{obj}[key] = value"),
    "__delitem__": ("deleting an item of a `{cls}` object", "del {obj}[key]"),
    "__iter__": ("iterating over a `{cls}` object", "for item in {obj}: ..."),
    "__next__": ("taking the next item of a `{cls}` object", "next({obj})"),
    "__aiter__": ("iterating over a `{cls}` object with `async for`", "async for item in {obj}: ..."),
    "__anext__": ("taking the next item of a `{cls}` object in `async for`", "await anext({obj})"),
    "__enter__": ("entering a `with` block on a `{cls}` object", "with {obj}: ..."),
    "__exit__": ("leaving a `with` block on a `{cls}` object", "with {obj}: ..."),
    "__aenter__": ("entering an `async with` block on a `{cls}` object", "async with {obj}: ..."),
    "__aexit__": ("leaving an `async with` block on a `{cls}` object", "async with {obj}: ..."),
    "__await__": ("awaiting a `{cls}` object", "await {obj}"),
    "__len__": ("taking the length of a `{cls}` object", "len({obj})"),
    "__contains__": ("testing membership in a `{cls}` object", "item in {obj}"),
    "__bool__": ("testing a `{cls}` object for truth", "bool({obj})"),
    "__hash__": ("hashing a `{cls}` object (as a `dict` key or `set` member too)", "hash({obj})"),
    "__eq__": ("comparing a `{cls}` object for equality", "{obj} == other"),
    "__ne__": ("comparing a `{cls}` object for inequality", "{obj} != other"),
    "__lt__": ("ordering `{cls}` objects", "{obj} < other"),
    "__le__": ("ordering `{cls}` objects", "{obj} <= other"),
    "__gt__": ("ordering `{cls}` objects", "{obj} > other"),
    "__ge__": ("ordering `{cls}` objects", "{obj} >= other"),
    "__add__": ("adding to a `{cls}` object", "{obj} + other"),
    "__radd__": ("adding a `{cls}` object to another value", "other + {obj}"),
    "__sub__": ("subtracting from a `{cls}` object", "{obj} - other"),
    "__mul__": ("multiplying a `{cls}` object", "{obj} * other"),
    "__truediv__": ("dividing a `{cls}` object", "{obj} / other"),
    "__or__": ("combining a `{cls}` object with `|`", "{obj} | other"),
    "__and__": ("combining a `{cls}` object with `&`", "{obj} & other"),
    "__str__": ("converting a `{cls}` object to text", "str({obj})"),
    "__repr__": ("taking the `repr` of a `{cls}` object", "repr({obj})"),
    "__format__": ("formatting a `{cls}` object", 'f"{{{obj}:spec}}"'),
    "__int__": ("converting a `{cls}` object to `int`", "int({obj})"),
    "__float__": ("converting a `{cls}` object to `float`", "float({obj})"),
    "__index__": ("using a `{cls}` object as an integer index", "range({obj})"),
    "__fspath__": ("using a `{cls}` object as a file system path", "os.fspath({obj})"),
    "__copy__": ("copying a `{cls}` object", "copy.copy({obj})"),
    "__deepcopy__": ("deep-copying a `{cls}` object", "copy.deepcopy({obj})"),
    "__reduce__": ("pickling or copying a `{cls}` object", "pickle.dumps({obj})"),
    "__reduce_ex__": ("pickling or copying a `{cls}` object", "pickle.dumps({obj})"),
    "__getstate__": ("pickling or copying a `{cls}` object", "pickle.dumps({obj})"),
    "__setstate__": ("unpickling or copying a `{cls}` object", "pickle.loads(data)"),
    "__init_subclass__": ("defining a subclass of `{cls}`", "class Child({cls}): ..."),
    "__class_getitem__": ("subscripting the class `{cls}`", "{cls}[...]"),
    "__set_name__": ("assigning a `{cls}` object in a class body", "class Owner: name = {cls}(...)"),
    "__get__": ("reading the attribute a `{cls}` descriptor is assigned to", "owner.name"),
    "__set__": ("assigning the attribute a `{cls}` descriptor is assigned to", "owner.name = value"),
    "__delete__": ("deleting the attribute a `{cls}` descriptor is assigned to", "del owner.name"),
}


def special_use(function: str | None) -> tuple[str, str] | None:
    """What a user's code does that runs a special method (``BaseModel.__setattr__`` runs on
    ``base_model.name = value``), in words and as code; None for any other function, and for a
    method of a class local to a function (code elsewhere cannot name it)."""
    split = owner_and_name(function)
    if split is None or not split[0] or split[1] not in _SPECIAL_USES:
        return None
    owner, name = split
    words, code = _SPECIAL_USES[name]
    return words.format(cls=owner), code.format(cls=owner, obj=instance_name(owner))
