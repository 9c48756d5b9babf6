/**
 * Issue 32, items 2, 3 and 6: a number's guess budget that no number of sessions multiplies, and
 * friction (a proof of work, or the host's human check) before it is spent. The attacker has
 * unlimited free sessions on many networks and a native solver; the owner comes from another
 * network. Real handler and emulator, on the MemoryStore and on two instances sharing Redis.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { codeSentTo } from './handler-setup.js';
import { storeBackends } from './backends.js';
import { altchaPayload, solveNatively } from '../helpers.js';

const backends = storeBackends();
const VICTIM = '+966501230001';
const OWNER = { session: 'owner', headers: { 'x-test-ip': '10.7.7.7' } };

type Handler = Awaited<ReturnType<ReturnType<typeof storeBackends>[number][1]>>;
type Options = Parameters<Handler['call']>[2];

/** What solving costs the caller: CPU time and hashes (the challenge's counter). */
interface Work {
  cpuMs: number;
  hashes: number;
  proofs: number;
}

/** Calls a route, solving each challenge asked for with a native solver when `solve` is set. */
async function call(t: Handler, route: string, body: Record<string, unknown>, options: Options, work?: Work) {
  for (;;) {
    const answer = await t.call(route, body, options);
    if (answer.status !== 428 || !work) return answer;
    const challenge = answer.json.error.challenge;
    const start = process.cpuUsage();
    const { solution, altcha } = await solveNatively(challenge);
    const used = process.cpuUsage(start);
    work.cpuMs += (used.user + used.system) / 1000;
    work.hashes += solution.counter;
    work.proofs++;
    body = { ...body, altcha };
  }
}

/** A code that is not the one sent. */
/** The n-th wrong code for `code` (n from 1): each a different one, as a guesser tries (the same one again is not checked twice). */
const wrongFor = (code: string, n = 1) => String((Number(code) + n) % 10 ** code.length).padStart(code.length, '0');

/**
 * The attacker: a fresh session on a fresh network for every code, as many as it takes, each
 * guessing until refused. Answers the wrong codes the service was asked to check.
 */
async function attack(t: Handler, work?: Work, rounds = 40) {
  let refusals: Record<string, number> = {};
  for (let i = 0; i < rounds; i++) {
    const as = { session: `eve${i}`, headers: { 'x-test-ip': `203.0.${i}.9` } };
    const sent = await call(t, 'send-otp', { method: 'sms', phone: VICTIM }, as, work);
    if (sent.status !== 200) {
      refusals[sent.json.error.code] = (refusals[sent.json.error.code] ?? 0) + 1;
      continue;
    }
    const code = t.emu.state.outbox.list(VICTIM)[0]!.code;
    for (let n = 1; ; n++) {
      const guess = await call(t, 'verify-otp', { phone: VICTIM, otp: wrongFor(code, n) }, as, work);
      if (guess.status !== 422) {
        refusals[guess.json.error.code] = (refusals[guess.json.error.code] ?? 0) + 1;
        break;
      }
    }
  }
  return refusals;
}

const checked = (t: Handler) => t.upstream.filter((u) => u.path === '/api/v2/verify-otp').length;

for (const [backend, open] of backends) {
  describe(`a number's guess budget (${backend})`, () => {
    it('without a proof of work, unlimited sessions on many networks get at most the free allowance: 10 wrong codes an hour', async () => {
      const t = await open({ limits: { resendCooldownSeconds: 0 } }, { maxAttempts: 100 });
      try {
        const refusals = await attack(t);
        assert.equal(checked(t), 10, JSON.stringify(refusals));
        assert.ok(refusals.challenge_required! > 0);
      } finally {
        await t.close();
      }
    });

    it('solving every proof of work, the attacker gets 25 wrong codes checked in the hour and no more; the owner is offered email at once, and verifies by it', async () => {
      const t = await open({ limits: { resendCooldownSeconds: 0 } }, { maxAttempts: 100 });
      try {
        const work: Work = { cpuMs: 0, hashes: 0, proofs: 0 };
        const refusals = await attack(t, work);
        console.log(`attacker: ${checked(t)} wrong codes checked, ${work.proofs} proofs of work, ${work.hashes} hashes, ${Math.round(work.cpuMs)} ms of CPU; refused: ${JSON.stringify(refusals)}`);
        assert.equal(checked(t), 25);
        assert.ok(refusals.try_another_channel! > 0);

        // The owner, from another network: no hour's wait, another channel offered at once.
        const bySms = await t.call('send-otp', { method: 'sms', phone: VICTIM }, OWNER);
        assert.deepEqual([bySms.status, bySms.json.error.code, bySms.json.error.fallback, bySms.json.error.retryAfter], [429, 'try_another_channel', 'email', undefined]);
        const email = 'owner@example.com';
        assert.equal((await t.call('send-otp', { method: 'email', email }, OWNER)).status, 200);
        const verified = await t.call('verify-otp', { email, otp: await codeSentTo(t.emu, email) }, OWNER);
        assert.equal(verified.status, 200, JSON.stringify(verified.json));
      } finally {
        await t.close();
      }
    });

    it('with SMS alone, a spent budget tells the owner a wait of minutes (one guess comes back every 144 s), never an hour', async () => {
      const t = await open({ allowedChannels: ['sms'], limits: { resendCooldownSeconds: 0 } }, { maxAttempts: 100 });
      try {
        await attack(t, { cpuMs: 0, hashes: 0, proofs: 0 });
        assert.equal(checked(t), 25);
        const told = await t.call('send-otp', { method: 'sms', phone: VICTIM }, OWNER);
        assert.deepEqual([told.status, told.json.error.code, told.json.error.fallback], [429, 'rate_limited', undefined]);
        assert.ok(told.json.error.retryAfter > 0 && told.json.error.retryAfter <= 144, `told ${told.json.error.retryAfter} s`);
        assert.equal(told.headers.get('retry-after'), String(told.json.error.retryAfter));
      } finally {
        await t.close();
      }
    });

    it('under pressure short of the cap, the owner gets a code and verifies, paying at most two of the hardest proofs', async () => {
      const t = await open({ limits: { resendCooldownSeconds: 0 } }, { maxAttempts: 100 });
      try {
        await attack(t, { cpuMs: 0, hashes: 0, proofs: 0 }, 4);
        assert.ok(checked(t) > 10 && checked(t) < 25, `${checked(t)} wrong codes checked`);
        const owner: Work = { cpuMs: 0, hashes: 0, proofs: 0 };
        assert.equal((await call(t, 'send-otp', { method: 'sms', phone: VICTIM }, OWNER, owner)).status, 200);
        const verified = await call(t, 'verify-otp', { phone: VICTIM, otp: t.emu.state.outbox.list(VICTIM)[0]!.code }, OWNER, owner);
        assert.equal(verified.status, 200, JSON.stringify(verified.json));
        console.log(`owner under pressure: ${owner.proofs} proofs, ${owner.hashes} hashes`);
        assert.ok(owner.proofs <= 2 && owner.hashes <= 2 * 300_000);
      } finally {
        await t.close();
      }
    });

    it('a budget the host sets to Infinity is never spent, on every store (no store call with a number its script cannot take)', async () => {
      const t = await open({ limits: { resendCooldownSeconds: 0, wrongCodesPerIdentifier: { max: Infinity, windowSeconds: 3600 }, sendsPerIdentifierAllCallers: { max: Infinity, windowSeconds: 3600 } } });
      try {
        const as = { session: 'lenient', headers: { 'x-test-ip': '203.0.113.40' } };
        assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM }, as)).status, 200);
        const wrong = await t.call('verify-otp', { phone: VICTIM, otp: wrongFor(await codeSentTo(t.emu, VICTIM)) }, as);
        assert.deepEqual([wrong.status, wrong.json.error.code], [422, 'wrong_code']);
      } finally {
        await t.close();
      }
    });

    it('the day has its own cap, and forty concurrent guesses at the edge of the budget check no more than it allows', async () => {
      const t = await open(
        { limits: { resendCooldownSeconds: 0, maxWrongCodes: 100, wrongCodesPerIdentifier: { max: 1000, windowSeconds: 3600 }, wrongCodesPerIdentifierPerDay: { max: 12, windowSeconds: 86_400 }, friction: { freeWrongCodesPerIdentifier: Infinity, freeWrongCodesPerNetwork: Infinity } } },
        { maxAttempts: 1000 },
      );
      try {
        const as = { session: 'eve', headers: { 'x-test-ip': '203.0.113.9' } };
        assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM }, as)).status, 200);
        const code = await codeSentTo(t.emu, VICTIM);
        const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => t.call('verify-otp', { phone: VICTIM, otp: wrongFor(code, i + 1) }, as)));
        const codes = answers.map((a) => a.json.error.code);
        assert.equal(codes.filter((c) => c === 'wrong_code').length, 12);
        assert.equal(codes.filter((c) => c === 'try_another_channel').length, 28);
        assert.equal(checked(t), 12);
      } finally {
        await t.close();
      }
    });
  });
}

for (const [backend, open] of backends) {
  describe(`the owner on the attacker's network (${backend})`, () => {
    it('five sends to a number from one /24, then its owner from there: a proof of work, then a code; a crowd there that solves every proof stops at the ceiling over all callers, told minutes', async () => {
      const t = await open({ limits: { resendCooldownSeconds: 0 } });
      try {
        const crowd = (i: number) => ({ session: `crowd${i}`, headers: { 'x-test-ip': `198.51.100.${i + 1}` } });
        const attacker: Work = { cpuMs: 0, hashes: 0, proofs: 0 };
        for (let i = 0; i < 5; i++) assert.equal((await call(t, 'send-otp', { method: 'sms', phone: VICTIM }, crowd(i), attacker)).status, 200);
        assert.equal(attacker.proofs, 2, 'the network\u2019s free share is 3');

        // The owner, behind the same carrier's NAT: friction, not a lockout.
        const owner = { session: 'owner', headers: { 'x-test-ip': '198.51.100.200' } };
        const asked = await t.call('send-otp', { method: 'sms', phone: VICTIM }, owner);
        assert.deepEqual([asked.status, asked.json.error.code], [428, 'challenge_required']);
        const work: Work = { cpuMs: 0, hashes: 0, proofs: 0 };
        assert.equal((await call(t, 'send-otp', { method: 'sms', phone: VICTIM }, owner, work)).status, 200);
        const verified = await call(t, 'verify-otp', { phone: VICTIM, otp: await codeSentTo(t.emu, VICTIM) }, owner, work);
        assert.equal(verified.status, 200, JSON.stringify(verified.json));
        console.log(`owner on the crowd's /24 after 5 sends: ${work.proofs} proof of ${asked.json.error.challenge.parameters.data.level} levels, ${work.hashes} hashes`);
        assert.equal(work.proofs, 1);

        // The crowd goes on, solving every proof: the ceiling (10 an hour) holds, and refuses for minutes.
        let last;
        for (let i = 5; i < 20; i++) last = await call(t, 'send-otp', { method: 'sms', phone: VICTIM }, crowd(i), attacker);
        assert.equal(t.emu.state.outbox.list(VICTIM).length, 10);
        assert.deepEqual([last!.status, last!.json.error.code], [429, 'rate_limited']);
        assert.ok(last!.json.error.retryAfter <= 360, `told ${last!.json.error.retryAfter} s`);
        const ownerAgain = await t.call('send-otp', { method: 'sms', phone: VICTIM }, { ...owner, session: 'owner-tab' });
        assert.ok(ownerAgain.status === 429 && ownerAgain.json.error.retryAfter <= 360, JSON.stringify(ownerAgain.json));
        console.log(`crowd solving every proof: ${attacker.proofs} proofs, ${attacker.hashes} hashes; the ceiling told ${last!.json.error.retryAfter} s`);
      } finally {
        await t.close();
      }
    });
  });
}

describe('proofs of work and human checks', () => {
  const [, open] = backends[0]!;
  const pressed = { limits: { resendCooldownSeconds: 0, friction: { freeSendsPerIdentifier: 0 } } };

  it('a solution is good for one request, for the request it was asked for, at the level asked', async () => {
    const t = await open(pressed);
    try {
      const first = await t.call('send-otp', { method: 'sms', phone: VICTIM }, OWNER);
      assert.equal(first.status, 428);
      const { challenge } = first.json.error;
      assert.equal(challenge.parameters.algorithm, 'SHA-256');
      const { solution, altcha } = await solveNatively(challenge);
      // For another number, or for another session: asked again, nothing sent.
      assert.equal((await t.call('send-otp', { method: 'sms', phone: '+966501230002', altcha }, OWNER)).status, 428);
      assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM, altcha }, { ...OWNER, session: 'other' })).status, 428);
      // A forged level, or a forged key: refused by the signature.
      const forged = { ...challenge, parameters: { ...challenge.parameters, data: { ...challenge.parameters.data, level: 99 } } };
      assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM, altcha: altchaPayload(forged, solution) }, OWNER)).status, 428);
      assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM, altcha: altchaPayload(challenge, { ...solution, derivedKey: '00'.repeat(32) }) }, OWNER)).status, 428);
      assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM, altcha: 'not base64 json' }, OWNER)).status, 428);
      assert.equal(t.calls('send-otp'), 0);
      // The real one, once.
      assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM, altcha }, OWNER)).status, 200);
      assert.equal((await t.call('send-otp', { method: 'sms', phone: VICTIM, altcha }, OWNER)).status, 428);
      assert.equal(t.calls('send-otp'), 1);
    } finally {
      await t.close();
    }
  });

  it('a host’s own human check takes the place of the proof of work: asked for, checked by the host, used once', async () => {
    const tokens: string[] = [];
    const t = await open({ ...pressed, verifyHumanCheck: (token: string) => (tokens.push(token), token.startsWith('good')) });
    try {
      const asked = await t.call('send-otp', { method: 'email', email: 'person@example.com' }, OWNER);
      assert.deepEqual([asked.status, asked.json.error.code, asked.json.error.humanCheck, asked.json.error.challenge], [428, 'challenge_required', true, undefined]);
      assert.equal((await t.call('send-otp', { method: 'email', email: 'person@example.com', humanCheck: 'bad' }, OWNER)).status, 428);
      assert.equal((await t.call('send-otp', { method: 'email', email: 'person@example.com', humanCheck: 'good-1' }, OWNER)).status, 200);
      assert.equal((await t.call('send-otp', { method: 'email', email: 'person@example.com', humanCheck: 'good-1' }, { ...OWNER, session: 'replay' })).status, 428);
      assert.deepEqual(tokens, ['bad', 'good-1', 'good-1']);
    } finally {
      await t.close();
    }
  });
});
