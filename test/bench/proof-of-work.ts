/**
 * What friction costs a person on a phone-class CPU (Chromium throttled 4x), beside its budget: the
 * owner's total proof-of-work time under pressure at most 30 s. The handler asks the owner for one
 * proof on the send and one on the verify at most (handler-guessing.test.ts), each of at most
 * `maxWork` hashes: the worst is two proofs whose answer is the last counter tried, timed here in
 * the widget's own solver; a whole flow at the hardest level, counters drawn as the handler draws
 * them, is timed too. Figures, not a test. Usage: node --import tsx test/bench/proof-of-work.ts [runs]
 * (after npm run build).
 */
import { createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { openBrowser } from '../node/e2e/demo-browser.js';
import { powFlow } from '../node/e2e/pow-flow.js';
import { DEFAULT_LIMITS } from '../../src/server/handler/options.js';
// @ts-expect-error: a plain module of the browser tests, with no types.
import { servePowSite } from '../browser/support/pow-site.mjs';

const RUNS = Number(process.argv[2] ?? 3);
const BUDGET_S = 30;
const { maxWork } = DEFAULT_LIMITS.friction;

const site = await servePowSite();
const { page, close } = await openBrowser(`${site.origin}/pow-site/${maxWork}/page.html`);
try {
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const hardest: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // The last counter the handler can draw (randomInt(maxWork) is below maxWork): the longest search.
    const challenge = await createChallenge({ algorithm: 'SHA-256', cost: 1, counter: maxWork - 1, deriveKey, hmacSignatureSecret: 'bench', hmacKeySignatureSecret: 'bench' });
    const ms = await page.evaluate(`(async () => {
      const { solveChallenge } = await import('/dist/core/proof-of-work.js');
      const started = performance.now();
      await solveChallenge(${JSON.stringify(challenge)}, new AbortController().signal);
      return performance.now() - started;
    })()`);
    hardest.push(ms as number);
  }
  const flows = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`${site.origin}/pow-site/${maxWork}-run${run}/page.html`);
    flows.push(await powFlow(page, `${site.origin}/pow-site/${maxWork}-run${run}/`, `bench${run}@example.com`));
  }
  const worst = (2 * Math.max(...hardest)) / 1000;
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(`One proof of ${maxWork.toLocaleString('en')} hashes, its answer the last counter (the hardest the handler asks), at 4x CPU throttling: ${hardest.map(seconds).join(', ')} s`);
  console.log(`The owner's worst total under pressure (a send and a verify, each the hardest): ${worst.toFixed(1)} s (budget ${BUDGET_S} s)${worst > BUDGET_S ? ' OVER BUDGET' : ''}`);
  console.log(`Whole flows at the hardest level, counters drawn as the handler draws them (sent; verified): ${flows.map((f) => `${seconds(f.sentMs)}; ${seconds(f.totalMs)} s`).join(' | ')}`);
} finally {
  await close();
  await site.close();
}
