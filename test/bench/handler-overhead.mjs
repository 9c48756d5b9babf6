#!/usr/bin/env node
// The host handler's cost on loopback, beside bare proxies (fetch, http.request) doing the least a server can
// for the same send (bare-proxy.mjs), from the Node entry and from the runtime-neutral one. The
// emulator and each server run in processes of their own (one core each); this one is the
// client. send-otp by email (free) N times each way, one at a time (latency), then 16 at a time
// (throughput, and the server's CPU time per request), the servers taking turns over five rounds,
// so that each ratio compares runs minutes apart at most: the median of each figure, and of the
// ratios to the bare fetch proxy taken round by round. Figures, not a test.
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

/** Latency one at a time. */
async function latency(url) {
  const call = url ? through(url) : direct;
  await timeEach(call, WARMUP);
  const times = await timeEach(call, N);
  return { times, ownTimes: url ? (await stats(url)).own : undefined };
}

const ROUNDS = 5;
const median = (values) => quantile(values, 0.5);
/** Throughput at 16 in flight and the server's CPU µs per request, in rounds: each server in turn, N / ROUNDS sends a turn. */
async function rounds(urls) {
  const runs = urls.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, url] of urls.entries()) {
      const call = url ? through(url) : direct;
      if (url) await stats(url);
      const rps = await throughput(call, Math.ceil(N / ROUNDS));
      const cpu = url ? await stats(url) : undefined;
      runs[k].push({ rps, cpuPerRequest: cpu && cpu.cpuMicros / cpu.requests });
    }
  }
  return runs;
}

const names = ['client -> emulator (direct)', 'client -> bare fetch proxy -> emulator', 'client -> bare http.request proxy -> emulator', 'client -> handler (core: fetch, Web Crypto)', 'client -> handler (Node entry) -> emulator'];
const urls = [undefined, bareProxyUrl, bareHttpProxyUrl, coreHandlerUrl, handlerUrl];
const latencies = [];
for (const url of urls) latencies.push(await latency(url));
for (const url of urls) if (url) await throughput(through(url), WARMUP);
const runs = await rounds(urls);
const rows = names.map((name, k) => {
  const cpus = runs[k].map((run) => run.cpuPerRequest);
  return [
    name,
    {
      ...latencies[k],
      rps: median(runs[k].map((run) => run.rps)),
      cpuPerRequest: urls[k] ? median(cpus) : undefined,
      // Against the bare fetch proxy's run of the same round.
      ratio: urls[k] ? median(cpus.map((cpu, round) => cpu / runs[1][round].cpuPerRequest)) : undefined,
      ratios: urls[k] ? cpus.map((cpu, round) => cpu / runs[1][round].cpuPerRequest) : undefined,
    },
  ];
});
const bare = rows[1][1].cpuPerRequest;

const ms = (v) => v.toFixed(3).padStart(8);
const cell = (v, width) => String(v ?? '').padStart(width);
console.log(`Host handler on loopback: send-otp (email), ${N} requests per row, Node ${process.version}`);
console.log(`| ${'measure'.padEnd(46)} | ${'p50 ms'.padStart(8)} | ${'p99 ms'.padStart(8)} | ${'req/s'.padStart(7)} | ${'CPU µs/req'.padStart(10)} | ${'× bare'.padStart(6)} |`);
console.log(`|${'-'.repeat(48)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(9)}|${'-'.repeat(12)}|${'-'.repeat(8)}|`);
for (const [name, { times, rps, cpuPerRequest, ratio }] of rows) {
  console.log(`| ${name.padEnd(46)} | ${ms(quantile(times, 0.5))} | ${ms(quantile(times, 0.99))} | ${cell(rps.toFixed(0), 7)} | ${cell(cpuPerRequest?.toFixed(0), 10)} | ${cell(ratio?.toFixed(2), 6)} |`);
}
const own = rows[4][1].ownTimes;
const floor = rows[2][1];
console.log(`| ${"handler's own work (its time less upstream)".padEnd(46)} | ${ms(quantile(own, 0.5))} | ${ms(quantile(own, 0.99))} | ${cell('', 7)} | ${cell('', 10)} | ${cell('', 6)} |`);
const handler = rows[4][1];
console.log(`Per core: the handler ${(1e6 / handler.cpuPerRequest).toFixed(0)} req/s, the bare http.request proxy ${(1e6 / floor.cpuPerRequest).toFixed(0)} (${(handler.cpuPerRequest / floor.cpuPerRequest).toFixed(2)}x its CPU per send), the bare fetch proxy ${(1e6 / bare).toFixed(0)}`);
console.log(`The Node entry against the bare fetch proxy, round by round: ${handler.ratios.map((r) => r.toFixed(2)).join(', ')}`);
console.log(`(req/s and CPU: ${CONCURRENCY} in flight, medians of ${ROUNDS} rounds, the servers in turn; each server is one Node process, so one core; CPU is the server process's user + system time)`);

process.exit(0);
