// cookie: serializing and parsing Set-Cookie / Cookie headers.
'use strict';
const cookie = require('cookie');
const { cases, run } = require('./_harness');

const add = cases('cookie');
add('serialize a name with a space', () => cookie.serialize('a b', 'x'));
add('serialize a value with a newline', () => cookie.serialize('a', 'x\ny', { encode: (v) => v }));
add('serialize with a bad encode option', () => cookie.serialize('a', 'x', { encode: 42 }));
add('serialize with a bad domain', () => cookie.serialize('a', 'x', { domain: 'bad domain' }));
add('serialize with a bad path', () => cookie.serialize('a', 'x', { path: '/a;b' }));
add('serialize with a bad maxAge', () => cookie.serialize('a', 'x', { maxAge: 'soon' }));
add('serialize with a bad expires', () => cookie.serialize('a', 'x', { expires: 'tomorrow' }));
add('serialize with a bad priority', () => cookie.serialize('a', 'x', { priority: 'urgent' }));
add('serialize with a bad sameSite', () => cookie.serialize('a', 'x', { sameSite: 'sometimes' }));
add('serialize with a bad partitioned flag', () => cookie.serialize('a', 'x', { sameSite: 42 }));
add('parse of a number', () => cookie.parse(42));
run();
