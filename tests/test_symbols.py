"""The symbol table a mine keeps per release, checked against independent readings of the same
code: Python's own ``inspect`` on the imported package (this test imports what errdex only
reads), Node's ``require`` for an npm package, the distribution's metadata for its dependencies.
"""

from __future__ import annotations

import inspect
import json
import re
import shutil
import subprocess
import sys
import textwrap
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.languages.javascript.claims import VOCABULARY as JS_VOCABULARY
from errdex.languages.python.claims import VOCABULARY
from errdex.mine import mine
from errdex.symbols import MAX_TABLE_BYTES, Resolver, SymbolTable
from npm import fetch_npm

NODE = "/usr/bin/node"

PACKAGE = {
    "shapes/__init__.py": """\
        from .base import Shape, area_of
        from .more import *
    """,
    "shapes/lazy.py": """\
        def __getattr__(name):
            if name == "Square":
                from .base import Square
                return Square
            raise AttributeError(name)
    """,
    "shapes/base.py": """\
        import dataclasses
        import math


        class ShapeError(ValueError):
            pass


        class Shape:
            sides: int = 0

            def __init__(self, name, *, scale=1.0, tags=()):
                self.name = name
                self._scale = scale
                self.extra = dict(tags=tags)

            def area(self):
                raise NotImplementedError

            @property
            def label(self):
                return self.name

            @staticmethod
            def unit(value, /, precise=False):
                return value

            @classmethod
            def build(cls, *parts, **options):
                return cls(*parts, **options)


        class Square(Shape):
            def __init__(self, side, **options):
                super().__init__("square", **options)
                self.side = side

            def area(self):
                return self.side ** 2


        @dataclasses.dataclass
        class Point:
            x: float
            y: float


        def area_of(shape, digits=2):
            if not isinstance(shape, Shape):
                raise ShapeError("not a shape")
            return round(shape.area(), digits)
    """,
    "shapes/api.py": """\
        from . import base


        class Factory:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def build(self, name, *, colour=None):
                return base.Shape(name)


        def make(name, **options):
            with Factory() as factory:
                return factory.build(name, **options)


        def make_again(name, **options):
            maker = Factory()
            return maker.build(name, **options)


        class Tagged(base.Shape):
            def __init__(self, name, *, label="", **options):
                super().__init__(name, **options)
                self.label_text = label


        def make_shape(name, cls=None, **options):
            if cls is None:
                cls = base.Shape
            return cls(name, **options)


        def make_tagged(name, cls=None, **options):
            if cls is None:
                cls = Tagged
            return make_shape(name, cls, **options)
    """,
    "shapes/more.py": """\
        from .base import Square

        __all__ = ["Circle"]


        class Circle(Square):
            def __init__(self, radius, **options):
                super().__init__(radius, **options)
    """,
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SymbolTable]:
    root = tmp_path_factory.mktemp("shapes")
    for name, text in PACKAGE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    result = mine(root, repo="errdex/shapes", sha="0" * 40, jobs=1)
    assert result.symbols is not None
    return root, result.symbols


def _imported(root: Path) -> object:
    sys.path.insert(0, str(root))
    try:
        import shapes

        return shapes
    finally:
        sys.path.remove(str(root))


def test_each_function_and_method_has_the_parameters_inspect_sees(shapes: tuple[Path, SymbolTable]) -> None:
    root, table = shapes
    module = _imported(root)
    base = sys.modules["shapes.base"]
    checked = 0
    for cls_name in ("Shape", "Square"):
        cls = getattr(base, cls_name)
        for name, member in vars(cls).items():
            function = member.__func__ if isinstance(member, staticmethod | classmethod) else member
            if not inspect.isfunction(function):
                continue
            expected = list(inspect.signature(function).parameters.values())
            if not isinstance(member, staticmethod):
                expected = expected[1:]  # the receiver (``self``, ``cls``): no caller passes it
            found = table.symbols[f"shapes.base.{cls_name}.{name}"].parameters
            assert found is not None
            assert [p.name for p in found] == [p.name for p in expected], name
            kinds = {
                inspect.Parameter.VAR_POSITIONAL: "var-positional",
                inspect.Parameter.VAR_KEYWORD: "var-keyword",
                inspect.Parameter.KEYWORD_ONLY: "keyword",
            }
            assert [p.kind for p in found] == [kinds.get(p.kind, "positional") for p in expected], name
            assert [p.default is not None for p in found] == [
                p.default is not inspect.Parameter.empty for p in expected
            ]
            checked += 1
    assert checked >= 5
    # A property reads as an attribute; what ``__init__`` sets on ``self`` is the class's too.
    assert table.symbols["shapes.base.Shape.label"].kind == "attribute"
    assert {"name", "_scale", "extra", "sides"} <= {
        k.rpartition(".")[2] for k in table.symbols if k.startswith("shapes.base.Shape.")
    }
    assert module is not None


def test_names_resolve_as_python_finds_them(shapes: tuple[Path, SymbolTable]) -> None:
    root, table = shapes
    module = _imported(root)
    resolver = Resolver(table, VOCABULARY)
    for dotted in (
        "shapes.Shape",
        "shapes.area_of",
        "shapes.Circle",
        "shapes.base.Square.area",
        "shapes.Circle.build",
    ):
        found = resolver.resolve(dotted)
        assert found.found, dotted
        obj: object = module
        for part in dotted.split(".")[1:]:
            obj = getattr(obj, part)
        assert found.key is not None and found.key.rpartition(".")[2] == dotted.rpartition(".")[2]
    # A name the package does not define is missing; a module-level ``__getattr__`` is no excuse
    # for a class, and one outside the package is unknown.
    assert resolver.resolve("shapes.base.Shape.volume").state == "missing"
    assert resolver.resolve("shapes.base.nothing").state == "missing"
    assert resolver.resolve("numpy.anything").state == "unknown"
    assert resolver.resolve("math.sqrt").found and resolver.resolve("math.squareroot").state == "missing"
    # Keywords: as declared, through ``**options`` to ``super().__init__``, not past a closed one:
    # each answer as calling the class for real says (a TypeError for a keyword it does not take).
    for name, positional in (("base.Square", (2,)), ("Circle", (1,)), ("Shape", ("x",))):
        cls = module
        for part in name.split("."):
            cls = getattr(cls, part)
        for keyword in ("scale", "tags", "colour", "diameter", "side"):
            try:
                cls(*positional, **{keyword: 1})
                takes = True
            except TypeError as exc:  # only "an unexpected keyword", not a value given twice
                takes = "unexpected keyword" not in str(exc)
            assert resolver.takes(resolver.resolve(f"shapes.{name}"), keyword) == takes, (name, keyword)
    # ``**options`` passed on to a method of an object the function makes (``with Factory() as
    # factory``, ``maker = Factory()``): the method's keywords, as calling it for real says.
    sys.path.insert(0, str(root))
    try:
        import shapes.api as api
    finally:
        sys.path.remove(str(root))
    for function in ("make", "make_again", "make_shape", "make_tagged"):
        for keyword in ("colour", "size", "label", "scale"):
            try:
                getattr(api, function)("x", **{keyword: 1})
                takes = True
            except TypeError:
                takes = False
            said = resolver.takes(resolver.resolve(f"shapes.api.{function}"), keyword)
            assert said or not takes, (function, keyword)  # never refuses what Python takes
            if function != "make_tagged":  # its ``cls`` goes on as an argument: left open
                assert said == takes, (function, keyword)
    # ``cls=`` given by the caller: the default the function would call is not what it calls.
    assert api.make_shape("x", cls=api.Tagged, label="a").label_text == "a"
    assert resolver.takes(resolver.resolve("shapes.api.make_shape"), "label", passed=frozenset({"cls"}))
    # What the package's code calls as methods, whatever they are called on.
    assert {"area", "build"} <= table.called and "volume" not in table.called
    # A module's own ``__getattr__`` may give any name the package defines, and no other.
    assert resolver.resolve("shapes.lazy.Square").state == "unknown"
    assert resolver.resolve("shapes.lazy.Octagon").state == "missing"
    # ``from .more import *`` takes what ``more.__all__`` lists: Square is no name of ``shapes``.
    assert resolver.resolve("shapes.Square").state == "missing"
    with pytest.raises(AttributeError):
        module.Square  # type: ignore[attr-defined]  # noqa: B018
    # A dataclass's constructor is made for it: its keywords cannot be told.
    assert resolver.takes(resolver.resolve("shapes.base.Point"), "z")
    # The package's exception hierarchy joins the language's.
    assert resolver.ancestors(resolver.resolve("shapes.base.ShapeError")) == [
        "ValueError", "Exception", "BaseException", "object",
    ]  # fmt: skip
    ancestors = [c.__name__ for c in sys.modules["shapes.base"].ShapeError.__mro__[1:]]
    assert resolver.ancestors(resolver.resolve("shapes.base.ShapeError")) == ancestors


def test_a_real_package_s_signatures_match_inspect(pypi_package: Callable[..., Path], tmp_path: Path) -> None:
    """click 8.1.8, mined from its sdist, against ``inspect`` on the same files imported in a
    process of their own: every public function and method of ``click.core`` and ``click.types``."""
    root = pypi_package("click", "8.1.8", sdist=True)
    table = mine(root, repo="pallets/click", sha="0" * 40, jobs=1).symbols
    assert table is not None
    probe = tmp_path / "probe.py"
    probe.write_text(
        textwrap.dedent(
            f"""\
            import inspect, json, sys
            sys.path.insert(0, {str(root / "src")!r})
            import click.core, click.types
            out = {{}}
            for module in (click.core, click.types):
                for cname, cls in vars(module).items():
                    if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                        continue
                    for name, member in vars(cls).items():
                        wrapped = isinstance(member, (staticmethod, classmethod))
                        function = member.__func__ if wrapped else member
                        if inspect.isfunction(function) and not name.startswith("_"):
                            # A name the class mangles (``_Context__callback``) as its code writes it.
                            names = [n.replace(f"_{{cname}}__", "__", 1)
                                     for n in inspect.signature(function).parameters]
                            first = 0 if isinstance(member, staticmethod) else 1
                            out[f"{{module.__name__}}.{{cname}}.{{name}}"] = names[first:]
            print(json.dumps(out))
            """
        ),
        encoding="utf-8",
    )
    expected = json.loads(
        subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, check=True).stdout
    )
    assert len(expected) > 100
    for key, names in expected.items():
        found = table.symbols.get(key)
        assert found is not None and found.parameters is not None, key
        assert [p.name for p in found.parameters] == names, key
    assert "packaging" not in table.dependencies and set(table.dependencies) >= {"colorama"}


def test_dependencies_come_from_the_metadata(pypi_package: Callable[..., Path]) -> None:
    root = pypi_package("lightning", "2.6.6")
    table = mine(
        root, repo="Lightning-AI/pytorch-lightning", sha="0" * 40, path_prefix="src/", jobs=2
    ).symbols
    assert table is not None
    metadata = next(root.glob("*.dist-info/METADATA")).read_text()
    # Each ``Requires-Dist`` line's name: what comes before its version, extras or marker.
    declared = {
        re.split(r"[\s;\[<>=!~(]", line.split(":", 1)[1].strip(), maxsplit=1)[0]
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:")
    }
    assert set(table.dependencies) == declared and "torch" in declared
    # What its own code imports outside itself, declared or not.
    assert {"torch", "fsspec"} <= set(table.imported) and "lightning" not in table.imported


@pytest.mark.skipif(shutil.which(NODE) is None, reason="needs Debian's node")
def test_an_npm_package_s_table_holds_what_requiring_it_gives() -> None:
    root = fetch_npm("express", "4.21.2")
    table = mine(root, repo="expressjs/express", sha="0" * 40, jobs=1).symbols
    assert table is not None and table.entries == {"express": "./index"}
    manifest = json.loads((root / "package.json").read_text())
    assert set(table.dependencies) == set(manifest["dependencies"])
    # What ``require('express')`` has, as Node itself lists it (the package's own dependencies are
    # not installed in this folder, so Node is given a resolver that hands it empty stubs).
    script = (
        "const Module = require('module'); const load = Module._load;"
        "Module._load = function (request, parent, isMain) {"
        "  try { return load.apply(this, arguments); }"
        "  catch (e) { return new Proxy(function () {}, { get: () => () => ({}) }); }"
        "};"
        f"console.log(JSON.stringify(Object.keys(require({json.dumps(str(root))}))));"
    )
    exported = json.loads(
        subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True, timeout=60).stdout
    )
    assert {"Router", "json", "static", "application", "request", "response"} <= set(exported)
    resolver = Resolver(table, JS_VOCABULARY)
    for name in exported:
        assert resolver.resolve(f"express.{name}").state != "missing", name
    assert resolver.resolve("express.fooBarBaz").state == "missing"


def test_an_npm_package_s_exported_instance_has_its_class_s_members() -> None:
    """commander's entry exports ``program``, an instance of ``Command``, and the class itself
    under the name it imported; Node, running the package, says what each has."""
    root = fetch_npm("commander", "12.1.0")
    table = mine(root, repo="tj/commander.js", sha="0" * 40, jobs=1).symbols
    assert table is not None
    names = ["option", "alias", "aliases", "registeredArguments", "removeOption", "setAliases", "parse"]
    script = (
        f"const c = require({json.dumps(str(root))}); const p = new c.Command();"
        "console.log(JSON.stringify({instance: c.program instanceof c.Command,"
        f" has: Object.fromEntries({json.dumps(names)}.map(n => [n, n in p])),"
        " stored: new c.Command().storeOptionsAsProperties().option('--debug')"
        ".parse(['--debug'], {from: 'user'}).debug === true}));"
    )
    node = json.loads(
        subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True, timeout=60).stdout
    )
    resolver = Resolver(table, JS_VOCABULARY)
    command = resolver.resolve("commander.Command")
    assert command.kind == "class" and node["instance"]
    for name, has in node["has"].items():
        for owner in ("commander.Command", "commander.program"):
            state = resolver.resolve(f"{owner}.{name}").state
            assert (state == "found") == has or (not has and state == "unknown"), (owner, name, state)
    # Options stored as properties (``this[key] = value``) give its objects any name: the class is
    # open, so what it lacks is unknown rather than missing.
    assert node["stored"] and command.symbol is not None and command.symbol.open


def test_a_table_that_inflates_past_its_bound_is_refused() -> None:
    bomb = zlib.compress(b"[" + b" " * (MAX_TABLE_BYTES + 10) + b"]", 9)
    assert len(bomb) < 1 << 20 and SymbolTable.loads(bomb) is None
    assert SymbolTable.loads(b"not zlib") is None
    table = SymbolTable("python", "p", "1")
    assert SymbolTable.loads(table.dumps()) == table
