"""JavaScript and TypeScript: read with tree-sitter's grammars, never run.

One reader serves both languages; the two entries differ in their files' extensions and in
the grammar that parses them (``syntax``).  As with Python, each method imports what it needs
(the parser, the extractor, the stack-trace reader) on first use, so that looking an entry up
costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from errdex.languages.base import ClaimReader, CodeWriter, Language, PasteReader
from errdex.languages.javascript import names, source

if TYPE_CHECKING:
    from errdex.languages.ir import FileResult, FunctionInfo, HelperDef, Trigger


#: Text a signature is read from at most: a declaration's lines up to its body's first.
_MAX_SIGNATURE_TEXT = 4000


class ECMAScript(Language):
    """The entry shared by JavaScript and TypeScript."""

    excludes = source.EXCLUDES
    not_tests = source.NOT_TESTS
    receivers = names.RECEIVERS
    defining_words = frozenset({"function", "class"})
    line_comment = "//"
    long_strings = ("`",)
    validation_class = re.compile(r"^(TypeError|RangeError)$|Validation|Invalid|Argument|Usage|Option")
    builtin_classes = names.BUILTIN_ERRORS
    imports_by_path = False
    receiver_parameter = False
    unnamed_class_prints = "Error"

    def __init__(self, name: str, extensions: tuple[str, ...]) -> None:
        self.name = name
        self.extensions = extensions

    def is_test_name(self, name: str) -> bool:
        return source.is_test_name(name)

    def module_name(self, parts: Sequence[str]) -> tuple[str | None, bool]:
        return source.module_name(parts)

    def package_of(self, file_path: str) -> str | None:
        return source.package_of(file_path)

    def import_entries(
        self, package: str, entries: Mapping[str, str], modules: Collection[str]
    ) -> dict[str, str]:
        """``require('<package>')`` loads the package's entry (its ``require`` one first)."""
        ordered = sorted(entries, key=lambda rel: entries[rel] != "require")
        for rel in ordered:
            module = source.module_name(rel.split("/"))[0]
            if module is not None and module in modules:
                return {package: module}
        return {}

    def module_of(self, file_path: str) -> str | None:
        return source.module_of(file_path)

    def read_source(self, path: Path, limit: int) -> str:
        return source.read_source(path, limit)

    def extract(self, text: str, path: str, module: str | None, is_package: bool) -> FileResult:
        from errdex.languages.javascript.extract import extract

        return extract(text, path, module, self.name)

    def extract_triggers(self, text: str, path: str) -> list[Trigger]:
        from errdex.languages.javascript.tests import extract_triggers

        return extract_triggers(text, path)

    def known_helpers(self) -> Mapping[str, HelperDef]:
        from errdex.languages.javascript.helpers import KNOWN_HELPERS

        return KNOWN_HELPERS

    def called_as(self, function: str | None) -> tuple[str | None, set[str] | None]:
        return names.called_as(function)

    def call_of(self, function: str | None) -> tuple[str | None, str | None]:
        return names.call_of(function)

    def special_use(self, function: str | None) -> tuple[str, str] | None:
        return names.special_use(function)

    def signature(self, lines: list[str], function: FunctionInfo) -> str | None:
        from errdex.languages.javascript.docs import signature

        # A minified bundle's function starts mid-line on a line of a megabyte: its signature
        # is not a line to show, and reading it for each of its functions would cost minutes.
        head = lines[function.line - 1 : function.body_line]
        if sum(map(len, head)) > _MAX_SIGNATURE_TEXT:
            return None
        return signature(lines, function.line, function.body_line)

    def summary(self, doc: str | None) -> str | None:
        from errdex.languages.javascript.docs import summary

        return summary(doc)

    def override_note(self, doc: str | None) -> str | None:
        from errdex.languages.javascript.docs import override_note

        return override_note(doc)

    def raises(self, doc: str | None, error_class: str | None) -> str | None:
        from errdex.languages.javascript.docs import raises

        return raises(doc, error_class)

    def parameter_docs(self, doc: str | None, names: Iterable[str]) -> dict[str, str]:
        from errdex.languages.javascript.docs import parameters

        return parameters(doc, names)

    def plain(self, text: str) -> str:
        from errdex.languages.javascript.docs import plain

        return plain(text)

    def is_public(self, function: str, module: str | None) -> bool:
        return names.is_public(function, module)

    def named_as(self, function: str) -> str:
        return names.named_as(function)

    @property
    def code(self) -> CodeWriter:
        from errdex.languages.javascript import code

        return code

    @property
    def claims(self) -> ClaimReader:
        from errdex.languages.javascript import claims

        return claims

    @property
    def paste(self) -> PasteReader:
        from errdex.languages.javascript.paste import READER

        return READER

    def upgrade_facts(self, conditions: list[str], signature: str | None) -> dict[str, Any]:
        return {}


JAVASCRIPT = ECMAScript(names.JAVASCRIPT, source.JS_EXTENSIONS)
TYPESCRIPT = ECMAScript(names.TYPESCRIPT, source.TS_EXTENSIONS)
