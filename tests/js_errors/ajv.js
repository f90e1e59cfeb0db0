// ajv: schemas that do not compile, and misuse of the Ajv instance.
'use strict';
const Ajv = require('ajv');
const { cases, run } = require('./_harness');

const add = cases('ajv');
add('compile a schema with a bad type', () => new Ajv().compile({ type: 'bogus' }));
add('compile a schema with a bad required', () => new Ajv().compile({ type: 'object', required: 'name' }));
add('compile a schema with a missing $ref', () => new Ajv().compile({ $ref: '#/definitions/missing' }));
add('compile a schema with an unknown keyword', () => new Ajv().compile({ type: 'string', maxLenght: 3 }));
add('compile a schema with an unknown format', () => new Ajv().compile({ type: 'string', format: 'email' }));
add('compile a number', () => new Ajv().compile(42));
add('add a schema twice', () => {
  const ajv = new Ajv();
  ajv.addSchema({ type: 'string' }, 'name');
  ajv.addSchema({ type: 'number' }, 'name');
});
add('add a schema id twice', () => {
  const ajv = new Ajv();
  ajv.compile({ $id: 'http://example.com/a', type: 'string' });
  ajv.compile({ $id: 'http://example.com/a', type: 'number' });
});
add('add a keyword that exists', () => new Ajv().addKeyword('type'));
add('add a keyword with a bad name', () => new Ajv().addKeyword('bad name!'));
add('validate against an unknown schema', () => new Ajv().validate('missing', {}));
add('compileAsync without loadSchema', () => new Ajv().compileAsync({ $ref: 'http://example.com/other.json' }));
add('removeSchema of a number', () => new Ajv().removeSchema(42));
add('strict tuple without minItems', () => new Ajv({ strictTuples: true }).compile({ type: 'array', items: [{ type: 'string' }] }));
add('unknown format beside custom formats', () => new Ajv({ formats: { x: /x/ } }).compile({ type: 'string', format: 'y' }));
run();
