// joi: values that fail validation (ValidationError), and schemas and options built wrongly.
'use strict';
const Joi = require('joi');
const { cases, run } = require('./_harness');

const add = cases('joi');
// joi leaves a validation error without a stack unless asked for one.
const stack = { errors: { stack: true } };
add('validate a number as a string', () => Joi.string().validate(1, stack).error);
add('validate an object missing a key', () =>
  Joi.object({ name: Joi.string().required() }).validate({}, stack).error,
);
add('validate an email that is not one', () => Joi.string().email().validate('nope', stack).error);
add('assert a value that fails', () => Joi.assert(-1, Joi.number().positive()));
add('attempt a value that fails', () => Joi.attempt('abc', Joi.number(), 'bad count'));
add('validateAsync of a bad value', () => Joi.number().max(3).validateAsync(5, stack));
add('min with a string limit', () => Joi.string().min('x'));
add('keys of a number', () => Joi.object().keys(42));
add('compile a symbol', () => Joi.compile(Symbol('x')));
add('ref with a bad separator', () => Joi.ref('a.b', { separator: '' }));
add('object with a bad pattern', () => Joi.object().pattern(42));
add('when without options', () => Joi.any().when('x'));
run();
