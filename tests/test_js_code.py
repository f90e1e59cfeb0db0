"""JavaScript as enrichment writes it, run under Node; and JSDoc comments and signatures read.

The snippets run for real: each test writes tiny npm-free packages into ``node_modules`` (an
error class exported as axios exports ``AxiosError``, a generator, a warning), so that what
``catchable`` requires resolves, and runs the program ``code`` writes with ``node``.
"""

from __future__ import annotations

import inspect
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from errdex.languages.base import CodeWriter
from errdex.languages.javascript import JAVASCRIPT, TYPESCRIPT, claims, docs
from errdex.languages.javascript import code as js

NODE = shutil.which("node") or "/usr/bin/node"
needs_node = pytest.mark.skipif(not Path(NODE).exists(), reason="needs Node")

#: Modelled on axios's ``lib/core/AxiosError.js`` and a client that throws it, a generator of
#: pages, and a function that warns as Node's deprecated APIs do.
FAKEPKG = """\
'use strict';
class FakeError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'FakeError';
    this.code = code;
  }
}
FakeError.ERR_BAD_REQUEST = 'ERR_BAD_REQUEST';

function fetchThing(x) {
  if (typeof x !== 'number') throw new TypeError('x must be a number');
  if (x < 0) throw new FakeError(`negative: ${x}`, FakeError.ERR_BAD_REQUEST);
  return x * 2;
}

async function fetchLater(x) {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return fetchThing(x);
}

function* pages(n) {
  if (n < 0) throw new FakeError('no pages');
  for (let i = 0; i < n; i++) yield i;
}

function oldApi() {
  process.emitWarning('oldApi() is deprecated, use newApi() instead', 'DeprecationWarning');
  process.emitWarning('newApi() is experimental', 'ExperimentalWarning');
  return 1;
}

module.exports = { FakeError, fetchThing, fetchLater, pages, oldApi };
"""
#: A scoped package whose errors are classes nested in one (``HttpError.NotFound``).
SCOPED = """\
class HttpError extends Error {}
HttpError.NotFound = class NotFound extends HttpError {};
module.exports = { HttpError, find: (id) => { throw new HttpError.NotFound(`no ${id}`); } };
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A directory whose ``node_modules`` holds ``fakepkg`` and ``@acme/errors``."""
    for name, text in (("fakepkg", FAKEPKG), ("@acme/errors", SCOPED)):
        package = tmp_path / "node_modules" / name
        package.mkdir(parents=True)
        (package / "index.js").write_text(text)
        (package / "package.json").write_text(json.dumps({"name": name, "main": "index.js"}))
    return tmp_path


def _run(where: Path, program: str, name: str = "snippet.js") -> subprocess.CompletedProcess[str]:
    """The program run with Node in ``where``, after ``node --check`` passes it."""
    path = where / name
    path.write_text(program + "\n")
    check = subprocess.run([NODE, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, f"{check.stderr}\n{program}"
    return subprocess.run([NODE, str(path)], capture_output=True, text=True, timeout=60, cwd=where)


def _checks(where: Path, snippet: str) -> None:
    path = where / "check.js"
    path.write_text(snippet + "\n")
    done = subprocess.run([NODE, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{done.stderr}\n{snippet}"


# --- The writer's shape ------------------------------------------------------------------------


def test_the_module_has_every_function_of_the_protocol_with_its_signature() -> None:
    for name, member in vars(CodeWriter).items():
        if name.startswith("_") or not callable(member):
            continue
        wanted = list(inspect.signature(member).parameters)[1:]  # without ``self``
        assert list(inspect.signature(getattr(js, name)).parameters) == wanted, name
    assert JAVASCRIPT.code is js and TYPESCRIPT.code is js


# --- Programs that run -------------------------------------------------------------------------


@needs_node
def test_a_try_catches_the_named_class_and_rethrows_others(project: Path) -> None:
    caught = js.catchable("fakepkg.FakeError")
    assert caught == (['const { FakeError } = require("fakepkg");'], "FakeError")
    imports, name = caught
    body = js.try_except(name, js.call("fetchThing", ["x"]), js.report("fetchThing"))
    for value, rc, said in (("-1", 0, "fetchThing failed: FakeError: negative: -1"), ('"a"', 1, "TypeError")):
        program = js.program(
            [js.import_of("fakepkg", "fetchThing"), *imports], js.assign("const x", value) + "\n" + body
        )
        done = _run(project, program)
        assert done.returncode == rc, done.stderr
        assert said in done.stderr
    # Names required from one module are required together.
    assert program.startswith('const { FakeError, fetchThing } = require("fakepkg");\n\nconst x = "a";\n')
    assert "} catch (err) {\n  if (!(err instanceof FakeError)) throw err;\n" in program


@needs_node
def test_an_awaited_call_runs_in_an_async_arrow_and_is_caught(project: Path) -> None:
    imports, name = js.catchable("fakepkg.FakeError") or ([], "")
    call = js.call("fetchLater", ["-2"], awaited=True)
    assert call == "await fetchLater(-2)"
    body = js.try_except(name, call, js.report("fetchLater"))
    program = js.program([*imports, js.import_of("fakepkg", "fetchLater")], body, awaited=True)
    assert "(async () => {" in program and program.endswith("})();")
    done = _run(project, program)
    assert done.returncode == 0 and "fetchLater failed: FakeError: negative: -2" in done.stderr
    # A rejection nobody catches ends Node with the error, as a raise would.
    uncaught = js.program(
        [js.import_of("fakepkg", "fetchLater")], js.call("fetchLater", ["-3"], awaited=True), True
    )
    failed = _run(project, uncaught)
    assert failed.returncode != 0 and "negative: -3" in failed.stderr


@needs_node
def test_a_validation_throws_the_message_as_written(project: Path) -> None:
    message = 'x must be "a number" — got «%s» \\ ok'
    tests = ["typeof x !== 'number'", "x ?? true"]
    check = js.if_block(js.all_of(tests), js.raise_error("TypeError", message))
    assert check.startswith("if (typeof x !== 'number' && (x ?? true)) {")
    program = js.program([js.import_of("fakepkg", "fetchThing")], f'const x = "s";\n{check}\nfetchThing(x)')
    done = _run(project, program)
    assert done.returncode == 1
    assert f"TypeError: {message}" in done.stderr
    # ``SystemError`` has no constructor in Node: it is thrown as an ``Error``.
    assert js.raise_error("SystemError", "m") == 'throw new Error("m");'
    assert js.raise_error("ValueError", "m") == 'throw new Error("m");'  # enrichment's fallback


@needs_node
def test_a_nested_class_of_a_scoped_package_is_required_by_its_outer_class(project: Path) -> None:
    imports, name = js.catchable("@acme/errors.HttpError.NotFound") or ([], "")
    assert imports == ['const { HttpError } = require("@acme/errors");'] and name == "HttpError.NotFound"
    find = js.import_of("@acme/errors", "find")
    program = js.program([find, *imports], js.try_except(name, js.call("find", ['"u1"']), js.report("find")))
    done = _run(project, program)
    assert done.returncode == 0 and "find failed: NotFound [Error]: no u1" in done.stderr


@needs_node
def test_builtin_errors_node_codes_and_assertion_errors_are_caught(tmp_path: Path) -> None:
    assert js.catchable("TypeError") == ([], "TypeError")
    assert js.catchable("globalThis.RangeError") == ([], "RangeError")
    cases = [
        ("RangeError", "new Array(-1)"),
        ("ERR_INVALID_URL", 'new URL("not a url")'),
        ("AssertionError", 'require("node:assert").strictEqual(1, 2)'),
        ("assert.AssertionError", 'require("node:assert").ok(false)'),
    ]
    for qualified, failing in cases:
        imports, name = js.catchable(qualified) or ([], "")
        body = js.try_except(name, failing, js.report("it"))
        done = _run(tmp_path, js.program(imports, body))
        assert done.returncode == 0 and "it failed:" in done.stderr, (qualified, done.stderr)
        # Anything else passes through the handler.
        other = js.try_except(name, "null.x", js.report("it"))
        rethrown = _run(tmp_path, js.program(imports, other))
        assert rethrown.returncode == 1 and "TypeError" in rethrown.stderr, qualified
    assert js.catchable("AssertionError") == (
        ['const { AssertionError } = require("node:assert");'],
        "AssertionError",
    )


def test_classes_that_cannot_be_named_from_outside_are_none() -> None:
    for qualified in (
        "AxiosError",  # a library's class, no module to require it from
        "SystemError",  # Node exports it from nowhere
        "./errors.ParseError",
        "lib/core/AxiosError.AxiosError",  # a path inside a package, no package to require
        "src/errors.HttpError",
        "../lib.X",
        "node:internal/errors.NodeError",
        "pkg.<locals>.Err",
        "pkg.class",
        "",
    ):
        assert js.catchable(qualified) is None, qualified
    assert js.catchable("lodash/fp.Err") == (['const { Err } = require("lodash/fp");'], "Err")
    assert js.catchable("axios/lib/core/AxiosError.AxiosError") == (
        ['const { AxiosError } = require("axios/lib/core/AxiosError");'],
        "AxiosError",
    )
    assert js.catchable("socket.io.Socket") == (['const { Socket } = require("socket.io");'], "Socket")
    assert js.catchable("events.EventEmitter") == (
        ['const { EventEmitter } = require("node:events");'],
        "EventEmitter",
    )


@needs_node
def test_a_generator_runs_only_when_consumed(project: Path) -> None:
    imports, name = js.catchable("fakepkg.FakeError") or ([], "")
    pages = js.import_of("fakepkg", "pages")
    bare = js.try_except(name, js.call("pages", ["-1"]), js.report("pages"))
    done = _run(project, js.program([pages, *imports], bare + '\nconsole.log("no throw");'))
    assert done.returncode == 0 and "no throw" in done.stdout and "failed" not in done.stderr
    consumed = js.try_except(name, js.consumed(js.call("pages", ["-1"])), js.report("pages"))
    done = _run(project, js.program([pages, *imports], consumed))
    assert done.returncode == 0 and "pages failed: FakeError: no pages" in done.stderr


@needs_node
def test_a_warning_is_caught_by_listening_for_it(project: Path) -> None:
    caught = js.catchable("DeprecationWarning")
    assert caught == ([], "DeprecationWarning")
    body = js.catch_warning("DeprecationWarning", js.call("oldApi"), js.report("oldApi"))
    imports = [js.import_of("fakepkg", "oldApi"), js.import_module("warnings")]
    assert js.import_module("warnings") == ""  # Node's warnings are ``process``'s events
    done = _run(project, js.program(imports, body))
    assert done.returncode == 0
    assert "oldApi failed: DeprecationWarning: oldApi() is deprecated" in done.stderr
    assert "oldApi failed: ExperimentalWarning" not in done.stderr


@needs_node
def test_ignoring_a_warning_silences_it_and_no_other(project: Path) -> None:
    start = "oldApi() is deprecated, use"
    ignore = js.ignore_warning("DeprecationWarning", start)
    assert "\n" not in ignore  # prose quotes it on one line
    program = js.program([js.import_of("fakepkg", "oldApi")], f"{ignore}\noldApi()")
    done = _run(project, program)
    assert done.returncode == 0
    assert "DeprecationWarning" not in done.stderr and "ExperimentalWarning: newApi()" in done.stderr
    every = js.program(
        [js.import_of("fakepkg", "oldApi")], js.ignore_warning("ExperimentalWarning", "") + "\noldApi()"
    )
    done = _run(project, every)
    assert "ExperimentalWarning" not in done.stderr and "DeprecationWarning: oldApi()" in done.stderr
    # A start that is not the message's start, case and all, ignores nothing.
    other = js.program(
        [js.import_of("fakepkg", "oldApi")], js.ignore_warning("DeprecationWarning", "OLDAPI") + "\noldApi()"
    )
    assert "DeprecationWarning: oldApi()" in _run(project, other).stderr


@needs_node
def test_type_tests_convert_and_choose_as_javascript_does(tmp_path: Path) -> None:
    values = ['"s"', "1", "null", "[1]", "{}", "new Map()", "undefined", "new String('w')"]
    tests = {
        "string": js.is_instance("v", "string"),
        "String": js.is_instance("v", "String"),
        "Array": js.is_instance("v", "Array"),
        "(Object, string)": js.is_instance("v", "(Object, string)"),
        "Map | number": js.is_instance("v", "Map | number"),
        "null": js.is_instance("v", "null"),
    }
    lines = [f"out.push([{', '.join(f'(({t}) ? 1 : 0)' for t in tests.values())}]);" for _ in values]
    body = "const out = [];\n" + "\n".join(
        f"{{ const v = {value}; {line} }}" for value, line in zip(values, lines, strict=True)
    )
    done = _run(tmp_path, body + "\nconsole.log(JSON.stringify(out));")
    got = dict(zip(values, json.loads(done.stdout), strict=True))
    assert got['"s"'] == [1, 1, 0, 1, 0, 0]
    assert got["1"] == [0, 0, 0, 0, 1, 0]
    assert got["null"] == [0, 0, 0, 0, 0, 1]
    assert got["[1]"] == [0, 0, 1, 1, 0, 0]
    assert got["new Map()"] == [0, 0, 0, 1, 1, 0]
    converted = [js.converted("v", t) or "" for t in ("string", "Number", "Array")]
    assert converted == ["String(v)", "Number(v)", "Array.from(v)"]
    assert js.converted("v", "boolean") is None and js.converted("v", "Date") is None
    choice = js.first_choice("new Set(['gzip', 'br'])")
    done = _run(tmp_path, f"const v = 5;\nconsole.log(JSON.stringify([{', '.join(converted)}, {choice}]));")
    assert json.loads(done.stdout) == ["5", 5, [], "gzip"]
    assert js.first_choice('["a", "b"] as const') == '"a"' and js.first_choice("[1, x]") is None
    assert js.first_choice("Object.freeze([0, 1])") == "0" and js.first_choice("VALUES") is None
    assert js.builtin_types("string | number") and js.builtin_types("(Array, Map)")
    assert not js.builtin_types("AxiosHeaders") and not js.builtin_types("")


@needs_node
def test_calls_pass_named_values_in_order_and_spread_star_arguments(tmp_path: Path) -> None:
    assert js.call("client.get", ["url"], [("config", "config")]) == "client.get(url, config)"
    assert js.call("Math.max", ["*values"]) == "Math.max(...values)"
    program = js.program(
        [], "const values = [3, 9, 4];\nconsole.log(" + js.call("Math.max", ["*values"]) + ")"
    )
    assert _run(tmp_path, program).stdout.strip() == "9"


@needs_node
def test_modules_are_required_by_name_node_s_own_under_node_prefix(tmp_path: Path) -> None:
    assert js.import_module("fs/promises") == 'const fsPromises = require("node:fs/promises");'
    assert js.import_module("@scope/my-pkg") == 'const myPkg = require("@scope/my-pkg");'
    assert js.import_module("module") == 'const module_ = require("node:module");'
    assert js.import_of("path", "join") == 'const { join } = require("node:path");'
    imports = [
        'const { AxiosError } = require("axios");',
        js.import_module("module"),
        js.import_of("path", "join"),
    ]
    program = js.program(imports, "void 0")
    assert program.split("\n")[:3] == [imports[1], imports[2], imports[0]]  # Node's own first
    runnable = js.program(
        [js.import_module("module"), js.import_of("path", "join")], 'console.log(join("a", "b"))'
    )
    assert _run(tmp_path, runnable).stdout.strip() == "a/b"


@needs_node
def test_every_snippet_passes_node_check(tmp_path: Path) -> None:
    call = js.call("client.get", ["url"])
    snippets = [
        js.comment("before:\n `url` is\tnot a string"),
        js.program([], js.if_block(js.is_instance("url", "string"), call)),
        js.program([], js.if_block(js.all_of(["a || b", "c"]), js.raise_error("RangeError", "bad"))),
        js.program([], js.assign("client.timeout", "5")),
        js.program([], js.consumed(call)),
        js.program([], js.try_except("ERR_CANCELED", call, js.report("client.get"))),
        js.program([], js.try_except("AbortError", call, js.report("client.get")), awaited=True),
        js.program(
            [], js.catch_warning("ExperimentalWarning", js.call("f", awaited=True), js.report("f")), True
        ),
        js.ignore_warning("DeprecationWarning", 'it "quoted" \\ here'),
        js.program([js.comment("setup")], "\n".join([js.comment("before"), call, js.comment("after"), call])),
    ]
    for snippet in snippets:
        _checks(tmp_path, snippet)
    assert js.quiet_logger("app", "warning") is None


@needs_node
def test_standard_modules_are_node_s_own(tmp_path: Path) -> None:
    done = _run(tmp_path, 'console.log(JSON.stringify(require("node:module").builtinModules))')
    for name in json.loads(done.stdout):
        assert js.is_standard(name) or js.is_standard(f"node:{name}"), name
        assert not js.installable(name)
    for name in ("fs", "fs/promises", "node:fs", "node:test", "node:sqlite", "assert/strict", "punycode"):
        assert js.is_standard(name), name
    for name in ("test", "axios", "@types/node", "lodash/fp", "node:nope"):
        assert not js.is_standard(name), name


def test_installable_modules_are_npm_packages() -> None:
    for name in ("axios", "@scope/name", "lodash/fp", "socket.io", "JSONStream", "@babel/core/lib/x"):
        assert js.installable(name), name
    for name in ("fs", "node:fs", "./local", "../x", "/abs/path", "_private", "@scope/_x", "a b", ""):
        assert not js.installable(name), name
    assert js.package_name("lodash/fp") == "lodash" and js.package_name("@scope/name/sub") == "@scope/name"
    assert js.package_name("node:fs/promises") == "fs"


# --- What reads code ---------------------------------------------------------------------------


def test_literals() -> None:
    literals = [
        "1",
        "-1.5",
        "0x1f",
        "10n",
        "'a'",
        '"a\\n"',
        "`plain`",
        "null",
        "undefined",
        "true",
        " false ",
    ]
    for code in literals:
        assert js.is_literal(code), code
    for code in ("x", "`a${b}`", "[1]", "{}", "1;", "-x", "1 + 1", "NaN", "a)(b", ""):
        assert not js.is_literal(code), code


def test_a_caller_s_test_reads_the_object_for_this() -> None:
    assert js.caller_side("this.options.timeout < 0", (), ["url"], "client") == "client.options.timeout < 0"
    # Byte offsets: a multi-byte character before ``this`` does not shift the replacement.
    test = '"é—" === this.name && this.#ready'
    assert js.caller_side(test, (), (), "box") == '"é—" === box.name && box.#ready'
    assert js.caller_side("this.ready", (), (), None) is None
    assert js.caller_side("typeof url !== 'string'", ["url"], ["url"], None) == "typeof url !== 'string'"
    assert js.caller_side("buffer.length > MAX_LENGTH", ["buffer", "MAX_LENGTH"], ["buffer"], None)
    assert js.caller_side("count > limit", ["count", "limit"], ["count"], None) is None  # a local
    assert (
        js.caller_side("Array.isArray(items)", ["Array", "items"], ["items"], None) == "Array.isArray(items)"
    )
    assert js.caller_side("a &&", ["a"], ["a"], None) is None  # no expression


def test_a_caller_s_test_reads_only_what_the_caller_has() -> None:
    allowed = {"items", "client"}
    assert js.reads_only("items.some((item) => item == null) && Number.isInteger(items.length)", allowed)
    assert js.reads_only("client.defaults.timeout === undefined", allowed)
    assert not js.reads_only("client._queue.length > 0", allowed)
    assert not js.reads_only("client.#queue.length > 0", allowed)
    assert not js.reads_only("items.length > max", allowed)
    assert not js.reads_only("this.items", allowed)
    assert not js.reads_only("(items = [])", allowed)
    assert not js.reads_only("require('fs')", allowed)
    assert not js.reads_only("items; client", allowed)


def test_claims_read_requires_imports_chains_and_classes() -> None:
    snippet = """\
const { FakeError, fetchThing: fetch } = require("fakepkg");
const fs = require("node:fs");
const map = require("lodash/fp").map;
import def, { parse as parseIt } from "x-parser";
import * as path from "node:path";
async function main(input) {
  try {
    await fetch(input);
    helper(input).then(console.log);
    fs.readFileSync(path.join(input));
    new Widget({ input });
    parseIt(def, map);
  } catch (err) {
    if (!(err instanceof FakeError)) throw err;
    throw new TypeError(`bad ${err.message}`);
  }
}
main(process.argv[2]).catch((e) => { if (e instanceof RangeError) console.error(e); });
const notCaught = (v) => v instanceof Date;
"""
    read = claims.snippet(snippet)
    assert read is not None
    assert set(read.imports) == {"fakepkg", "fs", "lodash/fp", "x-parser", "path"}
    chains = {c.written: c.rooted for c in read.chains}
    # Each name as its binding makes it: an import's module path, a free name, the language's own.
    assert chains["fakepkg.fetchThing()"] == "import"
    assert chains["fs.readFileSync()"] == "import" and chains["path.join()"] == "import"
    assert chains["x-parser.parse()"] == "import" and chains["lodash/fp.map"] == "import"
    assert chains["helper().then()"] == "free" and chains["Widget()"] == "free"
    assert chains["console.error()"] == "builtin"
    # Caught is what a handler tests with instanceof; thrown what ``throw`` makes.
    assert {c.written for c in read.caught} == {"fakepkg.FakeError", "RangeError"}
    assert {c.written for c in read.raised} == {"TypeError"}
    # TypeScript parses with its own grammar; what is neither is None.
    typed = claims.snippet(
        'const x: number = compute(1);\ntry { run(x) } catch (err: unknown) { throw Error("x") }'
    )
    assert typed is not None and {c.written for c in typed.raised} == {"Error"}
    assert claims.snippet("def f():\n    return 1") is None


def test_yields_reads_a_generator_s_header() -> None:
    window = """\
class Paginator {
  /**
   * pages(query) yields each page.
   */
  async *pages(query) {
    if (!query) throw new TypeError('no query');
    yield* this.fetch(query);
  }

  *[Symbol.iterator]() {}

  items(query) {
    if (!query) throw new TypeError('no query');
    return [];
  }
}
function* walk(node) {
  if (!node) throw new Error('no node');
  yield node;
}
const chunks = function* (text) {
  throw new Error('x');
};
"""
    assert js.yields(window, 1, 6, "Paginator.pages")
    assert not js.yields(window, 1, 13, "Paginator.items")
    assert js.yields(window, 1, 18, "walk")
    assert js.yields(window, 1, 22, "chunks")  # a generator bound to a name
    # A window that starts inside the function: a ``yield`` before the raise says it.
    inside = "    for (const page of pages) {\n      yield page;\n    }\n    throw new Error('done');\n  }"
    assert js.yields(inside, 40, 43, "Paginator.pages")
    nested = "    const f = () => {\n      throw new Error('x');\n    };\n    yield 1;"
    assert not js.yields(nested, 40, 41, "Paginator.pages")
    assert not js.yields("throw new Error('x')", 1, 1, "f")


def test_quoted_calls_a_caller_can_write() -> None:
    for text in ("client.setup()", "app.use(router)", "promise.catch(handle)", "db.connect({ host: 'x' })"):
        assert js.quoted_call(text), text
    for text in (
        "if(x)",
        "client._setup()",
        "client.#setup()",
        "client.setup(...args)",
        "client.setup(a); more()",
        "client.setup(a) // note",
        "client.setup('a\\n')",
        "client.setup(",
        "client.setup(a) + 1",
        "client.setup",
    ):
        assert not js.quoted_call(text), text


def test_public_names() -> None:
    assert js.is_public("axios.AxiosError") and js.is_public("@scope/pkg.Err") and js.is_public("Router.use")
    private = ["Router._init", "Router.#init", "lib/_private/x.Err", "lib/internal/errors.E", "f.<locals>.g"]
    for name in private:
        assert not js.is_public(name), name


# --- Signatures --------------------------------------------------------------------------------

#: Modelled on axios's ``lib/core/Axios.js``, Express's ``lib/application.js`` and a TypeScript
#: client: declarations of every shape a signature is read from.
AXIOS_LIKE = """\
'use strict';

class Axios {
  constructor(instanceConfig) {
    this.defaults = instanceConfig;
  }

  /**
   * Dispatch a request
   */
  async request(configOrUrl, config) {
    return this._request(configOrUrl, config);
  }

  static async get(url, config) { return new Axios({}).request(url, config); }

  get size() {
    return 0;
  }

  async *pages(
    url, // the first page
    { limit = 10, offset = 0 } = {},
  ) {
    yield url;
  }
}

exports.parse = function parse(str, options) {
  return str;
};

module.exports.compile = (src) => src.trim();

const toArray = x => [x];

const mergeConfig = async (config1, config2 = {}) => {
  return { ...config1, ...config2 };
};

app.use = function use(fn) {
  return this;
};

app.get('/', (req, res) => {
  res.send('ok');
});
"""

TS_CLIENT = """\
export class Client {
  @Retry({ times: 3 })
  public async request<T = any, R = Response<T>>(
    url: string | URL,
    config?: RequestConfig<{ raw: boolean }>,
  ): Promise<R> {
    return this.send(url, config);
  }

  private validate(value: unknown): value is string {
    return typeof value === 'string';
  }
}

export function parse(text: string): { ok: boolean; value?: number } {
  return { ok: true };
}

export const handler: Handler = async (req: Request, res: Response): Promise<void> => {
  await res.end();
};
"""


def _declared(source: str, typescript: bool) -> dict[str, tuple[int, int]]:
    """Each function's name, declaration line and body's first line, as the extractor reads them
    with tree-sitter: the statement it is declared in, and its body's first statement."""
    import tree_sitter as ts

    if typescript:
        import tree_sitter_typescript as tst

        language = ts.Language(tst.language_typescript())
    else:
        import tree_sitter_javascript as tsj

        language = ts.Language(tsj.language())
    root = ts.Parser(language).parse(source.encode()).root_node
    kinds = {"function_declaration", "function_expression", "arrow_function", "method_definition",
             "generator_function_declaration"}  # fmt: skip
    out = {}
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type not in kinds or node.child_by_field_name("body") is None:
            continue
        statement = node
        while statement.parent is not None and statement.parent.type in (
            "export_statement", "lexical_declaration", "variable_declarator", "expression_statement",
            "assignment_expression", "pair",
        ):  # fmt: skip
            statement = statement.parent
        body = node.child_by_field_name("body")
        assert body is not None
        first = body.named_children[0] if body.type == "statement_block" and body.named_children else body
        name = node.child_by_field_name("name")
        key = name.text.decode() if name is not None and name.text else f"line {statement.start_point[0] + 1}"
        out[key] = (statement.start_point[0] + 1, first.start_point[0] + 1)
    return out


def test_signatures_of_javascript_declarations(tmp_path: Path) -> None:
    path = tmp_path / "Axios.js"
    path.write_text(AXIOS_LIKE)
    lines = path.read_text().split("\n")
    found = {
        name: docs.signature(lines, line, body) for name, (line, body) in _declared(AXIOS_LIKE, False).items()
    }
    assert found["constructor"] == "constructor(instanceConfig)"
    assert found["request"] == "request(configOrUrl, config)"
    assert found["get"] == "get(url, config)"  # a method named ``get``, ``static async`` dropped
    assert found["size"] == "size()"  # a getter's ``get`` dropped
    assert found["pages"] == "pages(url, { limit = 10, offset = 0 } = {})"
    assert found["parse"] == "parse(str, options)"
    assert found["use"] == "use(fn)"
    arrows = {v for k, v in found.items() if k.startswith("line ")}
    assert {"compile(src)", "toArray(x)", "mergeConfig(config1, config2 = {})"} <= arrows
    assert None in arrows  # ``app.get('/', (req, res) => {``: a callback, no header of its own


def test_signatures_of_typescript_declarations(tmp_path: Path) -> None:
    path = tmp_path / "client.ts"
    path.write_text(TS_CLIENT)
    lines = path.read_text().split("\n")
    found = {
        name: docs.signature(lines, line, body) for name, (line, body) in _declared(TS_CLIENT, True).items()
    }
    assert found["request"] == (
        "request<T = any, R = Response<T>>(url: string | URL, config?: RequestConfig<{ raw: boolean }>)"
        ": Promise<R>"
    )
    assert found["validate"] == "validate(value: unknown): value is string"
    assert found["parse"] == "parse(text: string): { ok: boolean; value?: number }"
    handler = next(v for k, v in found.items() if k.startswith("line "))
    assert handler == "handler(req: Request, res: Response): Promise<void>"


def test_signatures_that_are_none() -> None:
    assert docs.signature(["const x = 5;"], 1, 1) is None
    assert docs.signature(["if (x) {", "  run();"], 1, 2) is None
    assert docs.signature([], 1, 1) is None
    assert docs.signature(["function f(a, b"], 1, 1) is None  # cut off


# --- JSDoc ---------------------------------------------------------------------------------------

#: axios's ``Axios.prototype.request``, as written.
AXIOS_REQUEST = """/**
   * Dispatch a request
   *
   * @param {String|Object} configOrUrl The config specific for this request (merged with this.defaults)
   * @param {?Object} config
   *
   * @returns {Promise} The Promise to be fulfilled
   */"""
#: Modelled on Node's and Express's comments: typed and untyped ``@throws``, options, defaults.
CREATE_SERVER = """/**
 * Creates a new {@link Server} that listens on `options.port`.
 *
 * Closes idle sockets after <code>keepAliveTimeout</code> milliseconds; see
 * [the guide](https://example.com/guide).
 *
 * @param {Object} options - The server's options.
 * @param {number} [options.port=3000] - The port to listen on; `0` picks
 *   a free one.
 * @param {string} [host="0.0.0.0"] The host to bind.
 * @param {function(Error): void} [onError] - Called with {@link Error|errors}.
 * @throws {TypeError|RangeError} When `options.port` is not a valid port.
 * @throws {module:net.ERR_SERVER_ALREADY_LISTEN} If it already listens.
 * @throws When the host cannot be resolved.
 * @deprecated Since 2.0: use {@link createSecureServer}.
 * @example
 * @Component({})
 * const server = createServer({ port: 0 });
 */"""


def test_summary() -> None:
    assert docs.summary(AXIOS_REQUEST) == "Dispatch a request"
    assert docs.summary(CREATE_SERVER) == "Creates a new {@link Server} that listens on `options.port`."
    stripped = "Reads the file.\nEvery line of it.\n\n@returns {string} The text."
    assert docs.summary(stripped) == "Reads the file. Every line of it."
    assert docs.summary("/** @summary Short one.\n * @description Longer. */") == "Short one."
    assert docs.summary("/**\n * @description Only a tag.\n */") == "Only a tag."
    assert docs.summary("/** @param {string} x */") is None
    assert docs.summary("/** Parses `x`. */") == "Parses `x`."
    assert docs.summary(None) is None and docs.summary("") is None


def test_parameters() -> None:
    assert docs.parameters(AXIOS_REQUEST, ["configOrUrl", "config"]) == {
        "configOrUrl": "The config specific for this request (merged with this.defaults)"
    }  # ``config`` has no text
    found = docs.parameters(CREATE_SERVER, ["host", "options", "onError", "port"])
    assert found == {"host": "The host to bind.", "options": "The server's options.",
                     "onError": "Called with {@link Error|errors}."}  # fmt: skip
    assert list(found) == ["host", "options", "onError"]  # the order asked
    assert docs.parameters(CREATE_SERVER, ["options.port"]) == {
        "options.port": "The port to listen on; `0` picks a free one."
    }
    ts_style = "/**\n * @param url - Where to send it.\n * @param init - Options.\n */"
    assert docs.parameters(ts_style, ["url", "init"]) == {"url": "Where to send it.", "init": "Options."}
    assert docs.parameters(None, ["x"]) == {} and docs.parameters(CREATE_SERVER, []) == {}


def test_raises() -> None:
    assert docs.raises(CREATE_SERVER, "RangeError") == "When `options.port` is not a valid port."
    assert docs.raises(CREATE_SERVER, "TypeError") == "When `options.port` is not a valid port."
    assert docs.raises(CREATE_SERVER, "ERR_SERVER_ALREADY_LISTEN") == "If it already listens."
    assert docs.raises(CREATE_SERVER, "Error") == "When the host cannot be resolved."  # the untyped one
    named = """/**
     * @throws TypeError if the url is not a string
     * @throws {@link AbortError} when aborted
     */"""
    assert docs.raises(named, "TypeError") == "if the url is not a string"
    assert docs.raises(named, "lib/errors.AbortError") == "when aborted"
    assert docs.raises(named, "RangeError") is None  # each entry names another class
    assert docs.raises(AXIOS_REQUEST, "TypeError") is None
    assert docs.raises(CREATE_SERVER, None) is None and docs.raises(None, "TypeError") is None


def test_override_note() -> None:
    abstract = """/**
     * Transforms one chunk.
     * Subclasses must override this method: the base class throws.
     * @abstract
     */"""
    assert docs.override_note(abstract) == "Subclasses must override this method: the base class throws."
    assert docs.override_note("/** Override the default timeout with `options.timeout`. */") is None
    assert docs.override_note(CREATE_SERVER) is None and docs.override_note(None) is None


def test_plain() -> None:
    assert docs.plain("Creates a new {@link Server}.") == "Creates a new `Server`."
    assert docs.plain("Called with {@link Error|errors}.") == "Called with errors."
    assert docs.plain("See {@link Foo | the foo} and [the bar]{@link Bar}.") == "See the foo and the bar."
    assert (
        docs.plain("Use {@linkcode parse} or {@linkplain Stream the stream}.") == "Use `parse` or the stream."
    )
    assert docs.plain("Read {@link https://nodejs.org/api Node's docs} or {@link module:net~Server}.") == (
        "Read Node's docs or `net~Server`."
    )
    assert docs.plain("After <code>keepAliveTimeout</code> ms; see [the guide](https://x.io/g).") == (
        "After `keepAliveTimeout` ms; see the guide."
    )
    assert docs.plain("Pass ``{ raw: true }`` or {@code null}.") == "Pass `{ raw: true }` or `null`."
    assert docs.plain("{@inheritDoc Base.run}Runs it.") == "Runs it."
    assert docs.plain("a < b, nothing else") == "a < b, nothing else"
