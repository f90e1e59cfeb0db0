"""The parsers: tree-sitter's JavaScript, TypeScript and TSX grammars, from their wheels.

A parser is made once per grammar and process (mining extracts files in worker processes, each
of which parses many).  Positions in a tree are UTF-8 byte offsets; lines are 0-based rows.
"""

from __future__ import annotations

import functools
from pathlib import PurePath

import tree_sitter as ts

#: The grammar each extension is parsed with: JavaScript's reads JSX too; TypeScript's does not.
_GRAMMARS = {".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx"}


@functools.cache
def language(grammar: str) -> ts.Language:
    if grammar == "javascript":
        import tree_sitter_javascript

        return ts.Language(tree_sitter_javascript.language())
    import tree_sitter_typescript

    if grammar == "tsx":
        return ts.Language(tree_sitter_typescript.language_tsx())
    return ts.Language(tree_sitter_typescript.language_typescript())


@functools.cache
def parser(grammar: str) -> ts.Parser:
    return ts.Parser(language(grammar))


def grammar_of(path: str) -> str:
    """The grammar a file is parsed with, by its extension."""
    return _GRAMMARS.get(PurePath(path).suffix, "javascript")


def parse(text: str, path: str) -> ts.Tree:
    """The file's syntax tree; tree-sitter always returns one (a file that is not valid has
    ``ERROR`` nodes where it could not read, and the rest read as usual)."""
    return parser(grammar_of(path)).parse(text.encode("utf-8", "surrogatepass"))


def text_of(node: ts.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def line_of(node: ts.Node) -> int:
    """The 1-based line a node starts on."""
    return node.start_point[0] + 1
