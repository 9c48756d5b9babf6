/**
 * The liveness check's cost: CPU per check on one core with the models warm (budget: at most 0.5 s),
 * the process's memory with them loaded, and, with 20 checks sent at once, how late the event
 * loop runs and how long an OTP send through the same handler takes meanwhile (budget: lag under
 * 50 ms). Figures, not a test. `node --import tsx test/bench/liveness.ts [checks]`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { availableParallelism } from 'node:os';
// @ts-expect-error: a JavaScript module of the benchmarks, without types.
import { KEY, startEmulatorProcess } from './processes.mjs';
import { createFacePool, createVerifyHandler } from '../../src/server/node/index.js';
import { LIVENESS_MOVES, type LivenessChallenge } from '../../src/core/protocol.js';
import { presenter } from '../node/liveness/live-capture.js';

const checks = Number(process.argv[2] ?? 20);
const emu = await startEmulatorProcess();
const before = process.memoryUsage().rss;
const pool = createFacePool();
const references = new Map<string, string>();
const handler = createVerifyHandler({
  baseUrl: emu.url,
  apiKey: KEY,
  basePath: '/verify',
  receiptSecret: 'bench-receipt-secret-0123456789abcdef',
  allowedChannels: ['email'],
  getUser: (request) => request.headers.get('x-user'),
  getSessionId: (request) => request.headers.get('x-session'),
  getClientIp: () => '127.0.0.1',
  getReference: (user, kind) => references.get(`${user}:${kind}`) ?? null,
  saveReference: (user, kind, sample) => void references.set(`${user}:${kind}`, sample),
  canEnroll: () => true,
  liveness: pool,
  limits: { biometricAttempts: { max: 1e6, windowSeconds: 60 }, sendsPerSession: { max: 1e6, windowSeconds: 60 }, sendsPerIp: { max: 1e6, windowSeconds: 60 }, resendCooldownSeconds: 0 },
});
const call = async (route: string, body: object | string, user: string, session: string) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await handler(new Request(`http://bench.test/verify/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://bench.test', 'x-user': user, 'x-session': session }, body: text }));
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const person = await presenter(pool, 'obama_1');

// The person's answers, drawn and written as JSON before anything is measured: drawing a head, and
// writing 300 KB of frames, are the browser's work, not the handler's, though they share this process.
const answers = new Map<string, string>();
const answerTo = (moves: string[]) => answers.get(moves.join()) ?? '[]';
for (const a of LIVENESS_MOVES) for (const b of LIVENESS_MOVES) if (a !== b) answers.set(`${a},${b}`, JSON.stringify(person.answer([a, b])));

/** One live verification: a challenge, then its frames; the CPU the workers spent on its frames. */
async function check(i: number): Promise<{ status: number; cpuMs: number; ms: number }> {
  const session = `s${i}`;
  const { nonce, moves } = (await call('liveness-challenge', {}, 'obama', session)).json as LivenessChallenge;
  const started = performance.now();
  const body = `{"nonce":${JSON.stringify(nonce)},"frames":${answerTo(moves)}}`;
  const { status } = await call(references.has('obama:face') ? 'verify-by-face' : 'enroll-face', body, 'obama', session);
  return { status, cpuMs: pool.lastCpuMs, ms: performance.now() - started };
}

// Warm: the models load in each worker on its first check.
for (let i = 0; i < 4; i++) await check(i);
const alone: number[] = [];
for (let i = 0; i < 9; i++) alone.push((await check(100 + i)).cpuMs);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const lag = monitorEventLoopDelay({ resolution: 5 });
lag.enable();
const sends: number[] = [];
let running = true;
const sender = (async () => {
  for (let i = 0; running; i++) {
    const started = performance.now();
    await call('send-otp', { method: 'email', email: `bench${i}@example.test` }, '', `otp${i}`);
    sends.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
const started = performance.now();
const results = await Promise.all(Array.from({ length: checks }, (_, i) => check(1000 + i)));
const wall = performance.now() - started;
running = false;
await sender;
lag.disable();

const memory = process.memoryUsage();
console.log(`${checks} checks at once, each a challenge and 3 frames of 640 x 480, on ${availableParallelism() - 1 || 1} worker thread(s)`);
console.log(`CPU per check, models warm (budget <= 500 ms on one core): median ${median(alone).toFixed(0)} ms (${alone.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`${checks} at once: all answered ${[...new Set(results.map((r) => r.status))].join('/')} in ${(wall / 1000).toFixed(1)} s; slowest ${Math.max(...results.map((r) => r.ms)).toFixed(0)} ms`);
console.log(`meanwhile: event-loop lag p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms (budget < 50 ms); ${sends.length} OTP sends, p50 ${median(sends).toFixed(1)} ms, max ${Math.max(...sends).toFixed(1)} ms`);
console.log(`memory with the models loaded: RSS ${(memory.rss / 2 ** 20).toFixed(0)} MB (budget <= 400 MB), of which this process held ${(before / 2 ** 20).toFixed(0)} MB before the face pool started (the handler, the test's loader); external ${(memory.external / 2 ** 20).toFixed(0)} MB`);
await pool.close();
emu.child.kill();
