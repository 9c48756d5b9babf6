#!/usr/bin/env node
// The host handler's cost on loopback, beside bare proxies (fetch, http.request) doing the least a server can
// for the same send (bare-proxy.mjs), from the Node entry and from the runtime-neutral one. The
// emulator and each server run in processes of their own (one core each); this one is the
// client. send-otp by email (free) N times each way, one at a time (latency), then 16 at a time
// (throughput, and the server's CPU time per request over that run). Figures, not a test.
// Usage: node test/bench/handler-overhead.mjs [N]   (after npm run build)
import { KEY, startEmulatorAndHandler } from './processes.mjs';

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 300;
const CONCURRENCY = 16;
const { emulatorUrl, handlerUrl, bareProxyUrl, bareHttpProxyUrl, coreHandlerUrl, stop } = await startEmulatorAndHandler({ baselines: true });
// The servers end with this process, however it ends (a failed request throws).
process.on('exit', stop);

let i = 0;
const body = () => JSON.stringify({ method: 'email', email: `bench${i++ % 500}@example.com` });
const direct = () =>
  fetch(`${emulatorUrl}/send-otp`, { method: 'POST', headers: { 'X-Authorization': KEY, Accept: 'application/json', 'Content-Type': 'application/json' }, body: body() });
const through = (url) => () => fetch(`${url}/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(url).origin }, body: body() });

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

const stats = async (url) => (await fetch(new URL('/__bench/stats', url))).json();
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/** Latency one at a time, then throughput with the server's CPU µs per request over that run. */
async function measure(url) {
  const call = url ? through(url) : direct;
  await timeEach(call, WARMUP);
  const times = await timeEach(call, N);
  const own = url ? await stats(url) : undefined;
  const rps = await throughput(call, N);
  const cpu = url ? await stats(url) : undefined;
  return { times, rps, ownTimes: own?.own, cpuPerRequest: cpu && cpu.cpuMicros / cpu.requests };
}

const rows = [
  ['client -> emulator (direct)', await measure()],
  ['client -> bare fetch proxy -> emulator', await measure(bareProxyUrl)],
  ['client -> bare http.request proxy -> emulator', await measure(bareHttpProxyUrl)],
  ['client -> handler (core: fetch, Web Crypto)', await measure(coreHandlerUrl)],
  ['client -> handler (Node entry) -> emulator', await measure(handlerUrl)],
];
const bare = rows[1][1].cpuPerRequest;

const ms = (v) => v.toFixed(3).padStart(8);
const cell = (v, width) => String(v ?? '').padStart(width);
console.log(`Host handler on loopback: send-otp (email), ${N} requests per row, Node ${process.version}`);
console.log(`| ${'measure'.padEnd(46)} | ${'p50 ms'.padStart(8)} | ${'p99 ms'.padStart(8)} | ${'req/s'.padStart(7)} | ${'CPU µs/req'.padStart(10)} | ${'× bare'.padStart(6)} |`);
console.log(`|${'-'.repeat(48)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(9)}|${'-'.repeat(12)}|${'-'.repeat(8)}|`);
for (const [name, { times, rps, cpuPerRequest }] of rows) {
  console.log(`| ${name.padEnd(46)} | ${ms(quantile(times, 0.5))} | ${ms(quantile(times, 0.99))} | ${cell(rps.toFixed(0), 7)} | ${cell(cpuPerRequest?.toFixed(0), 10)} | ${cell(cpuPerRequest && (cpuPerRequest / bare).toFixed(2), 6)} |`);
}
const own = rows[4][1].ownTimes;
const floor = rows[2][1];
console.log(`| ${"handler's own work (its time less upstream)".padEnd(46)} | ${ms(quantile(own, 0.5))} | ${ms(quantile(own, 0.99))} | ${cell('', 7)} | ${cell('', 10)} | ${cell('', 6)} |`);
const handler = rows[4][1];
console.log(`Per core: the handler ${(1e6 / handler.cpuPerRequest).toFixed(0)} req/s, the bare http.request proxy ${(1e6 / floor.cpuPerRequest).toFixed(0)} (${(handler.cpuPerRequest / floor.cpuPerRequest).toFixed(2)}x its CPU per send), the bare fetch proxy ${(1e6 / bare).toFixed(0)}`);
console.log(`(req/s and CPU: ${CONCURRENCY} in flight; each server is one Node process, so one core; CPU is the server process's user + system time)`);

process.exit(0);
