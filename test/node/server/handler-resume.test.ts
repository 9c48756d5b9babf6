import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/server/index.js';
import { codeSentTo, setup } from './handler-setup.js';

const PHONE = '+966501234567';

describe('handler: a session comes back to its pending code', () => {
  it('config tells the pending code (masked, the true wait), and {otp} alone verifies it with no second send', async () => {
    const t = await setup({ limits: { resendCooldownSeconds: 30 } });
    try {
      assert.equal((await t.call('config')).json.pending, null);
      await t.call('send-otp', { method: 'sms', phone: PHONE });
      const { pending } = (await t.call('config')).json;
      assert.equal(pending.method, 'sms');
      assert.equal(pending.to, '+966••••••567');
      assert.ok(pending.resendAfter > 25 && pending.resendAfter <= 30, String(pending.resendAfter));
      assert.equal((await t.call('config', undefined, { session: 'another' })).json.pending, null, 'only the session that asked');
      const ok = await t.call('verify-otp', { otp: await codeSentTo(t.emu, PHONE) });
      assert.equal(ok.status, 200);
      await t.handler.verifyReceipt(ok.json.receipt, { identifier: PHONE, session: 's1' });
      assert.equal(t.calls('send-otp'), 1);
      assert.equal((await t.call('config')).json.pending, null, 'used up');
      assert.equal((await t.call('verify-otp', { otp: '123456' })).json.error.code, 'code_expired');
    } finally {
      await t.close();
    }
  });

  it('the store never holds the phone in clear: no key or value of any operation', async () => {
    const seen: string[] = [];
    const memory = new MemoryStore();
    // Every operation of the store, not a chosen few: its keys and values as the handler passed them,
    // a plan's steps (run) included.
    const store = new Proxy(memory, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          seen.push(`${String(name)}(${JSON.stringify(args)})`);
          return value.apply(target, args);
        };
      },
    });
    const t = await setup({ store, limits: { resendCooldownSeconds: 30 } });
    try {
      await t.call('send-otp', { method: 'sms', phone: PHONE });
      await t.call('send-otp', { method: 'sms', phone: PHONE }, { session: 's2', clientIp: '10.0.0.9' });
      await t.call('verify-otp', { phone: PHONE, otp: '000000' });
      assert.equal((await t.call('verify-otp', { otp: await codeSentTo(t.emu, PHONE) })).status, 200);
      // Each kind of write the flow makes is seen: the send counters, the cooldown, the pending code, the codes tried, its clean-up.
      for (const operation of ['increment', 'claim', 'set', 'delete']) {
        assert.ok(seen.some((entry) => entry.startsWith(`${operation}(`) || entry.includes(`{"op":"${operation}"`)), `no ${operation} seen`);
      }
      assert.ok(seen.some((entry) => entry.includes('{"op":"claim","key":"tried:')), 'the codes tried are claimed');
      assert.ok(seen.some((entry) => entry.includes('{"op":"delete","key":"challenge:')), 'the code is used up');
      assert.ok(seen.some((entry) => entry.includes('{"op":"set","key":"pending:')), 'the pending code is stored');
      assert.doesNotMatch(seen.join('\n'), /501234567|0501234567/);
      const config = await t.call('config');
      assert.doesNotMatch(JSON.stringify(config.json), /501234567/);
    } finally {
      await t.close();
    }
  });

  it('the same session asking again within the cooldown is taken back to the code it has, without a send', async () => {
    const t = await setup({ limits: { resendCooldownSeconds: 30 } });
    try {
      await t.call('send-otp', { method: 'sms', phone: PHONE });
      const again = await t.call('send-otp', { method: 'sms', phone: '0501234567'.replace(/^0/, '+966') });
      assert.equal(again.status, 200);
      assert.equal(again.json.alreadySent, true);
      assert.ok(again.json.resendAfter > 25 && again.json.resendAfter <= 30);
      assert.equal(t.calls('send-otp'), 1);
      // The cooldown is this session's: another caller is not held by it (handler-abuse.test.ts).
      const other = await t.call('send-otp', { method: 'sms', phone: PHONE }, { session: 'another' });
      assert.equal(other.status, 200);
      assert.equal(t.calls('send-otp'), 2);
    } finally {
      await t.close();
    }
  });

  it('{resend: true} sends a new code to the pending contact, and refuses when nothing is pending', async () => {
    const t = await setup({ limits: { resendCooldownSeconds: 0 } });
    try {
      const none = await t.call('send-otp', { resend: true });
      assert.equal(none.status, 400);
      assert.equal(none.json.error.code, 'invalid_input');
      await t.call('send-otp', { method: 'email', email: 'sara@example.com' });
      const again = await t.call('send-otp', { resend: true, lang: 'en' });
      assert.equal(again.status, 200);
      assert.equal(again.json.to, 's•••@example.com');
      assert.equal(t.emu.state.outbox.list('sara@example.com').length, 2);
    } finally {
      await t.close();
    }
  });

  it('tells the widget the code length: the host setting, else the length of a code the service accepted', async () => {
    const t = await setup({ limits: { resendCooldownSeconds: 0 } }, { otpLength: 4 });
    try {
      assert.equal((await t.call('config')).json.codeLength, null);
      await t.call('send-otp', { method: 'sms', phone: PHONE });
      assert.equal((await t.call('verify-otp', { phone: PHONE, otp: await codeSentTo(t.emu, PHONE) })).status, 200);
      assert.equal((await t.call('config')).json.codeLength, 4);
    } finally {
      await t.close();
    }
    const set = await setup({ codeLength: 6 });
    try {
      assert.equal((await set.call('config')).json.codeLength, 6);
    } finally {
      await set.close();
    }
  });
});
