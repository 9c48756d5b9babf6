/**
 * The host handler with live faces: a challenge the server chooses, kept in the shared store for
 * one answer, and frames checked before the service is paid; on memory and across two instances
 * on one Redis. The face models run in a worker thread (createFacePool).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, RedisStore, type VerifyStore } from '../../../src/server/index.js';
import { createFacePool } from '../../../src/server/node/index.js';
import { stillImage, until } from '../helpers.js';
import { setup } from '../server/handler-setup.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import type { LivenessChallenge } from '../../../src/core/protocol.js';
import { presenter, type Presenter } from './live-capture.js';
import type { Pictures } from '../../../src/server/liveness/judge.js';

const pool = createFacePool({ workers: 1 });
let redis: RedisServer;
let obama: Presenter;
let biden: Presenter;
before(async () => {
  redis = await startRedis();
  [obama, biden] = await Promise.all([presenter(pool, 'obama_1'), presenter(pool, 'biden_1')]);
});
after(async () => {
  await pool.close();
  await redis?.stop();
});

for (const [name, store, instances] of [
  ['memory', () => new MemoryStore(), 1],
  ['two instances on one Redis', () => new RedisStore(redis.client(), { prefix: `live${Math.random()}:` }), 2],
] as [string, () => VerifyStore, number][]) {
  describe(`handler: faces checked live (${name})`, () => {
    let t: Awaited<ReturnType<typeof setup>>;
    const as = (user: string, session = `session-${user}`) => ({ user, session });
    const challenge = async (user: string, session?: string) => (await t.call('liveness-challenge', {}, as(user, session))).json as LivenessChallenge;
    before(async () => {
      t = await setup({ liveness: pool, livenessLight: false, store: store() }, {}, instances);
      await t.prove('obama');
      const { nonce, moves } = await challenge('obama');
      const enrolled = await t.call('enroll-face', { nonce, ...obama.answer(moves) }, as('obama'));
      assert.deepEqual([enrolled.status, enrolled.json], [200, { enrolled: true, kind: 'face' }]);
    });
    after(() => t.close());

    it('asks two different turns or nods, never a move closer, for 60 s', async () => {
      for (let i = 0; i < 10; i++) {
        const { nonce, moves, expiresIn } = await challenge('obama');
        assert.match(nonce, /^[\w-]{22}$/);
        assert.equal(expiresIn, 60);
        assert.equal(new Set(moves).size, 2);
        assert.ok(!moves.includes('closer'), moves.join());
      }
    });

    it('a live person verifies: a receipt, and the service compares the frontal frame once', async () => {
      const { nonce, moves } = await challenge('obama');
      const film = obama.answer(moves);
      const before = t.calls('verify-by-face');
      const res = await t.call('verify-by-face', { nonce, ...film }, as('obama'));
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal((await t.handler.verifyReceipt(res.json.receipt, { user: 'obama', method: 'face' })).sub, 'obama');
      assert.equal(t.calls('verify-by-face'), before + 1);
      // The film's frontal frame: the first of the most frontal.
      assert.equal(t.upstream.at(-1)!.body!.query_face_image, film.video[0]);
    });

    it('a person late on the arrows, a nod held through most of the film: verifies, measured from the frontal look', async () => {
      // The film's own level would be the nod's: the frontal look's frames say how the face sits.
      let asked = await challenge('obama');
      while (!['up', 'down'].includes(asked.moves[0]!)) asked = await challenge('obama');
      const film = obama.late(asked.moves);
      const res = await t.call('verify-by-face', { nonce: asked.nonce, ...film }, as('obama'));
      assert.equal(res.status, 200, `${asked.moves}: ${JSON.stringify(res.json)}`);
      assert.ok(film.video.indexOf(t.upstream.at(-1)!.body!.query_face_image as string) < 4, 'the service compares a frame of the frontal look');
    });

    it('a photo of the account holder, or the registered one, posted as a capture: refused, the service not called', async () => {
      const before = t.calls('verify-by-face');
      for (const image of [stillImage('obama_2'), obama.still(), t.references.get('obama:face')!]) {
        const res = await t.call('verify-by-face', { query_face_image: image }, as('obama'));
        assert.equal(res.status, 400);
        assert.equal(res.json.error.code, 'liveness_required');
      }
      // Nor can a picture register a face: the next person to verify would be the picture's.
      await t.prove('newcomer');
      const enrolling = await t.call('enroll-face', { face_image: stillImage('biden_1') }, as('newcomer'));
      assert.deepEqual([enrolling.status, enrolling.json.error.code], [400, 'liveness_required']);
      assert.equal(t.references.has('newcomer:face'), false);
      // A picture beside a nonce is not an answer either.
      const { nonce } = await challenge('obama');
      const mixed = await t.call('verify-by-face', { nonce, query_face_image: stillImage('obama_2') }, as('obama'));
      assert.equal(mixed.json.error.code, 'liveness_required');
      assert.equal(t.calls('verify-by-face'), before);
    });

    it('a flat picture moved as asked: refused with what to do, before the service is paid, and counted', async () => {
      const before = t.calls('verify-by-face');
      const { nonce, moves } = await challenge('obama');
      const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves, 'flat') }, as('obama'));
      assert.equal(res.status, 422);
      assert.equal(res.json.error.code, 'liveness_failed');
      assert.ok(['move_not_seen', 'flat'].includes(res.json.error.reason), res.json.error.reason);
      if (res.json.error.reason === 'move_not_seen') assert.match(res.json.error.message, /^Please (turn|tilt|move)/);
      assert.doesNotMatch(JSON.stringify(res.json), /score|residual|distance/i);
      assert.equal(t.calls('verify-by-face'), before);
    });

    it('a refused live check counts as an attempt, as a face that does not match does, and says the tries left', async () => {
      t.references.set('counted:face', t.references.get('obama:face')!);
      const first = await challenge('counted');
      const refused = (await t.call('verify-by-face', { nonce: first.nonce, ...obama.answer(first.moves, 'flat') }, as('counted'))).json.error;
      assert.deepEqual([refused.code, refused.attemptsLeft], ['liveness_failed', 4]);
      const second = await challenge('counted');
      const res = await t.call('verify-by-face', { nonce: second.nonce, ...biden.answer(second.moves) }, as('counted'));
      assert.deepEqual([res.json.error.code, res.json.error.attemptsLeft], ['no_match', 3]);
    });

    it('an answer replayed, sent from another session, or to a challenge a second tab replaced: refused, and the second tab still verifies', async () => {
      const { nonce, moves } = await challenge('obama');
      const film = obama.answer(moves);
      assert.equal((await t.call('verify-by-face', { nonce, ...film }, as('obama'))).status, 200);
      const replayed = await t.call('verify-by-face', { nonce, ...film }, as('obama'));
      assert.deepEqual([replayed.status, replayed.json.error.code], [400, 'liveness_required']);

      const other = await challenge('obama', 'tab-a');
      const elsewhere = await t.call('verify-by-face', { nonce: other.nonce, ...obama.answer(other.moves) }, as('obama', 'tab-b'));
      assert.equal(elsewhere.json.error.code, 'liveness_required');

      // Two tabs of one session: the second's challenge replaces the first's. The first tab's answer
      // finds nothing, and leaves the second's challenge for the second tab's answer.
      const first = await challenge('obama');
      const second = await challenge('obama');
      const stale = await t.call('verify-by-face', { nonce: first.nonce, ...obama.answer(first.moves) }, as('obama'));
      assert.deepEqual([stale.status, stale.json.error.code], [400, 'liveness_required']);
      const paid = t.calls('verify-by-face');
      const fresh = await t.call('verify-by-face', { nonce: second.nonce, ...obama.answer(second.moves) }, as('obama'));
      assert.equal(fresh.status, 200, 'the second tab verifies');
      assert.equal(t.calls('verify-by-face'), paid + 1, 'the stale answer paid nothing; the second paid once');
      const again = await t.call('verify-by-face', { nonce: second.nonce, ...obama.answer(second.moves) }, as('obama'));
      assert.equal(again.json.error.code, 'liveness_required', 'and its answer is taken once');
    });

    it('another person answering the challenge is refused by the service, after a live check', async () => {
      const { nonce, moves } = await challenge('obama');
      const res = await t.call('verify-by-face', { nonce, ...biden.answer(moves) }, as('obama'));
      assert.deepEqual([res.status, res.json.error.code], [422, 'no_match']);
    });

    it('frames that are not small JPEGs, or too many, are refused as bad samples; times that are not the frames\' as invalid input', async () => {
      const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
      const { video, times } = obama.answer(['left', 'up']);
      // A JPEG whose header is sound and whose picture is cut short: only decoding finds it out.
      const cut = (() => {
        const bytes = Buffer.from(video[0]!, 'base64');
        return Buffer.concat([bytes.subarray(0, 700), Buffer.alloc(2000, 0x55)]).toString('base64');
      })();
      // The 640 px photo is beyond the film's 480 px a side.
      for (const bad of [png, 'abc$', stillImage('obama_1'), cut]) {
        const { nonce } = await challenge('obama');
        const res = await t.call('verify-by-face', { nonce, video: video.map((frame, i) => (i === 4 ? bad : frame)), times }, as('obama'));
        assert.equal(res.json.error.code, 'bad_sample', JSON.stringify(res.json));
      }
      const long = [...video, ...video].slice(0, 25);
      const { nonce } = await challenge('obama');
      const tooLong = await t.call('verify-by-face', { nonce, video: long, times: long.map((_, i) => i * 250) }, as('obama'));
      assert.deepEqual([tooLong.json.error.code, tooLong.json.error.field], ['bad_sample', 'video']);
      for (const wrong of [undefined, times.slice(1), times.map((t) => t + 10), [...times].reverse(), times.map((t, i) => (i === 3 ? 'soon' : t))]) {
        const { nonce } = await challenge('obama');
        const res = await t.call('verify-by-face', { nonce, video, times: wrong }, as('obama'));
        assert.deepEqual([res.status, res.json.error.code, res.json.error.field], [400, 'invalid_input', 'times'], JSON.stringify(wrong));
      }
    });
  });
}

describe('handler: a live challenge expires', () => {
  it('answered after livenessSeconds: refused', async () => {
    const t = await setup({ liveness: pool, livenessLight: false, limits: { livenessSeconds: 1 } });
    try {
      const { nonce, moves } = (await t.call('liveness-challenge', {}, { user: 'late', session: 's' })).json as LivenessChallenge;
      const issued = Date.now();
      // guard-allow: sleep-then-negative: the point is the time passing.
      await until('the challenge to expire', () => Date.now() - issued > 1100, 3000, 50);
      const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves) }, { user: 'late', session: 's' });
      assert.deepEqual([res.status, res.json.error.code], [400, 'liveness_required']);
    } finally {
      await t.close();
    }
  });
});

describe('handler: enrollFaceFromUnprovenPhoto', () => {
  it('registers a face from a photo, and still verifies only a live one', async () => {
    const t = await setup({ liveness: pool, livenessLight: false, enrollFaceFromUnprovenPhoto: true });
    try {
      await t.prove('obama');
      const enrolled = await t.call('enroll-face', { face_image: stillImage('obama_2') }, { user: 'obama', session: 'p' });
      assert.deepEqual([enrolled.status, enrolled.json], [200, { enrolled: true, kind: 'face' }]);
      const picture = await t.call('verify-by-face', { query_face_image: stillImage('obama_1') }, { user: 'obama', session: 'p' });
      assert.equal(picture.json.error.code, 'liveness_required');
      const { nonce, moves } = (await t.call('liveness-challenge', {}, { user: 'obama', session: 'p' })).json as LivenessChallenge;
      const live = await t.call('verify-by-face', { nonce, ...obama.answer(moves) }, { user: 'obama', session: 'p' });
      assert.equal(live.status, 200, JSON.stringify(live.json));
    } finally {
      await t.close();
    }
  });
});

describe('handler: faces are checked live unless the host says otherwise', () => {
  const hooks = { getReference: () => null, saveReference: () => {} };

  it('on the runtime-neutral entry (edge runtimes), refuses at start to serve faces without a check, naming the fix', async () => {
    await assert.rejects(setup({ ...hooks, facesFromUnprovenPhotos: undefined }), (error: Error) => {
      assert.match(error.message, /live check/);
      assert.match(error.message, /stand-alone service/);
      assert.match(error.message, /facesFromUnprovenPhotos: true/);
      assert.match(error.message, /biometrics: \['voice'\]/);
      return true;
    });
    await assert.rejects(setup({ liveness: pool, facesFromUnprovenPhotos: true }), /not both/);
  });

  it("serves voice alone without a check (biometrics: ['voice']): the face routes are not there", async () => {
    const t = await setup({ facesFromUnprovenPhotos: undefined, biometrics: ['voice'] });
    try {
      const face = await t.call('verify-by-face', { query_face_image: stillImage('obama_1') }, { user: 'obama', session: 'v' });
      assert.deepEqual([face.status, face.json.error.message], [404, 'Face verification is not enabled on this site.']);
      const voice = await t.call('verify-by-voice', {}, { user: 'obama', session: 'v' });
      assert.notEqual(voice.status, 404);
    } finally {
      await t.close();
    }
  });

  it('on the Node entry, checks faces live with its own face models when given no check', async () => {
    const { createVerifyHandler } = await import('../../../src/server/node/index.js');
    const handler = createVerifyHandler({ baseUrl: 'http://127.0.0.1:9/api/v2', apiKey: 'k', receiptSecret: 'node-entry-receipt-secret-0123456789ab', getUser: () => 'obama', getSessionId: () => 's', allowedChannels: ['email'], ...hooks });
    const post = (route: string, body: object) =>
      handler(new Request(`http://host.test/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://host.test' }, body: JSON.stringify(body) }));
    const config = (await (await handler(new Request('http://host.test/config'))).json()) as { liveness?: object };
    assert.deepEqual(config.liveness, { photoEnrolment: false });
    const picture = await post('verify-by-face', { query_face_image: stillImage('obama_1') });
    assert.deepEqual([picture.status, ((await picture.json()) as { error: { code: string } }).error.code], [400, 'liveness_required']);
  });
});

describe('handler: the shared store stops between a challenge and its answer (two instances)', () => {
  it('answers 503 at once, the models not run; once it is back, the person at most asks for a new challenge', async () => {
    const own = await startRedis();
    let observed = 0;
    const counted = { observe: (parts: Pictures) => (observed++, pool.observe(parts)) };
    const t = await setup({ liveness: counted, livenessLight: false, store: new RedisStore(own.client(), { prefix: 'mid:' }), storeTimeoutMs: 300 }, {}, 2);
    const as = { user: 'obama', session: 'mid' };
    const answer = async () => {
      const { nonce, moves } = (await t.call('liveness-challenge', {}, as)).json as LivenessChallenge;
      return { nonce, ...obama.answer(moves) };
    };
    try {
      await t.prove('obama');
      assert.equal((await t.call('enroll-face', await answer(), as)).status, 200);
      const pending = await answer();
      await own.kill();
      const before = observed;
      const started = performance.now();
      const down = await t.call('verify-by-face', pending, as);
      assert.deepEqual([down.status, down.json.error.code], [503, 'upstream_unavailable']);
      assert.ok(performance.now() - started < 2000, 'at once');
      assert.equal(observed, before, 'no frame was looked at');
      await own.restart();
      // The answer was never taken: it verifies on the other instance, or else a new one does.
      const ready = async () => (await t.call('config', undefined, as)).status === 200;
      await until('the store to answer both instances again', async () => (await ready()) && (await ready()), 10_000, 100);
      const back = await t.call('verify-by-face', pending, as);
      const verified = back.status === 200 ? back : await t.call('verify-by-face', await answer(), as);
      console.log(`# after the store came back, the answer sent during the outage: ${back.status} ${back.json.error?.code ?? 'verified'}`);
      assert.equal(verified.status, 200, JSON.stringify(verified.json));
    } finally {
      await t.close();
      await own.stop();
    }
  });
});
