"""Python: read with the standard ``ast`` module, never imported or run.

The entry is light; each method imports what it needs (the extractor, the test reader, the
docstring parser) on first use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from errdex.languages.base import CallReader, ClaimReader, CodeWriter, Language, PasteReader
from errdex.languages.python import names, source

if TYPE_CHECKING:
    from errdex.languages.ir import FileResult, FunctionInfo, HelperDef, Trigger

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


class Python(Language):
    name = names.LANGUAGE
    extensions = source.EXTENSIONS
    excludes = source.EXCLUDES
    not_tests = source.NOT_TESTS
    package_file = source.PACKAGE_FILE
    receivers = names.RECEIVERS
    defining_words = frozenset({"def", "class"})
    line_comment = "#"
    long_strings = ('"""', "'''")
    validation_class = re.compile(
        r"^(ValueError|TypeError)$|Validation|Invalid|Misconfigur|BadParameter|Usage"
    )
    builtin_classes = names.BUILTIN_EXCEPTIONS
    unlocated_modules = frozenset({"builtins", "__main__"})
    warning_scope = "inside `with warnings.catch_warnings():` it holds only for that block"

    def is_test_name(self, name: str) -> bool:
        return source.is_test_name(name)

    def module_name(self, parts: Sequence[str]) -> tuple[str | None, bool]:
        return source.module_name(parts)

    def package_of(self, file_path: str) -> str | None:
        return source.package_of(file_path)

    def module_of(self, file_path: str) -> str | None:
        return source.module_of(file_path)

    def read_source(self, path: Path, limit: int) -> str:
        return source.read_source(path, limit)

    def extract(self, text: str, path: str, module: str | None, is_package: bool) -> FileResult:
        from errdex.languages.python.extract import extract

        return extract(text, path, module, is_package)

    def extract_triggers(self, text: str, path: str) -> list[Trigger]:
        from errdex.languages.python.tests import extract_triggers

        return extract_triggers(text, path)

    def known_helpers(self) -> Mapping[str, HelperDef]:
        from errdex.languages.python.helpers import KNOWN_HELPERS

        return KNOWN_HELPERS

    def called_as(self, function: str | None) -> tuple[str | None, set[str] | None]:
        return names.called_as(function)

    def call_of(self, function: str | None) -> tuple[str | None, str | None]:
        return names.call_of(function)

    def special_use(self, function: str | None) -> tuple[str, str] | None:
        return names.special_use(function)

    def signature(self, lines: list[str], function: FunctionInfo) -> str | None:
        from errdex.languages.python.docs import signature

        return signature(lines, function.line, function.body_line)

    def summary(self, doc: str | None) -> str | None:
        from errdex.languages.python.docs import summary

        return summary(doc)

    def override_note(self, doc: str | None) -> str | None:
        from errdex.languages.python.docs import override_note

        return override_note(doc)

    def raises(self, doc: str | None, error_class: str | None) -> str | None:
        from errdex.languages.python.docs import raises

        return raises(doc, error_class)

    def parameter_docs(self, doc: str | None, names: Iterable[str]) -> dict[str, str]:
        from errdex.languages.python.docs import parameters

        return parameters(doc, names)

    def plain(self, text: str) -> str:
        from errdex.languages.python.docs import plain

        return plain(text)

    def is_public(self, function: str, module: str | None) -> bool:
        return names.is_public(function, module)

    def named_as(self, function: str) -> str:
        return names.named_as(function)

    def is_import_error(self, error_class: str) -> bool:
        return error_class in _IMPORT_ERRORS

    @property
    def code(self) -> CodeWriter:
        from errdex.languages.python import code

        return code

    @property
    def claims(self) -> ClaimReader:
        from errdex.languages.python import claims

        return claims

    @property
    def call_reader(self) -> CallReader:
        from errdex.languages.python import reach

        return reach

    @property
    def paste(self) -> PasteReader:
        from errdex.languages.python.paste import READER

        return READER

    def upgrade_facts(self, conditions: list[str], signature: str | None) -> dict[str, Any]:
        from errdex.languages.python.upgrade import upgrade_facts

        return upgrade_facts(conditions, signature)


PYTHON = Python()
