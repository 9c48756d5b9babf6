import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { codeSentTo, setup } from './handler-setup.js';
import { TEMPLATE_IDS } from '../../../src/emulator/templates.js';

const PHONE = '+966501234567';

describe('handler: an account whose templates are not 1-4', () => {
  it('sends with the host\u2019s templateId per language, and the code verifies', async () => {
    const templates = [
      { id: 31, language: 'en' as const, text: 'Acme: {code} is your code.' },
      { id: '44', language: 'ar' as const, text: 'أكمي: رمزك {code}' },
    ];
    const t = await setup({ templateId: { en: 31, ar: 44 }, limits: { resendCooldownSeconds: 0 } }, { templates });
    try {
      assert.equal((await t.call('send-otp', { method: 'email', email: 'en@example.com' })).status, 200);
      assert.equal((await t.call('send-otp', { method: 'email', email: 'ar@example.com', lang: 'ar' })).status, 200);
      const en = t.emu.state.outbox.list('en@example.com')[0]!;
      const ar = t.emu.state.outbox.list('ar@example.com')[0]!;
      assert.deepEqual([en.templateId, ar.templateId], [31, 44]);
      assert.match(en.text, /^Acme: \d{6} is your code\.$/);
      assert.equal((await t.call('verify-otp', { email: 'ar@example.com', otp: ar.code })).json.verified, true);
    } finally {
      await t.close();
    }
  });
});

describe('handler: the template for the widget\u2019s language', () => {
  it('takes the whole tag, else the language, else English', async () => {
    const t = await setup({ templateId: { en: 1, ar: 2, fr: 3, 'fr-ca': 4 }, limits: { resendCooldownSeconds: 0 } });
    try {
      const sent: Record<string, unknown> = {};
      for (const lang of ['fr-CA', 'fr-FR', 'fr', 'ar-SA', 'ur', 'xx-YY']) {
        assert.equal((await t.call('send-otp', { method: 'email', email: `${lang.toLowerCase()}@example.com`, lang })).status, 200, lang);
        sent[lang] = t.upstream.filter((u) => u.path.endsWith('/send-otp')).at(-1)!.body!.template_id;
      }
      assert.deepEqual(sent, { 'fr-CA': 4, 'fr-FR': 3, fr: 3, 'ar-SA': 2, ur: 1, 'xx-YY': 1 });
    } finally {
      await t.close();
    }
  });

  it('with the emulator’s TEMPLATE_IDS, a page in any shipped language gets the message in its language', async () => {
    const shipped = [...readdirSync(new URL('../../../src/translations/', import.meta.url)).flatMap((f) => /^([a-z]{2,3})\.ts$/.exec(f)?.[1] ?? [])];
    assert.equal(shipped.length, 10);
    const t = await setup({ templateId: TEMPLATE_IDS, limits: { resendCooldownSeconds: 0 } });
    try {
      for (const lang of shipped) {
        const email = `${lang}@example.com`;
        assert.equal((await t.call('send-otp', { method: 'email', email, lang: `${lang}-XX` })).status, 200, lang);
        const [message] = t.emu.state.outbox.list(email);
        assert.equal(message?.language, lang);
        assert.ok(message.text.includes(message.code) && !/[{}]/.test(message.text), message.text);
      }
    } finally {
      await t.close();
    }
  });
});

describe('handler: send-otp and verify-otp', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  before(async () => (t = await setup({ limits: { resendCooldownSeconds: 0 } })));
  after(() => t.close());

  it('sends a code and verifies it, answering a receipt that verifyReceipt accepts once', async () => {
    const sent = await t.call('send-otp', { method: 'sms', phone: '+966 50 123 4567' });
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.json, { sent: true, method: 'sms', to: '+966••••••567', resendAfter: 0, codeLength: null });
    const otp = await codeSentTo(t.emu, PHONE);
    const ok = await t.call('verify-otp', { phone: PHONE, otp });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.verified, true);
    assert.equal(ok.json.method, 'otp');
    // A guest's receipt: bound to the session id the host's getSessionId gives.
    await assert.rejects(t.handler.verifyReceipt(ok.json.receipt, { method: 'otp', session: 'another' }), { reason: 'wrong_user' });
    const claims = await t.handler.verifyReceipt(ok.json.receipt, { method: 'otp', identifier: PHONE, session: 's1' });
    assert.equal(claims.mth, 'otp');
    await assert.rejects(t.handler.verifyReceipt(ok.json.receipt, { session: 's1' }), { reason: 'replayed' });
  });

  it('sends by email with the Arabic template when the widget speaks Arabic', async () => {
    const sent = await t.call('send-otp', { method: 'email', email: ' Sara@Example.com ', lang: 'ar' });
    assert.equal(sent.json.to, 's•••@example.com');
    assert.equal(t.emu.state.outbox.list('sara@example.com')[0]?.templateId, 2);
  });

  it('takes Arabic-Indic digits in the code', async () => {
    await t.call('send-otp', { method: 'sms', phone: '+966501234568' });
    const otp = await codeSentTo(t.emu, '+966501234568');
    const arabic = [...otp].map((d) => String.fromCharCode(0x660 + Number(d))).join('');
    assert.equal((await t.call('verify-otp', { phone: '+966501234568', otp: arabic })).status, 200);
  });

  it('refuses a wrong code with the attempts left, and the code still works after', async () => {
    await t.call('send-otp', { method: 'whatsapp', phone: '+966501234569' });
    const otp = await codeSentTo(t.emu, '+966501234569');
    const wrong = await t.call('verify-otp', { phone: '+966501234569', otp: otp === '000000' ? '111111' : '000000' });
    assert.equal(wrong.status, 422);
    assert.deepEqual(wrong.json, { error: { code: 'wrong_code', message: 'That code is not right.', attemptsLeft: 4 } });
    assert.equal((await t.call('verify-otp', { phone: '+966501234569', otp })).status, 200);
  });

  it('refuses verify-otp for an identifier this session did not ask a code for, without calling the service', async () => {
    await t.call('send-otp', { method: 'sms', phone: '+966501234570' }, { session: 'someone-else' });
    const otp = await codeSentTo(t.emu, '+966501234570');
    const before = t.calls('verify-otp');
    const res = await t.call('verify-otp', { phone: '+966501234570', otp }, { session: 'attacker' });
    assert.equal(res.status, 422);
    assert.equal(res.json.error.code, 'code_expired');
    assert.equal(t.calls('verify-otp'), before);
  });

  it('refuses the sixth wrong code without a call to the service', async () => {
    await t.call('send-otp', { method: 'sms', phone: '+966501234571' });
    const otp = await codeSentTo(t.emu, '+966501234571');
    const wrongs = ['000000', '111111', '222222', '333333', '444444', '555555'].filter((code) => code !== otp);
    const before = t.calls('verify-otp');
    // The same wrong code typed again is answered from the store, at no attempt's cost.
    const again = [];
    for (let i = 0; i < 2; i++) again.push((await t.call('verify-otp', { phone: '+966501234571', otp: wrongs[0] })).json.error);
    assert.deepEqual(again.map((e) => [e.code, e.attemptsLeft]), [['wrong_code', 4], ['wrong_code', 4]]);
    assert.equal(t.calls('verify-otp'), before + 1);
    const codes = [again[0]];
    for (let i = 1; i < 5; i++) codes.push((await t.call('verify-otp', { phone: '+966501234571', otp: wrongs[i] })).json.error);
    assert.deepEqual(codes.map((e) => e.attemptsLeft), [4, 3, 2, 1, 0]);
    assert.equal(codes[4].code, 'too_many_attempts');
    assert.equal(t.calls('verify-otp'), before + 5);
    const sixth = await t.call('verify-otp', { phone: '+966501234571', otp });
    assert.equal(sixth.status, 429);
    assert.equal(sixth.json.error.code, 'too_many_attempts');
    assert.equal(t.calls('verify-otp'), before + 5, 'the sixth try never reached the service');
  });

  it('a new code resets the wrong-code count', async () => {
    const phone = '+966501234572';
    await t.call('send-otp', { method: 'sms', phone });
    for (let i = 0; i < 5; i++) await t.call('verify-otp', { phone, otp: String(i).repeat(8) });
    await t.call('send-otp', { method: 'sms', phone });
    assert.equal((await t.call('verify-otp', { phone, otp: await codeSentTo(t.emu, phone) })).status, 200);
  });

  it('answers an expired code as code_expired', async () => {
    const phone = '+966501234573';
    await t.call('send-otp', { method: 'sms', phone });
    t.emu.state.clockOffsetMs += 3600_000;
    const res = await t.call('verify-otp', { phone, otp: await codeSentTo(t.emu, phone) });
    assert.equal(res.json.error.code, 'code_expired');
    t.emu.state.clockOffsetMs = 0;
  });

  const invalid: [string, object, string][] = [
    ['an unknown channel', { method: 'pigeon', phone: PHONE }, 'method'],
    ['a number that is not valid', { method: 'sms', phone: '+96612' }, 'phone'],
    ['a landline for sms', { method: 'sms', phone: '+966112345678' }, 'phone'],
    ['an email without a domain', { method: 'email', email: 'sara@' }, 'email'],
  ];
  for (const [label, body, field] of invalid) {
    it(`refuses ${label} with invalid_input on ${field}`, async () => {
      const res = await t.call('send-otp', body);
      assert.equal(res.status, 400);
      assert.equal(res.json.error.code, 'invalid_input');
      assert.equal(res.json.error.field, field);
    });
  }

  it('refuses a call without a session', async () => {
    const res = await t.call('send-otp', { method: 'email', email: 'a@example.com' }, { session: null });
    assert.equal(res.status, 401);
    assert.equal(res.json.error.code, 'unauthorized');
  });
});

describe('handler: send limits and cooldown', () => {
  it('answers 429 with the true Retry-After when the session asks again within its cooldown with no code pending', async () => {
    const t = await setup({ limits: { resendCooldownSeconds: 30 } });
    try {
      const phone = '+966501234574';
      assert.equal((await t.call('send-otp', { method: 'sms', phone })).status, 200);
      assert.equal((await t.call('verify-otp', { phone, otp: await codeSentTo(t.emu, phone) })).status, 200);
      const cooling = await t.call('send-otp', { method: 'sms', phone });
      assert.equal(cooling.status, 429);
      assert.equal(cooling.json.error.code, 'rate_limited');
      assert.ok(Number(cooling.headers.get('retry-after')) > 25 && Number(cooling.headers.get('retry-after')) <= 30);
      assert.equal(cooling.json.error.retryAfter, Number(cooling.headers.get('retry-after')));
      assert.equal(t.calls('send-otp'), 1);
    } finally {
      await t.close();
    }
  });

  for (const [name, limits, vary] of [
    ['identifier and session', { sendsPerIdentifier: { max: 2, windowSeconds: 600 } }, (i: number) => ({ body: { method: 'email', email: 'cap@example.com' }, options: { headers: { 'x-test-ip': `10.0.0.${i}` } } })],
    ['identifier, all callers', { sendsPerIdentifierAllCallers: { max: 2, windowSeconds: 600 } }, (i: number) => ({ body: { method: 'email', email: 'all@example.com' }, options: { session: `s${i}`, headers: { 'x-test-ip': `10.0.0.${i}` } } })],
    ['IP address', { sendsPerIp: { max: 2, windowSeconds: 600 } }, (i: number) => ({ body: { method: 'email', email: `ip${i}@example.com` }, options: { session: `s${i}` } })],
    ['session', { sendsPerSession: { max: 2, windowSeconds: 600 } }, (i: number) => ({ body: { method: 'email', email: `se${i}@example.com` }, options: { headers: { 'x-test-ip': `10.0.0.${i}` } } })],
  ] as const) {
    it(`caps sends per ${name}, with Retry-After the seconds until one comes back (window / max)`, async () => {
      const t = await setup({ limits: { resendCooldownSeconds: 0, ...limits } });
      try {
        const statuses = [];
        for (let i = 0; i < 3; i++) {
          const { body, options } = vary(i);
          const res = await t.call('send-otp', body, options);
          statuses.push(res.status);
          // Two in 600 s: one comes back 300 s after it was taken, not at the window's end.
          if (res.status === 429) assert.ok(Number(res.headers.get('retry-after')) > 250 && Number(res.headers.get('retry-after')) <= 300, res.headers.get('retry-after')!);
        }
        assert.deepEqual(statuses, [200, 200, 429]);
        assert.equal(t.calls('send-otp'), 2);
      } finally {
        await t.close();
      }
    });
  }
});

