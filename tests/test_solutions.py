"""Solutions checked against the source they describe, read here with ``ast`` on its own.

Mines and enriches real code: the pinned PyPI packages (tests/snippets.py) and a few modules of
this interpreter's standard library.  Each kind of solution errdex writes from a fact is checked
against an independent reading of the raising source, not against errdex's facts or a stored
output: a warning filter matches the warning the source warns and its category; "pass a value
that `f` accepts" names the handler the raise really stands in and a parameter of the function;
a generator's call is run to its end; the message's own advice adds no words of its own; a
standard-library module is never said to be installed from an index.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.enrich.advice import advice
from errdex.record import Record
from snippets import definition

pytestmark = pytest.mark.pypi


@pytest.fixture(scope="module")
def mined(
    enriched_packages: dict[str, tuple[Path, list[Record]]], enriched_stdlib: tuple[Path, list[Record]]
) -> list[tuple[Path, Record]]:
    out = [(root / r.file_path, r) for root, records in enriched_packages.values() for r in records]
    root, records = enriched_stdlib
    return out + [(root / r.file_path.removeprefix("Lib/"), r) for r in records]


# -- the source, read on its own ---------------------------------------------------------------


def parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def tree_of(path: Path, cache: dict[Path, ast.Module]) -> ast.Module:
    if path not in cache:
        cache[path] = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    return cache[path]


def literal_start(node: ast.expr) -> str | None:
    """The text a message expression starts with for certain: a string, or an f-string's leading
    literal parts; None for anything else (a name, a call)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        start = ""
        for part in node.values:
            if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                break
            start += part.value
        return start
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal_start(node.left)
    return None


def warn_calls(tree: ast.Module, line: int) -> Iterator[ast.Call]:
    """The calls starting on ``line`` whose name ends in ``warn`` (``warnings.warn``,
    ``rank_zero_warn``, ``warn_deprecated`` ...)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.lineno == line and "warn" in ast.unparse(node.func).lower():
            yield node


def solutions_matching(
    mined: list[tuple[Path, Record]], pattern: re.Pattern[str]
) -> Iterator[tuple[Path, Record, str, re.Match[str]]]:
    """Each solution ``pattern`` finds in, with the record it is written for and its match."""
    for path, record in mined:
        for solution in record.solutions:
            if (m := pattern.search(solution)) is not None:
                yield path, record, solution, m


def category_of(call: ast.Call) -> str | None:
    """The warning class a call names: its ``category=`` or (``warnings.warn``) second argument."""
    for keyword in call.keywords:
        if keyword.arg == "category":
            return ast.unparse(keyword.value).rpartition(".")[2]
    if ast.unparse(call.func) in ("warnings.warn", "warn") and len(call.args) > 1:
        return ast.unparse(call.args[1]).rpartition(".")[2]
    return None


_FILTER = re.compile(r"`(warnings\.filterwarnings\([^`]*\))`")


def test_warning_filters_match_the_warning_the_source_warns(mined: list[tuple[Path, Record]]) -> None:
    checked, wrong = 0, []
    trees: dict[Path, ast.Module] = {}
    for path, record, solution, m in solutions_matching(mined, _FILTER):
        call = ast.parse(m.group(1)).body[0].value  # type: ignore[attr-defined]
        keywords = {k.arg: k.value for k in call.keywords}
        assert ast.literal_eval(call.args[0]) == "ignore"
        category = ast.unparse(keywords["category"]).rpartition(".")[2]
        assert category == (record.error_class or "").rpartition(".")[2]
        regex = ast.literal_eval(keywords["message"]) if "message" in keywords else None
        # A filter on the class alone only for a class of the library's own.
        assert regex is not None or category not in dir(__builtins__), solution
        source = [c for c in warn_calls(tree_of(path, trees), record.line_number) if c.args]
        if not source or regex is None:
            continue
        start = literal_start(source[0].args[0])
        if start is None:
            continue
        checked += 1
        if not re.match(regex, start, re.IGNORECASE):
            wrong.append(f"{record.id} {record.file_path}:{record.line_number}: {regex!r} vs {start!r}")
        named = category_of(source[0])
        if named is not None and named != category:
            wrong.append(f"{record.id}: filter on {category}, the source warns {named}")
    assert wrong == []
    assert checked >= 50


_ACCEPTS = re.compile(
    r"^Pass (?:an? )?(.+?) (?:values )?that `([^`]+)` accepts: .* when `([^`]+)` raises (.+)\.$"
)


def test_a_value_a_call_accepts_is_asked_only_inside_that_calls_handler(
    mined: list[tuple[Path, Record]],
) -> None:
    checked, wrong = 0, []
    trees: dict[Path, ast.Module] = {}
    for path, record, solution, m in solutions_matching(mined, _ACCEPTS):
        names = re.findall(r"`(\w+)`", m.group(1))
        callee, guarded = m.group(2), m.group(3)
        caught = set(re.findall(r"`([\w.]+)`", m.group(4)))
        tree = tree_of(path, trees)
        up = parents(tree)
        raises = [n for n in ast.walk(tree) if isinstance(n, ast.Raise) and n.lineno == record.line_number]
        assert raises, record.id
        node: ast.AST = raises[0]
        while not isinstance(node, ast.ExceptHandler):
            node = up[node]
        handler = node
        owner = up[handler]
        assert isinstance(owner, ast.Try)
        handled = {ast.unparse(t) for t in getattr(handler.type, "elts", [handler.type])}
        body = [ast.unparse(s) for s in owner.body if not isinstance(s, ast.Pass)]
        function = definition(path, record.function, record.line_number)
        assert function is not None
        params = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
        checked += 1
        if handled != caught or len(body) != 1 or guarded not in body[0] or not body[0].count(callee):
            wrong.append(f"{record.id}: {solution} / handler {handled} body {body}")
        if not set(names) <= params:
            wrong.append(f"{record.id}: {names} are not parameters of {record.function}")
    assert wrong == []
    assert checked >= 10


def yields(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function's own body (not a function nested in it) yields."""
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def test_a_generator_is_run_to_its_raise_and_nothing_else_is(mined: list[tuple[Path, Record]]) -> None:
    wrapped = 0
    for path, record in mined:
        code = record.try_catch_pattern
        if not code:
            continue
        function = definition(path, record.function, record.line_number)
        if function is None:
            continue
        calls = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call)]
        run = any(isinstance(c.func, ast.Name) and c.func.id == "list" for c in calls)
        if run:
            wrapped += 1
            assert yields(function), f"{record.id}: {record.function} is no generator: {code}"
    assert wrapped >= 5


#: The words advice adds to the message's own: its verbs, and the phrases for placeholders.
_OWN_TEXT = (
    "make sure avoid stop using use only do not pass with when the a an is are has have does relying on"
    " what message names gives value values lists one of for as instead it they after together smaller"
    " larger shorter longer shallower lower higher fewer more something that already check whether you"
    " meant add input to or install run consider valid"
)
_OWN_WORDS = frozenset(_OWN_TEXT.split())


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def _common_start(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def said_in(word: str, message: set[str]) -> bool:
    """Whether a word is one of the message's, or another form of one ("specify" of "specified",
    "contains" of "contain"): they share all but their last three letters, and at least three."""
    if word in message:
        return True
    return any(
        len(common := _common_start(word, other)) >= max(3, max(len(word), len(other)) - 3) and common
        for other in message
    )


def test_the_messages_advice_says_only_what_the_message_says(mined: list[tuple[Path, Record]]) -> None:
    seen: set[str] = set()
    added = []
    for _, record in mined:
        if record.error_message in seen:
            continue
        seen.add(record.error_message)
        said = words(record.error_message)
        for item in advice(record.error_message, record.message_pattern):
            for word in re.findall(r"[a-z0-9]+", item.text.lower()):
                if word in _OWN_WORDS or said_in(word, said):
                    continue
                added.append(f"{item.kind}: {item.text!r} adds {word!r} to {record.error_message!r}")
    assert added == []
    assert len(seen) > 2000


def test_a_standard_module_is_never_installed_from_an_index(mined: list[tuple[Path, Record]]) -> None:
    standard = 0
    for _, record in mined:
        for solution in record.solutions:
            m = re.search(r"standard library's `(\w+)` module", solution)
            if m is not None:
                assert m.group(1) in sys.stdlib_module_names
                standard += 1
            installed = re.findall(r"\b(?:Install|pip install)(?: the)? `?([A-Za-z_][\w.-]*)`?", solution)
            assert not set(installed) & set(sys.stdlib_module_names) - {"test"}, solution
    # zipfile's "Compression requires the (missing) zlib module" is one.
    assert standard >= 1


_QUIET = re.compile(r"`logging\.getLogger\('([\w.]+)'\)\.setLevel\(logging\.(\w+)\)`")


def test_a_log_line_is_quieted_on_the_logger_the_source_writes_it_to(
    mined: list[tuple[Path, Record]],
) -> None:
    """The logger named is the one the line's call is made on: a module-level name bound to
    ``logging.getLogger(__name__)`` (the module the file is) or to a literal name; the level set
    is above the call's own."""
    above = {"warning": "ERROR", "warn": "ERROR", "error": "CRITICAL", "exception": "CRITICAL"}
    checked, wrong = 0, []
    cache: dict[Path, ast.Module] = {}
    for path, record, _solution, m in solutions_matching(mined, _QUIET):
        tree = tree_of(path, cache)
        bound = {
            node.targets[0].id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        }
        calls = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and n.lineno == record.line_number
            and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name)
        ]
        where = f"{record.file_path}:{record.line_number}"
        if not calls:
            wrong.append(f"{where}: no logging call on the line")
            continue
        call = calls[0]
        func = call.func
        assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        value = bound.get(func.value.id)
        if not (isinstance(value, ast.Call) and ast.unparse(value.func).endswith("getLogger") and value.args):
            wrong.append(f"{where}: {func.value.id} is no module-level getLogger(...)")
            continue
        arg = value.args[0]
        module = ".".join(Path(record.file_path).with_suffix("").parts).removesuffix(".__init__")
        module = module.removeprefix("Lib.").removeprefix("src.")
        name = module if isinstance(arg, ast.Name) and arg.id == "__name__" else ast.literal_eval(arg)
        if m.group(1) != name:
            wrong.append(f"{where}: logger {m.group(1)!r}, the source's is {name!r}")
        if above.get(func.attr) != m.group(2):
            wrong.append(f"{where}: {func.attr} quieted with {m.group(2)}")
        checked += 1
    assert checked >= 5, f"only {checked} log lines quieted"
    assert not wrong, "\n".join(wrong)


_LEFT = re.compile(r"is left to subclasses \(its docstring: (.+?)\): call `(\w+)` on a subclass")


def test_a_method_left_to_subclasses_says_so_in_its_docstring_and_raises_whatever_it_is_given(
    mined: list[tuple[Path, Record]],
) -> None:
    """The sentence quoted is the method's own docstring's, and the raise stands in the method's
    body itself, under no test: whatever the base method is given, it raises."""
    checked, wrong = 0, []
    for path, record, _solution, m in solutions_matching(mined, _LEFT):
        function = definition(path, record.function, record.line_number)
        assert function is not None and function.name == m.group(2), record.id
        doc = " ".join((ast.get_docstring(function) or "").split())
        where = f"{record.file_path}:{record.line_number}"
        if m.group(1) not in doc:
            wrong.append(f"{where}: {m.group(1)!r} is not in the docstring of {record.function}")
        if not any(
            stmt.lineno <= record.line_number <= (stmt.end_lineno or 0) for stmt in function.body
        ) or any(
            isinstance(stmt, ast.If | ast.Try | ast.For | ast.While | ast.With | ast.Match)
            and stmt.lineno <= record.line_number <= (stmt.end_lineno or 0)
            for stmt in function.body
        ):
            wrong.append(f"{where}: the raise stands under a test of {record.function}")
        checked += 1
    assert checked >= 2, f"only {checked} methods left to subclasses by their docstring"
    assert not wrong, "\n".join(wrong)
