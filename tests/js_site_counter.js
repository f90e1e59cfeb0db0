#!/usr/bin/env node
// Count, independently of errdex, the JavaScript and TypeScript error sites whose message can
// be read from source.  The reference for test_js_recall.py: it parses with @babel/parser
// (errdex reads with tree-sitter), so the two readers share no code and no grammar.
//
// A site is
//   * `throw new X(msg)` or `throw X(msg)`, for any X, and
//   * `new X(msg)` anywhere else (returned, passed to reject() or a callback, assigned) where
//     X's name is `Error` or ends in `Error` or `Exception`,
// where msg, the first argument, is a string literal, a template literal with some text, or a
// `+` chain with at least one such literal in it.  Its line is the 1-based line the `new` (or,
// for a thrown call, the call) starts on: where V8's stack frames point for a construction.
//
// Files are chosen as errdex chooses them by default (errdex.mine.sources.DEFAULT_EXCLUDES
// with the JavaScript entry's excludes): tests, docs, examples, benchmarks, vendored code,
// node_modules, hidden folders, declarations and minified copies are left out.
//
// Usage: NODE_PATH=<tree with @babel/parser>/node_modules node js_site_counter.js ROOT
// prints one JSON object: {"files": [...], "sites": [[path, line], ...], "unparsed": [[path, why], ...]}.
'use strict';

const fs = require('fs');
const path = require('path');
const { parse } = require('@babel/parser');

const EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.tsx', '.mts', '.cts']);
const TS_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts']);
// Names left out wherever they are, as folders (and as files, where a file could bear one).
const SKIPPED_NAMES = new Set([
  'tests', 'test', 'docs', 'doc', 'examples', 'example', 'benchmarks', 'benchmark', 'vendor',
  'vendored', '_vendor', 'third_party', 'node_modules', '__tests__', '__mocks__', '__fixtures__',
  'bower_components', '__pycache__', 'site-packages',
]);
// Left out only directly below the root: a project's own testing/ holds its tests.
const SKIPPED_AT_ROOT = new Set(['testing']);
const SKIPPED_FILES = [
  /\.d\.[cm]?ts$/, /\.min\.[cm]?js$/, /^.*\.test\..*$/, /^.*\.spec\..*$/,
];
// errdex skips (and reports) files over this size; counting them would compare other files.
const MAX_FILE_SIZE = 2_000_000;

function isSkippedName(name) {
  return name.startsWith('.') || SKIPPED_NAMES.has(name) || /\.(test|spec)\./.test(name);
}

function sourceFiles(root) {
  const found = [];
  const walk = (dir, rel) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const name = entry.name;
      const childRel = rel ? `${rel}/${name}` : name;
      if (entry.isDirectory()) {  // a symlink to a folder is not followed (isDirectory is false)
        if (isSkippedName(name) || (!rel && SKIPPED_AT_ROOT.has(name))) continue;
        walk(path.join(dir, name), childRel);
      } else if (entry.isFile()) {
        if (!EXTENSIONS.has(path.extname(name)) || isSkippedName(name)) continue;
        if (SKIPPED_FILES.some((re) => re.test(name))) continue;
        if (fs.statSync(path.join(dir, name)).size > MAX_FILE_SIZE) continue;
        found.push(childRel);
      }
    }
  };
  walk(root, '');
  return found;
}

function plugins(file) {
  const ext = path.extname(file);
  if (ext === '.tsx') return ['typescript', 'jsx'];
  if (TS_EXTENSIONS.has(ext)) return ['typescript'];
  return ['jsx'];
}

function parseFile(text, file) {
  const options = {
    sourceType: 'unambiguous',
    plugins: plugins(file),
    allowReturnOutsideFunction: true,
    allowImportExportEverywhere: true,
    allowAwaitOutsideFunction: true,
    allowNewTargetOutsideFunction: true,
    allowSuperOutsideMethod: true,
    allowUndeclaredExports: true,
    errorRecovery: false,
  };
  try {
    return parse(text, options);
  } catch (first) {
    // JSX in a .js file clashes with TypeScript-style casts and `<` comparisons seldom, but a
    // file that fails with it may parse without it.
    if (!TS_EXTENSIONS.has(path.extname(file))) return parse(text, { ...options, plugins: [] });
    throw first;
  }
}

function isTextLiteral(node) {
  if (node.type === 'StringLiteral') return true;
  if (node.type === 'TemplateLiteral') return node.quasis.some((q) => q.value.raw !== '');
  return false;
}

function addends(node) {
  if (node.type === 'BinaryExpression' && node.operator === '+') return [...addends(node.left), ...addends(node.right)];
  return [node];
}

function isReadableMessage(node) {
  if (!node) return false;
  if (isTextLiteral(node)) return true;
  if (node.type === 'BinaryExpression' && node.operator === '+') return addends(node).some(isTextLiteral);
  return false;
}

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') {
    return callee.property.name;
  }
  return null;
}

function isErrorName(name) {
  return name !== null && (name === 'Error' || name.endsWith('Error') || name.endsWith('Exception'));
}

function hasReadableMessage(call) {
  return isReadableMessage(call.arguments[0]);
}

// Every AST node below `node`, visited once; `visit(child, parent)`.
function walk(node, visit, parent = null) {
  visit(node, parent);
  for (const key of Object.keys(node)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra' || key.endsWith('Comments')) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item.type === 'string') walk(item, visit, node);
    } else if (value && typeof value.type === 'string') {
      walk(value, visit, node);
    }
  }
}

function countFile(ast) {
  const lines = new Set();
  walk(ast.program, (node, parent) => {
    if (node.type === 'ThrowStatement') {
      const thrown = node.argument;
      if ((thrown.type === 'NewExpression' || thrown.type === 'CallExpression') && hasReadableMessage(thrown)) {
        lines.add(thrown.loc.start.line);
      }
    } else if (node.type === 'NewExpression' && !(parent && parent.type === 'ThrowStatement')) {
      if (isErrorName(calleeName(node.callee)) && hasReadableMessage(node)) lines.add(node.loc.start.line);
    }
  });
  return [...lines].sort((a, b) => a - b);
}

function main() {
  const root = path.resolve(process.argv[2]);
  const files = sourceFiles(root);
  const sites = [];
  const unparsed = [];
  for (const file of files) {
    let ast;
    try {
      ast = parseFile(fs.readFileSync(path.join(root, file), 'utf8').replace(/^\uFEFF/, ''), file);
    } catch (error) {
      unparsed.push([file, String(error.message).slice(0, 200)]);
      continue;
    }
    for (const line of countFile(ast)) sites.push([file, line]);
  }
  process.stdout.write(JSON.stringify({ files, sites, unparsed }) + '\n');
}

main();
