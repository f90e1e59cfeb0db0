// zod: values that fail their schemas (ZodError), and schemas built wrongly.
'use strict';
const { z } = require('zod');
const { cases, run } = require('./_harness');

const add = cases('zod');
add('string given a number', () => z.string().parse(1));
add('number given a string', () => z.number().parse('1'));
add('object missing a key', () => z.object({ name: z.string(), age: z.number() }).parse({ name: 'x' }));
add('strict object with an extra key', () => z.object({ a: z.string() }).strict().parse({ a: 'x', b: 1 }));
add('string too short', () => z.string().min(5).parse('abc'));
add('email that is not one', () => z.string().email().parse('not-an-email'));
add('enum given another value', () => z.enum(['red', 'green']).parse('blue'));
add('union that nothing matches', () => z.union([z.string(), z.number()]).parse(true));
add('array of the wrong items', () => z.array(z.number()).parse([1, 'two', 3]));
add('refinement that fails', () => z.number().refine((n) => n % 2 === 0, 'must be even').parse(3));
add('parseAsync of a bad value', () => z.string().parseAsync(42));
add('async refinement in a sync parse', () => z.string().refine(async () => true).parse('x'));
add('function called with a bad argument', () => z.function().args(z.string()).returns(z.number()).implement((s) => s.length)(42));
add('function that returns the wrong type', () => z.function().args(z.string()).returns(z.number()).implement((s) => s)('x'));
add('async function called with a bad argument', () =>
  z.function().args(z.string()).returns(z.promise(z.number())).implement(async (s) => s.length)(42),
);
add('discriminated union with a duplicate value', () =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('a') }),
    z.object({ type: z.literal('a') }),
  ]),
);
add('error map and invalid_type_error together', () =>
  z.string({ errorMap: () => ({ message: 'x' }), invalid_type_error: 'not a string' }),
);
add('date given a string', () => z.date().parse('2020-01-01'));
add('nativeEnum given another value', () => z.nativeEnum({ A: 1, B: 2 }).parse(3));
run();
