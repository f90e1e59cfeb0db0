// luxon: dates, durations and intervals built from bad input.  With throwOnInvalid, luxon
// throws instead of handing back an invalid object.
'use strict';
const { DateTime, Duration, Interval, Settings, Zone } = require('luxon');
const { cases, run } = require('./_harness');

const add = cases('luxon');
const throwing = (fn) => () => {
  Settings.throwOnInvalid = true;
  try {
    return fn();
  } finally {
    Settings.throwOnInvalid = false;
  }
};

add('fromISO of garbage', throwing(() => DateTime.fromISO('not-a-date')));
add('fromFormat that does not match', throwing(() => DateTime.fromFormat('2020/01/01', 'yyyy-MM-dd')));
add('fromObject with an hour of 25', throwing(() => DateTime.fromObject({ hour: 25 })));
add('setZone to an unknown zone', throwing(() => DateTime.now().setZone('Mars/Olympus_Mons')));
add('Duration.fromISO of garbage', throwing(() => Duration.fromISO('P1Q')));
add('Interval.fromISO of garbage', throwing(() => Interval.fromISO('2020-01-01/nope')));
add('Interval that ends before it starts', throwing(() => Interval.fromDateTimes(DateTime.fromMillis(10), DateTime.fromMillis(0))));
add('Duration.fromObject with an unknown unit', () => Duration.fromObject({ fortnights: 2 }));
add('Duration.fromObject of a number', () => Duration.fromObject(42));
add('Duration.fromObject with a bad value', () => Duration.fromObject({ hours: 'two' }));
add('plus of a string', () => DateTime.now().plus('tomorrow'));
add('startOf an unknown unit', () => DateTime.now().startOf('fortnight'));
add('Duration.as an unknown unit', () => Duration.fromObject({ hours: 1 }).as('fortnights'));
add('fromMillis of a string', () => DateTime.fromMillis('1700000000000'));
add('fromSeconds of a string', () => DateTime.fromSeconds('1700000000'));
add('fromFormat without a format', () => DateTime.fromFormat('2020-01-01'));
add('fromObject mixing weekYear and month', () => DateTime.fromObject({ weekYear: 2020, month: 1 }));
add('fromObject mixing ordinal and day', () => DateTime.fromObject({ ordinal: 40, day: 3 }));
add('DateTime.min of a non-DateTime', () => DateTime.min(DateTime.now(), new Date()));
add('DateTime.max of a non-DateTime', () => DateTime.max(DateTime.now(), 42));
add('invalid without a reason', () => DateTime.invalid());
add('abstract Zone name', () => new Zone().name);
add('fromFormat with meridiem and 24-hour', () => DateTime.fromFormat('13:00 PM', 'HH:mm a'));
add('week settings that are no object', () => {
  Settings.defaultWeekSettings = 42;
});
run();
