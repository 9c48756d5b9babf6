// Each shared store's cost to the handler: the store operations and the network round trips of
// one OTP flow (send, the right code, the host's receipt check) and of a send refused by a cap,
// counted where they leave or land (the commands ioredis sends, the Upstash gateway's requests); then the
// handler's CPU per send-otp on each, in a process of its own (one core). Figures, not a test.
// Usage: node --import tsx test/bench/stores.ts [N]   (after npm run build)
import { Redis as Upstash } from '@upstash/redis';
import { Redis } from 'ioredis';
import { startEmulator } from '../../src/emulator/index.js';
import { createVerifyHandler, MemoryStore, RedisStore, REDIS_CLIENT_OPTIONS, UpstashStore, type PlanAnswer, type PlanStep, type VerifyStore } from '../../src/server/index.js';
import { startRedis } from '../node/server/redis-server.js';
import { startUpstashGateway } from '../node/server/upstash-gateway.js';
// @ts-expect-error: a plain module of the bench, without types
import { startEmulatorAndHandler } from './processes.mjs';

const N = Number(process.argv[2] ?? 2000);
const ORIGIN = 'http://bench.test';
const redis = await startRedis();
const gateway = await startUpstashGateway(redis.port);
const emu = await startEmulator({ apiKeys: ['bench-key'] });

/**
 * An ioredis client that counts its writes to the socket: one round trip each, whether it carries
 * one command or a pipeline of those sent together (auto-pipelining); scripts run inside Redis.
 */
let redisSent = 0;
function countingRedis(): Redis {
  const client = new Redis({ port: redis.port, host: '127.0.0.1', ...REDIS_CLIENT_OPTIONS });
  client.on('connect', () => {
    const stream = (client as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
    const write = stream.write.bind(stream);
    stream.write = (...args) => (redisSent++, write(...args));
  });
  return client;
}

interface Counts {
  ops: number;
  trips: number;
}

/** One flow's store operations (counted on the way in) and what reached the engine, per step. */
async function flowCounts(name: string, make: () => VerifyStore, trips: () => Promise<number>) {
  let ops = 0;
  const real = make();
  const store = new Proxy(real, {
    get: (target, key) => {
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      if (key !== 'run') return (...args: unknown[]) => (ops++, value.apply(target, args));
      // A plan counts the operations it ran: its groups up to the one it stopped in (gates and group ends are none).
      return async (plan: PlanStep[]) => {
        const answer: PlanAnswer = await value.call(target, plan);
        const end = answer.stop ? plan.findIndex((step, i) => i >= answer.stop!.at && (step.op === 'gate' || step.op === 'check')) : -1;
        ops += (end < 0 ? plan : plan.slice(0, end)).filter((step) => step.op !== 'gate' && step.op !== 'check').length;
        return answer;
      };
    },
  });
  const handler = createVerifyHandler({
    baseUrl: emu.baseUrl,
    apiKey: 'bench-key',
    receiptSecret: 'bench-secret-bench-secret-bench-secret',
    allowedChannels: ['email'],
    getUser: () => null,
    getSessionId: (request) => request.headers.get('x-session'),
    getClientIp: () => '198.51.100.7',
    store,
    limits: { sendsPerSession: { max: 3, windowSeconds: 600 } },
  });
  // As on Workers or Vercel, waitUntil is passed: a right code's clean-up follows the answer, counted apart.
  const later: Promise<unknown>[] = [];
  const post = (route: string, body: object, session: string) =>
    handler(new Request(`${ORIGIN}/${route}`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json', 'x-session': session }, body: JSON.stringify(body) }), {
      waitUntil: (work: Promise<unknown>) => later.push(work),
    });
  async function step(work: () => Promise<unknown>): Promise<Counts> {
    const [opsBefore, tripsBefore] = [ops, await trips()];
    await work();
    return { ops: ops - opsBefore, trips: (await trips()) - tripsBefore };
  }
  // A first flow warms the scripts (EVAL once per script), as any running instance has.
  const flow = async (n: number) => {
    const email = `${name}${n}@example.com`;
    const session = `${name}-s${n}`;
    const send = await step(() => post('send-otp', { method: 'email', email }, session));
    const otp = emu.state.outbox.list(email)[0]!.code;
    let answer: Response | undefined;
    // Counted when the answer is there (the clean-up starts after it), then the clean-up.
    const verify = await step(async () => (answer = await post('verify-otp', { email, otp }, session)));
    const cleanUp = await step(() => Promise.all(later.splice(0)));
    const { receipt } = await answer!.json();
    const check = await step(() => handler.verifyReceipt(receipt, { session }));
    return { send, verify, cleanUp, check };
  };
  await flow(0);
  const counted = await flow(1);
  // A session past its cap of 3 sends: the refused sends that follow.
  const session = `${name}-flood`;
  for (let i = 0; i < 4; i++) await post('send-otp', { method: 'email', email: `${name}-flood${i}@example.com` }, session);
  const refused = await step(async () => {
    for (let i = 0; i < 10; i++) await post('send-otp', { method: 'email', email: `${name}-more${i}@example.com` }, session);
  });
  return { ...counted, refused: { ops: refused.ops / 10, trips: refused.trips / 10 } };
}

const upstash = () => new UpstashStore((options) => new Upstash({ url: gateway.url, token: gateway.token, ...options }), { prefix: `b${Math.random()}:` });
const rows = [
  ['MemoryStore', await flowCounts('memory', () => new MemoryStore(), async () => 0)],
  ['RedisStore (ioredis, TCP)', await flowCounts('redis', () => new RedisStore(countingRedis(), { prefix: `b${Math.random()}:` }), async () => redisSent)],
  ['UpstashStore (REST, HTTP)', await flowCounts('upstash', upstash, async () => gateway.requests)],
] as const;

const cell = (v: unknown, width: number) => String(v).padStart(width);
const pair = (c: Counts) => `${c.ops} / ${Number.isInteger(c.trips) ? c.trips : c.trips.toFixed(1)}`;
console.log('Store operations / network round trips, per step of one OTP flow (email) and per send refused by a cap');
console.log('(a right code\'s clean-up follows the answer: "after"; the whole flow counts what the person waits for, then all)');
console.log(`| ${'store'.padEnd(26)} | ${'send-otp'.padStart(9)} | ${'verify-otp'.padStart(10)} | ${'after'.padStart(6)} | ${'receipt'.padStart(8)} | ${'whole flow'.padStart(16)} | ${'refused send'.padStart(12)} |`);
console.log(`|${'-'.repeat(28)}|${'-'.repeat(11)}|${'-'.repeat(12)}|${'-'.repeat(8)}|${'-'.repeat(10)}|${'-'.repeat(18)}|${'-'.repeat(14)}|`);
for (const [name, { send, verify, cleanUp, check, refused }] of rows) {
  const waited = { ops: send.ops + verify.ops + check.ops, trips: send.trips + verify.trips + check.trips };
  const whole = `${pair(waited)} (${waited.trips + cleanUp.trips})`;
  console.log(`| ${name.padEnd(26)} | ${cell(pair(send), 9)} | ${cell(pair(verify), 10)} | ${cell(pair(cleanUp), 6)} | ${cell(pair(check), 8)} | ${cell(whole, 16)} | ${cell(pair(refused), 12)} |`);
}
console.log('(DurableObjectStore: one request to the key\'s Durable Object per operation, so its round trips are the operations; a Redis Cluster runs each operation on one master, as many commands as on one Redis)');

/** send-otp through the handler in a process of its own on `store`: throughput at 16 in flight and its CPU per request. */
async function cpuPerSend(store: string) {
  const { handlerUrl, stop } = await startEmulatorAndHandler({ store });
  try {
    let i = 0;
    const call = () => fetch(`${handlerUrl}/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(handlerUrl).origin }, body: JSON.stringify({ method: 'email', email: `cpu${i++ % 500}@example.com` }) });
    const run = async (count: number) => {
      let left = count;
      const begin = performance.now();
      await Promise.all(Array.from({ length: 16 }, async () => { while (left-- > 0) await (await call()).arrayBuffer(); }));
      return count / ((performance.now() - begin) / 1000);
    };
    await run(300);
    await fetch(new URL('/__bench/stats', handlerUrl));
    const rps = await run(N);
    const { cpuMicros, requests } = await (await fetch(new URL('/__bench/stats', handlerUrl))).json();
    return { rps, cpu: cpuMicros / requests };
  } finally {
    stop();
  }
}

console.log(`\nHandler CPU per send-otp by store (${N} sends, 16 in flight, the handler one Node process)`);
console.log(`| ${'store'.padEnd(26)} | ${'req/s'.padStart(7)} | ${'CPU µs/req'.padStart(10)} |`);
console.log(`|${'-'.repeat(28)}|${'-'.repeat(9)}|${'-'.repeat(12)}|`);
for (const [name, store] of [
  ['MemoryStore', 'memory'],
  ['RedisStore (ioredis, TCP)', `redis://127.0.0.1:${redis.port}`],
  ['UpstashStore (REST, HTTP)', `upstash:${gateway.url}|${gateway.token}`],
] as const) {
  const { rps, cpu } = await cpuPerSend(store);
  console.log(`| ${name.padEnd(26)} | ${cell(rps.toFixed(0), 7)} | ${cell(cpu.toFixed(0), 10)} |`);
}

await emu.close();
await gateway.close();
await redis.stop();
process.exit(0);
