"""JavaScript as enrichment writes it: calls, checks, a ``try``/``catch``, a caller's view of a test.

Enrichment decides what to say; this module spells it in modern JavaScript that Node 20 runs as
it is.  The choices every snippet shares:

* Imports are CommonJS ``require`` calls (``const { AxiosError } = require("axios");``): a
  snippet saved as ``x.js`` runs with ``node x.js`` without a ``package.json`` saying
  ``"type": "module"``, and ``require`` loads CommonJS packages and, since Node 20.19 and
  22.12, ESM ones too (those without top-level ``await``).  Node's own modules are required
  with the ``node:`` prefix, which no npm package can shadow.
* Statements end in ``;``; what :func:`call` returns is an expression (prose quotes it, and
  :func:`consumed` wraps it), so the blocks and :func:`program` end each statement line.
* A body that awaits runs in an ``async`` arrow called at once: CommonJS has no top-level
  ``await``, and a rejection it does not catch still ends Node with the error, as a raise would.
* ``catch`` has no type in JavaScript: a handler tests the error (``instanceof`` a class, its
  ``code`` for Node's ``ERR_*`` errors, its ``name`` for a warning) and rethrows the others.
* Warnings are events on ``process``, emitted on a later tick, not raised: a warning is caught
  by listening for it, and ignored by filtering what Node's printer is given.

Prose is written on read, on any thread: nothing here parses but the functions that must read
code (``is_literal``, ``caller_side``, ``reads_only``, ``used``), which parse with tree-sitter,
imported on first use, one parser per thread.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Sequence
from typing import TYPE_CHECKING

from errdex.languages.javascript.names import BUILTIN_ERRORS, GLOBALS

if TYPE_CHECKING:
    import tree_sitter

_INDENT = "  "
#: The variable a handler names the error by: :func:`report` writes its statement with it.
ERROR_NAME = "err"

#: Node 20's ``require('module').builtinModules``: modules that come with Node, never installed.
NODE_MODULES = (
    "_http_agent", "_http_client", "_http_common", "_http_incoming", "_http_outgoing", "_http_server",
    "_stream_duplex", "_stream_passthrough", "_stream_readable", "_stream_transform", "_stream_wrap",
    "_stream_writable", "_tls_common", "_tls_wrap", "assert", "assert/strict", "async_hooks", "buffer",
    "child_process", "cluster", "console", "constants", "crypto", "dgram", "diagnostics_channel", "dns",
    "dns/promises", "domain", "events", "fs", "fs/promises", "http", "http2", "https", "inspector",
    "inspector/promises", "module", "net", "os", "path", "path/posix", "path/win32", "perf_hooks",
    "process", "punycode", "querystring", "readline", "readline/promises", "repl", "stream",
    "stream/consumers", "stream/promises", "stream/web", "string_decoder", "sys", "timers",
    "timers/promises", "tls", "trace_events", "tty", "url", "util", "util/types", "v8", "vm", "wasi",
    "worker_threads", "zlib",
)  # fmt: skip
#: Modules Node has only under their ``node:`` name: ``require("test")`` loads the npm package.
PREFIXED_ONLY = ("sea", "sqlite", "test", "test/reporters")
_NODE = frozenset(NODE_MODULES)
_NODE_TOPS = frozenset(m.split("/")[0] for m in NODE_MODULES)
_PREFIXED = frozenset(PREFIXED_ONLY)

#: Builtin error classes that are no global in Node, and the module that exports each; those it
#: exports from none (``SystemError``) cannot be named.
_EXPORTED_BY = {"AssertionError": "assert"}
_GLOBAL_ERRORS = frozenset(c for c in BUILTIN_ERRORS if c not in _EXPORTED_BY and c != "SystemError")
#: Errors Node tells apart by their ``name`` alone (``DOMException``s and warnings): no class to test.
_BY_NAME = frozenset({"AbortError", "TimeoutError"})
#: Node's ``ERR_INVALID_ARG_TYPE``: an error told apart by its ``code``, whatever its class.
_ERROR_CODE = re.compile(r"^(?:ERR_[A-Z0-9_]+|E[A-Z]{2,}|MODULE_NOT_FOUND)$")
#: A module whose part of a snippet a global plays in Node: nothing to require.  Enrichment asks
#: for Python's ``warnings`` for its warning snippets; Node's warnings are events on ``process``.
_GLOBAL_MODULES = frozenset({"warnings"})

_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_RESERVED = frozenset(
    {
        "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
        "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function",
        "if", "implements", "import", "in", "instanceof", "interface", "let", "new", "null",
        "package", "private", "protected", "public", "return", "static", "super", "switch", "this",
        "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
    }
)  # fmt: skip
#: Names a CommonJS module's wrapper binds: a ``const`` of one at the top is a SyntaxError.
_WRAPPER_NAMES = frozenset({"require", "module", "exports", "__filename", "__dirname"})

#: An npm package name, scoped or not (legacy names may hold capitals), then a path into it.
_SPECIFIER = re.compile(r"^(?:@[a-z0-9~-][\w.~-]*/)?[a-zA-Z0-9~-][\w.~-]*(?:/[\w.~@-]+)*$")
_MAX_PACKAGE = 214

#: A literal a snippet may pass as is: a string without escapes, a number, ``null``,
#: ``undefined``, a bool.
_ATOM = r"""(?:'[^'\\\n]*'|"[^"\\\n]*"|-?\d+(?:\.\d+)?|null|undefined|true|false)"""
_ATOM_RE = re.compile(_ATOM)
#: An array written out of such literals, as is or in a ``Set``, frozen, or ``as const``.
_LITERAL_COLLECTION = re.compile(
    rf"(?:new\s+Set\s*\(|Object\.freeze\s*\()?\s*\[\s*{_ATOM}(?:\s*,\s*{_ATOM})*\s*,?\s*\]\s*\)?"
    r"(?:\s+as\s+const)?"
)
#: What ``typeof`` answers: a test of one is ``typeof x === "string"``, not ``instanceof``.
_TYPEOF = frozenset({"string", "number", "boolean", "bigint", "symbol", "function", "undefined"})
#: Wrapper classes named for a primitive type (a primitive is no instance of its wrapper).
_WRAPPERS = {
    "String": "string", "Number": "number", "Boolean": "boolean", "BigInt": "bigint",
    "Symbol": "symbol", "Function": "function",
}  # fmt: skip
#: Classes every script has that a value is an instance of.
_GLOBAL_CLASSES = frozenset(
    {
        "Array", "Object", "Date", "RegExp", "Map", "Set", "WeakMap", "WeakSet", "Promise",
        "ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
        "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
        "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "Buffer", "URL",
        "URLSearchParams", *_GLOBAL_ERRORS,
    }
)  # fmt: skip
#: Types a value converts to by calling a global (not ``Boolean``: ``Boolean("false")`` is true;
#: not ``BigInt``: it throws for ``1.5``).
_CONVERSIONS = {
    "string": "String", "String": "String", "number": "Number", "Number": "Number",
    "Array": "Array.from", "array": "Array.from",
}  # fmt: skip
#: The head of a call quoted in a message: a dotted name of identifiers.
_CALLEE = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$#][\w$]*)*(?=\()")
_PAIRS = {"(": ")", "[": "]", "{": "}"}
#: Globals a caller's check may read: every script's, but the module wrapper's own.
_READABLE = GLOBALS - _WRAPPER_NAMES


def _string(text: str) -> str:
    """A JavaScript string literal: JSON's, which JavaScript reads the same since ES2019."""
    return json.dumps(text, ensure_ascii=False)


def comment(text: str) -> str:
    return "// " + " ".join(text.split())


def call(
    function: str,
    positional: Sequence[str] = (),
    keywords: Sequence[tuple[str, str]] = (),
    awaited: bool = False,
) -> str:
    """A call, as an expression.  JavaScript passes arguments by position alone: those enrichment
    gives by name (optional parameters, in the signature's order) follow the positional ones, by
    value; a positional ``*args`` (enrichment's spelling of passing a sequence's items) is
    ``...args``."""
    args = [f"...{a[1:]}" if a.startswith("*") and not a.startswith("**") else a for a in positional]
    args += [value for _, value in keywords]
    return f"{'await ' if awaited else ''}{function}({', '.join(args)})"


def assign(target: str, value: str) -> str:
    return f"{target} = {value}"


def _specifier(module: str) -> str:
    """What ``require`` is given for a module: Node's own under ``node:``, which no package shadows."""
    bare = module.removeprefix("node:")
    return f"node:{bare}" if bare in _NODE or bare in _PREFIXED else module


def import_of(module: str, name: str) -> str:
    """How a snippet imports ``name`` from ``module``: a destructuring ``require``."""
    return f"const {{ {name} }} = require({_string(_specifier(module))});"


def import_module(module: str) -> str:
    """How a snippet binds a whole module: ``const fs = require("node:fs");``.  ``""`` (which
    :func:`program` leaves out) for a module whose part a global plays: Python's ``warnings``,
    which enrichment asks for its warning snippets, is Node's ``process``."""
    if module in _GLOBAL_MODULES:
        return ""
    return f"const {_binding(module)} = require({_string(_specifier(module))});"


def _binding(module: str) -> str:
    """The name a module is bound to: its package's name after the scope and any path into it,
    in camel case (``@scope/my-pkg`` is ``myPkg``, ``fs/promises`` is ``fsPromises``)."""
    bare = module.removeprefix("node:")
    if bare.startswith("@"):
        bare = bare.partition("/")[2]
    words = [w for w in re.split(r"[^A-Za-z0-9$]+", bare) if w]
    name = "".join(w if i == 0 else w[:1].upper() + w[1:] for i, w in enumerate(words)) or "lib"
    if name[0].isdigit():
        name = "_" + name
    return name + "_" if name in _RESERVED or name in _WRAPPER_NAMES else name


def all_of(tests: Sequence[str]) -> str:
    """Tests joined so that all must hold: a test that binds looser than ``&&`` in parentheses
    (``??`` mixed with ``&&`` unparenthesized is even a SyntaxError)."""
    return " && ".join(f"({t})" if len(tests) > 1 and _LOOSE.search(t) else t for t in tests)


#: What binds looser than ``&&``: ``||``, ``??``, the conditional, assignment, arrows, commas.
_LOOSE = re.compile(r"\|\||\?|,|=>|(?<![=!<>])=(?!=)|\byield\b")


def if_block(test: str, body: str) -> str:
    return f"if ({test}) {{\n{indent(_terminated(body))}\n}}"


def indent(code: str) -> str:
    return "\n".join(_INDENT + line if line else line for line in code.split("\n"))


#: How a line ends that ends no statement of its own, or one already ended.
_OPEN_ENDS = (";", "{", "}", ",", "(", "[")


def _terminated(code: str) -> str:
    """Each statement line ended with ``;``: what :func:`call` and :func:`assign` return is
    written without, so that it reads as an expression where prose quotes it."""
    out = []
    for line in code.split("\n"):
        stripped = line.strip()
        if stripped and not stripped.startswith("//") and not stripped.endswith(_OPEN_ENDS):
            line += ";"
        out.append(line)
    return "\n".join(out)


def is_instance(subject: str, classes: str) -> str:
    """The test that ``subject`` is of one of ``classes`` (``string``, ``(Array, Map)``, ``string
    | number``): ``typeof`` for a primitive type (named by its wrapper, too: a string is no
    instance of ``String``), ``Array.isArray`` for arrays, ``instanceof`` for other classes."""
    tests = [_type_test(subject, name) for name in _type_names(classes)]
    if len(tests) > 1:
        tests = [f"({t})" if " && " in t else t for t in tests]
    return " || ".join(tests)


def _type_names(classes: str) -> list[str]:
    return [n.strip() for n in re.split(r"[,|]", classes.strip().strip("()[]")) if n.strip()]


def _type_test(subject: str, name: str) -> str:
    kind = _WRAPPERS.get(name, name)
    if kind in _TYPEOF:
        return f"typeof {subject} === {_string(kind)}"
    if kind in ("object", "Object"):
        return f'typeof {subject} === "object" && {subject} !== null'
    if kind == "null":
        return f"{subject} === null"
    if kind in ("Array", "array"):
        return f"Array.isArray({subject})"
    return f"{subject} instanceof {name}"


def raise_error(error_class: str, message: str) -> str:
    """``throw new TypeError("...")``.  Thrown as an ``Error``: a builtin class Node has no
    constructor for (``SystemError``), and ``ValueError``, which enrichment gives a caller's own
    check where the record's class is none of the language's, but JavaScript has no class of."""
    cls = "Error" if error_class in _NO_CONSTRUCTOR else error_class
    return f"throw new {cls}({_string(message)});"


_NO_CONSTRUCTOR = frozenset({"SystemError", "ValueError"})


def report(what: str) -> str:
    """A handler's statement: say what failed, with the error (:data:`ERROR_NAME`)."""
    return f"console.error({_string(f'{what} failed:')}, {ERROR_NAME});"


def program(imports: Sequence[str], body: str, awaited: bool = False) -> str:
    """A snippet: its ``require`` lines (Node's modules first, then packages), a blank line, then
    ``body``; a body that awaits is the body of an ``async`` arrow called at once, since CommonJS
    has no top-level ``await``."""
    body = _terminated(body)
    if awaited:
        body = f"(async () => {{\n{indent(body)}\n}})();"
    ordered = sorted(_merged(imports), key=lambda line: (_import_rank(line), line))
    return "\n".join([*ordered, "", body]) if ordered else body


#: A ``require`` :func:`import_of` writes: ``const { a, b } = require("m");``.
_DESTRUCTURING = re.compile(r'^const \{ (.+) \} = require\(("[^"]+")\);$')


def _merged(imports: Sequence[str]) -> list[str]:
    """The imports, each once, those that take names from one module merged into one ``require``."""
    names: dict[str, list[str]] = {}
    out: list[str] = []
    for line in dict.fromkeys(imports):
        m = _DESTRUCTURING.match(line)
        if m is None:
            if line:
                out.append(line)
            continue
        if m.group(2) not in names:
            names[m.group(2)] = []
            out.append(m.group(2))  # its place, filled in below
        names[m.group(2)] += [n.strip() for n in m.group(1).split(",") if n.strip()]
    return [
        f"const {{ {', '.join(sorted(dict.fromkeys(names[line]), key=str.lower))} }} = require({line});"
        if line in names
        else line
        for line in out
    ]


def _import_rank(line: str) -> int:
    """Node's modules, then packages, then files of the project's own."""
    m = re.search(r"""require\(["']([^"']+)["']\)|from\s+["']([^"']+)["']""", line)
    module = (m.group(1) or m.group(2)) if m else ""
    if is_standard(module):
        return 0
    return 2 if module.startswith((".", "/")) else 1


def catchable(qualified_class: str) -> tuple[list[str], str] | None:
    """The ``require`` a handler needs to test for the class, and the name it tests it by; None
    where the class cannot be named from outside.

    ``axios.AxiosError`` is ``AxiosError`` from ``require("axios")``; a builtin (``TypeError``)
    needs nothing, ``AssertionError`` comes from ``node:assert``; a class nested in another
    (``pkg.Outer.Inner``) is required by its outer class: the module is what comes before the
    first capitalised part (so ``socket.io.Socket`` is in ``socket.io``).  Node's ``ERR_*`` codes,
    warning names and ``AbortError`` are names the handler compares, no class.  None for a bare
    class of a library (no module to require it from), a relative or internal module, a file's
    path inside a package with no package before it (``lib/core/AxiosError.AxiosError``: the
    module must be what ``require`` takes, ``axios`` or ``axios/lib/core/AxiosError``), or a
    class Node exports from none (``SystemError``)."""
    if not qualified_class or "<" in qualified_class:
        return None
    module, _, name = qualified_class.rpartition(".")
    if module in ("", "globalThis", "global"):
        return _bare(name)
    parts = qualified_class.split(".")
    cut = next((i for i in range(1, len(parts)) if parts[i][:1].isupper()), len(parts) - 1)
    module, chain = ".".join(parts[:cut]), parts[cut:]
    bare = module.removeprefix("node:")
    if not all(_IDENTIFIER.fullmatch(p) and p not in _RESERVED for p in chain):
        return None
    if bare in _NODE or bare in _PREFIXED:
        if bare == "assert" and chain == ["AssertionError"]:
            return [import_of(bare, "AssertionError")], "AssertionError"
        if len(chain) == 1 and chain[0] in _GLOBAL_ERRORS:
            return [], chain[0]  # ``buffer.RangeError``-like: the global itself
        return [import_of(bare, chain[0])], ".".join(chain)
    if module.startswith("node:") or not installable(module) or _in_package(module):
        return None  # Node's internals (``node:internal/errors``), a relative path, no package
    return [import_of(module, chain[0])], ".".join(chain)


#: The folders a package keeps its code in: a module path that starts with one is a file's path
#: inside some package (``lib/core/AxiosError``), which names no package to require it from.
_SOURCE_DIRS = frozenset({"lib", "src", "dist", "build", "es", "esm", "cjs", "out", "source", "packages"})


def _in_package(module: str) -> bool:
    return "/" in module and not module.startswith("@") and module.split("/")[0] in _SOURCE_DIRS


def _bare(name: str) -> tuple[list[str], str] | None:
    if name in _GLOBAL_ERRORS or _ERROR_CODE.match(name) or name in _BY_NAME or _is_warning_name(name):
        return [], name
    if name in _EXPORTED_BY:
        return [import_of(_EXPORTED_BY[name], name)], name
    return None


def _is_warning_name(caught: str) -> bool:
    """Whether ``caught`` names a warning: Node's warnings are told apart by ``name``, a string a
    warning is emitted with (``DeprecationWarning``), no class."""
    return "." not in caught and caught.endswith("Warning") and _IDENTIFIER.fullmatch(caught) is not None


def _caught_test(caught: str, error: str, thrown: bool = True) -> str:
    """The test that ``error`` is what a handler catches: Node's codes by ``code``, warnings and
    ``AbortError`` by ``name``, classes by ``instanceof``.  What is ``thrown`` may be anything
    (``throw null``): its fields are read with ``?.``; a warning is always an ``Error``."""
    dot = "?." if thrown else "."
    if _ERROR_CODE.match(caught):
        return f"{error}{dot}code === {_string(caught)}"
    if caught in _BY_NAME or _is_warning_name(caught):
        return f"{error}{dot}name === {_string(caught)}"
    return f"{error} instanceof {caught}"


def _not(test: str) -> str:
    if " === " in test and " instanceof " not in test:
        return test.replace(" === ", " !== ", 1)
    return f"!({test})"


def try_except(caught: str, body: str, handler: str) -> str:
    """Catch ``caught`` (a name :func:`catchable` gave) around ``body``: ``catch`` catches
    everything, so the handler rethrows what is not it."""
    test = _not(_caught_test(caught, ERROR_NAME))
    inner = f"if ({test}) throw {ERROR_NAME};\n{_terminated(handler)}"
    return f"try {{\n{indent(_terminated(body))}\n}} catch ({ERROR_NAME}) {{\n{indent(inner)}\n}}"


def catch_warning(caught: str, body: str, handler: str) -> str:
    """A warning is emitted, not thrown, and on a later tick: it is caught by listening for
    Node's ``warning`` event around ``body``, until the events ``body`` queued have run."""
    listener = f"if ({_caught_test(caught, ERROR_NAME, thrown=False)}) {{\n{indent(_terminated(handler))}\n}}"
    return "\n".join(
        [
            f"const onWarning = ({ERROR_NAME}) => {{",
            indent(listener),
            "};",
            'process.on("warning", onWarning);',
            "try {",
            indent(_terminated(body)),
            "} finally {",
            indent('setImmediate(() => process.off("warning", onWarning));'),
            "}",
        ]
    )


def ignore_warning(caught: str, message_start: str) -> str:
    """The code that ignores one warning, on one line: Node keeps no filters, so its printer (the
    ``warning`` listener it starts with) is replaced by one that passes it every other warning.
    It matches the class (its name) and the literal start of the message, case and all; an
    empty start filters on the class alone."""
    test = _caught_test(caught, "warning", thrown=False)
    if message_start:
        test = f"{test} && warning.message.startsWith({_string(message_start)})"
    return (
        'const [printWarning] = process.listeners("warning"); '
        'process.removeAllListeners("warning").on("warning", (warning) => {'
        f" if (!({test})) printWarning?.(warning); }});"
    )


def quiet_logger(logger: str, severity: str) -> str | None:
    """None: JavaScript has no logger hierarchy whose level a caller sets by name."""
    return None


def package_name(module: str) -> str:
    """The npm package a ``require`` specifier loads from: ``lodash`` for ``lodash/fp``,
    ``@scope/name`` for ``@scope/name/sub``; Node's own by its name without ``node:``."""
    bare = module.removeprefix("node:")
    parts = bare.split("/")
    return "/".join(parts[:2]) if bare.startswith("@") else parts[0]


def is_standard(module: str) -> bool:
    """Whether a module is one of Node's own (``fs``, ``fs/promises``, ``node:test``): it comes
    with Node, and no user installs it (``require`` prefers it to a package of its name)."""
    if module.startswith("node:"):
        bare = module[5:]
        return bare in _NODE or bare in _PREFIXED or bare.split("/")[0] in _NODE_TOPS
    return module in _NODE or module.split("/")[0] in _NODE_TOPS


def installable(module: str) -> bool:
    """Whether a module may come from a package a user installs with npm: a valid package name
    (not starting with ``.`` or ``_``, at most 214 characters), not one of Node's own, not a path."""
    if module.startswith(("node:", ".", "/", "_")) or "\\" in module or is_standard(module):
        return False
    package = package_name(module)
    if len(package) > _MAX_PACKAGE or package.partition("/")[2].startswith((".", "_")):
        return False
    return _SPECIFIER.match(module) is not None


def yields(source: str, first_line: int, line: int, function: str) -> bool:
    """Whether the source window shows ``function`` (its last name) as a generator function, whose
    call runs none of its body (a ``try`` around the bare call catches nothing): JavaScript marks
    one in its header (``function*``, ``*name(``), so the nearest definition of the name above
    ``line`` says it.  Where the window cuts the header off, a ``yield`` (legal only in a
    generator) in the same function before ``line`` says it.  False where the window shows
    neither: what it does not show, this cannot tell."""
    lines = source.split("\n")
    at = min(line - first_line, len(lines) - 1)
    if at < 0:
        return False
    name = re.escape(function.rpartition(".")[2])
    for n in range(at, -1, -1):
        text = lines[n]
        if _COMMENT_LINE.match(text):
            continue  # a doc comment's `` * parse(text) ...`` defines nothing
        if re.search(_GENERATOR_HEAD.format(name=name), text):
            return True
        if re.search(_ANY_HEAD.format(name=name), text):
            return False
    return _yields_above(lines[: at + 1])


#: A generator's header: ``function* name(``, ``*name(`` (a method), ``name = function* (``.
_GENERATOR_HEAD = (
    r"\bfunction\s*\*\s*{name}\s*[<(]"
    r"|^\s*(?:(?:static|public|private|protected|async|override)\s+)*\*\s*{name}\s*(?:<[^>]*>)?\("
    r"[^)]*\)\s*(?::[^{{]*)?\{{"
    r"|\b{name}\s*[:=]\s*(?:async\s+)?function\s*\*"
)
#: Any other definition of the name: a function, a method, a function bound to it.
_ANY_HEAD = (
    r"\bfunction\s+{name}\s*[<(]"
    r"|^\s*(?:(?:static|public|private|protected|async|override|get|set)\s+)*{name}\s*(?:<[^>]*>)?\("
    r"[^)]*\)\s*(?::[^{{]*)?\{{"
    r"|\b{name}\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)"
)


_COMMENT_LINE = re.compile(r"\s*(?://|/\*|\*(?:\s|$))")


def _yields_above(lines: Sequence[str]) -> bool:
    """Whether a ``yield`` stands in the same function as the last line: anywhere above it where
    no function opens in the window (every line is then the function's the window starts in),
    else in the block the last line is in or one around it, with no function opening between."""
    code = [_code_only(text) for text in lines]
    opens = [bool(re.search(r"\bfunction\b|=>", text)) for text in code]
    said = [bool(re.search(r"(?<![\w$.])yield\b", text)) for text in code]
    if not any(opens) and any(said[:-1]):
        return True
    depths: list[int] = []
    depth = 0
    for text in code:
        depths.append(depth)
        depth += text.count("{") - text.count("}")
    last = depths[-1] if depths else 0
    return any(
        said[n] and depths[n] <= last and min(depths[n:]) >= depths[n] and not any(opens[n + 1 :])
        for n in range(len(lines) - 1)
    )


def _code_only(text: str) -> str:
    """A line without its strings and its ``//`` comment: what braces and keywords it really has."""
    text = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`\\]|\\.)*`", "''", text)
    return text.split("//", 1)[0]


def consumed(call: str) -> str:
    """A call of a generator function run to its end, so that its body (and its throw) runs."""
    return f"Array.from({call})"


def is_public(name: str) -> bool:
    """Whether a dotted name names nothing private: no part starts with ``_`` or ``#`` (a
    convention, and a private field), nor does a directory of a module path in it, nor is one
    an ``internal`` directory; and it names no function local to another."""
    if "<locals>" in name or "<anonymous>" in name:
        return False
    for part in name.split("."):
        for segment in part.split("/"):
            if segment.startswith(("_", "#")) or ("/" in part and segment == "internal"):
                return False
    return True


def quoted_call(text: str) -> bool:
    """Whether a message quotes a whole call a caller can write as it is: a public dotted name,
    then arguments whose brackets and quotes balance, and no ``...`` (a spread reads as arguments
    left out).  Read by scanning, not parsing (prose is written on read, on any thread)."""
    m = _CALLEE.match(text)
    if m is None or not is_public(m.group(0)) or "..." in text or "…" in text:
        return False
    if m.group(0).split(".")[0] in _RESERVED:
        return False  # ``if(x)``; a property may be a reserved word (``promise.catch(f)``)
    stack: list[str] = []
    quote: str | None = None
    rest = text[m.end() :]
    for i, ch in enumerate(rest):
        if quote is not None:
            if ch == "\\":
                return False
            if ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
        elif ch in _PAIRS:
            stack.append(_PAIRS[ch])
        elif ch in ")]}":
            if not stack or stack.pop() != ch:
                return False
            if not stack:
                return i == len(rest) - 1
        elif ch in "\n;" or rest.startswith(("//", "/*"), i):
            return False
    return False


def first_choice(collection: str) -> str | None:
    """The first value of an array written out of literals (``["a", "b"]``, ``new Set([1, 2])``)."""
    if not _LITERAL_COLLECTION.fullmatch(collection.strip()):
        return None
    m = _ATOM_RE.search(collection[collection.index("[") :])
    return m.group(0) if m else None


def converted(value: str, type_name: str) -> str | None:
    """``value`` as the type ``type_name`` (``String(x)``, ``Number(x)``, ``Array.from(x)``);
    None for any other type."""
    convert = _CONVERSIONS.get(type_name)
    return f"{convert}({value})" if convert else None


def builtin_types(classes: str) -> bool:
    """Whether a type test's operand names only types every script has (``string``, ``Array``,
    ``string | number``), which a caller's code names without a ``require``."""
    names = _type_names(classes)
    known = _TYPEOF | {"object", "null"} | _WRAPPERS.keys() | _GLOBAL_CLASSES
    return bool(names) and all(n in known for n in names)


# --- What needs a parse ------------------------------------------------------------------------


def _parse(code: str, typescript: bool = False) -> tuple[tree_sitter.Node, bytes] | None:
    """The program's root and the bytes its positions count in; None where it does not parse
    (tree-sitter recovers from errors: a tree with one is no parse)."""
    data = code.encode("utf-8")
    try:
        from errdex.languages.javascript.syntax import parser

        root = parser("typescript" if typescript else "javascript").parse(data).root_node
    except (ValueError, RecursionError, MemoryError):
        return None
    return None if root.has_error else (root, data)


def _expression(code: str) -> tuple[tree_sitter.Node, bytes] | None:
    """The one expression ``code`` is (a statement of nothing else), and the bytes; None for
    anything else."""
    parsed = _parse(code.strip())
    if parsed is None:
        return None
    root, data = parsed
    statements = [c for c in root.named_children if c.type != "comment"]
    if len(statements) != 1 or statements[0].type != "expression_statement":
        return None
    inner = [c for c in statements[0].named_children if c.type != "comment"]
    return (inner[0], data) if len(inner) == 1 else None


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _text(node: tree_sitter.Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


#: Literal nodes: what :func:`is_literal` accepts as one value.
_LITERAL_NODES = frozenset({"string", "number", "true", "false", "null", "undefined"})


def is_literal(code: str) -> bool:
    """Whether ``code`` is one literal value: a string (a template without substitutions, too), a
    number (negative, ``0x1f``, ``10n``), ``null``, ``undefined``, ``true``, ``false``."""
    found = _expression(code)
    if found is None:
        return False
    node, data = found
    if _text(node, data) != code.strip():
        return False  # ``1;``: a statement, not a value
    if node.type == "unary_expression" and node.child_count == 2 and node.children[0].type in ("-", "+"):
        node = node.children[1]
        return node.type == "number"
    if node.type == "identifier":
        return _text(node, data) == "undefined"
    if node.type == "template_string":
        return not any(c.type == "template_substitution" for c in node.named_children)
    return node.type in _LITERAL_NODES


def caller_side(
    code: str, names: Collection[str], params: Collection[str], receiver: str | None
) -> str | None:
    """A test as a caller can write it: ``this`` read as the caller's object; None when it reads
    names a caller does not have (the function's locals, or module names it cannot see), or
    does not parse as one expression."""
    for name in names:
        root = name.split(".")[0]
        if root == "this":
            if receiver is None:
                return None
        elif root not in params and root not in _READABLE and not root[:1].isupper():
            return None
    found = _expression(code)
    if found is None:
        return None
    node, data = found
    these = [n for n in _walk(node) if n.type == "this"]
    if not these:
        return code.strip()
    if receiver is None:
        return None
    out = bytearray(data)
    for n in reversed(these):
        out[n.start_byte : n.end_byte] = receiver.encode("utf-8")
    return out.decode("utf-8")


def reads_only(code: str, allowed: Collection[str]) -> bool:
    """Whether a test written as code reads no name but ``allowed`` ones and globals (``Array``,
    ``Number``, ``undefined``) and those its own arrow functions bind, and no private property
    (``x._state``, ``x.#state``): what a caller's own check can test."""
    found = _expression(code)
    if found is None:
        return False
    node, data = found
    bound = set(allowed) | _READABLE
    nodes = list(_walk(node))
    for n in nodes:
        if n.type in ("arrow_function", "function_expression"):
            params = n.child_by_field_name("parameters") or n.child_by_field_name("parameter")
            if params is not None:
                bound |= {_text(i, data) for i in _walk(params) if i.type == "identifier"}
    for n in nodes:
        if n.type == "private_property_identifier":
            return False
        if n.type == "property_identifier" and _text(n, data).startswith("_"):
            return False
        if n.type in ("identifier", "shorthand_property_identifier") and _text(n, data) not in bound:
            return False
        if n.type in ("this", "super", "assignment_expression", "augmented_assignment_expression"):
            return False
        if n.type == "update_expression":
            return False  # ``i++`` changes what it reads
    return True


def _required(node: tree_sitter.Node, data: bytes) -> str | None:
    """The module a ``require("x")`` or ``import("x")`` call loads, where it names one literally."""
    callee = node.child_by_field_name("function")
    if callee is None or _text(callee, data) not in ("require", "import"):
        return None
    args = node.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if first is None or first.type != "string":
        return None
    return _text(first, data)[1:-1]


def _taken_from(call: tree_sitter.Node, data: bytes) -> list[str]:
    """The names a ``require`` takes from its module, as ``from m import a`` does: ``const { a,
    b: c } = require("m")`` takes ``a`` and ``b``, ``require("m").y.z`` takes ``y.z``; none where it
    binds the whole module."""
    node, chain = call, []
    parent = node.parent
    while (
        parent is not None
        and parent.type == "member_expression"
        and parent.child_by_field_name("object") == node
    ):
        prop = parent.child_by_field_name("property")
        if prop is not None:
            chain.append(_text(prop, data))
        node, parent = parent, parent.parent
    if chain:
        return [".".join(chain)]
    target = (
        parent.child_by_field_name("name")
        if parent is not None and parent.type == "variable_declarator"
        else None
    )
    if target is None or target.type != "object_pattern":
        return []
    taken = []
    for field in target.named_children:
        if field.type == "shorthand_property_identifier_pattern":
            taken.append(_text(field, data))
        elif field.type in ("pair_pattern", "object_assignment_pattern"):
            key = field.child_by_field_name("key" if field.type == "pair_pattern" else "left")
            if key is not None:
                taken.append(_text(key, data))
    return taken


def _imported(node: tree_sitter.Node, data: bytes, imports: set[str], defined: set[str]) -> None:
    """An ``import`` (or ``export ... from``) statement's module and the names it takes from it."""
    source = node.child_by_field_name("source")
    if source is None:
        return
    module = _text(source, data)[1:-1]
    named = False
    for n in _walk(node):
        if n.type in ("import_specifier", "export_specifier"):
            name = n.child_by_field_name("name")
            alias = n.child_by_field_name("alias")
            if name is not None:
                imports.add(f"{module}.{_text(name, data)}")
                defined.add(_text(alias or name, data))
                named = True
        elif n.type in ("namespace_import", "import_clause"):
            defined |= {_text(i, data) for i in n.named_children if i.type == "identifier"}
    clause = next((c for c in node.named_children if c.type == "import_clause"), None)
    whole = clause is None or any(c.type in ("identifier", "namespace_import") for c in clause.named_children)
    if whole or not named:
        imports.add(module)


def _pattern_names(node: tree_sitter.Node, data: bytes) -> set[str]:
    """The names a binding pattern binds (parameters, ``{ a, b: c }``, ``[x, ...rest]``, defaults
    left out: ``b = 1`` binds ``b``, not what its default reads)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("identifier", "shorthand_property_identifier_pattern"):
            out.add(_text(n, data))
        elif n.type in ("assignment_pattern", "object_assignment_pattern"):
            left = n.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        elif n.type == "pair_pattern":
            value = n.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif n.type in ("required_parameter", "optional_parameter"):
            pattern = n.child_by_field_name("pattern")
            if pattern is not None:
                stack.append(pattern)
        elif n.type not in ("type_annotation", "property_identifier"):
            stack.extend(n.named_children)
    return out


def _root(called: str) -> str:
    """The name a call's chain starts from: ``axios`` of ``axios.get``, ``Parser`` of ``Parser().parse``."""
    m = _IDENTIFIER.match(called)
    return m.group() if m else ""
