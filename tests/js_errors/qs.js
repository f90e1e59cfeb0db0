// qs: query strings parsed and stringified with bad options.
'use strict';
const qs = require('qs');
const { cases, run } = require('./_harness');

const add = cases('qs');
add('parse with a decoder that is not a function', () => qs.parse('a=b', { decoder: 'x' }));
add('parse with an unknown charset', () => qs.parse('a=b', { charset: 'latin9' }));
add('parse with a bad allowEmptyArrays', () => qs.parse('a=b', { allowEmptyArrays: 'yes' }));
add('parse with a bad decodeDotInKeys', () => qs.parse('a=b', { decodeDotInKeys: 'yes' }));
add('parse with an unknown duplicates option', () => qs.parse('a=b', { duplicates: 'all' }));
add('parse deeper than strictDepth allows', () => qs.parse('a[b][c][d]=1', { depth: 1, strictDepth: true }));
add('stringify with an encoder that is not a function', () => qs.stringify({ a: 1 }, { encoder: 'x' }));
add('stringify with an unknown charset', () => qs.stringify({ a: 1 }, { charset: 'latin9' }));
add('stringify with an unknown format', () => qs.stringify({ a: 1 }, { format: 'RFC9999' }));
add('stringify with a bad commaRoundTrip', () => qs.stringify({ a: [1] }, { arrayFormat: 'comma', commaRoundTrip: 'x' }));
add('stringify with a bad encodeDotInKeys', () => qs.stringify({ a: 1 }, { encodeDotInKeys: 'x' }));
add('stringify with a bad allowEmptyArrays', () => qs.stringify({ a: 1 }, { allowEmptyArrays: 'x' }));
add('stringify of a cyclic object', () => {
  const a = { b: {} };
  a.b.a = a;
  return qs.stringify(a);
});
run();
