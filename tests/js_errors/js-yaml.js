// js-yaml: documents that do not load, values that do not dump, types defined wrongly.
'use strict';
const yaml = require('js-yaml');
const { cases, run } = require('./_harness');

const add = cases('js-yaml');
add('unclosed flow sequence', () => yaml.load('a: [1, 2'));
add('unclosed flow mapping', () => yaml.load('a: {b: 1'));
add('bad indentation', () => yaml.load('a:\n  b: 1\n c: 2'));
add('duplicated mapping key', () => yaml.load('a: 1\na: 2'));
add('unknown tag', () => yaml.load('a: !!js/function "function () {}"'));
add('unacceptable YAML version', () => yaml.load('%YAML 2.0\n---\na: 1'));
add('tab indentation', () => yaml.load('a:\n\tb: 1'));
add('unknown escape sequence', () => yaml.load('a: "\\q"'));
add('unfinished quoted scalar', () => yaml.load('a: "unterminated'));
add('several documents given to load', () => yaml.load('a: 1\n---\nb: 2'));
add('alias to nothing', () => yaml.load('a: *missing'));
add('dump a function', () => yaml.dump({ f() {} }));
add('dump a symbol', () => yaml.dump({ s: Symbol('x') }));
add('Type with an unknown option', () => new yaml.Type('tag:x', { kind: 'scalar', colour: 'red' }));
add('Type with an unknown kind', () => new yaml.Type('tag:x', { kind: 'tree' }));
add('extend a schema with a number', () => yaml.DEFAULT_SCHEMA.extend(42));
add('stream that ends inside a block', () => yaml.load('- a\n- [b'));
run();
