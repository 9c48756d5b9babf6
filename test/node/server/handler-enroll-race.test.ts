/**
 * Five first enrolments of one user and kind at once, their bodies trickling in at different
 * speeds: exactly one is saved and answered 200, the others are refused as re-enrolment (403), on
 * memory and on Redis, whichever body arrives first; a refused or failed one leaves no claim behind.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, RedisStore, type VerifyStore } from '../../../src/server/index.js';
import { cameraCapture } from '../helpers.js';
import { ORIGIN, setup } from './handler-setup.js';
import { startRedis, type RedisServer } from './redis-server.js';

let redis: RedisServer;
before(async () => (redis = await startRedis()));
after(() => redis?.stop());

/** A POST whose body arrives in `chunks` pieces, `gapMs` apart. */
function trickling(route: string, user: string, body: object, chunks: number, gapMs: number): Request {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const size = Math.ceil(bytes.length / chunks);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= bytes.length) return controller.close();
      await new Promise((done) => setTimeout(done, gapMs));
      controller.enqueue(bytes.subarray(sent, sent + size));
      sent += size;
    },
  });
  return new Request(`${ORIGIN}/verify/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-test-user': user, 'x-test-session': `s-${user}` },
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

for (const [name, makeStore] of [
  ['memory', () => new MemoryStore()],
  ['Redis', () => new RedisStore(redis.client(), { prefix: `race${Math.random()}:` })],
] as [string, () => VerifyStore][]) {
  describe(`first enrolments at once, on ${name}`, () => {
    it('five of one user and kind: one 200 and the sample it sent saved, four 403; then the user holds one reference', async () => {
      const t = await setup({ store: makeStore() });
      try {
        await t.prove('racer');
        const faces = ['obama_1', 'obama_2', 'biden_1', 'rose_leslie_1', 'alex_lacamoire_1'].map((name) => cameraCapture(name));
        // The last to start sends fastest: the timing of the bodies decides nothing.
        const answers = await Promise.all(faces.map((face, i) => t.handler(trickling('enroll-face', 'racer', { face_image: face }, 6, 80 - i * 15))));
        const statuses = answers.map((a) => a.status);
        const bodies = await Promise.all(answers.map((a) => a.json()));
        assert.deepEqual([...statuses].sort(), [200, 403, 403, 403, 403], String(statuses));
        for (const body of bodies.filter((_, i) => statuses[i] === 403)) assert.equal(body.error.code, 'forbidden');
        assert.equal(t.references.get('racer:face'), faces[statuses.indexOf(200)]);
        // Afterwards, one more is refused as a re-enrolment, and the claim is gone (a voice may still be enrolled).
        const again = await t.call('enroll-face', { face_image: faces[0] }, { user: 'racer' });
        assert.deepEqual([again.status, again.json.error.message], [403, 'A reference is already registered for this account.']);
      } finally {
        await t.close();
      }
    });

    it('an enrolment that fails (a bad sample) leaves no claim: the next one is saved', async () => {
      const t = await setup({ store: makeStore() });
      try {
        await t.prove('retry');
        const bad = await t.call('enroll-face', { face_image: 'abc$' }, { user: 'retry' });
        assert.deepEqual([bad.status, bad.json.error.code], [422, 'bad_sample']);
        const good = await t.call('enroll-face', { face_image: cameraCapture('obama_1') }, { user: 'retry' });
        assert.equal(good.status, 200, JSON.stringify(good.json));
      } finally {
        await t.close();
      }
    });
  });
}
