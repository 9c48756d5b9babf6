import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { countryForDialed, toE164 } from '../../../src/otp-verify/dial-codes.js';
import { suggestEmail } from '../../../src/core/email.js';
import { asciiDigits } from '../../../src/core/digits.js';

describe('dial codes', () => {
  // What a handler that allows every country sends in its config.
  const every = Object.fromEntries(getCountries().map((c) => [c, getCountryCallingCode(c)]));
  it('finds the country of a typed dial code, keeping the current one when it shares the code', () => {
    assert.equal(countryForDialed('9665', 'US', every), 'SA');
    assert.equal(countryForDialed('1', 'CA', every), 'CA');
    assert.equal(countryForDialed('971', undefined, { SA: '966', AE: '971' }), 'AE');
    assert.equal(countryForDialed('44', undefined, { SA: '966', AE: '971' }), undefined);
    assert.equal(countryForDialed('44', undefined, {}), undefined);
  });
  it('builds E.164, dropping a trunk 0 and checking the length', () => {
    assert.equal(toE164('966', '050 123 4567'), '+966501234567');
    assert.equal(toE164('966', '+966 50 123 4567'), '+966501234567');
    assert.equal(toE164('966', '+966 050 123 4567'), '+966501234567');
    assert.equal(toE164('966', '+971501234567'), undefined);
    assert.equal(toE164('966', '12'), undefined);
    assert.equal(toE164('966', '1'.repeat(20)), undefined);
  });
  it('before the handler gives calling codes, takes only a number typed with its own', () => {
    assert.equal(toE164(undefined, '+966 50 123 4567'), '+966501234567');
    assert.equal(toE164(undefined, '00971 50 123 4567'), '+971501234567');
    assert.equal(toE164(undefined, '050 123 4567'), undefined);
    assert.equal(toE164(undefined, '+12'), undefined);
  });
});

describe('email typo suggestion', () => {
  it('suggests a common domain for a near miss, never for a known or distant one', () => {
    assert.equal(suggestEmail('sara@gmial.com'), 'sara@gmail.com');
    assert.equal(suggestEmail('sara@hotmal.com'), 'sara@hotmail.com');
    assert.equal(suggestEmail('sara@gmail.com'), undefined);
    assert.equal(suggestEmail('sara@company.sa'), undefined);
    assert.equal(suggestEmail('no-at-sign'), undefined);
  });
});

describe('digits', () => {
  it('turns Arabic-Indic and Persian digits into ASCII', () => {
    assert.equal(asciiDigits('٠١٢٣٤٥٦٧٨٩'), '0123456789');
    assert.equal(asciiDigits('۰۱۲۳۴۵۶۷۸۹'), '0123456789');
    assert.equal(asciiDigits('12a٣'), '12a3');
  });
});
