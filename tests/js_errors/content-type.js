// content-type: parsing and formatting Content-Type headers.
'use strict';
const contentType = require('content-type');
const { cases, run } = require('./_harness');

const add = cases('content-type');
add('parse of nothing', () => contentType.parse());
add('parse of a number', () => contentType.parse(42));
add('parse of an empty type', () => contentType.parse(' ; charset=utf-8'));
add('parse of a bad parameter', () => contentType.parse('text/html; charset'));
add('parse of a request without the header', () => contentType.parse({ headers: {} }));
add('parse of a response without the header', () => contentType.parse({ getHeader: () => undefined }));
add('format of nothing', () => contentType.format());
add('format without a type', () => contentType.format({}));
add('format with a bad parameter name', () => contentType.format({ type: 'text/html', parameters: { 'bad name': 'x' } }));
add('format with a bad parameter value', () => contentType.format({ type: 'text/html', parameters: { charset: 'utf\n8' } }));
add('format with a bad type', () => contentType.format({ type: 'text html' }));
run();
