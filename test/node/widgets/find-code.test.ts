import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findCode } from '../../../src/otp-verify/later/find-code.js';
import { render, TEMPLATES } from '../../../src/emulator/templates.js';
import { dialedDigits, toE164 } from '../../../src/otp-verify/dial-codes.js';

describe('the code in a message', () => {
  it('prefers a run of exactly the code length', () => {
    assert.equal(findCode('Order 42: your code is 123456', 6), '123456');
    assert.equal(findCode('Order 4242: your code is 123456', 6), '123456');
    assert.equal(findCode('Your code is 4821, order 123456', 4), '4821');
  });
  it('without a known length takes the longest run of 4 to 8 digits', () => {
    assert.equal(findCode('Order 4242: your code is 123456', null), '123456');
    assert.equal(findCode('Order 42: your code is 123456', null), '123456');
    assert.equal(findCode('ref 123456789 code 5512', null), '5512');
  });
  it('reads codes written in groups, and eastern digits', () => {
    assert.equal(findCode('Your code is 864 209.', 6), '864209');
    assert.equal(findCode('123-456', 6), '123456');
    assert.equal(findCode('رمزك ١٢٣٤٥٦', 6), '123456');
    assert.equal(findCode('کد شما ۱۲۳۴۵۶ است', null), '123456');
  });
  it('finds nothing where no code fits', () => {
    assert.equal(findCode('12', 6), null);
    assert.equal(findCode('1234567890', 6), null);
    assert.equal(findCode('no digits', null), null);
  });
  it("finds the code in every one of the emulator's own message templates, with and without a length", () => {
    for (const template of TEMPLATES) {
      const text = render(template, '907312', 600);
      assert.equal(findCode(text, 6), '907312', text);
      assert.equal(findCode(text, null), '907312', text);
    }
  });
});

describe('phone numbers typed in any digits', () => {
  it('an Arabic-digit number gives the same E.164 as its ASCII twin', () => {
    assert.equal(toE164('966', '٠٥٠١٢٣٤٥٦٧'), toE164('966', '0501234567'));
    assert.equal(toE164('966', '٠٥٠١٢٣٤٥٦٧'), '+966501234567');
    assert.equal(toE164('971', '+٩٧١٥٠١٢٣٤٥٦٧'), '+971501234567');
    assert.equal(toE164('971', '۰۰۹۷۱ ۵۰ ۱۲۳ ۴۵۶۷'), '+971501234567');
  });
  it('reads the international prefix, + or 00, in any digits', () => {
    assert.equal(dialedDigits('+٩٧١٥٠'), '97150');
    assert.equal(dialedDigits('00971 50'), '97150');
    assert.equal(dialedDigits('050 123'), undefined);
  });
});
