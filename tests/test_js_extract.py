"""JavaScript and TypeScript sites, checked against what Node really throws.

``js_fixtures/shop`` is a small library written the ways npm packages raise: a class
hierarchy whose constructors build the message, a constructor function, ``err.code = ...``,
``util.format``, Node's ``assert``, a rejected promise and an error handed to a callback.
``drive-shop.js`` runs each against Debian's ``node`` and reports the message, the code and
the stack's frame in the library; the mined record at that frame's line must produce that
message, and carry that code where the source sets it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from errdex.languages.javascript.extract import extract
from errdex.match.index import matcher
from errdex.mine import mine
from errdex.record import Record

FIXTURES = Path(__file__).parent / "js_fixtures"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Debian's nodejs is not installed")


def _thrown(tmp_path: Path) -> tuple[Path, list[dict[str, str]]]:
    package = tmp_path / "node_modules" / "shop"
    shutil.copytree(FIXTURES / "shop", package)
    shutil.copy(FIXTURES / "drive-shop.js", tmp_path / "drive.js")
    assert NODE is not None
    run = subprocess.run(
        [NODE, "drive.js"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True
    )
    return package, json.loads(run.stdout)


@needs_node
def test_each_error_node_throws_is_the_record_at_its_frame(tmp_path: Path) -> None:
    package, thrown = _thrown(tmp_path)
    result = mine(package, sha="0" * 40, jobs=1)
    assert result.skipped == []
    by_line = {
        (site.file_path, site.line_number): record for record in result.records for site in record.sites
    }
    assert len(thrown) == 7
    for case in thrown:
        # "at Cart.add (/.../node_modules/shop/lib/index.js:13:13)"
        where, _, _ = case["frame"].rpartition(":")
        path, _, line = where.rpartition(":")
        relative = path.partition("node_modules/shop/")[2]
        record = by_line.get((relative, int(line)))
        assert record is not None, f"{case['label']}: no record at {relative}:{line}"
        assert record.language == "javascript"
        assert matcher(record.message_pattern).match(case["message"]) is not None, (
            case["label"],
            record.message_pattern,
            case["message"],
        )
        function = case["frame"].split()[1]
        assert record.function == function, (case["label"], record.function, function)
        if case["label"] in ("remove", "format", "assert"):
            assert record.error_code == case["code"], case


@needs_node
def test_a_class_that_builds_its_message_gives_the_construction_its_template(tmp_path: Path) -> None:
    package, thrown = _thrown(tmp_path)
    stock = next(case for case in thrown if case["label"] == "stock")
    records = mine(package, sha="0" * 40, jobs=1).records
    built = [r for r in records if r.error_class == "OutOfStock"]
    assert [r.error_message for r in built] == ["only ${left} of ${item} left"]
    assert matcher(built[0].message_pattern).match(stock["message"]) == ("2", "apple")
    # The guard as JavaScript writes it, and the early exit above the later raise.
    assert built[0].conditions == ["typeof item === 'string'", "count > left"]
    removed = next(r for r in records if r.error_code == "ENOTINCART")
    assert removed.conditions == ["!(found >= 0)"]
    # A name bound to ``util.format(...)`` is the text it formats.
    assert any(r.error_message == "cannot pay ${amount} with cash" for r in records)
    # The package's own test that expects the error, by its class and message.
    paid = next(r for r in records if r.error_message == "amount must be positive")
    assert [(t.name, t.file_path) for t in paid.facts.tests] == [
        ("refuses to pay nothing", "test/cart.test.js")
    ]
    # A test that names no class expects any: its message ties it to the record.
    typed = next(r for r in records if r.error_class == "TypeError")
    assert [t.name for t in typed.facts.tests] == ["says what the item was"]


def test_typescript_constructs_outside_a_throw_and_through_a_subclass() -> None:
    text = "\n".join(
        [
            "import { strict as assert } from 'node:assert';",
            "export class HttpError extends Error {",
            "  constructor(public status: number, message: string) { super(message); }",
            "}",
            "export class NotFound extends HttpError {",
            "  constructor(what: string) { super(404, `${what} was not found`); }",
            "}",
            "export async function load(id?: string): Promise<string> {",
            "  if (!id) return Promise.reject(new NotFound(id as string));",
            "  assert.ok(id.length < 64, 'id too long');",
            "  process.emitWarning(`slow lookup of ${id}`, 'PerformanceWarning');",
            "  return id!;",
            "}",
        ]
    )
    result = extract(text, "src/http.ts", "./src/http", "typescript")
    sites = {
        (s.line, s.kind, s.class_written, s.template.message if s.template else None) for s in result.sites
    }
    assert sites == {
        (9, "raise", "NotFound", "${id}"),
        (10, "assert", "AssertionError", "id too long"),
        (11, "warn", "PerformanceWarning", "slow lookup of ${id}"),
    }
    classes = {c.qualified: c for c in result.classes}
    assert classes["./src/http.NotFound"].bases == ("./src/http.HttpError",)
    assert [t.message for t in classes["./src/http.NotFound"].templates] == ["${what} was not found"]
    assert classes["./src/http.HttpError"].super_args == ("message",)
    (load,) = [f for f in result.functions if f.name == "load"]
    assert load.is_async and [p.name for p in load.parameters] == ["id"]


def test_functions_come_in_the_order_they_are_written_named_by_what_encloses_them() -> None:
    """The query hands its nodes over in an order that varies from run to run; two functions
    of one name (``<anonymous>``) must not trade places in what the file's facts read."""
    text = "\n".join(
        [
            "suite.add('a', function (deferred) {",
            "  run(function (err, result) { if (err) throw new Error('failed'); });",
            "});",
            "class Router {",
            "  use(fn) { const next = () => { throw new TypeError('no ' + fn); }; return next; }",
            "}",
            "const handlers = { close() { return class { stop() {} }; } };",
        ]
    )
    result = extract(text, "lib/x.js", "./lib/x", "javascript")
    assert [(f.line, f.name) for f in result.functions] == [
        (1, "<anonymous>"),
        (2, "<anonymous>"),
        (5, "Router.use"),
        (5, "Router.use.<locals>.next"),
        (7, "close"),
        (7, "close.<locals>.stop"),
    ]
    assert [[p.name for p in f.parameters] for f in result.functions][:2] == [["deferred"], ["err", "result"]]


def test_hostile_nesting_and_garbage_are_read_without_a_crash() -> None:
    deep = "throw new Error('x' + " + "(" * 5000 + "a" + ")" * 5000 + ");\n"
    nested = "function f() {" * 2000 + "throw new Error('deep');" + "}" * 2000
    garbage = "\x00\x01}{)(throw new new new ((((`${" * 2000
    for text in (deep, nested, garbage):
        result = extract(text, "lib/x.js", "./lib/x", "javascript")
        assert result.error is None
        assert all(site.line >= 1 for site in result.sites)


def test_thousands_of_early_exits_and_lookups_in_one_function_cost_little() -> None:
    """A generated validator: each check throws, a table lookup through a parameter or a
    message built on with ``+=``.  Every site is read, each with the nearest early exits as
    its guards (the rest counted as left out), not all those above it."""
    checks = 3000
    text = (
        "const T = { a: { message: 'a is bad' } };\nfunction check(schema, k) {\n  let msg = 'start';\n"
        + "".join(
            f"  msg += 'x{i}';\n  if (k === {i}) {{ const v = schema[k]; throw new Error(v.message); }}\n"
            f"  if (k === -{i}) throw new Error(msg);\n"
            for i in range(checks)
        )
        + "}\n"
        + "".join(f"check(T, {i});\n" for i in range(checks))
    )
    result = extract(text, "lib/x.js", "./lib/x", "javascript")
    assert len(result.sites) == 2 * checks
    assert {site.template.message for site in result.sites if site.template} == {"a is bad", "start${'x0'}"}
    assert max(len(site.guards) for site in result.sites) <= 32 + 1  # the nearest exits, and its own if
    assert any("early exits" in why for _, why in result.omitted)


@needs_node
def test_enrichment_writes_javascript_that_runs_and_catches_what_the_record_raises(tmp_path: Path) -> None:
    from errdex.enrich import enrich

    package, _ = _thrown(tmp_path)
    records = {r.line_number: r for r in enrich(mine(package, sha="0" * 40, jobs=1).records)}
    added = records[13]  # Cart.add: TypeError when the item is no string
    assert added.try_catch_pattern is not None and added.validation_code is not None
    # The caller's values are the snippet's free names: a cart, and an item that is no string.
    prelude = "\n".join(
        [
            "const { Cart } = require('shop');",
            "const cart = new Cart({ apple: 2 });",
            "const item = 3, count = 1;",
            "",
        ]
    )
    assert NODE is not None
    for name, snippet in (("try.js", added.try_catch_pattern), ("check.js", added.validation_code)):
        (tmp_path / name).write_text(prelude + snippet + "\n")
    caught = subprocess.run([NODE, "try.js"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert caught.returncode == 0 and "cart.add failed:" in caught.stderr, caught.stderr
    assert "item must be a string, got number" in caught.stderr
    checked = subprocess.run([NODE, "check.js"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert checked.returncode != 0 and "TypeError: `typeof item !== 'string'` holds" in checked.stderr
    # An error handed to a callback is caught by no ``try``: none is written for it.
    shipped = records[36]
    assert shipped.facts.delivery == "callback" and shipped.try_catch_pattern is None


#: What TypeScript emits for ``export default class`` and its import, with a message that
#: falls back to a default (``super(msg || ...)``), as yargs's ``YError`` and ajv's
#: ``MissingRefError`` write it.
_COMPILED = {
    "errors.js": """"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class ShopError extends Error {
    constructor(msg) {
        super(msg || 'shop error');
    }
}
class MissingError extends Error {
    constructor(store, what, msg) {
        super(msg || `no ${what} in ${store}`);
    }
}
exports.MissingError = MissingError;
exports.default = ShopError;
""",
    "index.js": """"use strict";
const errors_1 = require("./errors");
function named() {
    throw new errors_1.default('no such item');
}
function bare() {
    throw new errors_1.default();
}
function missing(what) {
    throw new errors_1.MissingError('cellar', what);
}
module.exports = { named, bare, missing };
""",
}


def _package_run(
    tmp_path: Path, name: str, files: dict[str, str], calls: list[str]
) -> tuple[Path, list[tuple[str, str]]]:
    """A package of ``files`` in ``node_modules``, and what each call of it throws when Node
    runs it: the message and the stack's first frame."""
    package = tmp_path / "node_modules" / name
    package.mkdir(parents=True)
    for file, text in files.items():
        (package / file).write_text(text)
    (package / "package.json").write_text(json.dumps({"name": name, "version": "1.0.0", "main": "index.js"}))
    drive = (
        f"const p = require('{name}'); const out = [];\n"
        "const frame = (e) => e.stack.split('\\n').find((l) => l.startsWith('    at '));\n"
        + "".join(f"try {{ p.{c}; }} catch (e) {{ out.push([e.message, frame(e)]); }}\n" for c in calls)
        + "console.log(JSON.stringify(out));\n"
    )
    (tmp_path / "drive.js").write_text(drive)
    assert NODE is not None
    run = subprocess.run(
        [NODE, "drive.js"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True
    )
    return package, [tuple(pair) for pair in json.loads(run.stdout)]


@needs_node
def test_a_message_that_falls_back_to_a_default_through_a_compiled_default_export(tmp_path: Path) -> None:
    package, thrown = _package_run(
        tmp_path, "compiled", _COMPILED, [f"{f}('wine')" for f in ("named", "bare", "missing")]
    )
    assert [m for m, _ in thrown] == ["no such item", "shop error", "no wine in cellar"]
    records = mine(package, sha="0" * 40, jobs=1).records
    by_line = {(s.file_path, s.line_number): r for r in records for s in r.sites}
    for message, frame in thrown:
        line = int(frame.rsplit(":", 2)[1])
        record = by_line[("index.js", line)]
        assert matcher(record.message_pattern).match(message) is not None, (record.error_message, message)
        assert (record.qualified_class or "").endswith(("ShopError", "MissingError")), record.qualified_class


#: Messages looked up in tables, built up before they are thrown, and formatted inside a
#: template (jsonwebtoken's option schemas, yargs's ``Invalid values:`` and its i18n calls),
#: a default export called the way Babel compiles an import's call, ``(0, m.default)(x)``,
#: a constructor function whose message falls back from ``null`` (axios's ``CanceledError``),
#: a message a local function returns (ajv's ``unknownMsg()``), both forms of ``__n``, a
#: raise helper called as compiled code calls an import (ajv's ``checkStrictMode``), a
#: template literal as Babel compiles it, ``.concat`` after ``.concat`` (date-fns's bundles),
#: and a local function's returned text inside ``+`` (axios's ``formatMessage``).
_BUILT = {
    "parse.js": """"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.default = void 0;
function parse(text) {
  if (typeof text !== 'string') {
    throw TypeError('Invalid text');
  }
  return text.split(',');
}
var _default = exports.default = parse;
""",
    "check.js": """"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
function checkStrictMode(message) {
  throw new Error(`strict mode: ${message}`);
}
exports.checkStrictMode = checkStrictMode;
""",
    "index.js": """"use strict";
const util = require('util');
const check_1 = require("./check.js");
var _parse = _interopRequireDefault(require("./parse.js"));
function _interopRequireDefault(e) { return e && e.__esModule ? e : { default: e }; }
const OPTIONS = {
  size: { isValid: (v) => typeof v === 'number', message: '"size" must be a number' },
  name: { isValid: (v) => typeof v === 'string', message: '"name" must be a string' },
};
const CODES = { E_FULL: 'the cellar is full', E_EMPTY: 'the cellar is empty' };
function validate(schema, object) {
  Object.keys(object).forEach(function (key) {
    const validator = schema[key];
    if (validator && !validator.isValid(object[key])) {
      throw new Error(validator.message);
    }
  });
}
function configure(options) {
  validate(OPTIONS, options);
}
function fail(code) {
  throw new Error(CODES[code]);
}
function choose(given, choices) {
  const bad = Object.keys(given).filter((key) => !choices.includes(given[key]));
  if (!bad.length) return;
  let msg = 'Invalid values:';
  bad.forEach((key) => {
    msg += `\\n  Argument: ${key}, Given: ${given[key]}`;
  });
  throw new Error(msg);
}
function imply(missing) {
  let msg = `${util.format('Implications failed: %s', missing)}\\n`;
  throw new Error(msg);
}
function split(text) {
  return (0, _parse.default)(text);
}
function ShopError(message) {
  Error.call(this);
  this.message = message;
}
ShopError.prototype = Object.create(Error.prototype);
function Cancelled(message) {
  ShopError.call(this, message == null ? 'cancelled' : message);
  Error.captureStackTrace(this, Cancelled);
}
Cancelled.prototype = Object.create(ShopError.prototype);
function abort() {
  throw new Cancelled(null);
}
function unknown(name) {
  throw new Error(unknownMsg());
  function unknownMsg() {
    return `unknown format "${name}" ignored`;
  }
}
function __n(one, many, count, ...values) {
  return util.format(count === 1 ? one : many, ...values);
}
function usageFail(msg) {
  throw new Error(msg);
}
function extra(list) {
  usageFail(__n('Unknown argument: %s', 'Unknown arguments: %s', list.length, list.join(', ')));
}
function tuple(length) {
  (0, check_1.checkStrictMode)(`items is ${length}-tuple, but minItems is not specified`);
}
function pair(a, b) {
  throw new RangeError("The tokens `".concat(a, "` and `").concat(b, "` clash"));
}
function removed(opt) {
  function formatMessage(name, desc) {
    return "Option '" + name + "'" + desc;
  }
  throw new Error(formatMessage(opt, ' was removed') + '.');
}
module.exports = { configure, fail, choose, imply, split, abort, unknown, extra, tuple, pair, removed };
""",
}


@needs_node
def test_messages_from_tables_built_up_or_formatted_and_compiled_calls_of_a_default(tmp_path: Path) -> None:
    calls = [
        "configure({ size: 'big' })",
        "configure({ name: 3 })",
        "fail('E_EMPTY')",
        "choose({ a: 'x', b: 'y' }, ['z'])",
        "imply('user -> password')",
        "split(7)",
        "abort()",
        "unknown('email')",
        "extra(['a'])",
        "extra(['b', 'c'])",
        "tuple(2)",
        "pair('a', 'b')",
        "removed('color')",
    ]
    package, thrown = _package_run(tmp_path, "built", _BUILT, calls)
    assert len(thrown) == len(calls)
    records = mine(package, sha="0" * 40, jobs=1).records
    at: dict[tuple[str, int], list[Record]] = {}
    for record in records:
        for site in record.sites:
            # A call of a raise helper is where its error is made; the stack starts in the helper.
            where = (site.via_file_path or site.file_path, site.via_line_number or site.line_number)
            at.setdefault(where, []).append(record)
    for message, frame in thrown:
        path, line = frame.strip(" )").rsplit("/", 1)[1].rsplit(":", 2)[:2]
        here = at[(path, int(line))]
        # The message fits a template with text of its own, not a bare placeholder.
        fitting = [
            r.error_message
            for r in here
            if matcher(r.message_pattern).match(message) is not None and r.message_pattern != "(.+?)"
        ]
        assert fitting, (message, [r.error_message for r in here])
    # Each message of the table is a record of its own at the one raise.
    (raise_line,) = {int(f.rsplit(":", 2)[1]) for m, f in thrown if m.startswith('"')}
    tabled = {r.error_message for r in at[("index.js", raise_line)]}
    assert {'"size" must be a number', '"name" must be a string'} <= tabled
    # Both forms of ``__n`` reach the helper, each a record of the call.
    unknown = calls.index("extra(['a'])")
    assert thrown[unknown : unknown + 2] == [
        ("Unknown argument: a", thrown[unknown][1]),
        ("Unknown arguments: b, c", thrown[unknown][1]),
    ]
    # A helper called as compiled code calls an import, ``(0, check_1.checkStrictMode)(...)``.
    (strict,) = [r for r in records if r.error_message.startswith("strict mode: items is")]
    assert [(s.file_path, s.via_file_path) for s in strict.sites] == [("index.js", "check.js")]
    # ``new Cancelled(null)`` falls back to the default as Node does: no ``${null}`` is left.
    assert thrown[calls.index("abort()")][0] == "cancelled"
    assert all("${null}" not in r.error_message for r in records)
    # A local function's returned text, its parameters given the call's values, inside ``+``.
    removed = thrown[calls.index("removed('color')")]
    assert removed[0] == "Option 'color' was removed."
    line = int(removed[1].rsplit(":", 2)[1])
    assert "Option '${opt}' was removed." in {r.error_message for r in at[("index.js", line)]}
    # ``(0, _parse.default)(text)`` calls parse: its caller is known.
    (parsed,) = at[("parse.js", 6)]
    assert [c.function for c in parsed.facts.callers] == ["split"]


#: Messages assembled from data at run time, thrown by classes that name them: a class
#: expression assigned to ``exports.X`` and built as ``new exports.X(...)`` (joi's
#: ``ValidationError``), and a constructor that prints its failure's message as it is or
#: prefixed with where it failed (superstruct's ``StructError``).
_ASSEMBLED = {
    "index.js": """'use strict';
exports.ValidationError = class extends Error {
  constructor(message, details) {
    super(message);
    this.details = details;
  }
};
exports.ValidationError.prototype.name = 'ValidationError';
class StructError extends TypeError {
  constructor(failure) {
    const { message, explanation } = failure;
    const { path } = failure;
    const msg = path.length === 0 ? message : `At path: ${path.join('.')} -- ${message}`;
    super(explanation ?? msg);
    this.name = this.constructor.name;
  }
}
const MESSAGES = { 'string.base': 'must be a string', 'number.max': 'must be at most 3' };
function check(codes) {
  const details = codes.map((code) => ({ code, message: `"value" ${MESSAGES[code]}` }));
  throw new exports.ValidationError(details.map((d) => d.message).join('. '), details);
}
function validate(value, path) {
  const failure = { message: `Expected a string, but received: ${value}`, path };
  throw new StructError(failure);
}
module.exports.check = check;
module.exports.validate = validate;
""",
}


@needs_node
def test_a_message_assembled_at_run_time_is_found_by_the_class_that_throws_it(tmp_path: Path) -> None:
    from errdex.match.explain import Matcher
    from errdex.store import open_store

    calls = [
        "check(['string.base'])",
        "check(['number.max', 'string.base'])",
        "validate(1, [])",
        "validate(2, ['id'])",
    ]
    package, thrown = _package_run(tmp_path, "assembled", _ASSEMBLED, calls)
    assert [m for m, _ in thrown] == [
        '"value" must be a string',
        '"value" must be at most 3. "value" must be a string',
        "Expected a string, but received: 1",
        "At path: id -- Expected a string, but received: 2",
    ]
    lines = [int(frame.rsplit(":", 2)[1]) for _, frame in thrown]
    mined = mine(package, sha="0" * 40, jobs=1)
    # The class a site names is the one the file exports under that name, printed by its name.
    (validation,) = [r for r in mined.records if r.line_number == lines[0]]
    assert (validation.error_class, validation.message_kind) == ("ValidationError", "dynamic")
    # Both messages the constructor may print are records of the one raise.
    struct = {r.error_message for r in mined.records if r.line_number == lines[2]}
    assert struct == {"At path: ${path.join('.')} -- ${message}", "${explanation ?? msg}"}
    with open_store(tmp_path / "errdex.db") as store:
        store.replace_repo(mined.info, mined.records)
        matcher = Matcher(store)
        # Printed as Node prints them, only the class tells where each was made.
        printed = ["ValidationError", "ValidationError", "StructError", "StructError"]
        for (message, _), line, name in zip(thrown, lines, printed, strict=True):
            best = matcher.explain(f"{name}: {message}").matches[0]
            assert (best.record.file_path, best.record.line_number) == ("index.js", line), message
