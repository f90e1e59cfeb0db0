// jsonwebtoken: tokens that do not verify, and payloads and options that do not sign.
'use strict';
const jwt = require('jsonwebtoken');
const { cases, run } = require('./_harness');

const add = cases('jsonwebtoken');
const secret = 'a-secret-that-is-long-enough-for-hs256';
const now = Math.floor(Date.now() / 1000);
const token = (payload, options = {}) => jwt.sign(payload, secret, options);

add('verify a malformed token', () => jwt.verify('not.a.token.at.all', secret));
add('verify garbage', () => jwt.verify('garbage', secret));
add('verify an empty token', () => jwt.verify('', secret));
add('verify a number', () => jwt.verify(42, secret));
add('verify with the wrong secret', () => jwt.verify(token({ a: 1 }), 'another-secret'));
add('verify an expired token', () => jwt.verify(token({ a: 1, exp: now - 60 }), secret));
add('verify a token not yet valid', () => jwt.verify(token({ a: 1, nbf: now + 3600 }), secret));
add('verify with the wrong audience', () => jwt.verify(token({ aud: 'web' }), secret, { audience: 'mobile' }));
add('verify with the wrong issuer', () => jwt.verify(token({ iss: 'me' }), secret, { issuer: 'you' }));
add('verify with the wrong subject', () => jwt.verify(token({ sub: 'alice' }), secret, { subject: 'bob' }));
add('verify with the wrong jwtid', () => jwt.verify(token({ jti: '1' }), secret, { jwtid: '2' }));
add('verify older than maxAge', () => jwt.verify(token({ iat: now - 3600 }), secret, { maxAge: '1m' }));
add('verify with an algorithm not allowed', () => jwt.verify(token({ a: 1 }), secret, { algorithms: ['RS256'] }));
add('verify without a secret', () => jwt.verify(token({ a: 1 }), ''));
add('verify an unsigned token', () => jwt.verify(token({ a: 1 }).split('.').slice(0, 2).join('.') + '.', secret));
add('verify through a callback', () =>
  new Promise((resolve) => jwt.verify('garbage', secret, (err) => resolve(err))),
);
add('verify with a bad maxAge', () => jwt.verify(token({ a: 1 }), secret, { maxAge: 'whenever' }));
add('sign a payload with a bad nbf', () => token({ a: 1, nbf: 'soon' }));
add('sign without a secret', () => jwt.sign({ a: 1 }, undefined));
add('sign with an unknown algorithm', () => jwt.sign({ a: 1 }, secret, { algorithm: 'HS999' }));
add('sign a string with expiresIn', () => jwt.sign('payload', secret, { expiresIn: 60 }));
add('sign with a bad expiresIn', () => jwt.sign({ a: 1 }, secret, { expiresIn: 'later' }));
add('sign a payload with a bad exp', () => jwt.sign({ exp: 'later' }, secret));
add('sign a payload with exp and expiresIn', () => jwt.sign({ exp: now + 60 }, secret, { expiresIn: 60 }));
add('sign with a bad noTimestamp', () => jwt.sign({ a: 1 }, secret, { noTimestamp: 'yes' }));
add('sign with an unknown option', () => jwt.sign({ a: 1 }, secret, { colour: 'red' }));
add('sign with RS256 and a short secret', () => jwt.sign({ a: 1 }, secret, { algorithm: 'RS256' }));
add('sign a buffer with audience', () => jwt.sign(Buffer.from('x'), secret, { audience: 'web' }));
run();
