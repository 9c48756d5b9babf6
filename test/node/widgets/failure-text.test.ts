import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { failureText } from '../../../src/internal/later/failure-text.js';
import { en } from '../../../src/translations/en.js';

describe('failure words', () => {
  it('a service out of credits: the same words for a code, a face and a voice, which fit all three', () => {
    const [otp, face, voice] = ([null, 'camera', 'microphone'] as const).map((device) => failureText(en, 'en', device, { reason: 'insufficient_credits' }));
    assert.equal(face, otp);
    assert.equal(voice, otp);
    // The face and voice widgets meet it too: it must not speak of receiving a code.
    assert.doesNotMatch(otp!, /code/i);
  });
});
