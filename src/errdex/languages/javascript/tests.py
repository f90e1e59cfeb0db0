"""The errors a package's own JavaScript and TypeScript tests expect (read, never run).

Jest's and Vitest's ``expect(() => call).toThrow(X)`` (``.rejects.toThrow``,
``toThrowError``), Node's ``assert.throws(() => call, X)`` (``assert.rejects``) and tap's or
ava's ``t.throws(...)`` say which error a call should raise, and often which message: the best
evidence of how a record is triggered.  Test files are parsed whole (tree-sitter is fast), but
only files that mention one of these are.
"""

from __future__ import annotations

import re

import tree_sitter as ts

from errdex.languages.ir import Trigger
from errdex.languages.javascript.syntax import (
    arguments,
    dotted,
    line_of,
    parse,
    string_value,
    text_of,
    unwrap,
    walk,
)

_MAX_CALL = 240
_MENTIONS = re.compile(r"\.toThrow|\bthrows\(|\brejects\(|\.rejects\b")
_MATCHERS = frozenset({"toThrow", "toThrowError"})
_ASSERTIONS = frozenset({"throws", "rejects"})
_TEST_CALLS = frozenset({"it", "test", "specify", "t.test", "tap.test", "it.only", "test.only"})


def extract_triggers(text: str, path: str) -> list[Trigger]:
    """Every expected error in one test file."""
    if not _MENTIONS.search(text):
        return []
    tree = parse(text, path)
    found = []
    for node in walk(tree.root_node):
        if node.type != "call_expression":
            continue
        trigger = _trigger(node, path)
        if trigger is not None:
            found.append(trigger)
    return found


def _trigger(call: ts.Node, path: str) -> Trigger | None:
    func = call.child_by_field_name("function")
    if func is None or func.type != "member_expression":
        return None
    prop = func.child_by_field_name("property")
    name = text_of(prop) if prop is not None else ""
    args = arguments(call)
    if name in _MATCHERS:
        subject = _expected_subject(func.child_by_field_name("object"))
        expected = args[0] if args else None
    elif name in _ASSERTIONS and len(args) >= 1:
        subject = args[0]
        expected = args[1] if len(args) > 1 else None
    else:
        return None
    if subject is None:
        return None
    error_class, match = _expectation(expected)
    body = _body(subject)
    calls = _calls(body)
    return Trigger(
        error_class=error_class or "",  # none named: any class, the message decides
        match=match,
        test=_test_name(call) or "<test>",
        path=path,
        line=line_of(call),
        call=" ".join(text_of(body).split())[:_MAX_CALL] if body is not None else None,
        called=tuple(dict.fromkeys(calls)),
        calls=tuple(dict.fromkeys(calls)),
    )


def _expected_subject(node: ts.Node | None) -> ts.Node | None:
    """The function given to ``expect(...)`` in ``expect(fn).toThrow`` or ``expect(p).rejects.toThrow``."""
    while node is not None and node.type == "member_expression":
        node = node.child_by_field_name("object")
    if (
        node is None
        or node.type != "call_expression"
        or dotted(node.child_by_field_name("function")) != "expect"
    ):
        return None
    args = arguments(node)
    return args[0] if args else None


def _expectation(node: ts.Node | None) -> tuple[str | None, str | None]:
    """The class and the message pattern an expectation names: ``TypeError``, ``'text'``,
    ``/regex/``, ``{ name, message, code }``."""
    node = unwrap(node)
    if node is None:
        return None, None
    if node.type in ("identifier", "member_expression"):
        return dotted(node), None
    if node.type == "string":
        return None, re.escape(string_value(node))
    if node.type == "regex":
        pattern = node.child_by_field_name("pattern")
        return None, text_of(pattern) if pattern is not None else None
    if node.type == "object":
        error_class = match = None
        for pair in node.named_children:
            if pair.type != "pair":
                continue
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if key is None or value is None:
                continue
            label = text_of(key).strip("'\"")
            if label == "name" and value.type == "string":
                error_class = string_value(value)
            elif label == "message" and value.type == "string":
                match = re.escape(string_value(value))
            elif label == "message" and value.type == "regex":
                pattern = value.child_by_field_name("pattern")
                match = text_of(pattern) if pattern is not None else None
        return error_class, match
    return None, None


def _body(subject: ts.Node) -> ts.Node | None:
    """What a test runs to get the error: an arrow's or function's body, else the value itself."""
    subject = unwrap(subject) or subject
    if subject.type in ("arrow_function", "function_expression", "function"):
        body = subject.child_by_field_name("body")
        if body is not None and body.type == "statement_block":
            statements = [c for c in body.named_children if c.type != "comment"]
            if len(statements) == 1 and statements[0].type == "expression_statement":
                return statements[0].named_children[0] if statements[0].named_children else body
        return body
    return subject


def _calls(node: ts.Node | None) -> list[str]:
    """The functions a test's code calls, as written (``router.use``, ``new Router``)."""
    if node is None:
        return []
    out = []
    for part in [node, *walk(node)]:
        if part.type == "call_expression":
            name = dotted(part.child_by_field_name("function"))
        elif part.type == "new_expression":
            name = dotted(part.child_by_field_name("constructor"))
        else:
            continue
        if name is not None:
            out.append(name)
    return out


def _test_name(node: ts.Node) -> str | None:
    """The ``it('...')`` or ``test('...')`` a call lies in, by its title."""
    current = node.parent
    while current is not None:
        if current.type == "call_expression":
            name = dotted(current.child_by_field_name("function"))
            args = arguments(current)
            if name in _TEST_CALLS and args and args[0].type in ("string", "template_string"):
                return " ".join(text_of(args[0]).strip("'\"`").split())
        current = current.parent
    return None
