/**
 * Issue 32, item 6, and issue 44, item 3: the widget solves the proofs of work the handler asks for,
 * at the hardest level, on the send and on the verify of one flow, on the page under the strict CSP
 * that support/pow-site.mjs serves, and tells the person of a wait. What it costs on a phone-class
 * CPU is a benchmark figure (test/bench/proof-of-work.ts), not a timed test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './demo-browser.js';
import { powFlow } from './pow-flow.js';
import { DEFAULT_LIMITS } from '../../../src/server/handler/options.js';
// @ts-expect-error: a plain module of the browser tests, with no types.
import { servePowSite } from '../../browser/support/pow-site.mjs';

describe('a proof of work in the widget', () => {
  it('at the hardest level, on the send and on the verify: each asked once, solved once, and the person verifies', async () => {
    const work = DEFAULT_LIMITS.friction.maxWork;
    const site = await servePowSite();
    const { page, close } = await openBrowser(`${site.origin}/pow-site/${work}/page.html`);
    try {
      const flow = await powFlow(page, `${site.origin}/pow-site/${work}/`, 'person@example.com');
      assert.deepEqual(flow.calls, ['send-otp 428', 'send-otp 200', 'verify-otp 428', 'verify-otp 200']);
      // A wait past a second is told, with its time.
      if (flow.totalMs > 3000) assert.ok(flow.shown.some((text) => /^Checking your browser… \d+:\d\d$/.test(text)), JSON.stringify(flow.shown));
      assert.deepEqual(await page.evaluate('window.cspViolations'), []);
    } finally {
      await close();
      await site.close();
    }
  });
});
