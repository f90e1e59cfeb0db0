"""Where the user comes from, and what the error means in their terms, on real packages.

A record raised in a private helper names the public functions a user's code reaches it from
(``facts.entry_points``); its prose names them, quotes the code's documentation once, and
reads reST and Markdown markup as plain backticked code.  The checks read the packages again
with their own ``ast`` pass: the entry points' names resolve, through the packages' own
imports and class bases, to the functions errdex names, and those call the private chain.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from errdex.enrich import enrich
from errdex.mine import mine
from errdex.record import Record
from errdex.store.files import read_jsonl, write_jsonl, write_parquet

SHA = "9fed5c27d2a62ff0efd6c3573599921d6ff67c14"
PROSE = ("documentation", "trigger_scenarios", "common_situations")
#: Markup a docstring carries that prose must not: reST literals, Sphinx roles, reST references.
MARKUP = re.compile(r"``|(?::[a-z]+)+:`|`_\b|`__\b")


# -- the packages, read again ---------------------------------------------------------------


def is_public(dotted: str) -> bool:
    """This test's rule: no part of the name starts with ``_``, save special methods."""
    return all(not p.startswith("_") or (p.startswith("__") and p.endswith("__")) for p in dotted.split("."))


@dataclass
class Tree:
    """A package's modules, read with ``ast``: definitions by file and qualified name, and
    what a dotted name reaches through imports and class bases."""

    root: Path
    files: dict[str, ast.Module] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)
    #: (file, qualified name) -> the ``def``; and qualified name -> the files defining it.
    defs: dict[tuple[str, str], ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    where: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, root: Path) -> Tree:
        tree = cls(root)
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel.split("/")[0] in ("tests", "docs", "examples", "artwork"):
                continue
            try:
                module = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            tree.files[rel] = module
            dotted = rel.removeprefix("src/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            tree.modules[dotted] = rel
            tree._collect(rel, module.body, "")
        return tree

    def _collect(self, rel: str, body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{node.name}"
                self.defs[(rel, name)] = node
                self.where.setdefault(name, set()).add(rel)
                self._collect(rel, node.body, f"{name}.<locals>.")
            elif isinstance(node, ast.ClassDef):
                self._collect(rel, node.body, f"{prefix}{node.name}.")
            else:
                for child in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, child, None)
                    if isinstance(inner, list):
                        self._collect(
                            rel, [n for n in inner if isinstance(n, ast.stmt | ast.ExceptHandler)], prefix
                        )
                if isinstance(node, ast.ExceptHandler):
                    self._collect(rel, node.body, prefix)

    def module_of(self, rel: str) -> str:
        return next(m for m, r in self.modules.items() if r == rel)

    # What a name reaches: ("module", dotted), ("class", module, qualified, node) or
    # ("def", module, qualified, node).

    def resolve(self, dotted: str) -> tuple | None:
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            if ".".join(parts[:i]) in self.modules:
                found: tuple | None = ("module", ".".join(parts[:i]))
                for attr in parts[i:]:
                    found = self.member(found, attr) if found else None
                return found
        return None

    def member(self, obj: tuple, attr: str, depth: int = 0) -> tuple | None:
        if depth > 12:
            return None
        if obj[0] == "module":
            return self.binding(obj[1], attr, depth)
        if obj[0] == "class":
            _, module, qualified, node = obj
            for stmt in node.body:
                if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == attr:
                    return ("def", module, f"{qualified}.{attr}", stmt)
                if isinstance(stmt, ast.ClassDef) and stmt.name == attr:
                    return ("class", module, f"{qualified}.{attr}", stmt)
            for base in self.bases(obj, depth):
                found = self.member(base, attr, depth + 1)
                if found:
                    return found
        return None

    def bases(self, cls: tuple, depth: int = 0) -> Iterator[tuple]:
        _, module, _, node = cls
        for expr in node.bases:
            dotted = ast.unparse(expr)
            head, _, rest = dotted.partition(".")
            found = self.binding(module, head, depth + 1)
            for attr in rest.split(".") if rest else ():
                found = self.member(found, attr, depth + 1) if found else None
            if found and found[0] == "class":
                yield found

    def ancestors(self, cls: tuple) -> list[tuple]:
        found, pending = [], [cls]
        while pending and len(found) < 20:
            c = pending.pop(0)
            if all(c[3] is not f[3] for f in found):
                found.append(c)
                pending.extend(self.bases(c))
        return found

    def binding(self, module: str, name: str, depth: int = 0) -> tuple | None:
        """What ``name`` is bound to at the top level of ``module`` (in ``if``/``try`` blocks too)."""
        rel = self.modules.get(module)
        if rel is None or depth > 12:
            return None
        package = module if rel.endswith("__init__.py") else module.rpartition(".")[0]
        for node in _top_level(self.files[rel].body):
            if isinstance(node, ast.ClassDef) and node.name == name:
                return ("class", module, name, node)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                return ("def", module, name, node)
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) != name:
                        continue
                    source = node.module or ""
                    if node.level:
                        base = package.split(".")
                        base = base[: len(base) - (node.level - 1)]
                        source = ".".join([*base, source] if source else base)
                    if f"{source}.{alias.name}" in self.modules:
                        return ("module", f"{source}.{alias.name}")
                    return self.binding(source, alias.name, depth + 1)
        return None


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.Try | ast.With):
            for child in ("body", "orelse", "finalbody"):
                yield from _top_level(getattr(node, child, []))
            for handler in getattr(node, "handlers", []):
                yield from _top_level(handler.body)


def called_name(function: str) -> str:
    """How code calls a function of this qualified name: a constructor by its class."""
    parts = function.split(".")
    return parts[-2] if parts[-1] == "__init__" else parts[-1]


def known_as(tree: Tree, rel: str, function: str) -> list[str]:
    """The names ``rel`` may call ``function`` by: its own, and each ``import ... as`` of it."""
    name = called_name(function)
    aliases = [
        alias.asname
        for node in _top_level(tree.files[rel].body)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name == name and alias.asname
    ]
    return [name, *aliases]


def calls(node: ast.AST, name: str) -> list[int]:
    """The lines where ``node`` calls something by ``name`` (``name(`` or ``x.name(``), taken at
    the name itself, as a call that spans lines is written."""
    found = []
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            func = call.func
            if (isinstance(func, ast.Name) and func.id == name) or (
                isinstance(func, ast.Attribute) and func.attr == name
            ):
                found.append(func.end_lineno or call.lineno)
    return found


# -- the records ------------------------------------------------------------------------------


@dataclass
class Mined:
    tree: Tree
    records: list[Record]


@pytest.fixture(scope="module")
def packages(pypi_package: Callable[..., Path]) -> dict[str, Mined]:
    out = {}
    for name, version, sdist in (
        ("lightning", "2.6.6", False),
        ("click", "8.1.8", True),
        ("requests", "2.32.3", False),
    ):
        root = pypi_package(name, version, sdist=sdist)
        records = enrich(mine(root, repo=f"pypi/{name}", sha=SHA, jobs=2).records)
        out[name] = Mined(Tree.read(root), records)
    return out


def private_raised(mined: Mined) -> list[Record]:
    """Records raised in a function this test's own rule calls private: by its name, or its module's."""
    tree = mined.tree
    return [
        r
        for r in mined.records
        if r.function
        and r.file_path in tree.files
        and not is_public(f"{tree.module_of(r.file_path)}.{r.function}")
    ]


def test_public_entry_points_are_public_functions_that_call_the_private_chain(
    packages: dict[str, Mined],
) -> None:
    hops = 0
    for package, mined in packages.items():
        tree = mined.tree
        reached = [r for r in private_raised(mined) if r.facts.entry_points]
        # Most helpers are reached from a public call in the same package.
        assert len(reached) >= 0.5 * len(private_raised(mined)), package
        for record in reached:
            for entry in record.facts.entry_points:
                assert entry.name is not None and is_public(entry.name), (record.id, entry)
                target = tree.resolve(entry.name)
                assert target is not None, (package, entry.name)
                if target[0] == "class":  # a constructor, named by its class
                    target = tree.member(target, "__init__")
                    assert target is not None, entry.name
                kind, module, qualified, _ = target
                assert kind == "def"
                # The name reaches the function errdex names, itself or inherited: the one in
                # the entry point's file, or (on an instance of a subclass) one a base defines.
                owner = tree.resolve(entry.name.removesuffix(f".{qualified.rpartition('.')[2]}"))
                defined = {(tree.modules[module], qualified)}
                if owner is not None and owner[0] == "class":
                    method = qualified.rpartition(".")[2]
                    for base in tree.ancestors(owner):
                        defined.add((tree.modules[base[1]], f"{base[2]}.{method}"))
                assert (entry.file_path, entry.function) in defined, (package, entry)
                if entry.function == record.function:
                    continue  # the raising method itself, inherited by a public class
                # The entry point calls the chain at its line; each link calls the next.
                chain = [entry.function, *entry.via, record.function]
                caller = tree.defs[(entry.file_path, entry.function)]
                named = known_as(tree, entry.file_path, chain[1])
                assert any(entry.line_number in calls(caller, n) for n in named), (package, entry)
                for link, callee in itertools.pairwise(chain[1:]):
                    files = tree.where.get(link, set())
                    assert any(
                        calls(tree.defs[(f, link)], n) for f in files for n in known_as(tree, f, callee)
                    ), (
                        link,
                        callee,
                    )
                    assert not all(is_public(f"{tree.module_of(f)}.{link}") for f in files), link
                hops += bool(entry.via)
    assert hops > 10  # entry points more than one call away


def test_known_entry_points(packages: dict[str, Mined]) -> None:
    """Spot checks where the way in is plain from the source."""

    def names(package: str, function: str, message: str) -> set[str]:
        record = next(
            r
            for r in packages[package].records
            if r.function == function and r.error_message.startswith(message)
        )
        return {e.name or "" for e in record.facts.entry_points}

    # ``Fabric.setup`` calls ``self._validate_setup(module, optimizers)``.
    assert "lightning.Fabric.setup" in names(
        "lightning", "Fabric._validate_setup", "A model should be passed"
    )
    # ``IntRange`` and ``FloatRange`` inherit ``convert`` from the private ``_NumberRangeBase``.
    assert names("click", "_NumberRangeBase.convert", "{rv} is not in the range") >= {
        "click.IntRange.convert",
        "click.FloatRange.convert",
    }
    # ``Parameter.__init__`` calls ``self._parse_decls``: on an ``Option``, ``Option._parse_decls``.
    assert "click.Option" in names("click", "Option._parse_decls", "Name '{name}' defined twice")


def test_documentation_names_the_public_call_not_only_the_helper(packages: dict[str, Mined]) -> None:
    for package, mined in packages.items():
        after = 0
        for record in private_raised(mined):
            own = record.function.removesuffix(".__init__")  # a re-export names the helper itself
            callers = [e for e in record.facts.entry_points if e.function != record.function]
            inherited = [
                e
                for e in record.facts.entry_points
                if e.function == record.function and not e.name.endswith(own)
            ]
            if not callers and not inherited:
                continue
            after += 1
            # Documentation leads with the public call, and says where it calls down the chain: a
            # special method (``__call__``) by the statement that runs it, which names its class.
            assert record.documentation.startswith(("When you call ", "When you run ")), record.documentation
            for e in callers + inherited:
                owner, _, method = e.name.rpartition(".")
                special = method.startswith("__") and method.endswith("__")
                named = f"`{owner.rpartition('.')[2]}`" if special else f"`{e.name}`"
                assert named in record.documentation, record.documentation
            for e in callers:
                assert f"{e.file_path}:{e.line_number}" in record.documentation
                if e.via:
                    assert f"through `{e.via[0]}`" in record.documentation
            # Wherever other prose names the helper, it says which public call reaches it.
            first = record.facts.entry_points[0].name
            owner, _, method = first.rpartition(".")
            if method.startswith("__") and method.endswith("__"):
                first = owner.rpartition(".")[2]
            assert f"`{record.function}` ({record.file_path}, " in record.trigger_scenarios
            assert f"`{first}`" in record.trigger_scenarios
            assert "A call that can reach it" not in record.trigger_scenarios
        assert after, package
    # A public raising function is its own entry point, named as before.
    example = next(
        r
        for r in packages["lightning"].records
        if r.function == "Fabric.backward" and r.error_message.startswith("When using multiple models")
    )
    assert [e.name for e in example.facts.entry_points] == ["lightning.Fabric.backward"]
    assert example.documentation.startswith(
        "`ValueError` raised by `Fabric.backward` (lightning/fabric/fabric.py"
    )


def _sentences(text: str) -> list[str]:
    """A docstring's sentences, as words only (markup, punctuation and case aside)."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        words = re.findall(r"[a-z0-9]+", re.sub(r":[a-z]+:", " ", sentence.lower()))
        if len(words) >= 4:
            out.append(" ".join(words))
    return out


def test_no_docstring_sentence_is_quoted_twice_and_none_keeps_its_markup(packages: dict[str, Mined]) -> None:
    quoted = marked = 0
    for mined in packages.values():
        for record in mined.records:
            prose = [getattr(record, f) for f in PROSE] + record.solutions + record.prevention_tips
            for text in prose:
                assert not MARKUP.search(text), (record.id, text)
            words = " ".join(re.findall(r"[a-z0-9]+", " ".join(prose).lower()))
            facts = record.facts
            docs = [facts.docstring, facts.raises_doc, facts.class_doc, *facts.parameter_docs.values()]
            marked += any(MARKUP.search(d or "") for d in docs)
            said = " ".join(re.findall(r"[a-z0-9]+", record.error_message.lower()))
            for sentence in {s for doc in docs if doc for s in _sentences(doc)}:
                count = f" {words} ".count(f" {sentence} ")
                # Once from the docstring; once more where the message itself says it (its advice).
                assert count <= 1 + (f" {sentence} " in f" {said} "), (record.id, sentence)
                quoted += count
    assert quoted > 100 and marked > 10  # docstrings are quoted, and many had markup to reduce


def test_class_and_parameter_docs_are_the_codes_own(packages: dict[str, Mined]) -> None:
    classes = params = 0
    for mined in packages.values():
        tree = mined.tree
        for record in mined.records:
            declared = tree.resolve(record.qualified_class or "") if record.qualified_class else None
            doc = ast.get_docstring(declared[3], clean=False) if declared and declared[0] == "class" else None
            if doc:
                # The class's own docstring, its first paragraph, whenever the tree defines one.
                first = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())
                assert record.facts.class_doc == first, record.id
                assert "class_doc" in record.provenance["documentation"]
                classes += 1
            else:
                assert record.facts.class_doc is None, record.id
            if not record.facts.parameter_docs:
                continue
            node = tree.defs[(record.file_path, record.function or "")]
            text = " ".join((ast.get_docstring(node) or "").split())
            declared_params = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
            read = {n for g in record.facts.guards for n in g.names}
            for name, described in record.facts.parameter_docs.items():
                assert name in declared_params and name in read, (record.id, name)
                assert described in text, (record.id, described)
                params += 1
    assert classes > 50 and params > 50


# -- the walk, on a tree made for it ------------------------------------------------------------


PACKAGE = {
    "pkg/__init__.py": """
        from ._impl import Engine, run
        from .api import start
        """,
    "pkg/_impl.py": '''
        class _Base:
            def check(self, x):
                if x < 0:
                    raise ValueError("negative")

            def go(self):
                self._step()


        class Engine(_Base):
            """Runs the steps."""

            def _step(self):
                raise RuntimeError("step failed")


        class Other:
            def _step(self):
                return None

            def go(self):
                self._step()


        class NotFound(KeyError):
            """No such key in the store.

            Raised by lookups.
            """


        def run(x):
            return _helper(x)


        def _helper(x):
            return _deep(x)


        def _deep(x):
            """Look ``x`` up, the slow way.

            Args:
                x: The key, see :class:`~pkg.Engine`.
            """
            if x is None:
                raise NotFound("deep")
        ''',
    "pkg/api.py": """
        from ._impl import _deep


        def start():
            _deep(None)


        def stop():
            _deep(1)
        """,
}


def test_the_walk_goes_through_helpers_to_public_calls(tmp_path: Path) -> None:
    for path, text in PACKAGE.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(textwrap.dedent(text))
    records = {r.error_message: r for r in enrich(mine(tmp_path, repo="acme/pkg", sha=SHA, jobs=1).records)}

    def line(path: str, text: str) -> int:
        return (tmp_path / path).read_text().splitlines().index(text) + 1

    start, run = line("pkg/api.py", "    _deep(None)"), line("pkg/_impl.py", "    return _helper(x)")
    raised = line("pkg/_impl.py", '        raise NotFound("deep")')
    deep = records["deep"]
    # ``stop`` calls ``_deep(1)``: ``x is None`` fails there, so it is no way to the raise.
    assert [(e.name, e.file_path, e.line_number, e.via) for e in deep.facts.entry_points] == [
        ("pkg.start", "pkg/api.py", start, []),
        ("pkg.run", "pkg/_impl.py", run, ["_helper"]),
    ]
    assert [(c.function, c.file_path) for c in deep.facts.callers] == [
        ("_helper", "pkg/_impl.py"),
        ("start", "pkg/api.py"),
    ]
    assert deep.facts.class_doc == "No such key in the store."
    assert deep.facts.parameter_docs == {"x": "The key, see :class:`~pkg.Engine`."}
    assert deep.documentation == (
        f"When you call `pkg.start` (pkg/api.py:{start}) or call `pkg.run` (pkg/_impl.py:{run},"
        f" through `_helper`), `NotFound` can come from `_deep` (pkg/_impl.py, line {raised}),"
        " which raises it when `x` is `None`."
        " The docstring of `NotFound` says: No such key in the store."
        " The docstring of `_deep` says: Look `x` up, the slow way."
    )
    # A public method of a private class is public on the public classes that inherit it.
    assert [(e.function, e.name) for e in records["negative"].facts.entry_points] == [
        ("_Base.check", "pkg.Engine.check")
    ]
    # ``self._step()`` in ``_Base.go`` runs ``Engine._step`` on an ``Engine``; ``Other.go`` runs its own.
    assert [(e.function, e.name) for e in records["step failed"].facts.entry_points] == [
        ("_Base.go", "pkg.Engine.go")
    ]
    assert all(c.function != "Other.go" for c in records["step failed"].facts.callers)

    # The new facts travel through every format.
    out = tmp_path / "all.jsonl"
    write_jsonl(list(records.values()), out, "errdex", "2026-01-01T00:00:00.000Z")
    assert list(read_jsonl(out)) == list(records.values())
    table = tmp_path / "all.parquet"
    write_parquet(list(records.values()), table)
    rows = pq.read_table(table).to_pylist(maps_as_pydicts="strict")
    assert [Record.model_validate(row) for row in rows] == list(records.values())


def test_docstring_markup_and_parameter_sections() -> None:
    from errdex.languages.python.docs import parameters, plain

    assert plain("Replaces ``loss.backward()`` in your loop.") == "Replaces `loss.backward()` in your loop."
    assert plain("Wraps it in a :class:`~torch.nn.Module`.") == "Wraps it in a `Module`."
    assert plain("See :py:meth:`Fabric.setup` and :func:`the loader <a.load>`.") == (
        "See `Fabric.setup` and `the loader`."
    )
    assert plain("Read `the guide <https://x.org>`_, `Section`_ or [this](https://y.org).") == (
        "Read the guide, `Section` or this."
    )
    assert plain("For example::") == "For example:"
    google = """Do it.

    Args:
        path: Where to write.
            On two lines.
        *args: Passed on.
    """
    numpy = """Do it.

    Parameters
    ----------
    path : str
        Where to write.
    mode, flags : int
        How.
    """
    sphinx = """Do it.

    :param path: Where to write.
    :type path: str
    """
    assert parameters(google, ["path", "args", "other"]) == {
        "path": "Where to write. On two lines.",
        "args": "Passed on.",
    }
    assert parameters(numpy, ["mode", "path", "flags"]) == {
        "mode": "How.",
        "path": "Where to write.",
        "flags": "How.",
    }
    assert parameters(sphinx, ["path"]) == {"path": "Where to write."}
    assert parameters("Do it.", ["path"]) == {}
