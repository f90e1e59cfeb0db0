// semver: versions, ranges and comparators built from bad input.
'use strict';
const semver = require('semver');
const { cases, run } = require('./_harness');

const add = cases('semver');
add('new SemVer of garbage', () => new semver.SemVer('x.y.z'));
add('new SemVer of a number', () => new semver.SemVer(42));
add('new SemVer of a very long string', () => new semver.SemVer('1.0.0-' + 'a'.repeat(300)));
add('new SemVer with a huge major', () => new semver.SemVer('99999999999999999999.0.0'));
add('new SemVer with a huge minor', () => new semver.SemVer('1.99999999999999999999.0'));
add('new SemVer with a huge patch', () => new semver.SemVer('1.0.99999999999999999999'));
add('new Range of garbage', () => new semver.Range('>>=x y<'));
add('new Comparator of garbage', () => new semver.Comparator('~>x'));
add('inc with an unknown release type', () => new semver.SemVer('1.2.3').inc('bogus'));
add('compare of invalid versions', () => semver.compare('a', 'b'));
add('diff of an invalid version', () => semver.diff('1.0.0', 'not-a-version'));
add('parse with throwErrors', () => semver.parse('nope', {}, true));
add('inc prerelease with an identifier base but no identifier', () => new semver.SemVer('1.2.3').inc('prerelease', '', false));
add('rcompare of invalid versions', () => semver.rcompare('1.0', '2.0'));
run();
