/**
 * Continue on your phone, at the handler: a link made by the desktop's session, claimed by one phone,
 * that phone's capture verified with the receipt going to the desktop once; on memory, and on three
 * instances on one Redis taking turns. Expiry, reuse, cancelling and every other route refused.
 */
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, RedisStore, type VerifyStore } from '../../../src/server/index.js';
import { HANDOFF_HEADER, ROUTES, type Route } from '../../../src/core/protocol.js';
import { cameraCapture, microphoneCapture } from '../helpers.js';
import { setup } from './handler-setup.js';
import { startRedis, type RedisServer } from './redis-server.js';

let redis: RedisServer;
before(async () => (redis = await startRedis()));
after(() => redis?.stop());

const desktop = { user: 'winam', session: 'desk-1' };
/** The phone: no cookie of the host's, only the link. */
const phone = (pass: string) => ({ session: null, headers: { [HANDOFF_HEADER]: pass } });

for (const [name, store, instances] of [
  ['memory', () => new MemoryStore(), 1],
  ['three instances on one Redis, round-robin', () => new RedisStore(redis.client(), { prefix: `handoff${Math.random()}:` }), 3],
] as [string, () => VerifyStore, number][]) {
  describe(`handler: continue on your phone (${name})`, () => {
    let t: Awaited<ReturnType<typeof setup>>;
    before(async () => {
      t = await setup({ store: store() }, {}, instances);
      await t.prove('winam');
      await t.call('enroll-voice', { audio: microphoneCapture('spk1688_M_1', 5, 0) }, { user: 'winam' });
      await t.prove('obama');
      await t.call('enroll-face', { face_image: cameraCapture('obama_1', 640, 90) }, { user: 'obama' });
    });
    after(() => t.close());

    const start = async (body: object = { kind: 'voice' }, who = desktop) => {
      const res = await t.call('handoff-start', body, who);
      assert.equal(res.status, 200, JSON.stringify(res.json));
      return res.json as { token: string; code: string; expiresIn: number };
    };
    const status = (token: string, who = desktop, cancel?: true) => t.call('handoff-status', { token, ...(cancel ? { cancel } : {}) }, who);
    const claim = async (token: string) => {
      const res = await t.call('handoff-claim', {}, phone(token));
      assert.equal(res.status, 200, JSON.stringify(res.json));
      return `${token}.${res.json.device}`;
    };

    it('a phone verifies a voice for the desktop: the desktop gets the receipt once, bound to its user, and it redeems once', async () => {
      const { token, code, expiresIn } = await start();
      assert.match(token, /^[\w-]{22}$/);
      assert.match(code, /^[2-9A-Z]{6}$/);
      assert.equal(expiresIn, 600);
      assert.equal((await status(token)).json.state, 'waiting');
      const claimed = await t.call('handoff-claim', {}, phone(token));
      assert.deepEqual({ ...claimed.json, device: undefined }, { kind: 'voice', mode: 'verify', code, device: undefined, expiresIn: claimed.json.expiresIn });
      const pass = `${token}.${claimed.json.device}`;
      assert.equal((await status(token)).json.state, 'connected');
      // The phone's config is the link's user's.
      assert.deepEqual((await t.call('config', undefined, phone(pass))).json.enrolled, { face: false, voice: true });
      assert.equal((await t.call('handoff-phone', { state: 'capturing' }, phone(pass))).json.state, 'capturing');
      assert.equal((await status(token)).json.state, 'capturing');
      const done = await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1', 6, 0.5) }, phone(pass));
      assert.deepEqual([done.status, done.json], [200, { verified: true, method: 'voice', handedOff: true }]);
      const result = await status(token);
      assert.equal(result.json.state, 'done');
      assert.equal(result.json.verified.method, 'voice');
      assert.equal((await t.handler.verifyReceipt(result.json.verified.receipt, { user: 'winam', method: 'voice' })).sub, 'winam');
      await assert.rejects(t.handler.verifyReceipt(result.json.verified.receipt, { user: 'winam' }), /used/);
      // Given once: a second poll (another tab) finds the link ended.
      assert.deepEqual([(await status(token)).status, (await status(token)).json.error.code], [410, 'handoff_ended']);
    });

    it('a second phone, or the first one again, cannot claim a link; the token alone does not capture', async () => {
      const { token } = await start();
      const pass = await claim(token);
      for (const again of [token, token]) {
        const res = await t.call('handoff-claim', {}, phone(again));
        assert.deepEqual([res.status, res.json.error.code], [410, 'handoff_ended']);
      }
      const bare = await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1') }, phone(token));
      assert.deepEqual([bare.status, bare.json.error.code], [410, 'handoff_ended']);
      const forged = await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1') }, phone(`${token}.${'A'.repeat(22)}`));
      assert.deepEqual([forged.status, forged.json.error.code], [410, 'handoff_ended']);
      assert.equal((await t.call('handoff-phone', {}, phone(pass))).json.state, 'connected');
    });

    it('the phone can call nothing but its one capture: every other route is refused before the store is read', async () => {
      const { token } = await start();
      const pass = await claim(token);
      // A voice link's capture: its digits (voice-challenge) and its recording.
      const allowed: Route[] = ['config', 'handoff-phone', 'voice-challenge', 'verify-by-voice'];
      for (const route of Object.keys(ROUTES) as Route[]) {
        if (allowed.includes(route)) continue;
        const res = await t.call(route, ROUTES[route].method === 'GET' ? undefined : {}, phone(route === 'handoff-claim' ? token : pass));
        if (route === 'handoff-claim') assert.equal(res.json.error.code, 'handoff_ended', route);
        else assert.deepEqual([res.status, res.json.error.code], [403, 'forbidden'], route);
      }
      // Nor does the host's cookie on the phone widen it: the link's user stands.
      const withCookie = await t.call('send-otp', { method: 'email', email: 'x@y.test' }, { user: 'winam', session: 'desk-1', headers: { [HANDOFF_HEADER]: pass } });
      assert.equal(withCookie.status, 403);
    });

    it('a link is bound to the session that made it: another session cannot poll or cancel it', async () => {
      const { token } = await start();
      const other = await status(token, { user: 'winam', session: 'desk-2' });
      assert.deepEqual([other.status, other.json.error.code], [410, 'handoff_ended']);
      assert.equal((await status(token, { user: 'winam', session: 'desk-2' }, true)).status, 410);
      assert.equal((await status(token)).json.state, 'waiting');
    });

    it('cancelling on the desktop ends the phone; cancelling on the phone ends the desktop', async () => {
      const first = await start();
      const pass = await claim(first.token);
      assert.equal((await status(first.token, desktop, true)).json.state, 'cancelled');
      assert.equal((await t.call('handoff-phone', {}, phone(pass))).json.state, 'cancelled');
      const late = await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1', 6, 0.5) }, phone(pass));
      assert.deepEqual([late.status, late.json.error.code], [410, 'handoff_ended']);
      const second = await start();
      const pass2 = await claim(second.token);
      assert.equal((await t.call('handoff-phone', { state: 'cancelled' }, phone(pass2))).json.state, 'cancelled');
      assert.equal((await status(second.token)).json.state, 'cancelled');
    });

    it('a face registered on the phone, with the proof the desktop had; without proof no link is made', async () => {
      const who = { user: 'newface', session: 'desk-new' };
      const refused = await t.call('handoff-start', { kind: 'face', mode: 'enroll' }, who);
      assert.deepEqual([refused.status, refused.json.error.code], [403, 'proof_required']);
      await t.prove('newface');
      const { token } = await start({ kind: 'face', mode: 'enroll' }, who);
      const pass = await claim(token);
      const res = await t.call('enroll-face', { face_image: cameraCapture('biden_1', 640, 90) }, phone(pass));
      assert.deepEqual([res.status, res.json], [200, { enrolled: true, kind: 'face' }]);
      assert.ok(t.references.has('newface:face'));
      assert.deepEqual((await status(token, who)).json, { state: 'done', expiresIn: 0, enrolled: true });
    });

    it('a guest cannot make a link, a malformed one is refused with its field, and a session makes at most 10 in 10 minutes', async () => {
      assert.equal((await t.call('handoff-start', { kind: 'voice' }, { session: 'guest' })).json.error.code, 'unauthorized');
      const bad = await t.call('handoff-start', { kind: 'otp' }, desktop);
      assert.deepEqual([bad.status, bad.json.error.field], [400, 'kind']);
      const who = { user: 'winam', session: 'crowd' };
      for (let i = 0; i < 10; i++) await start({ kind: 'voice' }, who);
      const over = await t.call('handoff-start', { kind: 'voice' }, who);
      assert.deepEqual([over.status, over.json.error.code], [429, 'rate_limited']);
      assert.ok(over.json.error.retryAfter > 500);
    });
  });
}

describe('handler: a phone link after 10 minutes', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => {
    t = await setup({ store: new MemoryStore() });
    await t.prove('winam');
    await t.call('enroll-voice', { audio: microphoneCapture('spk1688_M_1', 5, 0) }, { user: 'winam' });
  });
  after(() => t.close());

  it('is refused to the phone, whether claimed or not, and the desktop is told; a new link works', async () => {
    mock.timers.enable({ apis: ['Date'], now: Date.now() });
    try {
      const claimed = (await t.call('handoff-start', { kind: 'voice' }, desktop)).json.token;
      const unclaimed = (await t.call('handoff-start', { kind: 'voice' }, desktop)).json.token;
      const pass = `${claimed}.${(await t.call('handoff-claim', {}, phone(claimed))).json.device}`;
      mock.timers.tick(600_001);
      for (const [route, body, who] of [
        ['handoff-claim', {}, phone(unclaimed)],
        ['verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1', 6, 0.5) }, phone(pass)],
        ['handoff-status', { token: claimed }, desktop],
      ] as const) {
        const res = await t.call(route, body, who);
        assert.deepEqual([res.status, res.json.error.code], [410, 'handoff_ended'], route);
      }
      const fresh = (await t.call('handoff-start', { kind: 'voice' }, desktop)).json.token;
      assert.equal((await t.call('handoff-claim', {}, phone(fresh))).status, 200);
    } finally {
      mock.timers.reset();
    }
  });
});

describe('handler: a phone link on three instances when Redis freezes mid-flow', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  let frozen: RedisServer;
  before(async () => {
    frozen = await startRedis();
    t = await setup({ store: new RedisStore(frozen.client(), { prefix: 'freeze:' }) }, {}, 3);
    await t.prove('winam');
    await t.call('enroll-voice', { audio: microphoneCapture('spk1688_M_1', 5, 0) }, { user: 'winam' });
  });
  after(async () => {
    await t?.close();
    await frozen?.stop();
  });

  it('the phone and the computer get a quick 503 while it is frozen, and carry on with the same link once it answers', async () => {
    const { token } = (await t.call('handoff-start', { kind: 'voice' }, desktop)).json;
    const pass = `${token}.${(await t.call('handoff-claim', {}, phone(token))).json.device}`;
    frozen.freeze(true);
    try {
      for (const [route, body, who] of [
        ['verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1', 6, 0.5) }, phone(pass)],
        ['handoff-status', { token }, desktop],
      ] as const) {
        const started = performance.now();
        const res = await t.call(route, body, who);
        assert.deepEqual([res.status, res.json.error.code], [503, 'upstream_unavailable'], route);
        assert.ok(performance.now() - started < 2000, `${route} answered in ${Math.round(performance.now() - started)} ms`);
      }
    } finally {
      frozen.freeze(false);
    }
    const done = await t.call('verify-by-voice', { query_audio: microphoneCapture('spk1688_M_1', 6, 0.5) }, phone(pass));
    assert.equal(done.status, 200, JSON.stringify(done.json));
    const status = await t.call('handoff-status', { token }, desktop);
    assert.equal(status.json.state, 'done');
    assert.equal((await t.handler.verifyReceipt(status.json.verified.receipt, { user: 'winam', method: 'voice' })).sub, 'winam');
  });
});
