// validator: string checks given a non-string, or an unknown locale.
'use strict';
const validator = require('validator');
const { cases, run } = require('./_harness');

const add = cases('validator');
add('isEmail of a number', () => validator.isEmail(42));
add('isURL of null', () => validator.isURL(null));
add('isMobilePhone with an unknown locale', () => validator.isMobilePhone('555-1234', 'xx-XX'));
add('isPostalCode with an unknown locale', () => validator.isPostalCode('12345', 'ZZ'));
add('isAlpha with an unknown locale', () => validator.isAlpha('abc', 'zz-ZZ'));
add('isAlphanumeric with an unknown locale', () => validator.isAlphanumeric('abc1', 'zz-ZZ'));
add('isIdentityCard with an unknown locale', () => validator.isIdentityCard('123', 'ZZ'));
add('isVAT with an unknown country', () => validator.isVAT('123', 'ZZ'));
add('isLicensePlate with an unknown locale', () => validator.isLicensePlate('AB123', 'zz-ZZ'));
add('isTaxID with an unknown locale', () => validator.isTaxID('123', 'zz-ZZ'));
add('isDecimal with an unknown locale', () => validator.isDecimal('1.5', { locale: 'zz-ZZ' }));
add('isPassportNumber of a number', () => validator.isPassportNumber(12345, 'US'));
add('isISO6346 of an object', () => validator.isISO6346({}));
add('isIBAN of undefined', () => validator.isIBAN(undefined));
add('isMobilePhone of a number', () => validator.isMobilePhone(5551234, 'en-US'));
run();
