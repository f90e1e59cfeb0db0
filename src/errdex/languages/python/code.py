"""Python as enrichment writes it: calls, checks, a ``try``/``except``, a caller's view of a test.

Enrichment decides what to say (which argument to pass, which check to run first); this module
only spells it in Python, so that the rules stay the same for every language errdex reads.
Everything written here is a complete program but for the names a caller has (its arguments,
the object it calls a method on): no ``...`` stands for code left out, and what a snippet
imports it imports by name.  Nothing here parses (prose is written on read, on any thread)
but ``used``, which reads what a model wrote, to check it against the record.
"""

from __future__ import annotations

import keyword
import re
import sys
from collections.abc import Collection, Sequence

from errdex.languages.python.names import BUILTIN_EXCEPTIONS, BUILTIN_NAMES

_BUILTIN_MODULE = "builtins"
_INDENT = "    "
#: The function a snippet that awaits is written in: ``await`` runs only inside one.
ASYNC_MAIN = "async def main() -> None:"

#: A literal a snippet may pass as is: a string without escapes, a number, ``None``, a bool.
_ATOM = r"""(?:'[^'\\\n]*'|"[^"\\\n]*"|-?\d+(?:\.\d+)?|None|True|False)"""
_ATOM_RE = re.compile(_ATOM)
#: A collection written out of such literals: ``('a', 'b')``, ``["x"]``, ``{1, 2}``,
#: ``frozenset({...})``.
_LITERAL_COLLECTION = re.compile(
    rf"(?:frozenset|set|tuple|list)?\(?\s*[(\[{{]\s*{_ATOM}(?:\s*,\s*{_ATOM})*\s*,?\s*[)\]}}]\s*\)?"
)
#: Builtin types a value converts to by calling the type (not ``bytes``: a ``str`` needs an encoding).
_CONVERTIBLE = frozenset({"str", "int", "float", "list", "tuple"})
#: The head of a call quoted in a message: a dotted name of identifiers.
_CALLEE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?=\()")
_PAIRS = {"(": ")", "[": "]", "{": "}"}


def comment(text: str) -> str:
    return "# " + " ".join(text.split())


def call(
    function: str,
    positional: Sequence[str] = (),
    keywords: Sequence[tuple[str, str]] = (),
    awaited: bool = False,
) -> str:
    args = [*positional, *(f"{name}={value}" for name, value in keywords)]
    return f"{'await ' if awaited else ''}{function}({', '.join(args)})"


def assign(target: str, value: str) -> str:
    return f"{target} = {value}"


def import_of(module: str, name: str) -> str:
    """How a snippet imports ``name`` from ``module``."""
    return f"from {module} import {name}"


def all_of(tests: Sequence[str]) -> str:
    """Tests joined so that all must hold."""
    return " and ".join(f"({t})" if " or " in t or t.startswith("lambda") else t for t in tests)


def if_block(test: str, body: str) -> str:
    return f"if {test}:\n{indent(body)}"


def indent(code: str) -> str:
    return "\n".join(_INDENT + line if line else line for line in code.split("\n"))


def is_instance(subject: str, classes: str) -> str:
    return f"isinstance({subject}, {classes})"


def raise_error(error_class: str, message: str) -> str:
    return f"raise {error_class}({message!r})"


def report(what: str) -> str:
    """A handler's statement: say what failed, with the error."""
    return f"print({f'{what} failed:'!r}, exc)"


def program(imports: Sequence[str], body: str, awaited: bool = False) -> str:
    """A snippet: its imports (the standard library's first), a blank line, then ``body``; a
    body that awaits is the body of an ``async`` function."""
    if awaited:
        body = f"{ASYNC_MAIN}\n{indent(body)}"
    ordered = sorted(dict.fromkeys(imports), key=lambda line: (not line.startswith("import "), line))
    return "\n".join([*ordered, "", body]) if ordered else body


def catchable(qualified_class: str) -> tuple[list[str], str] | None:
    """The imports an ``except`` clause for the class needs, and the name it catches it by; None
    where the class cannot be named (a name bound to a class at run time, no known module)."""
    module, _, name = qualified_class.rpartition(".")
    if not module or module == _BUILTIN_MODULE:
        return ([], name) if name in BUILTIN_EXCEPTIONS else None
    parts = module.split(".")
    # A class nested in another (``pkg.mod.Outer.Inner``): imported by its outer class.
    cut = next((i for i, p in enumerate(parts) if p[:1].isupper()), len(parts))
    if cut == 0 or not all(p.isidentifier() and not keyword.iskeyword(p) for p in (*parts, name)):
        return None
    inner = [*parts[cut:], name]
    return [import_of(".".join(parts[:cut]), inner[0])], ".".join(inner)


def try_except(caught: str, body: str, handler: str) -> str:
    """Catch ``caught`` (a name :func:`catchable` gave) around ``body``."""
    return f"try:\n{indent(body)}\nexcept {caught} as exc:\n{indent(handler)}"


def catch_warning(caught: str, body: str, handler: str) -> str:
    """A warning is warned, not raised: it is caught where a filter makes it an error."""
    inner = try_except(caught, body, handler)
    return (
        f'with warnings.catch_warnings():\n{_INDENT}warnings.simplefilter("error", {caught})\n{indent(inner)}'
    )


def ignore_warning(caught: str, message_start: str) -> str:
    """The filter that ignores one warning: its class, and the start of its message as the
    regular expression ``warnings`` matches at the message's start (case-insensitively); an
    empty start filters on the class alone."""
    pattern = _SPECIAL.sub(r"\\\g<0>", message_start)
    message = f"message={_raw(pattern)}, " if message_start else ""
    return f'warnings.filterwarnings("ignore", {message}category={caught})'


def quiet_logger(logger: str, severity: str) -> str | None:
    """The call that stops ``logger`` (``""``: the root logger) writing lines of ``severity``
    and below: its level set to the next one up; None above ``error``."""
    above = {"warning": "ERROR", "error": "CRITICAL"}.get(severity)
    if above is None:
        return None
    return f"logging.getLogger({logger!r}).setLevel(logging.{above})"


#: What a regular expression reads as other than itself (``re.escape`` also escapes spaces).
_SPECIAL = re.compile(r"[.^$*+?{}\[\]\\|()]")


def _raw(pattern: str) -> str:
    """A regular expression as a string literal: raw where that reads the same."""
    if "\n" not in pattern and not pattern.endswith("\\") and '"' not in pattern:
        return f'r"{pattern}"'
    return repr(pattern)


def is_standard(module: str) -> bool:
    """Whether a top-level module is one of the standard library's: part of a Python build, not
    something a user installs (``zlib`` is missing only where Python was built without it)."""
    return module.split(".")[0] in sys.stdlib_module_names


def yields(source: str, first_line: int, line: int, function: str) -> bool:
    """Whether the source window shows ``function`` (its last name) as a generator: its ``def``
    above ``line`` and a ``yield`` in its own body (not in a function nested in it).  Calling a
    generator function runs none of its body, so a ``try`` around the bare call catches nothing.
    False where the window does not show it: what it does not show, this cannot tell."""
    lines = source.split("\n")
    at = line - first_line
    name = re.escape(function.rpartition(".")[2])
    head = None
    for n in range(min(at, len(lines) - 1), -1, -1):
        m = re.match(rf"(\s*)(?:async\s+)?def\s+{name}\s*\(", lines[n])
        if m is not None:
            head = (n, len(m.group(1)))
            break
    if head is None:
        # The window starts inside the function: its body is as deep as its shallowest statement
        # before the raise.
        depths = [
            len(t) - len(t.lstrip())
            for t in lines[: at + 1]
            if re.match(r"\s*[A-Za-z_@]", t) and not t.lstrip().startswith(("def ", "async def "))
        ]
        if not depths or min(depths) == 0:
            return False
        body = min(depths)
        # Lines above the first statement at the body's depth may be inside a nested function
        # whose ``def`` the window cuts off: read from that statement on.
        first = next(
            n
            for n, t in enumerate(lines)
            if re.match(r"\s*[A-Za-z_@]", t) and len(t) - len(t.lstrip()) == body
        )
        start, depth = first - 1, body - 1
    else:
        start, depth = head
    nested: int | None = None
    for text in lines[start + 1 :]:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(text) - len(text.lstrip())
        if indent <= depth and not stripped.startswith((")", "]", "}")):
            break  # the function ended
        if nested is not None and indent <= nested:
            nested = None
        if nested is None and re.match(r"(?:async\s+)?def\s|class\s|lambda\b", stripped):
            nested = indent
            continue
        if nested is None and re.search(r"(?<![\w.'\"])yield\b", stripped.split("#")[0]):
            return True
    return False


def consumed(call: str) -> str:
    """A call of a generator function run to its end, so that its body (and its raise) runs."""
    return f"list({call})"


def import_module(module: str) -> str:
    return f"import {module}"


def installable(module: str) -> bool:
    """Whether a top-level module may come from a distribution a user installs: not private (a
    compiled part of its package, ``_crypt``), not one of the standard library's."""
    return not module.startswith("_") and module not in sys.stdlib_module_names


def is_public(name: str) -> bool:
    """Whether a dotted name names nothing private: no part starts with ``_`` (a special name,
    ``__init__``, is the language's, not private)."""
    return all(not part.startswith("_") or _special(part) for part in name.split("."))


def _special(part: str) -> bool:
    return len(part) > 4 and part.startswith("__") and part.endswith("__")


def quoted_call(text: str) -> bool:
    """Whether a message quotes a whole call a caller can write as it is: a public dotted name,
    then arguments whose brackets and quotes balance, and no ``...`` standing for arguments left
    out.  Read by scanning, not parsing (prose is written on read, on any thread)."""
    m = _CALLEE.match(text)
    if m is None or not is_public(m.group(0)) or "..." in text or "…" in text:
        return False
    if any(keyword.iskeyword(part) for part in m.group(0).split(".")):
        return False
    stack: list[str] = []
    quote: str | None = None
    for i, ch in enumerate(text[m.end() :], m.end()):
        if quote is not None:
            if ch == "\\":
                return False
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in _PAIRS:
            stack.append(_PAIRS[ch])
        elif ch in ")]}":
            if not stack or stack.pop() != ch:
                return False
            if not stack:
                return i == len(text) - 1
        elif ch in "\n;#":
            return False
    return False


def first_choice(collection: str) -> str | None:
    """The first value of a collection written out of literals (``('a', 'b')``: ``'a'``)."""
    if not _LITERAL_COLLECTION.fullmatch(collection.strip()):
        return None
    m = _ATOM_RE.search(collection)
    return m.group(0) if m else None


def is_literal(code: str) -> bool:
    """Whether ``code`` is one literal value: a string, a number, ``None``, ``True``, ``False``."""
    return _ATOM_RE.fullmatch(code.strip()) is not None


def converted(value: str, type_name: str) -> str | None:
    """``value`` as the builtin type ``type_name`` (``str(x)``); None for any other type."""
    return f"{type_name}({value})" if type_name in _CONVERTIBLE else None


def builtin_types(classes: str) -> bool:
    """Whether an ``isinstance`` operand names only builtin types (``str``, ``(list, tuple)``)."""
    names = [n.strip() for n in classes.strip().strip("()").split(",") if n.strip()]
    return bool(names) and all(n in BUILTIN_NAMES and n[:1].islower() for n in names)


def caller_side(
    code: str, names: Collection[str], params: Collection[str], receiver: str | None
) -> str | None:
    """A test as a caller can write it: ``self`` read as the caller's object; None when it reads
    names a caller does not have (the function's locals, or module names it cannot see)."""
    for name in names:
        if name == "self":
            if receiver is None:
                return None
        elif name not in params and name not in BUILTIN_NAMES and not name[:1].isupper():
            return None
    if receiver is not None:
        code = code.replace("self.", f"{receiver}.").replace("self)", f"{receiver})")
    return code


def reads_only(code: str, allowed: Collection[str]) -> bool:
    """Whether a test written as code reads no name but ``allowed`` ones and builtins, and no
    private attribute (``x._state``): what a caller's own check can test."""
    text = re.sub(r"'[^'\\]*'|\"[^\"\\]*\"", "''", code)
    if re.search(r"\.\s*_", text):
        return False
    for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)", text):
        name = m.group(1)
        if keyword.iskeyword(name) or name in allowed or (name in BUILTIN_NAMES and not name[:1].isupper()):
            continue
        if name in BUILTIN_EXCEPTIONS or name in ("None", "True", "False"):
            continue
        return False
    return True


def _root(called: str) -> str:
    """The name a call's chain starts from: ``np`` of ``np.asarray``, ``Parser`` of ``Parser().parse``."""
    m = re.match(r"[A-Za-z_]\w*", called)
    return m.group() if m else ""
