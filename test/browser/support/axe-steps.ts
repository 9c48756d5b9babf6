import { expect } from '@open-wc/testing';
import { fakeHost, type Routes } from './fake-host.js';
import { restoreGetUserMedia } from './media.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';
import { TESTED_LANGUAGES } from './languages.js';

export interface AxeStep<T extends VerifyElement> {
  name: string;
  /** Attributes the step needs on the element, beyond the suite's. */
  attributes?: string;
  /**
   * Drives a fresh element to the step; `hold` keeps a route's answer open, for the steps that wait
   * on one. Answers `{ unreachable }` when this engine cannot reach the step, and why: the test is
   * then reported as skipped, never as passed on another step.
   */
  drive(element: T, hold: (route: string) => void): Promise<void | { unreachable: string }>;
}

/**
 * One accessibility suite for any widget: axe on every step, in each tested language (right to left
 * among them), each step reached afresh from a new element and a fake host.
 */
export function axeEachStep<T extends VerifyElement>(
  tag: string,
  suite: {
    fixture(attributes: string, lang: string): Promise<T>;
    /** The fake host's answers for a step; `held` holds the routes the step asked to keep open. */
    routes(step: string, held: ReadonlySet<string>): Routes;
    steps: AxeStep<T>[];
    timeout?: number;
  },
): void {
  for (const lang of TESTED_LANGUAGES) {
    describe(`<${tag}> accessibility (${lang})`, function () {
      this.timeout(suite.timeout ?? 20_000);
      let host: ReturnType<typeof fakeHost>;
      restoreGetUserMedia();
      afterEach(() => host?.stop());
      for (const step of suite.steps) {
        it(`axe finds no violation at ${step.name}`, async function () {
          const held = new Set<string>();
          host = fakeHost(suite.routes(step.name, held));
          const element = await suite.fixture(step.attributes ?? '', lang);
          const reached = await step.drive(element, (route) => held.add(route));
          if (reached) {
            element.remove();
            console.log(`skipped: <${tag}> ${step.name} (${lang}): ${reached.unreachable}`);
            this.skip();
          }
          await element.updateComplete;
          await expect(element).to.be.accessible();
          element.remove();
        });
      }
    });
  }
}
