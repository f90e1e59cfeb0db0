// path-to-regexp (8.x, the top-level copy; express carries its own 0.1.x): bad paths and params.
'use strict';
const { pathToRegexp, compile, parse, match } = require('path-to-regexp');
const { cases, run } = require('./_harness');

const add = cases('path-to-regexp');
add('a parameter without a name', () => pathToRegexp('/users/:'));
add('a wildcard without a name', () => pathToRegexp('/files/*'));
add('an unclosed group', () => pathToRegexp('/users{/:id'));
add('an unexpected parenthesis', () => pathToRegexp('/users/(\\d+)'));
add('a quoted name left open', () => pathToRegexp('/:"id'));
add('compile without a parameter', () => compile('/users/:id')({}));
add('compile with a number parameter', () => compile('/users/:id')({ id: 42 }));
add('compile a wildcard with a string', () => compile('/files/*path')({ path: 'a/b' }));
add('compile a wildcard with a number in the array', () => compile('/files/*path')({ path: ['a', 3] }));
add('a stray closing brace', () => pathToRegexp('/users}'));
add('two parameters with no text between', () => pathToRegexp('/:a:b'));
add('a parameter then a wildcard with no text between', () => pathToRegexp('/:a*b'));
run();
