"""Mining small packages written to disk, one construct at a time."""

from __future__ import annotations

import subprocess
import textwrap
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.errors import ErrdexError
from errdex.mine import MineResult, mine
from errdex.patterns import MessageMatcher
from errdex.record import Record, record_id
from errdex.store import open_store
from errdex.store.files import write_jsonl

SHA = "0123456789abcdef0123456789abcdef01234567"


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content))
    return root


def mine_files(tmp_path: Path, files: dict[str, str | bytes], **options: object) -> MineResult:
    return mine(write(tmp_path, files), repo="acme/widgets", sha=SHA, jobs=1, **options)  # type: ignore[arg-type]


def by_message(result: MineResult) -> dict[str, Record]:
    return {r.error_message: r for r in result.records}


def test_message_forms_become_templates(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/core.py": """
                from gettext import gettext as _
                PREFIX = "widget"
                TEMPLATE = "module level {} template"

                def check(name, size, kind):
                    if size < 0:
                        raise ValueError("size must be "  "non-negative")
                    if size > 10:
                        raise ValueError(f"size {size} exceeds {kind!r}")
                    if kind == "a":
                        raise TypeError("expected %s, got %d" % (name, size))
                    if kind == "b":
                        raise KeyError("unknown {name}: {}".format(size, name=name))
                    if kind == "c":
                        raise LookupError("missing " + name + "!")
                    if kind == "d":
                        raise RuntimeError(_("translated %(what)s") % {"what": kind})
                    message = f"bound earlier: {name}"
                    if kind == "e":
                        raise OSError(message)
                    if kind == "f":
                        raise OSError(TEMPLATE.format(kind))
            """,
        },
    )
    records = by_message(result)
    assert set(records) == {
        "size must be non-negative",
        "size {size} exceeds {kind}",
        "expected %s, got %d",
        "unknown {name}: {size}",
        "missing {name}!",
        "translated %(what)s",
        "bound earlier: {name}",
        "module level {kind} template",
    }
    assert records["size {size} exceeds {kind}"].message_pattern == "size (.+?) exceeds (.+?)"
    assert records["missing {name}!"].placeholders == ["name"]
    assert records["expected %s, got %d"].placeholders == ["name", "size"]
    assert records["size must be non-negative"].message_kind == "literal"
    assert records["size {size} exceeds {kind}"].message_kind == "template"
    assert records["size must be non-negative"].function == "check"


def test_conditions_are_the_path_to_the_site_innermost_last(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "m.py": """
                def f(a, b):
                    if a:
                        pass
                    elif b > 1:
                        while b:
                            raise ValueError("deep")
                    else:
                        raise ValueError("else branch")
            """
        },
    )
    records = by_message(result)
    assert records["deep"].conditions == ["not (a)", "b > 1", "b"]
    assert records["else branch"].conditions == ["not (a)", "not (b > 1)"]


def test_every_guard_is_kept_as_structure_outermost_first(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "m.py": """
                def f(items, mode, path):
                    if not items:
                        return None
                    for item in items:
                        if not isinstance(item, str):
                            raise TypeError("not text")
                        with open(path) as handle:
                            try:
                                handle.write(item)
                            except OSError as exc:
                                if mode == "strict":
                                    raise RuntimeError("cannot write")
                    match mode:
                        case "a" | "b" if path:
                            raise ValueError("matched")
                    while mode:
                        pass
                    else:
                        assert path, "no path"
            """
        },
    )
    records = by_message(result)
    typed = records["not text"]
    # ``conditions`` keeps the tests as text, as before; the guards add the blocks around them.
    assert typed.conditions == ["not isinstance(item, str)"]
    guards = [(g.kind, g.text, g.negated, g.subject, g.operator, g.operand) for g in typed.facts.guards]
    assert guards == [
        ("early-exit", "not items", False, "items", "truth", None),
        ("loop", "item in items", False, "item", "in", "items"),
        ("if", "not isinstance(item, str)", True, "item", "isinstance()", "str"),
    ]
    assert typed.facts.guards[2].code == "not isinstance(item, str)"
    assert typed.facts.guards[2].names == ("isinstance", "item", "str")
    kinds = [(g.kind, g.text, g.negated) for g in records["cannot write"].facts.guards]
    assert kinds == [
        ("early-exit", "not items", False),
        ("loop", "item in items", False),
        # Past ``if not isinstance(...): raise``, the item is a str: ``not`` and the exit cancel.
        ("early-exit", "not isinstance(item, str)", False),
        ("with", "open(path)", False),
        ("except", "OSError", False),
        ("if", 'mode == "strict"', False),
    ]
    assert records["cannot write"].facts.guards[4].subject == "exc"
    case = records["matched"].facts.guards[-1]
    assert (case.kind, case.subject, case.text) == ("match-case", "mode", '"a" | "b" if path')
    # Past ``if not items: return``, ``items`` is true: the exit's ``not`` and the test's cancel.
    past = records["matched"].facts.guards[0]
    assert (past.subject, past.operator, past.negated, past.code) == ("items", "truth", False, "items")
    assertion = records["no path"].facts.guards
    assert [(g.kind, g.text, g.negated) for g in assertion][-2:] == [
        ("else", "mode", True),
        ("assert", "path", True),
    ]
    assert records["no path"].conditions == ["not (mode)", "not (path)"]


def test_elif_and_else_guards_are_told_apart(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "m.py": """
                def f(a, b=None):
                    if a is None:
                        raise ValueError("first")
                    elif b in (1, 2):
                        raise ValueError("second")
                    else:
                        raise ValueError("third")
            """
        },
    )
    records = by_message(result)
    assert [(g.kind, g.negated) for g in records["second"].facts.guards] == [("else", True), ("elif", False)]
    assert [(g.kind, g.negated) for g in records["third"].facts.guards] == [("else", True), ("else", True)]
    first = records["first"].facts.guards[0]
    assert (first.subject, first.operator, first.operand) == ("a", "is", "None")
    assert records["third"].conditions == ["not (a is None)", "not (b in (1, 2))"]
    params = [(p.name, p.kind, p.default) for p in records["first"].facts.parameters]
    assert params == [("a", "positional", None), ("b", "positional", "None")]


def test_parameters_are_read_from_the_definition_not_its_text(tmp_path: Path) -> None:
    # A comment inside the signature, and a body on the ``def`` line: the text of either
    # does not parse as a signature, the syntax tree does.
    result = mine_files(
        tmp_path,
        {
            "m.py": """
                class Box:
                    def put(
                        self,  # the box
                        item,
                        *more,
                        strict: bool = True,
                        **options,
                    ):
                        raise ValueError(f"cannot put {item}")

                def quick(x, y=2): raise ValueError("quick: no")
            """
        },
    )
    records = by_message(result)
    params = [(p.name, p.kind, p.default) for p in records["cannot put {item}"].facts.parameters]
    assert params == [
        ("self", "positional", None),
        ("item", "positional", None),
        ("more", "var-positional", None),
        ("strict", "keyword", "True"),
        ("options", "var-keyword", None),
    ]
    assert [p.name for p in records["quick: no"].facts.parameters] == ["x", "y"]


def test_an_annotated_assignment_binds_a_message_like_a_plain_one(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "annotated.py": """
                LIMIT: str = "over the limit"

                def f(x):
                    msg: str = f"bad value {x}"
                    raise ValueError(msg)

                def h():
                    raise OverflowError(LIMIT)
            """,
            "plain.py": """
                def g(x):
                    msg = f"bad value {x}"
                    raise TypeError(msg)
            """,
        },
    )
    records = {r.error_class: r for r in result.records}
    assert records["ValueError"].error_message == records["TypeError"].error_message == "bad value {x}"
    assert records["OverflowError"].error_message == "over the limit"


def test_every_statement_type_is_handled_or_known_to_hold_no_site() -> None:
    import ast

    from errdex.languages.python.extract import HANDLED_STATEMENTS, IGNORED_STATEMENTS

    def subclasses(cls: type) -> set[type]:
        return {c for sub in cls.__subclasses__() for c in (sub, *subclasses(sub))}

    statements = {c.__name__ for c in subclasses(ast.stmt) if c.__module__ == "ast"}
    assert statements - HANDLED_STATEMENTS - IGNORED_STATEMENTS == set()
    assert not HANDLED_STATEMENTS & IGNORED_STATEMENTS


def test_a_statement_the_walker_does_not_know_skips_the_file_loudly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errdex.languages.python import extract

    monkeypatch.setattr(extract, "IGNORED_STATEMENTS", extract.IGNORED_STATEMENTS - {"Pass"})
    result = extract.extract("def f():\n    pass\n", "m.py", "m")
    assert result.error == "errdex does not know this statement: Pass at line 2"
    assert result.sites == []


def test_every_site_of_a_message_is_kept_under_one_id(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "a.py": """
                def f():
                    raise ValueError("same")

                def g():
                    raise ValueError("same")
            """,
            "b.py": """
                def h():
                    raise ValueError("same")
            """,
        },
    )
    records = sorted(result.records, key=lambda r: r.file_path)
    assert [(r.file_path, [s.line_number for s in r.sites]) for r in records] == [
        ("a.py", [3, 6]),
        ("b.py", [3]),
    ]
    assert records[0].id == record_id("acme/widgets", "same", "a.py")
    assert [s.function for s in records[0].sites] == ["f", "g"]
    assert len({r.slug for r in records}) == 2


def test_exception_class_that_builds_its_message(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "lib/__init__.py": "from lib.errors import NotFound\n",
            "lib/errors.py": """
                class NotFound(LookupError):
                    def __init__(self, name):
                        super().__init__(f"no such widget: {name}")
                        self.name = name

                class Gone(NotFound):
                    pass

                class Moved(NotFound):
                    def __init__(self, item, to):
                        super().__init__(item)
                        self.to = to

                class Consumed(RuntimeError):
                    def __init__(self):
                        message = (
                            "the stream was already read; "
                            "read it once"
                        )
                        super().__init__(message)
            """,
            "lib/api.py": """
                from lib import NotFound
                from .errors import Consumed, Gone, Moved

                def get(name):
                    if name is None:
                        raise NotFound("anonymous")
                    raise NotFound(name)

                def drop(name):
                    raise Gone(name)

                def move(name):
                    raise Moved("archive", to=name)

                def read():
                    raise Consumed()
            """,
        },
    )
    records = by_message(result)
    assert "no such widget: anonymous" in records
    # A subclass with a constructor of its own passes its argument on to the one that builds it.
    assert "no such widget: archive" in records
    dynamic = records["no such widget: {name}"]
    assert dynamic.error_class == "NotFound"
    assert dynamic.qualified_class == "lib.errors.NotFound"
    assert {s.qualified_class for s in dynamic.sites} == {"lib.errors.NotFound", "lib.errors.Gone"}
    assert records["the stream was already read; read it once"].function == "read"


def test_raise_helpers_make_their_callers_sites(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "cli/__init__.py": "",
            "cli/errors.py": "class BadParameter(Exception):\n    pass\n",
            "cli/types.py": """
                from .errors import BadParameter

                class ParamType:
                    def fail(self, message, param=None):
                        raise BadParameter(message)

                class Choice(ParamType):
                    def convert(self, value):
                        if value not in ("a", "b"):
                            self.fail(f"{value!r} is not one of 'a', 'b'.")
                        return value

                def _warn(message):
                    import warnings
                    warnings.warn(message, DeprecationWarning)

                def deprecated(name):
                    _warn(f"{name} is deprecated")
            """,
            "cli/main.py": """
                import argparse
                from cli.types import _warn

                def run():
                    parser = argparse.ArgumentParser()
                    parser.error("no command given")
                    _warn("run() is deprecated")
            """,
        },
    )
    records = by_message(result)
    choice = records["{value} is not one of 'a', 'b'."]
    assert choice.error_class == "BadParameter"
    assert choice.qualified_class == "cli.errors.BadParameter"
    assert choice.function == "Choice.convert"
    assert choice.conditions == ['value not in ("a", "b")']
    # A traceback's innermost frame is the helper's own raise: the site says where that is.
    assert (choice.sites[0].via_file_path, choice.sites[0].via_line_number) == ("cli/types.py", 6)
    assert records["run() is deprecated"].error_class == "DeprecationWarning"
    assert records["run() is deprecated"].severity == "warning"
    assert records["{name} is deprecated"].function == "deprecated"
    assert records["no command given"].error_class == "SystemExit"


def test_warnings_asserts_logging_exit_and_http(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "app.py": """
                import logging
                import sys
                import warnings
                from fastapi import HTTPException
                from flask import abort

                logger = logging.getLogger(__name__)

                def handler(item, user):
                    assert item is not None, "item is required"
                    warnings.warn("old API", FutureWarning)
                    logger.error("failed to load %s for %s", item, user)
                    logger.critical("disk full")
                    if not user:
                        raise HTTPException(status_code=404, detail=f"user {user} not found")
                    if user == "root":
                        abort(403, "root may not do that")
                    sys.exit("fatal: giving up")
            """
        },
    )
    records = by_message(result)
    assert records["item is required"].error_class == "AssertionError"
    assert records["item is required"].conditions == ["not (item is not None)"]
    warn = records["old API"]
    assert (warn.error_class, warn.severity, warn.error_type) == ("FutureWarning", "warning", "console")
    log = records["failed to load %s for %s"]
    assert (log.error_type, log.severity, log.placeholders) == ("console", "error", ["item", "user"])
    assert records["disk full"].severity == "critical"
    http = records["user {user} not found"]
    assert (http.error_type, http.http_status, http.qualified_class) == ("http", 404, "fastapi.HTTPException")
    assert records["root may not do that"].http_status == 403
    assert records["fatal: giving up"].error_class == "SystemExit"


def test_bad_files_are_skipped_with_a_reason_and_the_rest_is_mined(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text('raise ValueError("outside the root")\n')
    root = tmp_path / "root"
    write(
        root,
        {
            "good.py": 'raise ValueError("fine")\n',
            "broken.py": "def f(:\n",
            "nulls.py": b'raise ValueError("a")\x00\n',
            "latin.py": '# -*- coding: latin-1 -*-\nraise ValueError("caf\xe9")\n'.encode("latin-1"),
            "bom.py": b'\xef\xbb\xbfraise ValueError("with bom")\r\n',
            "crlf.py": b'def f():\r\n    raise ValueError("windows")\r\n',
            "undecodable.py": b'raise ValueError("\xff\xfe")\n',
            "huge.py": "x = 1\n" * 100_000,
            "tests/test_x.py": 'raise ValueError("in tests")\n',
            ".hidden/h.py": 'raise ValueError("hidden")\n',
        },
    )
    (root / "link.py").symlink_to(outside)
    result = mine(root, repo="acme/widgets", sha=SHA, jobs=1, max_file_size=100_000)
    messages = {r.error_message for r in result.records}
    assert messages == {"fine", "café", "with bom", "windows"}
    assert by_message(result)["windows"].line_number == 2
    reasons = {s.path: s.reason for s in result.skipped}
    assert set(reasons) == {"broken.py", "nulls.py", "undecodable.py", "huge.py", "link.py"}
    assert "does not parse" in reasons["broken.py"]
    assert "larger than" in reasons["huge.py"]
    assert "outside" in reasons["link.py"]
    assert result.info.skipped == 5


def test_a_git_checkout_names_its_repository_and_commit(tmp_path: Path) -> None:
    write(tmp_path, {"m.py": 'raise ValueError("from git")\n'})
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "remote", "add", "origin", "git@github.com:acme/gadgets.git"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "init"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    result = mine(tmp_path, jobs=1)
    assert (result.info.repo, result.info.sha, result.info.kind) == (
        "acme/gadgets",
        head.stdout.strip(),
        "checkout",
    )
    assert result.records[0].github_url.startswith(
        f"https://github.com/acme/gadgets/blob/{head.stdout.strip()}/m.py#L"
    )


def test_path_prefix_maps_onto_the_repository_layout(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path, {"pkg/__init__.py": "", "pkg/m.py": 'raise ValueError("x")\n'}, path_prefix="src"
    )
    assert result.records[0].file_path == "src/pkg/m.py"
    assert "/blob/" + SHA + "/src/pkg/m.py#L1-L" in result.records[0].github_url


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"repo": None, "sha": SHA}, "pass --repo"),
        ({"repo": "not a repo", "sha": SHA}, "OWNER/NAME"),
        ({"repo": "acme/widgets", "sha": "abc"}, "40-hex"),
        ({"repo": "acme/widgets", "sha": SHA, "path_prefix": "../up"}, "inside the repository"),
    ],
)
def test_unusable_options_get_one_clear_error(
    tmp_path: Path, options: dict[str, object], message: str
) -> None:
    write(tmp_path, {"m.py": "x = 1\n"})
    with pytest.raises(ErrdexError, match=message):
        mine(tmp_path, jobs=1, **options)  # type: ignore[arg-type]


def test_parallel_mining_gives_the_same_records(tmp_path: Path) -> None:
    files = {
        f"pkg/m{i}.py": f'def f{i}(x):\n    if x:\n        raise ValueError(f"bad {{x}} in {i}")\n'
        for i in range(80)
    }
    files["pkg/__init__.py"] = ""
    root = write(tmp_path, files)
    one = mine(root, repo="acme/widgets", sha=SHA, jobs=1)
    two = mine(root, repo="acme/widgets", sha=SHA, jobs=2)
    strip = lambda rs: [r.model_copy(update={"analyzed_at": ""}) for r in rs]  # noqa: E731
    assert strip(one.records) == strip(two.records)
    assert len(one.records) == 80


def test_mined_records_pass_strict_validation(tmp_path: Path) -> None:
    result = mine_files(tmp_path, {"m.py": 'def f(x):\n    raise ValueError(f"{x} is wrong")\n'})
    for record in result.records:
        assert Record.model_validate(record.to_errdex()) == record


def test_messages_built_up_with_augmented_assignment(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "m.py": """
                def f(x, extra):
                    msg = "bad"
                    msg += " value " + str(x)
                    msg += extra
                    msg += "!"
                    raise ValueError(msg)
            """
        },
    )
    assert [r.error_message for r in result.records] == ["bad value {str(x)}{extra}!"]
    assert result.skipped == []


def test_messages_built_by_a_method_property_or_function(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/text.py": """
                def describe(kind, value):
                    return f"unsupported {kind}: {value!r}"
            """,
            "lib/base.py": """
                class Undefined:
                    @property
                    def _message(self):
                        if self.hint:
                            return self.hint
                        return f"{self.name!r} is undefined"

                    def fail(self):
                        raise UndefinedError(self._message)
            """,
            "lib/fields.py": """
                from lib.base import Undefined
                from lib.text import describe

                class Field:
                    def _format_error(self, value):
                        return f"not a valid {self.kind}: {value}"

                    def check(self, value):
                        raise ValueError(self._format_error(value))

                class Strict(Undefined):
                    def touch(self):
                        raise AttributeError(self._message)

                def convert(value):
                    raise TypeError(describe("type", value))
            """,
        },
    )
    messages = {(r.file_path, r.error_message) for r in result.records}
    assert ("lib/fields.py", "not a valid {self.kind}: {value}") in messages
    assert ("lib/base.py", "{self.name} is undefined") in messages
    # Found through the base class, in another module.
    assert ("lib/fields.py", "{self.name} is undefined") in messages
    assert ("lib/fields.py", "unsupported type: {value}") in messages


def test_a_message_assigned_in_several_branches_gives_one_record_each(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "m.py": """
                def raise_for_status(code, reason):
                    message = ""
                    if 400 <= code < 500:
                        message = f"{code} Client Error: {reason}"
                    elif 500 <= code < 600:
                        message = f"{code} Server Error: {reason}"
                    if message:
                        raise OSError(message)

                def check(n):
                    raise ValueError("too small" if n < 0 else "too big")
            """
        },
    )
    by_line: dict[int, set[str]] = {}
    for record in result.records:
        for site in record.sites:
            by_line.setdefault(site.line_number, set()).add(record.error_message)
    assert by_line[9] == {"{code} Client Error: {reason}", "{code} Server Error: {reason}"}
    assert by_line[12] == {"too small", "too big"}


def test_a_later_assignment_at_an_outer_level_overwrites_branch_values(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "m.py": """
                def f(x):
                    if x:
                        msg = "only in the branch"
                    msg = "always this"
                    raise ValueError(msg)
            """
        },
    )
    assert [r.error_message for r in result.records] == ["always this"]


def test_messages_kept_by_key_in_a_class_dict(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "forms/__init__.py": "",
            "forms/base.py": """
                class Field:
                    default_error_messages = {"required": "This field is required.", "null": "Not null."}

                    def make_error(self, key):
                        return ValidationError(self.error_messages[key])
            """,
            "forms/fields.py": """
                from forms.base import Field

                class Integer(Field):
                    default_error_messages = {"invalid": "Not a valid integer."}

                    def check(self, value):
                        if value is None:
                            raise self.make_error("null")
                        raise self.make_error("invalid")

                    def strict(self):
                        raise ValidationError(self.error_messages["required"])
            """,
        },
    )
    lines = {r.error_message: r.line_number for r in result.records if r.file_path == "forms/fields.py"}
    assert lines == {"Not null.": 9, "Not a valid integer.": 10, "This field is required.": 13}


def test_what_str_of_an_exception_prints_from_str_defaults_and_class_text(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "web/__init__.py": "",
            "web/errors.py": """
                class HTTPError(Exception):
                    code = None
                    description = None

                    def __init__(self, description=None):
                        super().__init__()
                        if description is not None:
                            self.description = description

                    def __str__(self):
                        return f"{self.code} {self.description}"

                class NotFound(HTTPError):
                    code = 404
                    description = "The requested URL was not found."

                class ParserError(ValueError):
                    def __str__(self):
                        try:
                            return self.args[0] % self.args[1:]
                        except (TypeError, IndexError):
                            return super().__str__()

                class Missing(NotFound):
                    def __str__(self):
                        if not self.description:
                            return "Missing parameter: {name}".format(name=self.name)
                        return self.description

                class BadFile(ValueError):
                    def __init__(self, message="Invalid file"):
                        ValueError.__init__(self, message)
            """,
            "web/app.py": """
                from web.errors import BadFile, Missing, NotFound, ParserError

                def route(path):
                    if path is None:
                        raise NotFound()
                    raise NotFound(description=f"no route for {path}")

                def parse(text, e):
                    raise ParserError(str(e) + ": %s", text)

                def need():
                    raise Missing("give it a name")

                def load():
                    raise BadFile()

                def gone():
                    raise NotFound  # called with no arguments, as Python does
            """,
        },
    )
    app = {r.error_message for r in result.records if r.file_path == "web/app.py"}
    assert app == {
        "{self.code} The requested URL was not found.",  # the class's own text
        "{self.code} no route for {path}",  # __init__ stores the argument in self.description
        "{str(e)}: %s",  # ParserError prints args[0] % args[1:]
        "give it a name",  # __str__ may return the message it was given ...
        "Missing parameter: {self.name}",  # ... or build one
        "Invalid file",  # the parameter's default
    }
    assert MessageMatcher(by_message(result)["{str(e)}: %s"].message_pattern).match("bad day: 2024-02-30")
    not_found = by_message(result)["{self.code} The requested URL was not found."]
    assert [s.function for s in not_found.sites] == ["route", "gone"]


def test_a_factory_gives_the_class_and_message_and_format_reads_what_the_name_held(
    tmp_path: Path,
) -> None:
    result = mine_files(
        tmp_path,
        {
            "conf/__init__.py": "",
            "conf/parser.py": """
                class DecodeError(ValueError):
                    pass

                def suffixed(src, pos, msg):
                    return DecodeError(f"{msg} (at {where(src, pos)})")

                def load(src, pos, status):
                    if pos < 0:
                        raise suffixed(src, pos, "Invalid value")
                    message = "{kind} '{0.code}' for '{0.url}'"
                    message = message.format(status, kind="Client error")
                    raise DecodeError(message)
            """,
        },
    )
    records = by_message(result)
    factory = records["Invalid value (at {where(src, pos)})"]
    assert (factory.error_class, factory.qualified_class) == ("DecodeError", "conf.parser.DecodeError")
    assert records["Client error '{status.code}' for '{status.url}'"].placeholders == [
        "status.code",
        "status.url",
    ]


@pytest.mark.parametrize(
    ("package", "version", "cls", "message"),
    [
        # raise NotFound(): the class's description, printed by HTTPException.__str__.
        (
            "werkzeug",
            "3.1.3",
            "NotFound",
            "404 Not Found: The requested URL was not found on the server. If you entered the URL"
            " manually please check your spelling and try again.",
        ),
        # raise MissingParameter(ctx=ctx, param=self): __str__ builds it.
        ("click", "8.1.8", "MissingParameter", "Missing parameter: name"),
        # message = message.format(self, error_type=error_type) in Response.raise_for_status.
        (
            "httpx",
            "0.28.1",
            "HTTPStatusError",
            "Client error '404 Not Found' for url 'https://example.org/items/7'\n"
            "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/404",
        ),
    ],
)
def test_real_messages_built_by_classes_and_format_calls_are_mined(
    pypi_package: Callable[[str, str], Path], package: str, version: str, cls: str, message: str
) -> None:
    result = mine(pypi_package(package, version), repo=f"pypi/{package}", sha=SHA, jobs=1)
    assert any(
        (r.error_class or "").endswith(cls) and MessageMatcher(r.message_pattern).match(message) is not None
        for r in result.records
    )


def test_a_standard_library_factory_message_matches_what_it_raises(tmp_path: Path) -> None:
    # tomllib raises suffixed_err(src, pos, "Invalid value"), which returns the exception.
    source = Path(tomllib.__file__).parent
    result = mine(source, repo="python/cpython", sha=SHA, jobs=1, path_prefix="Lib/tomllib/")
    with pytest.raises(tomllib.TOMLDecodeError) as raised:
        tomllib.loads("a = ?")
    message = str(raised.value)
    assert any(
        r.error_class == "TOMLDecodeError" and MessageMatcher(r.message_pattern).match(message) is not None
        for r in result.records
    ), message


def test_unittest_style_expectations_are_read_from_test_files(tmp_path: Path) -> None:
    result = mine_files(
        tmp_path,
        {
            "calc/__init__.py": "",
            "calc/core.py": """
                def parse(text):
                    if not text.isdigit():
                        raise ValueError(f"not a number: {text!r}")
                    return int(text)

                class Parser:
                    def __init__(self, base):
                        if base < 2:
                            raise ValueError("base too small")
            """,
            "tests/test_parser.py": """
                import pytest
                from calc.core import Parser

                def test_base():
                    with pytest.raises(ValueError):
                        Parser(1)
            """,
            "tests/test_core.py": """
                import unittest
                from calc.core import parse

                class ParseTest(unittest.TestCase):
                    def test_letters(self):
                        self.assertRaises(ValueError, parse, "x")

                    def test_message(self):
                        with self.assertRaisesRegex(ValueError, r"not a number: 'y'"):
                            parse("y")
            """,
        },
    )
    record, constructor = sorted(result.records, key=lambda r: r.line_number)
    # A constructor is called by its class's name.
    assert [(t.name, t.call) for t in constructor.facts.tests] == [("test_base", "Parser(1)")]
    assert [(t.name, t.call, t.match) for t in record.facts.tests] == [
        ("ParseTest.test_message", "parse('y')", "not a number: 'y'"),
        ("ParseTest.test_letters", "parse('x')", None),
    ]
    # --exclude leaves test files out too.
    excluded = mine(tmp_path, repo="acme/widgets", sha=SHA, jobs=1, exclude=["tests"]).records
    assert [r.facts.tests for r in excluded] == [[], []]


def test_a_lone_surrogate_in_source_is_kept_as_its_escape(tmp_path: Path) -> None:
    # "\udc80" in a literal is a legal Python string that UTF-8 (SQLite, JSON files) cannot hold.
    result = mine_files(
        tmp_path / "src",
        {
            "enc/__init__.py": "",
            "enc/codec.py": '''
                def decode(data):
                    """Decode, or raise on "\\udc80"."""
                    raise UnicodeError("bad byte \\udc80 in {!r}".format(data))
            ''',
        },
    )
    (record,) = result.records
    # Kept as the escape the source wrote: every file, database and id hash can take it.
    assert record.error_message == "bad byte \\udc80 in {data}"
    assert record.facts.docstring == 'Decode, or raise on "\\udc80".'
    db = tmp_path / "errdex.db"
    with open_store(db) as store:
        store.replace_repo(result.info, result.records)
        (stored,) = store.records()
    assert stored == record
    assert write_jsonl([stored], tmp_path / "out.jsonl", "errdex", "2026-01-01T00:00:00Z").records == 1


def test_a_message_extended_in_a_nested_branch_gives_both_messages(tmp_path: Path) -> None:
    # jinja2's Environment._filter_test_common: the suffix is added only when the name is Undefined.
    result = mine_files(
        tmp_path,
        {
            "tpl/__init__.py": "",
            "tpl/env.py": """
                def lookup(env_map, name, type_name):
                    func = env_map.get(name)
                    if func is None:
                        msg = f"No {type_name} named {name!r}."
                        if is_undefined(name):
                            try:
                                fail(name)
                            except Exception as e:
                                msg = f"{msg} ({e}; did you forget to quote the callable name?)"
                        raise TemplateRuntimeError(msg)
            """,
        },
    )
    assert sorted(r.error_message for r in result.records) == [
        "No {type_name} named {name}.",
        "No {type_name} named {name}. ({e}; did you forget to quote the callable name?)",
    ]


def test_a_warning_helper_s_category_is_the_warning_s_class(pypi_package: Callable[[str, str], Path]) -> None:
    """lightning warns through ``rank_zero_warn(message, category=...)``: each such warning's
    class is the category the call passes, as Python's own parse of the file reads it."""
    import ast

    root = pypi_package("lightning", "2.6.6")
    result = mine(root, repo="Lightning-AI/pytorch-lightning", sha=SHA, path_prefix="src/", jobs=1)
    checked = 0
    trees: dict[str, ast.Module] = {}
    for record in result.records:
        if record.severity != "warning" or not record.file_path.startswith("src/"):
            continue
        path = record.file_path.removeprefix("src/")
        tree = trees.setdefault(path, ast.parse((root / path).read_text(encoding="utf-8")))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and node.lineno == record.line_number
                and ast.unparse(node.func).rpartition(".")[2] == "rank_zero_warn"
            ):
                category = next((k.value for k in node.keywords if k.arg == "category"), None)
                expected = ast.unparse(category).rpartition(".")[2] if category is not None else "UserWarning"
                assert (record.error_class or "").rpartition(".")[2] == expected, (path, record.line_number)
                checked += 1
    assert checked > 20
