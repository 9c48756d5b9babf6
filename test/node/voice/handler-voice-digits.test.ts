/**
 * The host handler with `voiceLiveness` (the Node entry's digit listener), in front of the emulator,
 * two instances on one store: the digits drawn for each challenge, kept with its nonce and taken
 * once; a recording of them registers and verifies, the service paid once; a recording of other
 * digits is refused as an attempt, the tries left said, before the service is paid.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/server/index.js';
import { createDigitListener, createVerifyHandler as createNodeHandler } from '../../../src/server/node/index.js';
import type { VoiceChallenge } from '../../../src/core/protocol.js';
import { setup } from '../server/handler-setup.js';
import { degrade, sayDigits } from './spoken.js';
import { encodeWav } from '../../../src/core/wav.js';

const listener = createDigitListener();
after(() => listener.close());
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('handler: spoken digits (voiceLiveness), two instances on one store', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  const as = { user: 'amal', session: 'session-amal' };
  const challenge = async (lang = 'en') => (await t.call('voice-challenge', { lang }, as)).json as VoiceChallenge;
  before(async () => {
    t = await setup({ voiceLiveness: listener, store: new MemoryStore(), limits: { biometricAttempts: { max: 5, windowSeconds: 900 } } }, {}, 2);
    await t.prove('amal');
    const { nonce, digits } = await challenge();
    const enrolled = await t.call('enroll-voice', { audio: b64(await sayDigits(digits, 'slt')), nonce }, as);
    assert.deepEqual([enrolled.status, enrolled.json], [200, { enrolled: true, kind: 'voice' }]);
  });
  after(() => t.close());

  it('draws eight digits for each challenge, in the page\'s language where it is heard (English, French), none otherwise', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { digits, lang, expiresIn, nonce } = await challenge();
      assert.match(digits, /^\d{8}$/);
      assert.deepEqual([lang, expiresIn, typeof nonce], ['en', 60, 'string']);
      seen.add(digits);
    }
    assert.equal(seen.size, 5);
    assert.equal((await challenge('fr-CA')).lang, 'fr');
    assert.equal((await challenge('ar')).lang, null);
    const bad = await t.call('voice-challenge', { lang: 7 }, as);
    assert.deepEqual([bad.status, bad.json.error.field], [400, 'lang']);
  });

  it('the person reading the digits asked verifies: a receipt, the service paid once', async () => {
    const { nonce, digits } = await challenge();
    const before = t.calls('verify-by-voice');
    const res = await t.call('verify-by-voice', { query_audio: b64(await sayDigits(digits, 'slt')), nonce }, as);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual([res.json.verified, res.json.presence], [true, true]);
    assert.equal(t.calls('verify-by-voice'), before + 1);
    assert.equal((await t.handler.verifyReceipt(res.json.receipt, { user: 'amal', presence: true })).prs, true);
  });

  it('a page in a language no recogniser hears (Arabic), the host giving no other: the digits are not heard, and the receipt says presence was not proven', async () => {
    const { nonce, lang, digits } = await challenge('ar');
    assert.equal(lang, null);
    // Read in the page's language, which nothing here hears: the service compares the voice alone.
    const res = await t.call('verify-by-voice', { query_audio: b64(await sayDigits(digits, 'slt')), nonce }, as);
    assert.deepEqual([res.status, res.json.presence], [200, false], JSON.stringify(res.json));
    await assert.rejects(t.handler.verifyReceipt(res.json.receipt, { user: 'amal', presence: true }), { reason: 'presence_not_proven' });
  });

  it('a recording of other digits (an earlier challenge\'s, the registered one): refused as an attempt, its words and the tries left said, the service not paid', async () => {
    const earlier = await challenge();
    const { nonce } = await challenge();
    const before = t.calls('verify-by-voice');
    const res = await t.call('verify-by-voice', { query_audio: b64(await sayDigits(earlier.digits, 'slt')), nonce }, as);
    assert.deepEqual([res.status, res.json.error.code, res.json.error.reason], [422, 'liveness_failed', 'digits_not_heard']);
    assert.equal(res.json.error.message, "We didn't hear the digits. Read them aloud, clearly, in a quiet place.");
    assert.equal(typeof res.json.error.attemptsLeft, 'number');
    // The registered recording replayed says the enrolment's digits: refused alike.
    const replayed = await t.call('verify-by-voice', { query_audio: t.references.get('amal:voice'), nonce: (await challenge()).nonce }, as);
    assert.deepEqual([replayed.status, replayed.json.error.reason], [422, 'digits_not_heard']);
    assert.equal(t.calls('verify-by-voice'), before);
  });

  it('a recording without the challenge\'s nonce, or with one already used: refused before anything is heard', async () => {
    const { nonce, digits } = await challenge();
    const said = b64(await sayDigits(digits, 'slt'));
    const none = await t.call('verify-by-voice', { query_audio: said }, as);
    assert.deepEqual([none.status, none.json.error.code], [400, 'liveness_required']);
    assert.equal((await t.call('verify-by-voice', { query_audio: said, nonce }, as)).status, 200);
    const again = await t.call('verify-by-voice', { query_audio: said, nonce }, as);
    assert.deepEqual([again.status, again.json.error.code], [400, 'liveness_required']);
  });

  it('a recording at a rate no microphone gives, or one the recogniser cannot frame: refused as a bad sample, the service not paid, before its challenge is spent where the rate alone says so', async () => {
    const { nonce, digits } = await challenge();
    const said = await sayDigits(digits, 'slt');
    const before = t.calls('verify-by-voice');
    // 1 MHz: the recogniser took more than ten minutes over one second of it, every voice check behind it.
    const fast = await t.call('verify-by-voice', { query_audio: b64(encodeWav(new Float32Array(1_000_000), 1_000_000)), nonce }, as);
    assert.deepEqual([fast.status, fast.json.error.code, fast.json.error.message], [422, 'bad_sample', 'The recording must be sampled at 8 to 48 kHz.']);
    const slow = await t.call('verify-by-voice', { query_audio: b64(degrade(said, { rate: 4000 })), nonce }, as);
    assert.deepEqual([slow.status, slow.json.error.code], [422, 'bad_sample']);
    // PocketSphinx builds no front end at 20 kHz: the sender's to record again, not a fault of the server's.
    const unframed = await t.call('verify-by-voice', { query_audio: b64(degrade(said, { rate: 20_000 })), nonce }, as);
    assert.deepEqual([unframed.status, unframed.json.error.code, unframed.json.error.message], [422, 'bad_sample', 'The recording could not be heard at its sample rate: record it at 16 kHz.']);
    assert.equal(t.calls('verify-by-voice'), before);
    // The recogniser still hears the next ones, at whatever rate from 8 to 48 kHz (at 8 kHz the
    // emulator's voice model may not match the registered 16 kHz voice: its answer, not the digits').
    for (const rate of [44_100, 8_000, 16_000]) {
      const next = await challenge();
      const res = await t.call('verify-by-voice', { query_audio: b64(degrade(await sayDigits(next.digits, 'slt'), { rate })), nonce: next.nonce }, as);
      assert.ok(res.status === 200 || (rate === 8_000 && res.json.error.code === 'no_match'), `${rate} Hz: ${JSON.stringify(res.json)}`);
    }
  });

  it('another session cannot answer the challenge of this one', async () => {
    const { nonce, digits } = await challenge();
    const res = await t.call('verify-by-voice', { query_audio: b64(await sayDigits(digits, 'slt')), nonce }, { user: 'amal', session: 'another' });
    assert.deepEqual([res.status, res.json.error.code], [400, 'liveness_required']);
  });
});

describe('handler: voiceDigitsFallback', () => {
  it('asks a page in a language no recogniser hears for the digits in the host\'s language, and hears them there', async () => {
    const t = await setup({ voiceLiveness: listener, voiceDigitsFallback: 'en', store: new MemoryStore() });
    try {
      const as = { user: 'amal', session: 's' };
      await t.prove('amal');
      const first = (await t.call('voice-challenge', { lang: 'ur' }, as)).json as VoiceChallenge;
      assert.equal(first.lang, 'en');
      assert.equal((await t.call('enroll-voice', { audio: b64(await sayDigits(first.digits, 'rms')), nonce: first.nonce }, as)).status, 200);
      const { nonce, digits } = (await t.call('voice-challenge', { lang: 'ur' }, as)).json as VoiceChallenge;
      const res = await t.call('verify-by-voice', { query_audio: b64(await sayDigits(digits, 'rms')), nonce }, as);
      assert.deepEqual([res.status, res.json.presence], [200, true], JSON.stringify(res.json));
    } finally {
      await t.close();
    }
  });

  it('a language no recogniser hears is refused at start', async () => {
    await assert.rejects(setup({ voiceLiveness: listener, voiceDigitsFallback: 'ar' as 'en' }), /voiceDigitsFallback takes one of the languages digits are heard in: en, fr/);
  });
});

describe('handler: voiceLiveness by default, and turned off', () => {
  const serving = { baseUrl: 'http://service.test', apiKey: 'k', receiptSecret: 'x'.repeat(32), getUser: () => 'amal', allowedChannels: ['email'] as ['email'], getReference: () => null, saveReference: () => {}, facesFromUnprovenPhotos: true };

  it('the Node entry hears the digits of a handler serving voice without being asked: its config says so and a challenge has digits', async () => {
    const handler = createNodeHandler(serving);
    const config = await (await handler(new Request('http://app.test/config'))).json();
    assert.equal(config.voiceDigits, true);
    const res = await handler(new Request('http://app.test/voice-challenge', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://app.test', host: 'app.test' }, body: '{"lang":"en"}' }));
    assert.equal(res.status, 200);
    assert.match(((await res.json()) as VoiceChallenge).digits, /^\d{8}$/);
  });

  it('a runtime with no recogniser (an edge runtime) refuses at start to serve voice without one, naming the fixes', async () => {
    await assert.rejects(setup({ voiceLiveness: undefined }), (error: Error) => {
      assert.match(error.message, /any recording of the person's voice passes/);
      assert.match(error.message, /verify-widgets\/server\/node/);
      assert.match(error.message, /VERIFY_VOICE_LIVENESS/);
      assert.match(error.message, /biometrics: \['face'\]/);
      assert.match(error.message, /voiceLiveness: false/);
      return true;
    });
    const faces = await setup({ voiceLiveness: undefined, biometrics: ['face'] });
    await faces.close();
  });

  it('turned off (voiceLiveness: false): no voice challenge, and any recording of the voice is compared', async () => {
    const t = await setup({ store: new MemoryStore() });
    try {
      assert.equal((await t.call('config', undefined, { user: 'amal' })).json.voiceDigits, undefined);
      const res = await t.call('voice-challenge', { lang: 'en' }, { user: 'amal', session: 's' });
      assert.equal(res.status, 404);
    } finally {
      await t.close();
    }
  });
});
