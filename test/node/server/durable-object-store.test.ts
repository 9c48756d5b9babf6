/**
 * DurableObjectStore on Cloudflare's own runtime: workerd, through Miniflare, with real Durable
 * Objects. Handler instances are separate Workers (each its own isolate) binding the objects a
 * store Worker exports; one person's calls go to each in turn. The store contract runs there too,
 * an operation per request.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from '../../../src/emulator/index.js';
import type { VerifyStore } from '../../../src/server/index.js';
import { KEY } from '../helpers.js';
import { ORIGIN, SECRET } from './handler-setup.js';
import { fleetSuite, storeContract, type FleetInstance } from './store-suites.js';
import { startWorkers, type WorkerFleet } from './workerd-fleet.js';

/** A POST from the site's page. */
const post = (body: object, session?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: ORIGIN, ...(session ? { 'x-test-session': session } : {}) },
  body: JSON.stringify(body),
});

let workers: WorkerFleet | undefined;
fleetSuite(
  'handler Workers on DurableObjectStore (workerd), one person round-robin',
  async (emu, count) => {
    workers = await startWorkers(count, emu.baseUrl, 'fleet:');
    const fleet = workers;
    return Array.from({ length: count }, (_, i): FleetInstance => ({
      post: (route, body, session) => fleet.fetch(i, `/verify/${route}`, post(body, session)),
      redeem: async (receipt, session) => (await fleet.fetch(i, '/receipt', post({ receipt, session }))).json() as Promise<string>,
    }));
  },
  async () => workers?.dispose(),
);

describe('DurableObjectStore', () => {
  let fleet: WorkerFleet;
  before(async () => (fleet = await startWorkers(1, 'http://127.0.0.1:9', 'unused:')));
  after(() => fleet?.dispose());

  /** A VerifyStore whose every operation runs in the Worker, on the Durable Objects. */
  const remote = (prefix: string): VerifyStore =>
    new Proxy({} as VerifyStore, {
      // DurableObjectStore has no `run`: a plan goes operation by operation, as the handler's does there.
      get: (_, method: string) =>
        method === 'run'
          ? undefined
          : async (...args: unknown[]) => {
              const response = await fleet.fetch(0, '/store', post({ method, args, prefix }));
              const answer = (await response.json()) as { value?: unknown; error?: string };
              if (answer.error) throw new Error(answer.error);
              return answer.value;
            },
    });

  storeContract('DurableObjectStore in workerd', () => remote(`c${Math.random()}:`));

  it('workerd restarted mid-flow (a deploy restarts every object): the code sent before verifies after, on another instance, and a receipt used before stays used', async () => {
    const emu = await startEmulator({ apiKeys: [KEY] });
    const restarting = await startWorkers(3, emu.baseUrl, 'restart:');
    try {
      const call = async (instance: number, route: string, body: object) => {
        const response = await restarting.fetch(instance, `/verify/${route}`, post(body, 'restart'));
        return { status: response.status, json: await response.json() };
      };
      assert.equal((await call(0, 'send-otp', { method: 'email', email: 'used@example.com' })).status, 200);
      const used = await call(1, 'verify-otp', { email: 'used@example.com', otp: emu.state.outbox.list('used@example.com')[0]!.code });
      const redeem = async (instance: number) => (await restarting.fetch(instance, '/receipt', post({ receipt: used.json.receipt, session: 'restart' }))).json();
      assert.equal(await redeem(2), 'accepted');
      assert.equal((await call(2, 'send-otp', { method: 'email', email: 'pending@example.com' })).status, 200);
      const boot = async () => (await restarting.fetch(1, '/boot')).json();
      const before = await boot();
      await restarting.restart();
      assert.notEqual(await boot(), before, 'the isolates started again');
      const verified = await call(1, 'verify-otp', { email: 'pending@example.com', otp: emu.state.outbox.list('pending@example.com')[0]!.code });
      assert.equal(verified.status, 200, JSON.stringify(verified.json));
      assert.equal(await redeem(0), 'replayed');
      // The cooldown started before the restart holds after it (its code used, a new one must wait).
      const again = await call(0, 'send-otp', { method: 'email', email: 'pending@example.com' });
      assert.equal(again.json.error?.code, 'rate_limited', JSON.stringify(again.json));
    } finally {
      await restarting.dispose();
      await emu.close();
    }
  });

  it('an outage of the Durable Objects (their fetch failing, or never answering): 503 within the store deadline, nothing sent or lost meanwhile, served again when they return', async () => {
    const emu = await startEmulator({ apiKeys: [KEY] });
    const down = await startWorkers(3, emu.baseUrl, 'outage:');
    try {
      const call = async (instance: number, route: string, body: object, session = 'outage') => {
        const response = await down.fetch(instance, `/verify/${route}`, post(body, session));
        return { status: response.status, json: await response.json() };
      };
      const redeem = async (instance: number, receipt: string) => (await down.fetch(instance, '/receipt', post({ receipt, session: 'outage' }))).json();
      const outage = (mode: string) => Promise.all([0, 1, 2].map((i) => down.fetch(i, `/outage?mode=${mode}`)));
      assert.equal((await call(0, 'send-otp', { method: 'email', email: 'used@example.com' })).status, 200);
      const { receipt } = (await call(1, 'verify-otp', { email: 'used@example.com', otp: emu.state.outbox.list('used@example.com')[0]!.code })).json;
      assert.equal(await redeem(2, receipt), 'accepted');
      assert.equal((await call(0, 'send-otp', { method: 'email', email: 'pending@example.com' })).status, 200);
      const sent = emu.state.outbox.list('new@example.com').length;
      for (const mode of ['fail', 'hang']) {
        await outage(mode);
        const answers = [];
        for (let i = 0; i < 6; i++) {
          const asked = performance.now();
          const answer = await call(i % 3, i % 2 ? 'send-otp' : 'verify-otp', i % 2 ? { method: 'email', email: 'new@example.com' } : { email: 'pending@example.com', otp: '000000' }, `s${i}`);
          answers.push({ status: answer.status, ms: performance.now() - asked });
        }
        assert.notEqual(await redeem(0, receipt), 'accepted');
        console.log(`Durable Objects ${mode === 'hang' ? 'never answering' : 'failing'}: ${answers.map((a) => `${a.status} in ${Math.round(a.ms)} ms`).join(', ')}`);
        assert.deepEqual([...new Set(answers.map((a) => a.status))], [503]);
        // A store call's deadline is 500 ms; the rest after it answers at once.
        assert.ok(Math.max(...answers.map((a) => a.ms)) < 1500, JSON.stringify(answers));
        await outage('');
      }
      assert.equal(emu.state.outbox.list('new@example.com').length, sent, 'nothing was sent while the store was down');
      const verified = await call(2, 'verify-otp', { email: 'pending@example.com', otp: emu.state.outbox.list('pending@example.com')[0]!.code });
      assert.equal(verified.status, 200, JSON.stringify(verified.json));
      assert.deepEqual(await Promise.all([0, 1, 2].map((i) => redeem(i, receipt))), ['replayed', 'replayed', 'replayed']);
    } finally {
      await down.dispose();
      await emu.close();
    }
  });

  it('refuses to be built without a namespace binding, naming it', async () => {
    const { DurableObjectStore } = await import('../../../src/server/index.js');
    assert.throws(() => new DurableObjectStore(undefined as never), /needs a Durable Object namespace binding of VerifyStoreObject, such as env\.VERIFY_STORE/);
  });
});
