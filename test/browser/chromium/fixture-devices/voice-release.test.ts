import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { fakeHost } from '../../support/fake-host.js';
import { voiceButton } from '../../support/voice.js';
import type { VoiceVerify } from '../../../../src/voice-verify/voice-verify.js';

interface Census {
  instances: number;
  documents: number;
  nodes: number;
  jsEventListeners: number;
}

/**
 * Waits for `check` by polling, holding the element no longer than that: open-wc's waitUntil
 * leaves its timeout timer, and with it the element, alive until the timeout passes.
 */
async function until(check: () => boolean, what: () => string, timeout = 15_000): Promise<void> {
  const end = performance.now() + timeout;
  while (!check()) {
    if (performance.now() > end) throw new Error(what());
    await new Promise((done) => setTimeout(done, 50));
  }
}

const untilVoiceStep = (element: VoiceVerify, step: string, timeout?: number) => until(() => element.step === step, () => `step ${step}, still ${element.step}`, timeout);

const census = () => executeServerCommand<Census, { prototype: string }>('heap-census', { prototype: 'customElements.get("voice-verify").prototype' });

/** One person's visit: the widget appears, records (3 s at most), and goes away, from review or mid-take. */
async function visit(removeWhileRecording: boolean): Promise<void> {
  // Made by hand rather than by a fixture helper, which would keep its wrapper until the test ends.
  const element = Object.assign(document.createElement('voice-verify') as VoiceVerify, { endpoint: '/host', maxDuration: 3 });
  document.body.append(element);
  await element.updateComplete;
  voiceButton(element, 'submit').click();
  await untilVoiceStep(element, 'ready');
  voiceButton(element, 'record').click();
  await untilVoiceStep(element, 'recording');
  if (removeWhileRecording) {
    // A second and a half of the take heard, and still recording: removed mid-take.
    const heard = () => (element as unknown as { tools: { recorder: { elapsed: number } } }).tools.recorder.elapsed;
    await until(() => heard() >= 1.5, () => `${heard()} s heard`);
    expect(element.step, 'removed while recording').to.equal('recording');
  } else await untilVoiceStep(element, 'review', 20_000);
  element.remove();
}

describe('<voice-verify> releases everything it used', function () {
  this.timeout(600_000);

  it('mounted, recorded for 3 s and removed 50 times: none retained after GC, DOM nodes and listeners at baseline', async () => {
    const host = fakeHost({});
    try {
      await visit(false);
      await visit(true);
      const baseline = await census();
      // Half end at the limit and are removed from review; half are removed while recording.
      for (let i = 0; i < 50; i++) await visit(i % 2 === 0);
      // Closing an AudioContext finishes off the main thread: counted again until none is left, or 10 s.
      let after = await census();
      for (const end = performance.now() + 10_000; after.instances > 0 && performance.now() < end; ) after = await census();
      console.log(`voice-verify ×50: ${after.instances} retained (baseline ${baseline.instances}); DOM nodes ${baseline.nodes} -> ${after.nodes}; listeners ${baseline.jsEventListeners} -> ${after.jsEventListeners}`);
      expect(after.instances, 'widgets retained').to.equal(0);
      expect(after.nodes).to.be.at.most(Math.ceil(baseline.nodes * 1.1));
      expect(after.jsEventListeners).to.be.at.most(Math.ceil(baseline.jsEventListeners * 1.1));
    } finally {
      host.stop();
    }
  });
});
