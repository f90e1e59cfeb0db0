// The names of JavaScript's standard globals, their prototypes, and Node's core modules' exports,
// as this node has them; printed as JSON (sorted, so that the file changes only with node).
"use strict";
const names = (value) => {
  const found = new Set();
  for (let o = value; o && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) found.add(key);
  }
  return [...found].filter((k) => /^[A-Za-z_$][\w$]*$/.test(k)).sort();
};
const base = new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)]);
const globals = {};
for (const key of Object.getOwnPropertyNames(globalThis).sort()) {
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) continue;
  let value;
  try { value = globalThis[key]; } catch { continue; }
  const entry = { statics: [], prototype: [] };
  if (value !== null && (typeof value === "object" || typeof value === "function")) {
    entry.statics = names(value);
    if (typeof value === "function" && value.prototype) entry.prototype = names(value.prototype);
  }
  globals[key] = entry;
}
// Each module's exports, and for each that is a class the names its instances have.
const modules = {};
for (const name of require("module").builtinModules.filter((m) => !m.startsWith("_")).sort()) {
  let loaded;
  try { loaded = require(name); } catch { modules[name] = {}; continue; }
  const entry = {};
  for (const key of names(loaded)) {
    let value;
    try { value = loaded[key]; } catch { value = undefined; }
    const isClass = typeof value === "function" && value.prototype && /^[A-Z]/.test(key);
    entry[key] = isClass ? names(value.prototype) : [];
  }
  modules[name] = entry;
}
const values = {
  string: names(""), number: names(0), boolean: names(true), array: names([]), function: names(() => 0),
  promise: names(Promise.resolve()), object: [...base].filter((k) => /^[A-Za-z_$][\w$]*$/.test(k)).sort(),
  error: names(new Error("x")), regexp: names(/x/), map: names(new Map()), set: names(new Set()),
};
process.stdout.write(JSON.stringify({ node: process.version, globals, modules, values }) + "\n");
