"""Reading pasted JavaScript errors: Node's are printed at test time by running real code.

The tests write scripts, and packages under ``node_modules`` so that the paths are real, then run
them under ``node`` and read what it prints. The assertions are facts about the code that ran:
the class it throws, its message and code, and the lines marked ``// at:NAME`` in the files the
tests wrote.  Node cannot print a browser's stack, so those are short samples of the formats
Chrome, Firefox and Safari document.

``parse`` asks Python's reader first, and takes a later reader's read that found frames over
one that found none: ``TypeError: x`` reads alike in both languages, the frames below it say
whose it is.  Some tests read with the JavaScript reader alone (``js_errors``), and one checks
that ``parse`` reads those pastes the same.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errdex.languages.javascript.paste import READER, where
from errdex.languages.pastes import Lines, ParsedError
from errdex.match.parse import Paste, parse

NODE = shutil.which("node") or "/usr/bin/node"
needs_node = pytest.mark.skipif(not Path(NODE).exists(), reason="node is not installed")

VALIDATOR = """\
class ValidationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ValidationError';
    this.code = 'E_VALID';
  }
}
exports.check = function check(value) {
  if (!value) throw new ValidationError('value is required'); // at:check
  return value;
};
"""

RUNNER = """\
exports.run = async (path) => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  throw new TypeError(`bad path: ${path}`); // at:run
};
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def node(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run node in ``root``, colours off and no options inherited: what a terminal would show."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NODE_", "FORCE_COLOR"))}
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [NODE, *args], cwd=root, env=env, input=stdin, capture_output=True, text=True, timeout=60
    )


def line_of(path: Path, name: str) -> int:
    """The line marked ``// at:name`` in the file."""
    marked = [n for n, text in enumerate(path.read_text().splitlines(), 1) if f"// at:{name}" in text]
    assert len(marked) == 1, marked
    return marked[0]


def source_at(path: Path, line: int) -> str:
    return path.read_text().splitlines()[line - 1].strip()


def js_errors(text: str) -> list[ParsedError]:
    """The errors the JavaScript reader alone finds, walking the lines as the driver does."""
    lines: Lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]

    def scan(lines: Lines, depth: int) -> list[ParsedError]:
        errors: list[ParsedError] = []
        i = 0
        while i < len(lines):
            read = READER.read(scan, lines, i, depth)
            if read is None:
                i += 1
                continue
            errors += read[0]
            i = max(read[1], i + 1)
        return errors

    return scan(lines, 0)


def primary(errors: list[ParsedError]) -> ParsedError:
    return errors[Paste(tuple(errors)).primary]


# --- uncaught errors: the caret block, the stack, the braces, the trailer -------------------------


@needs_node
def test_an_uncaught_error_in_a_scoped_package(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    write(
        root,
        {
            "node_modules/@scope/pkg/lib/x.js": VALIDATOR,
            "main.js": "const { check } = require('@scope/pkg/lib/x.js');\n"
            "function main() { check(0); } // at:main\nmain();\n",
        },
    )
    done = node(root, "main.js")
    assert done.returncode == 1 and "Node.js v" in done.stderr

    paste = parse(done.stderr)
    (error,) = paste.errors
    assert (error.error_class, error.message, error.code) == (
        "ValidationError",
        "value is required",
        "E_VALID",
    )
    assert error.format == "node"
    library = root / "node_modules/@scope/pkg/lib/x.js"
    inner = error.frames[-1]
    assert (inner.path, inner.line, inner.function) == (str(library), line_of(library, "check"), "check")
    assert (inner.package, inner.relative) == ("@scope/pkg", "lib/x.js")
    # The caret block shows the line that threw: the innermost frame's own.
    assert inner.source == source_at(library, inner.line)
    caller = error.frames[-2]
    assert (caller.path, caller.line, caller.function) == (
        str(root / "main.js"),
        line_of(root / "main.js", "main"),
        "main",
    )
    assert (caller.package, caller.relative, caller.source) == (None, None, None)
    # Node's own frames are kept, as printed, in no package.
    assert any(f.path.startswith("node:internal/") and f.package is None for f in error.frames)


@needs_node
def test_an_async_function_awaiting_a_rejected_promise(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    write(
        root,
        {
            "node_modules/pkg/index.js": RUNNER,
            "main.js": "const { run } = require('pkg');\nasync function main() {\n"
            "  await run('/x'); // at:main\n}\nmain();\n",
        },
    )
    (error,) = parse(node(root, "main.js").stderr).errors
    assert (error.error_class, error.message) == ("TypeError", "bad path: /x")
    library = root / "node_modules/pkg/index.js"
    inner, caller = error.frames[-1], error.frames[-2]
    assert (inner.path, inner.line, inner.function) == (str(library), line_of(library, "run"), "run")
    assert (inner.package, inner.relative, inner.source) == (
        "pkg",
        "index.js",
        source_at(library, inner.line),
    )
    # ``at async main (...)`` is main's frame.
    assert (caller.function, caller.line) == ("main", line_of(root / "main.js", "main"))


@needs_node
def test_an_es_module_s_file_urls_become_paths(tmp_path: Path) -> None:
    root = tmp_path.resolve() / "my app"  # a space: the URL percent-encodes it
    write(
        root, {"x.mjs": "function boom() {\n  throw new RangeError('out of range'); // at:boom\n}\nboom();\n"}
    )
    (error,) = parse(node(root, "x.mjs").stderr).errors
    assert (error.error_class, error.message) == ("RangeError", "out of range")
    inner = error.frames[-1]
    module = root / "x.mjs"
    assert (inner.path, inner.line, inner.function) == (str(module), line_of(module, "boom"), "boom")
    assert inner.source == source_at(module, inner.line)


@needs_node
def test_a_syntax_error_gets_a_frame_for_the_line_node_could_not_parse(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    write(root, {"bad.js": "const a = 1;\nconst b = ; // at:bad\n"})
    (error,) = parse(node(root, "bad.js").stderr).errors
    assert error.error_class == "SyntaxError"
    # The stack is the loader's; the caret block names the file, and Python's parse errors
    # likewise end with a frame of no function.
    inner = error.frames[-1]
    assert (inner.path, inner.line, inner.function) == (
        str(root / "bad.js"),
        line_of(root / "bad.js", "bad"),
        None,
    )
    assert inner.source == source_at(root / "bad.js", inner.line)
    assert all(f.path.startswith("node:") for f in error.frames[:-1])


@needs_node
def test_missing_modules_carry_their_codes(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    write(root, {"cjs.js": "require('no-such-package');\n", "esm.mjs": "import 'no-such-package';\n"})
    (required,) = parse(node(root, "cjs.js").stderr).errors
    assert (required.error_class, required.code) == ("Error", "MODULE_NOT_FOUND")
    # The message runs to the first frame: "Require stack:" and the files below it.
    assert required.message == f"Cannot find module 'no-such-package'\nRequire stack:\n- {root / 'cjs.js'}"
    assert any(f.path == str(root / "cjs.js") for f in required.frames)
    # The caret block shows the loader's ``throw err``, not where the error was made.
    assert required.frames[-1].function is not None
    (imported,) = parse(node(root, "esm.mjs").stderr).errors
    assert (imported.error_class, imported.code) == ("Error", "ERR_MODULE_NOT_FOUND")
    assert imported.message.startswith("Cannot find package 'no-such-package' imported from ")


@needs_node
def test_a_thrown_value_that_is_no_error(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    write(root, {"s.js": "throw 'oops'; // at:throw\n"})
    (error,) = parse(node(root, "s.js").stderr).errors
    assert (error.error_class, error.message) == (None, "oops")
    (frame,) = error.frames
    assert (frame.path, frame.line, frame.source) == (str(root / "s.js"), 1, source_at(root / "s.js", 1))


@needs_node
def test_code_run_by_node_e(tmp_path: Path) -> None:
    (error,) = parse(node(tmp_path, "-e", "null.x").stderr).errors
    assert (error.error_class, error.message) == ("TypeError", "Cannot read properties of null (reading 'x')")
    assert (error.frames[-1].path, error.frames[-1].line, error.frames[-1].source) == ("[eval]", 1, "null.x")


@needs_node
def test_an_unhandled_error_event_keeps_the_stack_that_made_it(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    script = """\
const net = require('net');
const first = net.createServer().listen(0, () => {
  net.createServer().listen(first.address().port); // at:listen
});
"""
    write(root, {"serve.js": script})
    (error,) = parse(node(root, "serve.js").stderr).errors
    assert error.code == "EADDRINUSE" and error.message.startswith("listen EADDRINUSE")
    # The frames under "Emitted 'error' event ... at:" are where it was emitted, not made.
    assert "emitErrorNT" not in {f.function for f in error.frames}
    mine = [f for f in error.frames if f.path == str(root / "serve.js")]
    assert [f.line for f in mine] == [line_of(root / "serve.js", "listen")]
    # The caret block shows EventEmitter's rethrow ("throw er; // Unhandled 'error' event"):
    # Node's, so no frame of the error's.
    assert all(f.function is not None for f in error.frames)


# --- logged errors: what util.inspect prints -----------------------------------------------------


@needs_node
def test_logged_errors_and_their_codes(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    script = """\
const fs = require('fs');
try { fs.readFileSync('/nonexistent'); } catch (e) { console.log(e); } // at:enoent
try { new URL('x'); } catch (e) { console.log(e); } // at:url
try { fs.readFileSync(undefined); } catch (e) { console.log(e); } // at:arg
const bare = new Error('no stack'); bare.stack = 'Error: no stack'; bare.code = 'ENOENT';
console.log(bare);
"""
    write(root, {"log.js": script})
    errors = js_errors(node(root, "log.js").stdout)
    found = [(e.error_class, e.code) for e in errors]
    assert found == [
        ("Error", "ENOENT"),
        ("TypeError", "ERR_INVALID_URL"),
        ("TypeError", "ERR_INVALID_ARG_TYPE"),
        ("Error", "ENOENT"),
    ]
    enoent, url, arg, bare = errors
    assert enoent.message == "ENOENT: no such file or directory, open '/nonexistent'"
    assert url.message == "Invalid URL"
    assert arg.message.startswith('The "path" argument must be of type string')
    for error, name in ((enoent, "enoent"), (url, "url"), (arg, "arg")):
        here = next(f for f in error.frames if f.path == str(root / "log.js"))
        assert here.line == line_of(root / "log.js", name)
    # new URL's own frame is Node's: ``at new URL (node:internal/url:...)``.
    assert (url.frames[-1].function, url.frames[-1].path) == ("new URL", "node:internal/url")
    assert (bare.message, bare.frames) == ("no stack", ())


@needs_node
def test_the_driver_reads_a_logged_type_error_as_javascript(tmp_path: Path) -> None:
    write(tmp_path, {"u.js": "try { new URL('x'); } catch (e) { console.log(e); }\n"})
    text = node(tmp_path, "u.js").stdout
    assert list(parse(text).errors) == js_errors(text)


@needs_node
def test_a_cause_comes_before_the_error_it_caused(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    script = """\
const inner = new Error('inner'); // at:inner
console.log(new Error('outer', { cause: inner })); // at:outer
"""
    write(root, {"cause.js": script})
    paste = parse(node(root, "cause.js").stdout)
    assert [(e.error_class, e.message, e.in_group) for e in paste.errors] == [
        ("Error", "inner", False),
        ("Error", "outer", False),
    ]
    # The error thrown (or logged) is the outer one: the last outside a group, as Python's chains end.
    assert paste.errors[paste.primary].message == "outer"
    inner, outer = paste.errors
    assert inner.frames[-1].line == line_of(root / "cause.js", "inner")
    assert outer.frames[-1].line == line_of(root / "cause.js", "outer")
    # "... 4 lines matching cause stack trace ..." is no frame.
    assert len(outer.frames) < len(inner.frames)


@needs_node
def test_causes_of_causes_and_their_own_codes(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    script = """\
class AxiosError extends Error { constructor(m, o) { super(m, o); this.name = 'AxiosError'; } }
const root = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }); // at:root
const middle = new AxiosError('Network Error', { cause: root }); // at:middle
middle.code = 'ERR_NETWORK';
const top = new AxiosError('Request failed', { cause: middle }); // at:top
top.config = { url: '/x', code: 'NOT_MINE', nested: { code: 'NOT_MINE_EITHER' } };
top.code = 'ERR_BAD_REQUEST';
top.response = { status: 404, data: { code: 'NOR_THIS' } };
const enumerable = new Error('wrapped'); enumerable.cause = new TypeError('plain property');
console.log(top);
console.log(enumerable);
"""
    write(root, {"chain.js": script})
    errors = js_errors(node(root, "chain.js").stdout)
    assert [(e.error_class, e.message, e.code) for e in errors] == [
        ("Error", "connect ECONNREFUSED", "ECONNREFUSED"),
        ("AxiosError", "Network Error", "ERR_NETWORK"),
        ("AxiosError", "Request failed", "ERR_BAD_REQUEST"),
        ("TypeError", "plain property", None),
        ("Error", "wrapped", None),
    ]
    for error, name in zip(errors[:3], ("root", "middle", "top"), strict=True):
        assert error.frames[-1].line == line_of(root / "chain.js", name)
    assert primary(errors).message == "wrapped"


@needs_node
def test_an_aggregate_error_s_errors_are_in_its_group(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    script = """\
const one = Promise.reject(new Error('a')); // at:a
const two = Promise.reject(new TypeError('b')); // at:b
Promise.any([one, two]).catch((e) => { console.log(e); throw e; });
"""
    write(root, {"any.js": script})
    done = node(root, "any.js")
    for text in (done.stdout, done.stderr):  # logged, then uncaught
        paste = parse(text)
        assert [(e.error_class, e.message, e.in_group) for e in paste.errors] == [
            ("AggregateError", "All promises were rejected", False),
            ("Error", "a", True),
            ("TypeError", "b", True),
        ]
        group, a, b = paste.errors
        assert paste.primary == 0
        # Promise.any's error has no frames, and Node's rethrow of a rejection is none of its.
        assert group.frames == ()
        assert (a.frames[-1].line, b.frames[-1].line) == (
            line_of(root / "any.js", "a"),
            line_of(root / "any.js", "b"),
        )


@needs_node
def test_the_repl_s_uncaught_errors(tmp_path: Path) -> None:
    done = node(tmp_path, "-i", stdin="null.x\nthrow new RangeError('r')\n")
    paste = parse(done.stdout + done.stderr)
    assert [(e.error_class, e.message) for e in paste.errors] == [
        ("TypeError", "Cannot read properties of null (reading 'x')"),
        ("RangeError", "r"),
    ]


@needs_node
def test_a_python_traceback_pasted_alongside_still_reads_as_python(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    write(root, {"node_modules/pkg/index.js": RUNNER, "main.js": "require('pkg').run('/y');\n"})
    python = subprocess.run(
        [sys.executable, "-c", "def f():\n    raise KeyError('k')\nf()\n"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stderr
    paste = parse(f"{python}\nand then the frontend said:\n\n{node(root, 'main.js').stderr}")
    py, js = paste.errors
    assert (py.format, py.error_class, py.message) == ("python", "KeyError", "'k'")
    assert [f.function for f in py.frames] == ["<module>", "f"]
    assert (js.format, js.error_class, js.frames[-1].package) == ("node", "TypeError", "pkg")


# --- browsers, test runners and the odd shapes ----------------------------------------------------

CHROME = """\
Uncaught (in promise) AxiosError: Request failed with status code 404
    at settle (webpack-internal:///./node_modules/axios/lib/core/settle.js:19:12)
    at XMLHttpRequest.onloadend (webpack-internal:///./node_modules/axios/lib/adapters/xhr.js:60:66)
    at async load (webpack:///./src/api.js?1a2b:8:3)
    at Array.forEach (<anonymous>)
    at https://example.com/static/js/main.js:1:2345
"""

FIREFOX = """\
Error: boom
handle@http://localhost:3000/node_modules/.pnpm/axios@1.7.0/node_modules/axios/lib/x.js:3:7
promise callback*run@https://example.com/app.js:8:3
@https://example.com/app.js line 2 > eval:1:5
@https://example.com/app.js:12:1
"""

SAFARI = """\
TypeError: undefined is not an object (evaluating 'a.b')
render@https://example.com/static/js/main.chunk.js:10:5
global code@https://example.com/static/js/main.chunk.js:12:1
promiseReactionJob@[native code]
"""


def test_chrome_s_stack() -> None:
    (error,) = parse(CHROME).errors
    assert (error.error_class, error.message, error.format) == (
        "AxiosError",
        "Request failed with status code 404",
        "browser",
    )
    shown = [(f.path, f.line, f.function, f.package, f.relative) for f in reversed(error.frames)]
    assert shown == [
        ("node_modules/axios/lib/core/settle.js", 19, "settle", "axios", "lib/core/settle.js"),
        ("node_modules/axios/lib/adapters/xhr.js", 60, "onloadend", "axios", "lib/adapters/xhr.js"),
        ("src/api.js", 8, "load", None, None),
        ("/static/js/main.js", 1, "<anonymous>", None, None),
    ]


def test_firefox_s_and_safari_s_stacks() -> None:
    (firefox,) = parse(FIREFOX).errors
    assert (firefox.error_class, firefox.message, firefox.format) == ("Error", "boom", "browser")
    shown = [(f.path, f.line, f.function, f.package, f.relative) for f in reversed(firefox.frames)]
    assert shown == [
        ("/node_modules/.pnpm/axios@1.7.0/node_modules/axios/lib/x.js", 3, "handle", "axios", "lib/x.js"),
        ("/app.js", 8, "run", None, None),
        ("/app.js", 12, "<anonymous>", None, None),
    ]
    (safari,) = js_errors(SAFARI)  # Python's reader claims a header of TypeError
    assert safari.error_class == "TypeError" and safari.format == "browser"
    assert [(f.line, f.function) for f in safari.frames] == [(12, "global code"), (10, "render")]
    # A stack with no header, as Firefox's ``err.stack`` is.
    (headless,) = parse(FIREFOX.split("\n", 1)[1]).errors
    assert (headless.error_class, headless.message, len(headless.frames)) == (None, "", 3)


def test_jest_s_failure_shows_the_source_of_the_innermost_frame() -> None:
    jest = """\
  \u25cf sum \u203a adds

    TypeError: Cannot read properties of undefined (reading 'x')

      3 | test('adds', () => {
    > 4 |   undefined.x;
        |             ^
      5 | });

      at Object.<anonymous> (sum.test.js:4:13)
"""
    (error,) = parse(jest).errors
    assert (error.error_class, error.message) == (
        "TypeError",
        "Cannot read properties of undefined (reading 'x')",
    )
    ((path, line, source),) = [(f.path, f.line, f.source) for f in error.frames]
    assert (path, line, source) == ("sum.test.js", 4, "undefined.x;")


def test_caused_by_lines_chain_errors() -> None:
    text = """\
Error: outer
    at C:\\app\\node_modules\\@corp\\lib\\dist\\index.js:1:2
caused by: ValidationError: inner
    at check (/srv/node_modules/a/node_modules/b/lib/v.js:40:11)
"""
    cause, outer = parse(text).errors
    assert (cause.error_class, outer.error_class) == ("ValidationError", "Error")
    assert (outer.frames[0].path, outer.frames[0].package, outer.frames[0].relative) == (
        "C:/app/node_modules/@corp/lib/dist/index.js",
        "@corp/lib",
        "dist/index.js",
    )
    assert (cause.frames[0].package, cause.frames[0].relative) == ("b", "lib/v.js")


@pytest.mark.parametrize(
    ("location", "path"),
    [
        ("file:///C:/my%20app/x.mjs", "C:/my app/x.mjs"),
        ("file:///srv/a%25b/x.mjs", "/srv/a%b/x.mjs"),
        ("https://cdn.example.com/npm/lodash/index.js?v=3", "/npm/lodash/index.js"),
        ("webpack://my-app/./src/x.js", "src/x.js"),
        ("node:internal/modules/cjs/loader", "node:internal/modules/cjs/loader"),
        ("C:\\app\\x.js", "C:/app/x.js"),
    ],
)
def test_locations_as_paths(location: str, path: str) -> None:
    assert where(location) == path


def test_frame_names_as_records_name_functions() -> None:
    text = """\
Error: x
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at Object.get size [as size] (/a/node_modules/p/m.js:3:1)
    at new Client (/a/node_modules/p/c.js:9:9)
    at eval (eval at <anonymous> (/a/x.js:1:1), <anonymous>:1:1)
    at async Promise.all (index 0)
"""
    (error,) = js_errors(text)
    assert [f.function for f in reversed(error.frames)] == [
        "executeUserEntryPoint",
        "processTicksAndRejections",
        "size",
        "new Client",
    ]


def test_a_long_stack_keeps_its_innermost_frames() -> None:
    text = "Error: deep\n" + "".join(f"    at f{n} (/x.js:{n + 1}:1)\n" for n in range(5000)) + "after\n"
    (error,) = js_errors(text)
    assert len(error.frames) == 100
    assert (error.frames[-1].function, error.frames[0].function) == ("f0", "f99")


#: Lines that could each start an error, a megabyte of each after a stack that opens braces.
SHAPES = {
    "headers": "Error: x\n",
    "header-gaps": "Error: x\n" + "a b\n" * 99,
    "bracket-gaps": "[Error: x\n" + "a b\n" * 99,
    "causes": "  cause: Error: y\n",
    "bracket-causes": "  [cause]: Error: y\n",
    "caused-by": "caused by: Error: x\n",
    "rejections": "(node:1) UnhandledPromiseRejectionWarning: Error: x\n",
    "uncaught": "Uncaught Error: u\n",
    "carets": "/x.js:1\nthrow e;\n^\n",
    "unclosed": "  a: {\n",
    "colons": ":" * 4990 + "1\n",
}


@pytest.mark.parametrize("unit", SHAPES.values(), ids=SHAPES.keys())
def test_a_megabyte_of_one_shape_is_read_in_linear_time(unit: str) -> None:
    """Each line that could start an error stops every other's search for a stack."""
    text = "Error: x\n    at f (/x.js:1:2) {\n" + unit * (990_000 // len(unit))
    start = time.perf_counter()
    parse(text)
    assert time.perf_counter() - start < 10


def test_a_megabyte_of_garbage_is_read_quickly() -> None:
    rng = random.Random(7)
    pieces = [
        "Error: x", "TypeError: y", "    at f (/x.js:1:2)", "    at f (/x.js:1:2) {", "  [cause]: Error: z",
        "  code: 'E',", "}", "[Error: w] {", "f@https://h/x.js:1:2", "/x.js:3", "  throw e;", "  ^", "",
        "Uncaught Error: u", "  [errors]: [", "Node.js v20.0.0", "x" * 300, ": : :", "at at at (",
    ]  # fmt: skip
    text = ""
    while len(text) < 990_000:
        text += rng.choice(pieces) + "\n"
    start = time.perf_counter()
    parse(text)
    js_errors(text)
    assert time.perf_counter() - start < 10


# --- the one-line methods -------------------------------------------------------------------------


UNDEFINED_X = "Cannot read properties of undefined (reading 'x')"
PATH_TYPE = 'The "path" argument must be of type string'
INVALID_VALUES = 'Invalid values:\n  Argument: size, Given: "huge", Choices: "small", "large"'


@pytest.mark.parametrize(
    ("text", "cls", "message", "code"),
    [
        (f"TypeError: {UNDEFINED_X}", "TypeError", UNDEFINED_X, None),
        ("Uncaught RangeError: Invalid time value", "RangeError", "Invalid time value", None),
        ("Uncaught MyLibError: broke", "MyLibError", "broke", None),
        (f"TypeError [ERR_INVALID_ARG_TYPE]: {PATH_TYPE}", "TypeError", PATH_TYPE, "ERR_INVALID_ARG_TYPE"),
        ("Error: connect ECONNREFUSED 127.0.0.1:5432", "Error", "connect ECONNREFUSED 127.0.0.1:5432", None),
        # V8 prints a message of several lines as it is, under its header.
        (f"Error: {INVALID_VALUES}", "Error", INVALID_VALUES, None),
    ],
)
def test_bare_lines_that_are_javascript(text: str, cls: str, message: str, code: str | None) -> None:
    error = READER.bare(text)
    assert error is not None
    assert (error.error_class, error.message, error.code, error.frames) == (cls, message, code, ())


@pytest.mark.parametrize(
    "text", ["ValueError: x", "MissingSchema: no scheme", "Note: see above", "Note: a\nb", "Error"]
)
def test_bare_lines_that_are_not(text: str) -> None:
    assert READER.bare(text) is None


def test_a_lone_javascript_line_parses_through_the_driver() -> None:
    (error,) = parse("TypeError [ERR_X]: msg").errors
    assert (error.error_class, error.message, error.code) == ("TypeError", "msg", "ERR_X")
    (error,) = parse("Error: connect ECONNREFUSED 127.0.0.1:5432").errors
    assert error.error_class == "Error"


@pytest.mark.parametrize(
    "source",
    [
        "throw new TypeError(`bad path: ${p}`);",
        "if (!v) throw err;",
        "return Promise.reject(new ValidationError('x'));",
        "callback(new Error('x'))",
        "reject(err);",
        "assert.strictEqual(a, b);",
        "invariant(cond, 'x');",
        "process.exit(1);",
        "console.error('bad');",
        "this.emit('error', err);",
    ],
)
def test_lines_that_may_raise(source: str) -> None:
    assert READER.raises(source)


@pytest.mark.parametrize(
    "source",
    [
        "return a.b.c;",
        "const d = new Date(s);",
        "gen.throw(exc)",
        "self.assertEqual(a, b)",
        "x = rejected(y)",
    ],
)
def test_lines_that_do_not(source: str) -> None:
    assert not READER.raises(source)


def test_no_other_forms_and_no_summaries() -> None:
    assert READER.forms("TypeError", "x is not a function") == []
    assert READER.summary("  \u25cf suite \u203a test") is None
