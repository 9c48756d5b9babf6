/**
 * DurableObjectStore on Cloudflare's own runtime: workerd, through Miniflare, with real Durable
 * Objects. Handler instances are separate Workers (each its own isolate) binding the objects a
 * store Worker exports; one person's calls go to each in turn. The store contract runs there too,
 * an operation per request.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { startEmulator } from '../../../src/emulator/index.js';
import type { VerifyStore } from '../../../src/server/index.js';
import { KEY } from '../helpers.js';
import { ORIGIN, SECRET } from './handler-setup.js';
import { FLEET_LIMITS, fleetSuite, storeContract, type FleetInstance } from './store-suites.js';

const COMPATIBILITY_DATE = '2025-09-01';

/** A Worker's script as Wrangler would bundle it: one ES module, no Node built-in to lean on. */
async function bundle(name: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./workers/${name}.js`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser', 'import', 'default'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

interface WorkerFleet {
  fetch(instance: number, path: string, init?: RequestInit): Promise<Response>;
  /** workerd started again on the same options, as a deploy restarts every isolate and object; the objects' storage stays. */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

/** The store Worker and `count` handler Workers, each binding the store's Durable Objects. */
async function startWorkers(count: number, serviceBaseUrl: string, prefix: string): Promise<WorkerFleet> {
  const [store, handler] = await Promise.all([bundle('store-worker'), bundle('fleet-worker')]);
  const names = Array.from({ length: count }, (_, i) => `instance${i}`);
  const options = {
    workers: [
      { name: 'store', modules: true, script: store, compatibilityDate: COMPATIBILITY_DATE, durableObjects: { VERIFY_STORE: 'VerifyStoreObject' } },
      ...names.map((name) => ({
        name,
        // dispatchFetch routes by host: http://instance<i>/ reaches that Worker.
        routes: [`${name}/*`],
        modules: true,
        script: handler,
        compatibilityDate: COMPATIBILITY_DATE,
        bindings: { SERVICE_BASE_URL: serviceBaseUrl, SERVICE_API_KEY: KEY, RECEIPT_SECRET: SECRET, PREFIX: prefix, ORIGIN, LIMITS: JSON.stringify(FLEET_LIMITS) },
        durableObjects: { VERIFY_STORE: { className: 'VerifyStoreObject', scriptName: 'store' } },
      })),
    ],
  };
  const mf = new Miniflare(options);
  await mf.ready;
  return {
    fetch: async (instance, path, init) => (await mf.dispatchFetch(`http://instance${instance}${path}`, init as never)) as unknown as Response,
    restart: () => mf.setOptions(options),
    dispose: () => mf.dispose(),
  };
}

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
      get: (_, method: string) => async (...args: unknown[]) => {
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

  it('refuses to be built without a namespace binding, naming it', async () => {
    const { DurableObjectStore } = await import('../../../src/server/index.js');
    assert.throws(() => new DurableObjectStore(undefined as never), /needs a Durable Object namespace binding of VerifyStoreObject, such as env\.VERIFY_STORE/);
  });
});
