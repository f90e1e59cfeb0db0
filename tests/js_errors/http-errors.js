// http-errors misused.  (createError's own errors point their stacks at its caller, so those
// are collected where express and its dependencies call it: see express.js.)
'use strict';
const createError = require('http-errors');
const { cases, run } = require('./_harness');

const add = cases('http-errors');
add('a status given after the message', () => createError('Forbidden for this user', 403));
add('a boolean argument', () => createError(true));
add('the abstract HttpError constructed', () => new createError.HttpError());
run();
