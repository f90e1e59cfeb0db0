// uuid: parsing, stringifying and generating into bad buffers.
'use strict';
const uuid = require('uuid');
const { cases, run } = require('./_harness');

const add = cases('uuid');
add('parse of garbage', () => uuid.parse('not-a-uuid'));
add('parse of a number', () => uuid.parse(42));
add('stringify of too few bytes', () => uuid.stringify([1, 2, 3]));
add('v5 with a bad namespace', () => uuid.v5('hello', 'not-a-namespace'));
add('v3 with a short namespace', () => uuid.v3('hello', [1, 2, 3]));
add('version of garbage', () => uuid.version('nope'));
add('v1ToV6 of garbage', () => uuid.v1ToV6('nope'));
add('v6ToV1 of garbage', () => uuid.v6ToV1('nope'));
run();
