/**
 * The host handler with `livenessLight`: the challenge carries colours the server chose, kept with
 * its nonce and taken once; the answer's frames under them are checked after the movements and
 * before the service is paid. As a fleet runs it: three instances on one Redis, each call to the
 * next, so that a challenge asked of one is answered to another. The people are rendered heads
 * close to a screen (lit-frames.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, RedisStore } from '../../../src/server/index.js';
import { createFacePool } from '../../../src/server/node/index.js';
import type { FaceObserver } from '../../../src/server/liveness/judge.js';
import { linearOf } from '../../../src/server/liveness/light.js';
import { setup } from '../server/handler-setup.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import type { LivenessChallenge } from '../../../src/core/protocol.js';
import { presenter, type Presenter } from './live-capture.js';

const pool = createFacePool({ workers: 1 });
/** The pool, counting the pictures it was given: what ran the models. */
let observed = 0;
const counting: FaceObserver = { observe: (parts) => ((observed += (parts.video?.length ?? 0) + parts.light.length), pool.observe(parts)) };
let obama: Presenter;
let biden: Presenter;
let redis: RedisServer;
before(async () => {
  redis = await startRedis();
  [obama, biden] = await Promise.all([presenter(pool, 'obama_1'), presenter(pool, 'biden_1')]);
});
after(async () => {
  await pool.close();
  await redis?.stop();
});

describe('handler: the light challenge (on by default with liveness), three instances on one Redis', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  const as = (user: string) => ({ user, session: `session-${user}` });
  const challenge = async (user = 'obama') => (await t.call('liveness-challenge', {}, as(user))).json as Required<LivenessChallenge>;
  /**
   * The person answering a challenge under the light as the widget lets them: once more where the
   * colours were not read. On this rendered head the falloff rule, as it was read over the whole
   * sequence, refused 3 draws of colours in 150 (falloff 0.69 to 0.72 against 0.68); read at each
   * change, none of 150 (0.71 at most against 0.75). A person's refusals are the rules' BPCER, which
   * a test expecting every try to pass would meet as a flake.
   */
  const asPerson = async (route: string, options?: Parameters<Presenter['lit']>[1]) => {
    const answer = async () => {
      const { nonce, moves, light } = await challenge();
      return t.call(route, { nonce, ...obama.answer(moves), lit: obama.lit(light.colours, options) }, as('obama'));
    };
    const first = await answer();
    return first.json.error?.reason === 'light_not_seen' ? answer() : first;
  };
  before(async () => {
    // Each refusal counts as an attempt: enough of them for every case here.
    const store = new RedisStore(redis.client(), { prefix: `light${Math.random()}:` });
    t = await setup({ liveness: counting, store, limits: { biometricAttempts: { max: 100, windowSeconds: 900 } } }, {}, 3);
    await t.prove('obama');
    const enrolled = await asPerson('enroll-face');
    assert.deepEqual([enrolled.status, enrolled.json], [200, { enrolled: true, kind: 'face' }]);
  });
  after(() => t.close());

  it('asks eight colours, each drawn anew from a continuous range, each hue far from the one before, each for 400 ms: 2.5 changes a second, no saturated red', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const { light } = await challenge();
      assert.deepEqual([light.colours.length, light.holdMs], [8, 400]);
      const hues = light.colours.map((colour) => {
        assert.match(colour, /^#[0-9a-f]{6}$/);
        const [r, g, b] = linearOf(colour);
        assert.ok(r / (r + g + b) < 0.8, `${colour}: a red share under 0.8 (WCAG 2.3.1)`);
        seen.add(colour);
        return Math.atan2(Math.sqrt(3) * (g - b), 2 * r - g - b);
      });
      for (let k = 1; k < hues.length; k++) {
        const turn = Math.abs(hues[k]! - hues[k - 1]!);
        assert.ok(Math.min(turn, 2 * Math.PI - turn) > Math.PI / 3, `${light.colours[k - 1]} to ${light.colours[k]}`);
      }
    }
    assert.ok(seen.size >= 78, `${seen.size} different colours in 80`);
  });

  it('a person close to the screen verifies: a receipt, the service paid once', async () => {
    const before = t.calls('verify-by-face');
    const res = await asPerson('verify-by-face');
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json.verified, true);
    assert.equal(t.calls('verify-by-face'), before + 1);
  });

  it('a recording of the person answering the movements, without the colours: refused, the service not paid', async () => {
    const { nonce, moves, light } = await challenge();
    const before = t.calls('verify-by-face');
    const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit: obama.lit(light.colours.map(() => null)) }, as('obama'));
    assert.deepEqual([res.status, res.json.error.code, res.json.error.reason], [422, 'liveness_failed', 'light_not_seen']);
    assert.match(res.json.error.message, /colours/);
    assert.equal(t.calls('verify-by-face'), before);
  });

  it('the light of an earlier challenge replayed under this one: refused', async () => {
    const { nonce, moves, light } = await challenge();
    const other = [...light.colours].reverse();
    const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit: obama.lit(other) }, as('obama'));
    assert.deepEqual([res.status, res.json.error.reason], [422, 'light_not_seen']);
  });

  it('one frame under the light sent again for another colour (a script reusing frames): refused before any model runs, the service not paid, the tries said', async () => {
    const { nonce, moves, light } = await challenge();
    const lit = obama.lit(light.colours);
    lit[5] = lit[2]!;
    const [before, paid] = [observed, t.calls('verify-by-face')];
    const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit }, as('obama'));
    assert.deepEqual([res.status, res.json.error.code, res.json.error.reason], [422, 'liveness_failed', 'light_not_seen']);
    assert.equal(typeof res.json.error.attemptsLeft, 'number');
    assert.deepEqual([observed, t.calls('verify-by-face')], [before, paid]);
  });

  it('a person holding the phone in a hand, the picture moving with it while the colours show: verified', async () => {
    const res = await asPerson('verify-by-face', { carry: 8 });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json.verified, true);
  });

  it('a person who turns their head while the colours show is told so, and the service is not paid', async () => {
    const { nonce, moves, light } = await challenge();
    const before = t.calls('verify-by-face');
    const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit: obama.lit(light.colours, { turn: 5 }) }, as('obama'));
    assert.deepEqual([res.status, res.json.error.reason], [422, 'light_moved']);
    assert.match(res.json.error.message, /hold still/);
    assert.equal(t.calls('verify-by-face'), before);
  });

  it('another person under the light after the person\'s movements: refused as not the same person', async () => {
    const { nonce, moves, light } = await challenge();
    const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit: biden.lit(light.colours) }, as('obama'));
    assert.deepEqual([res.status, res.json.error.reason], [422, 'not_same_person']);
  });

  // Only the first lit frame is identified. Tying the others to it by the face's texture, as the
  // film's frames are, was measured: on the real footage (real-light.test.ts) a lit frame keeps
  // 0.87 of the one before at worst, too near the film's rule (0.86) to hold there; this attack is
  // refused by the light's own rules, its room and reflection not the first frame's.
  it('the person under the first colour, another person in the same place under the rest: refused, the service not paid', async () => {
    const { nonce, moves, light } = await challenge();
    const before = t.calls('verify-by-face');
    const lit = [obama.lit(light.colours)[0]!, ...biden.lit(light.colours).slice(1)];
    const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit }, as('obama'));
    assert.deepEqual([res.status, res.json.error?.code, typeof res.json.error?.attemptsLeft], [422, 'liveness_failed', 'number'], JSON.stringify(res.json));
    assert.equal(t.calls('verify-by-face'), before);
  });

  it('fewer frames than colours, or none: refused before any model runs, the challenge spent', async () => {
    for (const lit of [undefined, [], 'frames']) {
      const { nonce, moves, light } = await challenge();
      const before = observed;
      const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), ...(lit === undefined ? {} : { lit: lit === 'frames' ? obama.lit(light.colours).slice(1) : lit }) }, as('obama'));
      assert.deepEqual([res.status, res.json.error.code, res.json.error.reason], [422, 'liveness_failed', 'frames_missing'], JSON.stringify(lit));
      assert.equal(observed, before);
      const again = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit: obama.lit(light.colours) }, as('obama'));
      assert.equal(again.json.error.code, 'liveness_required');
    }
  });

  it('a frame under the light that is not a picture: bad_sample, before any model runs', async () => {
    const { nonce, moves, light } = await challenge();
    const before = observed;
    const lit = obama.lit(light.colours);
    lit[2] = Buffer.from('not a picture').toString('base64');
    const res = await t.call('verify-by-face', { nonce, ...obama.answer(moves), lit }, as('obama'));
    assert.deepEqual([res.status, res.json.error.code], [422, 'bad_sample']);
    assert.equal(observed, before);
  });
});

describe('handler: with livenessLight: false', () => {
  it('the challenge carries no light, and the movements alone decide', async () => {
    const t = await setup({ liveness: pool, livenessLight: false, store: new MemoryStore() });
    try {
      await t.prove('obama');
      const answer = (await t.call('liveness-challenge', {}, { user: 'obama', session: 's' })).json as LivenessChallenge;
      assert.equal(answer.light, undefined);
      const res = await t.call('enroll-face', { nonce: answer.nonce, ...obama.answer(answer.moves) }, { user: 'obama', session: 's' });
      assert.equal(res.status, 200);
    } finally {
      await t.close();
    }
  });
});
