/**
 * SMS pumping, seen where it lands: codes piling up towards one range of numbers or one country.
 * Past an alert the host is told once a window (on one instance or two sharing Redis) and a line
 * is logged; past a cap the host sets, sends there are refused before the service is paid, while
 * other ranges and email go on.
 */
import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { AbuseEvent } from '../../../src/server/index.js';
import { storeBackends } from './backends.js';

const backends = storeBackends();
/** The i-th caller: a session and an address of its own, so that only the destination counts gather. */
const caller = (i: number) => ({ session: `pump${i}`, headers: { 'x-test-ip': `10.${Math.floor(i / 250)}.${i % 250}.1` } });
const inRange = (range: string, i: number) => `+966${range}${String(i).padStart(6, '0')}`;

for (const [backend, open] of backends) {
  describe(`destinations watched for SMS pumping (${backend})`, () => {
    it('codes to one range past its alert: the host is told once, a line is logged, and sends go on (no cap by default)', async () => {
      const events: AbuseEvent[] = [];
      const warn = mock.method(console, 'warn', () => {});
      const t = await open({ onAbuse: (event) => void events.push(event), limits: { resendCooldownSeconds: 0, sendsPerPrefix: { alertAt: 3, max: Infinity, windowSeconds: 3600 } } });
      try {
        const statuses = [];
        for (let i = 0; i < 8; i++) statuses.push((await t.call('send-otp', { method: 'sms', phone: inRange('501', i) }, caller(i))).status);
        assert.deepEqual(statuses, Array(8).fill(200));
        assert.deepEqual(events, [{ kind: 'prefix', country: 'SA', prefix: '+966 501', sends: 4, windowSeconds: 3600 }]);
        const lines = warn.mock.calls.map((c) => String(c.arguments[0])).filter((line) => line.includes('SMS pumping'));
        assert.equal(lines.length, 1);
        assert.match(lines[0]!, /4 codes to \+966 501 within 3600 s \(alert at 3\)/);
      } finally {
        warn.mock.restore();
        await t.close();
      }
    });

    it('with a cap on a range: sends past it are refused before the service is paid; another range and email go on', async () => {
      const warn = mock.method(console, 'warn', () => {});
      const t = await open({ limits: { resendCooldownSeconds: 0, sendsPerPrefix: { alertAt: 2, max: 4, windowSeconds: 3600 } } });
      try {
        const answers = [];
        for (let i = 0; i < 7; i++) answers.push(await t.call('send-otp', { method: 'sms', phone: inRange('502', i) }, caller(100 + i)));
        assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 429, 429, 429]);
        const refused = answers.at(-1)!;
        assert.equal(refused.json.error.code, 'rate_limited');
        assert.ok(refused.json.error.retryAfter > 3500 && refused.json.error.retryAfter <= 3600, String(refused.json.error.retryAfter));
        assert.equal(t.calls('send-otp'), 4);
        assert.equal((await t.call('send-otp', { method: 'sms', phone: inRange('551', 1) }, caller(200))).status, 200);
        assert.equal((await t.call('send-otp', { method: 'email', email: 'elsewhere@example.com' }, caller(201))).status, 200);
        assert.equal(t.calls('send-otp'), 6);
      } finally {
        warn.mock.restore();
        await t.close();
      }
    });

    it('codes to one country past its alert, spread over ranges: told once, with the country', async () => {
      const events: AbuseEvent[] = [];
      const warn = mock.method(console, 'warn', () => {});
      const t = await open({ onAbuse: (event) => void events.push(event), limits: { resendCooldownSeconds: 0, sendsPerCountry: { alertAt: 4, max: Infinity, windowSeconds: 600 } } });
      try {
        for (let i = 0; i < 7; i++) assert.equal((await t.call('send-otp', { method: 'whatsapp', phone: inRange(`5${3 + i}0`, i) }, caller(300 + i))).status, 200);
        assert.deepEqual(events, [{ kind: 'country', country: 'SA', sends: 5, windowSeconds: 600 }]);
      } finally {
        warn.mock.restore();
        await t.close();
      }
    });
  });
}
