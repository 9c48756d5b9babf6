/**
 * Issue 14, items 3 and 4: an upstream fault costs the person a retry, never an attempt or a code.
 * Faults are injected through the emulator; each test runs on the MemoryStore and on two handler
 * instances sharing one real redis-server.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storeBackends } from './backends.js';
import { codeSentTo } from './handler-setup.js';

const backends = storeBackends();

for (const [backend, open] of backends) {
  describe(`upstream faults lose nothing (${backend})`, () => {
    it('3. five upstream 5xx on verify-otp, a timeout and a 429, then the right code: verified (only wrong codes spend attempts)', async () => {
      const t = await open({ upstreamTimeoutMs: 500, limits: { maxWrongCodes: 2 } });
      try {
        await t.call('send-otp', { method: 'email', email: 'patient@example.com' });
        const code = await codeSentTo(t.emu, 'patient@example.com');
        const wrong = code === '000000' ? '111111' : '000000';
        const answers: string[] = [];
        const verify = async (otp: string) => {
          const res = await t.call('verify-otp', { email: 'patient@example.com', otp });
          answers.push(res.json.receipt ? 'verified' : `${res.status} ${res.json.error.code}${res.json.error.attemptsLeft !== undefined ? ` left ${res.json.error.attemptsLeft}` : ''}`);
          assert.doesNotMatch(JSON.stringify(res.json), /server_error|timeout|fault/);
        };
        await verify(wrong);
        for (const status of [500, 502, 503, 503, 503]) {
          t.emu.state.faults.add({ kind: 'error', route: 'verify-otp', status, times: 1 });
          await verify(code);
        }
        t.emu.state.faults.add({ kind: 'hang', route: 'verify-otp', times: 1 });
        await verify(code);
        t.emu.state.faults.add({ kind: 'rate-limit', route: 'verify-otp', retryAfter: 1, times: 1 });
        await verify(code);
        await verify(code);
        assert.deepEqual(answers, [
          '422 wrong_code left 1',
          ...Array.from({ length: 5 }, () => '502 upstream_unavailable'),
          '504 upstream_unavailable',
          '429 rate_limited',
          'verified',
        ]);
        // The host's log says why the service was unavailable; the browser is only told to try again.
        const faults = t.logs.filter((entry) => entry.code === 'upstream_unavailable').map((entry) => entry.fault);
        assert.deepEqual(faults, [...Array.from({ length: 5 }, () => 'server_error'), 'timeout']);
      } finally {
        await t.close();
      }
    });

    it('4. an 11 s upstream delay on send with a 10 s handler timeout: the code delivered afterwards verifies', async () => {
      const t = await open({ upstreamTimeoutMs: 10_000 });
      try {
        t.emu.state.faults.add({ kind: 'latency', route: 'send-otp', ms: 11_000, times: 1 });
        const sent = await t.call('send-otp', { method: 'sms', phone: '+966501234567' });
        assert.deepEqual([sent.status, sent.json.error.code, sent.json.error.maybeSent], [504, 'upstream_unavailable', true]);
        // The wait before another code is the cooldown's true time left: 30 s less the 10 s waited.
        assert.ok(sent.json.error.retryAfter >= 19 && sent.json.error.retryAfter <= 21, String(sent.json.error.retryAfter));
        // The widget, asking again, is taken to code entry for that number: the code may come.
        const config = await t.call('config');
        assert.equal(config.json.pending.method, 'sms');
        assert.equal(config.json.pending.to, '+966••••••567');
        const code = await codeSentTo(t.emu, '+966501234567');
        const res = await t.call('verify-otp', { phone: '+966501234567', otp: code });
        assert.ok(res.json.receipt, JSON.stringify(res.json));
        assert.equal(t.calls('send-otp'), 1, 'never sent twice');
      } finally {
        await t.close();
      }
    });
  });
}
