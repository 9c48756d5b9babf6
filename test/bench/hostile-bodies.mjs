#!/usr/bin/env node
// What hostile bodies cost everyone else: while one client keeps posting bodies the handler must
// refuse (4 MB of nested JSON, a body over the cap, a body that trickles in), how long do other
// callers' requests take? Each attack runs beside N sequential email sends by another caller;
// the figures are those sends' latencies, and what the attacker was answered. Figures, not a test.
// Usage: node test/bench/hostile-bodies.mjs [N]   (after npm run build)
import { request } from 'node:http';
import { startEmulatorAndHandler } from './processes.mjs';

const N = Number(process.argv[2] ?? 500);
const { handlerUrl, stop } = await startEmulatorAndHandler();
const origin = new URL(handlerUrl).origin;

let i = 0;
async function victimSend() {
  const begin = performance.now();
  const response = await fetch(`${handlerUrl}/send-otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ method: 'email', email: `victim${i++ % 500}@example.com` }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`victim: status ${response.status}`);
  return performance.now() - begin;
}

/** One hostile POST to the face route by a signed-in caller; resolves with the status (or the error). */
function hostile({ body, declared = true, trickleMs = 0 }) {
  return new Promise((resolve) => {
    const begin = performance.now();
    const headers = { 'content-type': 'application/json', origin, 'x-bench-user': 'attacker' };
    if (declared) headers['content-length'] = String(body.byteLength);
    const req = request(`${handlerUrl}/verify-by-face`, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - begin }));
    });
    req.on('error', (error) => resolve({ status: error.code ?? error.message, ms: performance.now() - begin }));
    if (!trickleMs) return void req.end(body);
    // A few bytes at a time, never finishing within any sane deadline.
    let at = 0;
    const timer = setInterval(() => {
      if (req.destroyed || at >= body.byteLength) return clearInterval(timer), req.end();
      req.write(body.subarray(at, (at += 16)));
    }, trickleMs);
  });
}

const FOUR_MB = 4 * 1024 * 1024 - 64;
const half = (FOUR_MB - '{"query_face_image":}'.length) / 2;
const attacks = {
  'none (baseline)': null,
  '4 MB of nested JSON ([[[[...]]]])': { body: Buffer.from(`{"query_face_image":${'['.repeat(half)}${']'.repeat(half)}}`) },
  '4 MB of nested JSON, no declared length': { body: Buffer.from(`{"query_face_image":${'['.repeat(half)}${']'.repeat(half)}}`), declared: false },
  '6 MB body, over the cap': { body: Buffer.alloc(6 * 1024 * 1024, 0x20) },
  '20 bodies trickling in, 16 bytes / 200 ms': { body: Buffer.from(`{"query_face_image":"${'A'.repeat(4096)}"}`), trickleMs: 200, parallel: 20 },
};

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const ms = (v) => (v === undefined ? '-' : v.toFixed(1)).padStart(8);
console.log(`Hostile bodies to the host handler on loopback: ${N} email sends by another caller during each attack, Node ${process.version}`);
console.log(`| ${'attack'.padEnd(42)} | ${'p50 ms'.padStart(8)} | ${'p99 ms'.padStart(8)} | ${'max ms'.padStart(8)} | attacker answered`);
console.log(`|${'-'.repeat(44)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(10)}|------------------`);
for (let k = 0; k < 100; k++) await victimSend();
for (const [name, attack] of Object.entries(attacks)) {
  let running = Boolean(attack);
  const answers = new Map();
  const attacker = async () => {
    while (running) {
      const { status, ms } = await hostile(attack);
      const seen = answers.get(status) ?? { count: 0, ms: 0 };
      answers.set(status, { count: seen.count + 1, ms: Math.max(seen.ms, ms) });
    }
  };
  const attackers = attack ? Array.from({ length: attack.parallel ?? 1 }, attacker) : [];
  const times = [];
  for (let k = 0; k < N; k++) times.push(await victimSend());
  running = false;
  await Promise.all(attackers);
  const told = [...answers].map(([status, { count, ms }]) => `${count}x ${status} (slowest ${Math.round(ms)} ms)`).join(', ') || '-';
  console.log(`| ${name.padEnd(42)} | ${ms(quantile(times, 0.5))} | ${ms(quantile(times, 0.99))} | ${ms(Math.max(...times))} | ${told}`);
}

stop();
