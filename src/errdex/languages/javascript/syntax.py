"""The parsers: tree-sitter's JavaScript, TypeScript and TSX grammars, from their wheels; and
the small readings of their trees the extractor, the test reader and the code writer share.

A parser is made once per grammar and thread (mining extracts files in worker processes, each
of which parses many; a server writes code in several threads, and a parser is not to be
shared between them).  Positions in a tree are UTF-8 byte offsets; lines are 0-based rows.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
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


_LOCAL = threading.local()


def parser(grammar: str) -> ts.Parser:
    """This thread's parser for the grammar, made on first use."""
    made: ts.Parser | None = getattr(_LOCAL, grammar, None)
    if made is None:
        made = ts.Parser(language(grammar))
        setattr(_LOCAL, grammar, made)
    return made


def grammar_of(path: str) -> str:
    """The grammar a file is parsed with, by its extension."""
    return _GRAMMARS.get(PurePath(path).suffix, "javascript")


def parse(text: str, path: str) -> ts.Tree:
    """The file's syntax tree; tree-sitter always returns one (a file that is not valid has
    ``ERROR`` nodes where it could not read, and the rest read as usual)."""
    return parse_source(encoded(text), path)


def encoded(text: str) -> bytes:
    """The bytes tree-sitter reads a text as: a tree's offsets index into these."""
    return text.encode("utf-8", "surrogatepass")


def parse_source(source: bytes, path: str) -> ts.Tree:
    """``parse`` of a text already ``encoded``, for a reader that also reads its bytes."""
    return parser(grammar_of(path)).parse(source)


def text_of(node: ts.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def line_of(node: ts.Node) -> int:
    """The 1-based line a node starts on."""
    return node.start_point[0] + 1


#: What a string's escapes stand for, beside ``\\u``, ``\\x`` and line continuations.
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def walk(node: ts.Node) -> Iterator[ts.Node]:
    """Every node below ``node``, depth first, without recursion (bundles nest deeply)."""
    cursor = node.walk()
    visited = False
    while True:
        if not visited:
            current = cursor.node
            if current is not None and current.is_named:
                yield current
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited = False
            continue
        if not cursor.goto_parent():
            return
        visited = True


def unwrap(node: ts.Node | None) -> ts.Node | None:
    """The expression inside parentheses, ``await``, and TypeScript's ``x as T`` and ``x!``."""
    while node is not None and node.type in (
        "parenthesized_expression",
        "as_expression",
        "non_null_expression",
        "satisfies_expression",
        "type_assertion",
    ):
        inner = next((c for c in node.named_children if c.type != "comment"), None)
        if inner is None or inner is node:
            break
        node = inner
    return node


def arguments(call: ts.Node) -> list[ts.Node]:
    args = call.child_by_field_name("arguments")
    if args is None:
        return []
    return [a for a in args.named_children if a.type != "comment"]


def dotted(node: ts.Node | None) -> str | None:
    """``a.b.c`` for an identifier or a chain of plain member accesses (private fields too:
    ``this.#usage``), else None.  TypeScript compiles ``this.#usage`` for older runtimes to
    ``__classPrivateFieldGet(this, _Yargs_usage, "f")``: that reads as ``this.#_Yargs_usage``;
    and an imported function's call to ``(0, util_1.f)(...)``: that callee reads as ``util_1.f``."""
    if node is None:
        return None
    if node.type in ("identifier", "this", "super", "property_identifier"):
        return text_of(node)
    if node.type == "member_expression":
        obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        head = dotted(obj)
        if head is None or prop is None or prop.type not in _PROPERTIES:
            return None
        return f"{head}.{text_of(prop)}"
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        # ``(0, util_1.checkStrictMode)``: how TypeScript and Babel call an imported function.
        inner = node.named_child(0)
        if inner is not None and inner.type == "sequence_expression" and inner.named_child_count == 2:
            first, called = inner.named_child(0), inner.named_child(1)
            return dotted(called) if first is not None and first.type == "number" else None
    if node.type == "call_expression":
        func, args = node.child_by_field_name("function"), arguments(node)
        if func is not None and func.text == b"__classPrivateFieldGet" and len(args) >= 2:
            field = args[1]
            if args[0].type == "this" and field.type == "identifier":
                return f"this.#{text_of(field)}"
    return None


_PROPERTIES = frozenset({"property_identifier", "private_property_identifier"})


def string_value(node: ts.Node) -> str:
    """A string literal's value, its escapes decoded."""
    out = []
    for child in node.named_children:
        if child.type == "string_fragment":
            out.append(text_of(child))
        elif child.type == "escape_sequence":
            out.append(escape(text_of(child)))
    return "".join(out)


def escape(text: str) -> str:
    body = text[1:]
    if body[:1] in _ESCAPES and (body != "0" or len(body) == 1):
        return _ESCAPES[body[:1]]
    try:
        if body.startswith("u{"):
            return chr(int(body[2:-1], 16))
        if body[:1] in ("u", "x"):
            return chr(int(body[1:], 16))
    except ValueError:
        return text
    if body[:1] in ("\n", "\r"):
        return ""  # a line continuation
    return body
