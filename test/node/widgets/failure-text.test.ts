import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { failureText } from '../../../src/internal/later/failure-text.js';
import { en } from '../../../src/translations/en.js';
import { voiceEnglish } from '../../../src/translations/en/voice.js';

describe('failure words', () => {
  it('a service out of credits: the same words for a code, a face and a voice, which fit all three', () => {
    const [otp, face, voice] = ([null, 'camera', 'microphone'] as const).map((device) => failureText(en, 'en', device, { reason: 'insufficient_credits' }));
    assert.equal(face, otp);
    assert.equal(voice, otp);
    // The face and voice widgets meet it too: it must not speak of receiving a code.
    assert.doesNotMatch(otp!, /code/i);
  });

  it('a face or a voice that did not match, with tries left: what to change before the next, for the sense it used; none left, no advice', () => {
    const face = failureText(en, 'en', 'camera', { reason: 'no_match', attemptsLeft: 2 });
    const voice = failureText(en, 'en', 'microphone', { reason: 'no_match', attemptsLeft: 1 });
    assert.equal(face, `That didn’t match. 2 tries left. ${en.face_no_match_hint}`);
    assert.equal(voice, `That didn’t match. 1 try left. ${en.voice_no_match_hint}`);
    assert.match(face, /light/);
    assert.match(voice, /quiet/);
    assert.equal(failureText(en, 'en', 'camera', { reason: 'no_match', attemptsLeft: 0 }), en.error_no_match);
  });

  it('a live check judged flat after every movement was seen: its words do not ask for the movements again', () => {
    const flat = failureText(en, 'en', 'camera', { reason: 'liveness_failed', livenessReason: 'flat', attemptsLeft: 3 });
    assert.doesNotMatch(flat, /each (movement|arrow)|follow/i);
    assert.match(flat, /3 tries left\.$/);
  });

  it('a voice whose digits were not heard: what to do, and the tries left, in every language', async () => {
    assert.equal(failureText(voiceEnglish, 'en', 'microphone', { reason: 'liveness_failed', livenessReason: 'digits_not_heard', attemptsLeft: 2 }), 'We didn’t hear the digits. Read them aloud, clearly, in a quiet place. 2 tries left.');
    for (const lang of ['ar', 'bn', 'fa', 'fil', 'fr', 'hi', 'id', 'tr', 'ur']) {
      const strings = (await import(`../../../src/translations/${lang}.js`))[lang] as typeof en;
      const said = failureText({ ...voiceEnglish, ...strings }, lang, 'microphone', { reason: 'liveness_failed', livenessReason: 'digits_not_heard', attemptsLeft: 2 });
      assert.ok(said.startsWith(strings.live_digits_not_heard), lang);
      assert.notEqual(said, failureText({ ...voiceEnglish, ...strings }, lang, 'microphone', { reason: 'liveness_failed', livenessReason: 'digits_not_heard' }), `${lang}: the tries left said`);
    }
  });
});
