import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ORIGIN, setup } from './handler-setup.js';
import { cameraCapture } from '../helpers.js';

/** A small seeded generator, so a failure can be replayed with the same seed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const ROUTES = ['send-otp', 'verify-otp', 'verify-by-face', 'verify-by-voice', 'enroll-face', 'enroll-voice', 'config', 'nope', ''];
const FIELDS = ['method', 'phone', 'email', 'otp', 'lang', 'query_face_image', 'query_audio', 'face_image', 'audio', 'user_id', '__proto__', 'constructor'];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'multipart/form-data; boundary=x', '', 'application/x-www-form-urlencoded'];

describe('handler: fuzz', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => {
    t = await setup({ limits: { resendCooldownSeconds: 0, maxJsonBytes: 4096, maxMediaBodyBytes: 64 * 1024 } });
    t.references.set('fuzzer:face', cameraCapture('obama_1'));
  });
  after(() => t.close());

  it('answers 1,200 malformed requests with 4xx: no crash, nothing of 500 or above', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261122);
    const next = random(seed);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const value = (depth = 0): unknown => {
      switch (Math.floor(next() * 12)) {
        case 0: return null;
        case 1: return next() < 0.5;
        case 2: return Math.floor(next() * 1e9) * (next() < 0.5 ? -1 : 1);
        case 3: return 'x'.repeat(Math.floor(next() * 20000));
        case 4: return pick(['sms', 'whatsapp', 'email', 'SMS', '', ' ', '+966501234567', '+1', '٠١٢٣٤٥', 'a@b', 'data:image/png;base64,AAAA']);
        case 5: return `${'/9j/'}${'A'.repeat(Math.floor(next() * 200))}`;
        case 6: return 'iVBORw0KGgo='.repeat(Math.floor(next() * 5));
        case 7: return 'UklGR' + '!!??'.repeat(5);
        case 8: return depth < 3 ? [value(depth + 1), value(depth + 1)] : [];
        case 9: return depth < 3 ? { [pick(FIELDS)]: value(depth + 1) } : {};
        case 10: return String.fromCharCode(...Array.from({ length: 40 }, () => Math.floor(next() * 0xffff)));
        default: return next() * 1e308;
      }
    };
    const body = (): string | undefined => {
      switch (Math.floor(next() * 6)) {
        case 0: return undefined;
        case 1: return JSON.stringify(value());
        case 2: return `{"method": "sms", "phone": ${JSON.stringify(value())}`; // truncated JSON
        case 3: return '\u0000\uffff{]'.repeat(Math.floor(next() * 50));
        default: {
          const object: Record<string, unknown> = {};
          for (let i = Math.floor(next() * 4); i > 0; i--) object[pick(FIELDS)] = value();
          return JSON.stringify(object);
        }
      }
    };

    const statuses = new Map<number, number>();
    const N = 1200;
    for (let i = 0; i < N; i++) {
      const headers: Record<string, string> = {};
      // Mostly well-formed envelopes, so most requests reach the field checks behind them.
      const contentType = next() < 0.8 ? 'application/json' : pick(CONTENT_TYPES);
      if (contentType) headers['content-type'] = contentType;
      if (next() < 0.9) headers.origin = next() < 0.9 ? ORIGIN : 'https://evil.test';
      if (next() < 0.8) headers['x-test-session'] = `fuzz-${i % 7}`;
      if (next() < 0.5) headers['x-test-user'] = next() < 0.5 ? 'fuzzer' : `u${i}`;
      const method = next() < 0.9 ? 'POST' : pick(['GET', 'PUT', 'DELETE', 'PATCH']);
      const payload = method === 'GET' ? undefined : body();
      // A GET of the config is the one well-formed request the envelope alone makes: not fuzz.
      const route = next() < 0.9 ? pick(ROUTES.slice(0, 6)) : pick(method === 'GET' ? ROUTES.filter((r) => r !== 'config') : ROUTES);
      const request = new Request(`${ORIGIN}/verify/${route}`, { method, headers, body: payload });
      const response = await t.handler(request);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const text = await response.text();
      const where = `request ${i} (seed ${seed}: ${method} ${route} ${payload?.slice(0, 200)})`;
      assert.ok(response.status >= 400 && response.status < 500, `${where} answered ${response.status}: ${text}`);
      assert.equal(typeof JSON.parse(text).error.code, 'string', `${where} lacks an error code`);
    }
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}x${n}`).join(' ');
    console.log(`fuzz seed ${seed}: ${N} requests, statuses ${summary}`);
    // Fuzz that stops at the envelope (origin, session, content type) proves nothing of the field
    // checks behind it: a good share must get as far as 400 or 422.
    const reachedFields = (statuses.get(400) ?? 0) + (statuses.get(422) ?? 0);
    assert.ok(reachedFields > N / 5, `only ${reachedFields} of ${N} requests reached the field checks`);
  });
});
