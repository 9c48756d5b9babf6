/**
 * UpstashStore: Redis over the Upstash REST protocol, through the real `@upstash/redis` client, a
 * small gateway in the test folder and a real redis-server. The store contract and the fleet's
 * flows pass as on RedisStore; each operation is one HTTP request; a key seen past its cap is
 * refused without one; and Redis stopped in the middle of a person's flow costs fast 503s and nothing else.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from '@upstash/redis';
import { EdgeVM } from '@edge-runtime/vm';
import { startEmulator } from '../../../src/emulator/index.js';
import { UPSTASH_CLIENT_OPTIONS, UpstashStore } from '../../../src/server/index.js';
import { KEY, until } from '../helpers.js';
import { bundleForEdge } from './edge-bundle.js';
import { codeSentTo, ORIGIN, SECRET, setup } from './handler-setup.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { fleetFlows, redeem, storeContract } from './store-suites.js';
import { startUpstashGateway, type UpstashGateway } from './upstash-gateway.js';

let redis: RedisServer;
let gateway: UpstashGateway;
before(async () => {
  redis = await startRedis();
  gateway = await startUpstashGateway(redis.port);
  // The first request of a process pays for its HTTP connection and more; on a loaded machine that
  // passes the client's 400 ms abort. The contract is about answers, not a cold start: wait for one.
  await until('the gateway answers through the client', async () => (await client(UPSTASH_CLIENT_OPTIONS).ping().catch(() => null)) === 'PONG', 10_000, 100);
});
after(async () => {
  await gateway?.close();
  await redis?.stop();
});

const client = (options: typeof UPSTASH_CLIENT_OPTIONS) => new Redis({ url: gateway.url, token: gateway.token, ...options });

storeContract('UpstashStore', () => new UpstashStore(client, { prefix: `u${Math.random()}:` }));
fleetFlows('handler instances on Redis over the Upstash REST protocol', () => new UpstashStore(client, { prefix: 'fleet:' }));

/** The requests the gateway answered while `work` ran, and the commands they carried. */
async function roundTrips(work: () => Promise<unknown>): Promise<{ requests: number; commands: string[] }> {
  const [requests, commands] = [gateway.requests, gateway.commands.length];
  await work();
  return { requests: gateway.requests - requests, commands: gateway.commands.slice(commands) };
}

describe('UpstashStore', () => {
  it('builds its client with the options that keep values as stored and send each request once, and refuses a client built elsewhere', () => {
    const given: unknown[] = [];
    new UpstashStore((options) => (given.push(options), client(options)));
    assert.deepEqual(given.map((options) => ({ ...(options as object), signal: typeof (options as { signal: unknown }).signal })), [
      { retry: { retries: 0 }, automaticDeserialization: false, signal: 'function' },
    ]);
    // A client made elsewhere may parse values or re-send requests (@upstash/redis keeps its options private).
    assert.throws(() => new UpstashStore(new Redis({ url: gateway.url, token: gateway.token }) as never), {
      name: 'TypeError',
      message: /builds its client from the options it gives: new UpstashStore\(\(options\) => Redis\.fromEnv\(options\)\)/,
    });
  });

  it('keeps values as they were stored: numbers, JSON and non-ASCII text come back as the same strings', async () => {
    const store = new UpstashStore(client, { prefix: 'values:' });
    for (const value of ['1', '"sms"', '{"a":1}', 'رمز ✓', 'OK']) {
      await store.set('v', 60, value);
      assert.equal(await store.get('v'), value);
      await store.claim('c', 60, value);
      assert.equal(await store.take('c'), value);
    }
  });

  it('one HTTP request per operation: EVALSHA, and EVAL once where Redis has not the script yet', async () => {
    await client(UPSTASH_CLIENT_OPTIONS).scriptFlush();
    const store = new UpstashStore(client, { prefix: `trips${Math.random()}:` });
    const first = await roundTrips(() => store.increment('n', 60));
    assert.deepEqual(first, { requests: 2, commands: ['EVALSHA', 'EVAL'] });
    // Redis keeps a script EVAL ran: every later call, from any instance, is one EVALSHA.
    const other = new UpstashStore(client, { prefix: 'trips-other:' });
    for (const operation of [() => store.increment('n', 60), () => other.increment('n', 60)]) {
      assert.deepEqual(await roundTrips(operation), { requests: 1, commands: ['EVALSHA'] });
    }
    for (const [operation, command] of [
      [() => store.claim('c', 60), 'EVAL'],
      [() => store.claim('d', 60), 'EVALSHA'],
      [() => store.set('s', 60, 'x'), 'SET'],
      // A read is a script too, so that it travels with the writes a request issues beside it.
      [() => store.get('s'), 'EVAL'],
      [() => store.get('s'), 'EVALSHA'],
      [() => store.delete('s'), 'DEL'],
    ] as const) {
      assert.equal((await roundTrips(operation)).requests, command === 'EVAL' ? 2 : 1, command);
    }
  });

  it('reads and writes issued together go in one HTTP request (the client pipelines reads apart from writes: a read is a script)', async () => {
    const store = new UpstashStore(client, { prefix: `together${Math.random()}:` });
    // Each script loaded first (a first use is EVALSHA, then EVAL).
    await Promise.all([store.get('warm'), store.claim('warm', 60), store.spend('warm', 5, 60, 0)]);
    const together = await roundTrips(() => Promise.all([store.claim('a', 60), store.get('b'), store.set('c', 60, 'x'), store.get('c'), store.spend('d', 5, 60, 0)]));
    assert.equal(together.requests, 1, together.commands.join(' '));
  });

  it('remembers a key past its cap until its window ends: refused calls cost no request, a count given back asks again', async () => {
    const prefix = `blocked${Math.random()}:`;
    const store = new UpstashStore(client, { prefix });
    const counts: number[] = [];
    const trips = await roundTrips(async () => {
      for (let i = 0; i < 20; i++) counts.push((await store.increment('ip', 60, 3)).count);
    });
    assert.deepEqual(counts, [1, 2, 3, 4, ...Array(16).fill(4)]);
    assert.equal(trips.requests, 4);
    // Another instance has no memory of it: its first call asks Redis, which counted four.
    const other = new UpstashStore(client, { prefix });
    assert.equal((await other.increment('ip', 60, 3)).count, 5);
    // A count given back may bring the key under its cap: the next call asks Redis again.
    await store.decrement('ip');
    const after = await roundTrips(async () => assert.equal((await store.increment('ip', 60, 3)).count, 5));
    assert.equal(after.requests, 1);
  });

  it('refuses at once, with the seconds left, for as long as the window lasts', async () => {
    const store = new UpstashStore(client, { prefix: `window${Math.random()}:` });
    for (let i = 0; i < 3; i++) await store.increment('w', 2, 1);
    const cached = await store.increment('w', 2, 1);
    assert.equal(cached.count, 2);
    assert.ok(cached.ttl >= 1 && cached.ttl <= 2, `ttl ${cached.ttl}`);
    // Once the window ends, Redis is asked again and the count starts over.
    await until('the window to end', async () => (await store.increment('w', 2, 1)).count === 1, 5000, 200);
  });

  it('a refusal whose answer came late holds the key no longer than Redis does: once Redis has one back, it is spent', async () => {
    // The answer of the refusal is held 600 ms on its way back (a loaded machine, a slow network);
    // the read after it is not. The key must not stay refused here after Redis gives one back.
    const late: typeof client = (options) => {
      const redis = client(options);
      const createScript = redis.createScript.bind(redis);
      return Object.assign(redis, {
        createScript: (script: string) => {
          const inner = createScript(script);
          return { exec: async (keys: string[], args: string[]) => {
            const reply = await inner.exec(keys, args);
            if (Array.isArray(reply) && reply[0] === 0) await new Promise((r) => setTimeout(r, 600));
            return reply;
          } };
        },
      });
    };
    const store = new UpstashStore(late, { prefix: `late${Math.random()}:` });
    assert.equal((await store.spend('b', 1, 2)).spent, true);
    assert.equal((await store.spend('b', 1, 2)).spent, false);
    await until('Redis to have one back', async () => (await store.spend('b', 1, 2, 0)).spent, 5000, 20);
    assert.equal((await store.spend('b', 1, 2)).spent, true);
  });
});

describe('Redis out of reach behind the REST gateway, in the middle of a flow', () => {
  for (const outage of ['stopped', 'frozen (SIGSTOP): the gateway waits on it'] as const) it(`${outage}: fast 503s while down; after it returns, the code sent before is verified on another instance, and its receipt is used once`, async () => {
    const t = await setup({ store: new UpstashStore(client, { prefix: `outage${outage.length}:` }), limits: { resendCooldownSeconds: 0 } }, {}, 3);
    const stopped = outage === 'stopped';
    try {
      assert.equal((await t.call('send-otp', { method: 'email', email: 'mid@example.com' }, { session: 'mid' })).status, 200);
      const otp = await codeSentTo(t.emu, 'mid@example.com');
      if (stopped) await redis.kill();
      else redis.freeze(true);
      const whileDown = [];
      for (let i = 0; i < 9; i++) {
        const asked = performance.now();
        const res = await t.call('verify-otp', { email: 'mid@example.com', otp }, { session: 'mid' });
        whileDown.push({ status: res.status, ms: performance.now() - asked });
      }
      assert.deepEqual([...new Set(whileDown.map((a) => a.status))], [503]);
      const slowest = Math.max(...whileDown.map((a) => a.ms));
      assert.ok(slowest < 1000, `slowest answer while down ${Math.round(slowest)} ms`);
      if (stopped) await redis.restart();
      else redis.freeze(false);
      const back = performance.now();
      let verified;
      await until('a verify to succeed after Redis returned', async () => {
        verified = await t.call('verify-otp', { email: 'mid@example.com', otp }, { session: 'mid' });
        assert.ok([200, 503].includes(verified.status), JSON.stringify(verified.json));
        return verified.status === 200;
      }, 5000, 50);
      const backMs = performance.now() - back;
      console.log(`Upstash REST, Redis ${outage}: ${whileDown.length} answers of 503 (slowest ${Math.round(slowest)} ms); verified ${Math.round(backMs)} ms after its return`);
      assert.ok(backMs < 2000, `normal ${Math.round(backMs)} ms after Redis returned`);
      const { receipt } = verified!.json;
      const outcomes = [];
      for (const handler of t.handlers) outcomes.push(await redeem(handler, receipt));
      assert.deepEqual(outcomes, ['accepted', 'replayed', 'replayed']);
    } finally {
      await t.close();
    }
  });
});

describe("UpstashStore in Vercel's Edge runtime", () => {
  it('three Edge VMs, each with its own client and store, one person round-robin: sent on one, verified on the next, the receipt used once', async () => {
    const emu = await startEmulator({ apiKeys: [KEY] });
    try {
      // What a Next.js edge route bundles: the package's server entry and @upstash/redis, no Node.
      const { code, inputs } = await bundleForEdge("export * from './dist/server/index.js'; export { Redis } from '@upstash/redis';");
      assert.deepEqual(inputs.filter((i) => i.startsWith('node:')), []);
      const instances = Array.from({ length: 3 }, () => {
        const vm = new EdgeVM();
        vm.evaluate(code);
        vm.evaluate(`
          const { createVerifyHandler, UpstashStore, Redis } = VerifyServer;
          const handler = createVerifyHandler({
            baseUrl: ${JSON.stringify(emu.baseUrl)},
            apiKey: ${JSON.stringify(KEY)},
            basePath: '/verify',
            receiptSecret: ${JSON.stringify(SECRET)},
            allowedChannels: ['email'],
            store: new UpstashStore((options) => new Redis({ url: ${JSON.stringify(gateway.url)}, token: ${JSON.stringify(gateway.token)}, ...options }), { prefix: 'edge:' }),
            getUser: () => null,
            getSessionId: () => 'edge-session',
            getClientIp: () => '203.0.113.9',
          });
          globalThis.call = async (route, body) => {
            const response = await handler(new Request(${JSON.stringify(ORIGIN)} + '/verify/' + route, {
              method: 'POST',
              headers: { origin: ${JSON.stringify(ORIGIN)}, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            }));
            return { status: response.status, json: await response.json() };
          };
          globalThis.check = (receipt) => handler.verifyReceipt(receipt, { session: 'edge-session' }).then(() => 'accepted', (error) => error.reason);
        `);
        assert.equal(vm.evaluate('typeof require + typeof process'), 'undefinedundefined');
        return { call: vm.evaluate('call') as (route: string, body: unknown) => Promise<{ status: number; json: any }>, check: vm.evaluate('check') as (receipt: string) => Promise<string> };
      });
      const sent = await instances[0]!.call('send-otp', { method: 'email', email: 'edge@example.com' });
      assert.equal(sent.status, 200, JSON.stringify(sent.json));
      const otp = await codeSentTo(emu, 'edge@example.com');
      const wrong = await instances[1]!.call('verify-otp', { email: 'edge@example.com', otp: otp === '000000' ? '111111' : '000000' });
      assert.equal(wrong.json.error?.code, 'wrong_code');
      const verified = await instances[2]!.call('verify-otp', { email: 'edge@example.com', otp });
      assert.equal(verified.status, 200, JSON.stringify(verified.json));
      assert.deepEqual([await instances[0]!.check(verified.json.receipt), await instances[1]!.check(verified.json.receipt), await instances[2]!.check(verified.json.receipt)], ['accepted', 'replayed', 'replayed']);
    } finally {
      await emu.close();
    }
  });
});
