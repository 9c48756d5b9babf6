/**
 * The site-wide counters on Durable Objects (`sends:site`, `guesses:site`: one object each for
 * every request of the site) against the same increments spread over many objects, in workerd
 * (Miniflare) on this machine: increments a second through one object, and through 16. Figures for
 * the benchmarks page, not a test: Cloudflare's own ceiling per object is its documented one.
 * Usage: node --import tsx test/bench/durable-objects.ts [ops]
 */
import { startWorkers } from '../node/server/workerd-fleet.js';

const OPS = Number(process.argv[2] ?? 4000);
const fleet = await startWorkers(1, 'http://127.0.0.1:9', 'bench:');
try {
  const rates: string[] = [];
  for (const keys of [1, 16]) {
    for (const concurrency of [1, 32]) {
      const hammer = async () =>
        (await (await fleet.fetch(0, '/hammer', { method: 'POST', body: JSON.stringify({ keys, ops: OPS, concurrency, prefix: `b${keys}-${concurrency}:` }) })).json()) as number;
      await hammer(); // warm: objects created, code compiled
      const ms = await hammer();
      rates.push(`${keys === 1 ? 'one object' : `${keys} objects`}, ${concurrency} at a time: ${Math.round((OPS / ms) * 1000).toLocaleString('en')} increments/s`);
    }
  }
  console.log(`Durable Objects in workerd (Miniflare), ${OPS} increments from one Worker: ${rates.join('; ')}`);
} finally {
  await fleet.dispose();
}
