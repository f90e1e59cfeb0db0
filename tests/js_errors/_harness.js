// Shared by every script of this folder: run each case, catch what it raises, print one JSON line.
//
// A case is a function that misuses a package's public API.  It either throws (synchronously
// or as a rejected promise), or returns the error the package handed back (a callback's
// argument, joi's `result.error`).  Each case prints
//   {"package", "case", "raised", "class", "constructor", "message", "code", "stack", "inspect"}
// and the Python side (tests/js_runtime.py) works out from the stack where the error was made.
// A case that raises nothing prints "raised": false, so a silent change of behaviour shows.
'use strict';

const fs = require('fs');
const util = require('util');

// Lines go to the file named by ERRDEX_JS_ERRORS_OUT (else stdout): packages print to stdout.
const OUT = process.env.ERRDEX_JS_ERRORS_OUT ? fs.openSync(process.env.ERRDEX_JS_ERRORS_OUT, 'a') : 1;

// What one line may carry: an AxiosError's inspect output holds the whole request.
const TEXT_LIMIT = 20000;
const CASE_TIMEOUT_MS = 10000;

function clip(text) {
  if (typeof text !== 'string') return text === undefined ? null : String(text);
  return text.length > TEXT_LIMIT ? text.slice(0, TEXT_LIMIT) : text;
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`case timed out: ${what}`), { harness: true })), CASE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describe(pkg, name, err) {
  const line = { package: pkg, case: name, raised: err !== null && err !== undefined };
  if (!line.raised) return line;
  const isError = err instanceof Error || (typeof err === 'object' && typeof err.stack === 'string');
  line.class = isError ? String(err.name) : null;
  line.constructor = err && err.constructor ? err.constructor.name : null;
  line.message = isError ? String(err.message) : String(err);
  line.code = isError && err.code !== undefined ? String(err.code) : null;
  line.stack = isError ? clip(err.stack) : null;
  line.inspect = clip(util.inspect(err));
  line.harness = Boolean(err && err.harness);
  return line;
}

// `cases('pkg')` returns `add(name, fn)`; `run()` runs every added case in order.
const registered = [];

function cases(pkg) {
  return (name, fn) => registered.push({ pkg, name, fn });
}

async function runOne({ pkg, name, fn }) {
  let err = null;
  const saved = { ...console };
  for (const name of ['error', 'warn', 'log', 'info']) console[name] = () => {};  // usage printed before a throw
  try {
    let result = fn();
    if (result && typeof result.then === 'function') result = await withTimeout(result, name);
    if (result instanceof Error) err = result;
  } catch (caught) {
    err = caught;
  } finally {
    Object.assign(console, saved);
  }
  fs.writeSync(OUT, JSON.stringify(describe(pkg, name, err)) + '\n');
}

async function run() {
  for (const entry of registered) await runOne(entry);
  // A case may leave a socket or a timer behind: the script is done when its cases are.
  process.exit(0);
}

// The error a Node-style callback is called with (or null), as a promise.
function callbackError(start) {
  return new Promise((resolve) => start((err) => resolve(err || null)));
}

module.exports = { cases, run, callbackError };
