// mime (3.x, CommonJS): types defined over ones already mapped.
'use strict';
const mime = require('mime');
const Mime = require('mime/Mime');
const { cases, run } = require('./_harness');

const add = cases('mime');
add('define an extension that is taken', () => mime.define({ 'text/x-mine': ['html'] }));
add('define a type map that clashes with itself', () => new Mime({ 'text/a': ['x'] }, { 'text/b': ['x'] }));
add('define a taken extension on a new instance', () => {
  const own = new Mime({ 'application/x-a': ['a1'] });
  own.define({ 'application/x-b': ['a1'] });
});
run();
