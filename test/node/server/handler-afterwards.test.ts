/**
 * A right code's clean-up (afterwards.ts) follows the answer on the Node entry: the person gets the
 * receipt while it is still in flight, the same session's next request waits for it (and reads
 * what it wrote), another session's does not, and a clean-up that fails is logged while the receipt
 * stands. The Fetch entry's waitUntil: store-round-trips.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, type PlanStep } from '../../../src/server/index.js';
import { createVerifyHandler } from '../../../src/server/node/index.js';
import { KEY } from '../helpers.js';
import { codeSentTo, ORIGIN, SECRET, setup } from './handler-setup.js';

/** A clean-up is the plan that only gives back and deletes (a verify's check reads first). */
const isCleanUp = (plan: PlanStep[]) => plan.every((step) => step.op === 'delete' || step.op === 'giveBack' || step.op === 'decrement');

describe('a right code’s clean-up, after the answer (Node entry)', () => {
  const memory = new MemoryStore();
  let hold: Promise<void> | null = null;
  let failing = false;
  const store = new Proxy(memory, {
    get: (target, key) => {
      const value = Reflect.get(target, key);
      if (key !== 'run') return typeof value === 'function' ? value.bind(target) : value;
      return async (plan: PlanStep[]) => {
        if (isCleanUp(plan)) {
          await hold;
          if (failing) throw new Error('store gone');
        }
        return memory.run(plan);
      };
    },
  });
  const logs: { route: string; error?: string }[] = [];
  let t: Awaited<ReturnType<typeof setup>>;
  let handler: ReturnType<typeof createVerifyHandler>;
  before(async () => {
    t = await setup();
    handler = createVerifyHandler({
      baseUrl: t.emu.baseUrl,
      apiKey: KEY,
      receiptSecret: SECRET,
      allowedChannels: ['email'],
      getUser: () => null,
      getSessionId: (request) => request.headers.get('x-test-session'),
      getClientIp: () => '192.0.2.1',
      store,
      log: (entry) => logs.push(entry),
    });
  });
  after(() => t.close());

  const call = async (route: string, session: string, body?: object) => {
    const init = body ? { method: 'POST', body: JSON.stringify(body) } : {};
    const response = await handler(new Request(`${ORIGIN}/${route}`, { ...init, headers: { origin: ORIGIN, 'content-type': 'application/json', 'x-test-session': session } }));
    return { status: response.status, json: await response.json() };
  };
  const verifyRight = async (email: string, session: string) => {
    assert.equal((await call('send-otp', session, { method: 'email', email })).status, 200);
    return call('verify-otp', session, { email, otp: await codeSentTo(t.emu, email) });
  };

  it('answers with the receipt while the clean-up is in flight; the session’s next request waits for it, another session’s does not', async () => {
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const verified = await verifyRight('after@example.com', 'a1');
    assert.equal(verified.status, 200);
    assert.ok(verified.json.receipt);
    let configAnswered = false;
    const config = call('config', 'a1').then((answer) => ((configAnswered = true), answer));
    assert.equal((await call('config', 'b1')).status, 200, 'another session is not held');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(configAnswered, false, 'the same session waits for its clean-up');
    release();
    hold = null;
    assert.equal((await config).json.pending, null, 'and then reads it: nothing pending');
    assert.equal((await call('verify-otp', 'a1', { email: 'after@example.com', otp: '123456' })).json.error.code, 'code_expired');
  });

  it('a clean-up that fails is logged; the receipt stands, and the code is not verified twice', async () => {
    failing = true;
    const email = 'fails@example.com';
    const verified = await verifyRight(email, 'a2');
    assert.equal(verified.status, 200);
    await call('config', 'a2');
    assert.ok(
      logs.some((entry) => entry.route === 'afterwards' && entry.error === 'Error'),
      JSON.stringify(logs),
    );
    failing = false;
    // The code is still live here, but the one typed was claimed: it is not checked again.
    const again = await call('verify-otp', 'a2', { email, otp: await codeSentTo(t.emu, email) });
    assert.equal(again.status, 422);
    assert.equal(again.json.error.message, 'That code was tried already.');
  });
});
