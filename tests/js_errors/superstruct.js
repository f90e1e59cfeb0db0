// superstruct: values asserted, created and masked against structs they do not fit.
'use strict';
const s = require('superstruct');
const { cases, run } = require('./_harness');

const add = cases('superstruct');
add('assert a number as a string', () => s.assert(1, s.string()));
add('assert an object missing a key', () => s.assert({}, s.object({ id: s.number() })));
add('create a bad value', () => s.create('x', s.number()));
add('mask a bad value', () => s.mask({ a: 'x' }, s.object({ a: s.number() })));
add('assert with a custom message', () => s.assert(5, s.size(s.number(), 0, 3), 'too big'));
add('assert an enum', () => s.assert('blue', s.enums(['red', 'green'])));
add('validate then throw the error', () => s.validate([1, 'x'], s.array(s.number()))[0]);
run();
