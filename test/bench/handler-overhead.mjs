#!/usr/bin/env node
// The host handler's added latency over a direct call to the emulator, on loopback. The emulator
// and the handler run in processes of their own; this one is the client. send-otp by email (free)
// N times each way, one at a time, then 16 at a time for throughput. Figures, not a test.
// Usage: node test/bench/handler-overhead.mjs [N]   (after npm run build)
import { KEY, startEmulatorAndHandler } from './processes.mjs';

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 300;
const CONCURRENCY = 16;
const { emulatorUrl, handlerUrl, stop } = await startEmulatorAndHandler();

let i = 0;
const body = () => JSON.stringify({ method: 'email', email: `bench${i++ % 500}@example.com` });
const direct = () =>
  fetch(`${emulatorUrl}/send-otp`, { method: 'POST', headers: { 'X-Authorization': KEY, Accept: 'application/json', 'Content-Type': 'application/json' }, body: body() });
const viaHandler = () =>
  fetch(`${handlerUrl}/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(handlerUrl).origin }, body: body() });

async function timeEach(call, count) {
  const times = [];
  for (let k = 0; k < count; k++) {
    const begin = performance.now();
    const response = await call();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`status ${response.status}`);
    times.push(performance.now() - begin);
  }
  return times;
}

async function throughput(call, count) {
  const begin = performance.now();
  let left = count;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (left-- > 0) await (await call()).arrayBuffer(); }));
  return count / ((performance.now() - begin) / 1000);
}

const stats = async () => (await fetch(new URL('/__bench/stats', handlerUrl))).json();
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

await timeEach(direct, WARMUP);
await timeEach(viaHandler, WARMUP);
await stats();
const directTimes = await timeEach(direct, N);
const handlerTimes = await timeEach(viaHandler, N);
const ownWork = await stats();
const rpsDirect = await throughput(direct, N);
const rpsHandler = await throughput(viaHandler, N);

const ms = (v) => v.toFixed(3).padStart(8);
const row = (name, values, rps = '') => `| ${name.padEnd(44)} | ${ms(quantile(values, 0.5))} | ${ms(quantile(values, 0.99))} | ${String(rps).padStart(7)} |`;
console.log(`Host handler on loopback: send-otp (email), ${N} sequential requests per row, Node ${process.version}`);
console.log(`| ${'measure'.padEnd(44)} | ${'p50 ms'.padStart(8)} | ${'p99 ms'.padStart(8)} | ${'req/s'.padStart(7)} |`);
console.log(`|${'-'.repeat(46)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(9)}|`);
console.log(row('client -> emulator (direct)', directTimes, rpsDirect.toFixed(0)));
console.log(row('client -> handler -> emulator', handlerTimes, rpsHandler.toFixed(0)));
console.log(row("handler's own work (its time less upstream)", ownWork));
console.log(`(req/s: ${CONCURRENCY} in flight; the handler is one Node process, so one core)`);

stop();
