import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countryForDialed, DIAL_CODES, toE164 } from '../../../src/otp-verify/dial-codes.js';
import { suggestEmail } from '../../../src/core/email.js';
import { asciiDigits } from '../../../src/core/digits.js';

describe('dial codes', () => {
  it('knows the calling codes', () => {
    assert.equal(DIAL_CODES.get('SA'), '966');
    assert.equal(DIAL_CODES.get('US'), '1');
    assert.ok(DIAL_CODES.size > 240);
  });
  it('finds the country of a typed dial code, keeping the current one when it shares the code', () => {
    const all = [...DIAL_CODES.keys()];
    assert.equal(countryForDialed('9665', 'US', all), 'SA');
    assert.equal(countryForDialed('1', 'CA', all), 'CA');
    assert.equal(countryForDialed('971', undefined, ['SA', 'AE']), 'AE');
    assert.equal(countryForDialed('44', undefined, ['SA', 'AE']), undefined);
  });
  it('builds E.164, dropping a trunk 0 and checking the length', () => {
    assert.equal(toE164('SA', '050 123 4567'), '+966501234567');
    assert.equal(toE164('SA', '+966 50 123 4567'), '+966501234567');
    assert.equal(toE164('SA', '+971501234567'), undefined);
    assert.equal(toE164('SA', '12'), undefined);
    assert.equal(toE164('SA', '1'.repeat(20)), undefined);
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
