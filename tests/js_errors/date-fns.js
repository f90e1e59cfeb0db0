// date-fns (4.x, its CommonJS build): formatting invalid dates, and format strings it refuses.
'use strict';
const df = require('date-fns');
const { cases, run } = require('./_harness');

const add = cases('date-fns');
const day = new Date(2024, 0, 15, 12, 30);
const never = new Date(NaN);

add('format an invalid date', () => df.format(never, 'yyyy-MM-dd'));
add('format with YYYY', () => df.format(day, 'YYYY-MM-dd'));
add('format with DD', () => df.format(day, 'yyyy-MM-DD'));
add('format with an unescaped letter', () => df.format(day, 'yyyy-MM-dd ee j'));
add('lightFormat an invalid date', () => df.lightFormat(never, 'yyyy-MM-dd'));
add('lightFormat with an unescaped letter', () => df.lightFormat(day, 'yyyy-MM-dd Q'));
add('formatISO an invalid date', () => df.formatISO(never));
add('formatRFC3339 an invalid date', () => df.formatRFC3339(never));
add('formatRFC7231 an invalid date', () => df.formatRFC7231(never));
add('formatISO9075 an invalid date', () => df.formatISO9075(never));
add('parse with YYYY', () => df.parse('2024-01-15', 'YYYY-MM-dd', day));
add('formatDistance of an invalid date', () => df.formatDistance(never, day));
add('formatDistanceStrict of an invalid date', () => df.formatDistanceStrict(never, day));
add('formatRelative of an invalid date', () => df.formatRelative(never, day));
run();
