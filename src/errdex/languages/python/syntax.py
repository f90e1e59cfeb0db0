"""Small readings of Python syntax trees that the extractor, the evaluator and the test reader share."""

from __future__ import annotations

import ast
import io
import tokenize


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attribute accesses on a name, else None."""
    if type(node) is ast.Name:  # the walker asks of every call and raise: most often a bare name
        return node.id
    if type(node) is not ast.Attribute:
        return None
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def split_lines(text: str) -> list[str]:
    """Physical lines as Python's tokenizer counts them (form feeds do not end a line)."""
    if "\r" not in text:  # most files: spare the two copies the replacements make
        return text.split("\n")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def is_int(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


class SourceText:
    """The source text of nodes, as written (not ``ast.unparse``'s rendering), cached per node.

    A node spanning several lines reads as one line, its lines joined by a space.
    """

    __slots__ = ("_cache", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._cache: dict[int, str] = {}

    def of(self, node: ast.AST) -> str:
        key = id(node)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        lineno = getattr(node, "lineno", None)
        end = getattr(node, "end_lineno", None)
        col = getattr(node, "col_offset", None)
        end_col = getattr(node, "end_col_offset", None)
        if lineno is None or end is None or col is None or end_col is None:
            # A node errdex built itself (``msg += ...`` folded into one expression).
            text = ast.unparse(node)
        elif lineno == end:
            line = self.lines[lineno - 1]
            if line.isascii():
                text = line[col:end_col]
            else:
                text = line.encode()[col:end_col].decode(errors="replace")
        else:
            chunk = [self.lines[i].encode() for i in range(lineno - 1, end)]
            chunk[-1] = chunk[-1][:end_col]
            chunk[0] = chunk[0][col:]
            pieces = [c.decode(errors="replace") for c in chunk]
            if any("#" in p for p in pieces):
                pieces = _without_comments(pieces)
            text = " ".join(p.strip() for p in pieces if p.strip())
        self._cache[key] = text
        return text


def _without_comments(lines: list[str]) -> list[str]:
    """The lines of a node that spans several, each without the comment it ends with: joined on
    one line, ``a  # note`` then ``or b`` would read as ``a`` alone."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("(" + "\n".join(lines) + ")").readline))
    except (tokenize.TokenError, SyntaxError):
        return lines
    out = list(lines)
    for token in tokens:
        if token.type == tokenize.COMMENT:
            row, col = token.start[0] - 1, token.start[1] - (1 if token.start[0] == 1 else 0)
            out[row] = out[row][:col]
    return out
