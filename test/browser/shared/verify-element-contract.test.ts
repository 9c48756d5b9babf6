/**
 * What every widget promises, whichever it is: its step as a property, a custom state and an event;
 * per-instance strings; one polite live region; focus that follows the person through the steps; and
 * a form value that is the receipt, missing until then when required.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { CONFIG, fakeHost, sent, verified, type Answer, type Routes } from '../support/fake-host.js';
import { enterCode, sendTo } from '../support/otp.js';
import { shootAndSend } from '../support/face.js';
import { voiceButton } from '../support/voice.js';
import { partOf, untilWidgetStep, widgetFixture } from '../support/widget.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';
import type { OtpVerify } from '../../../src/otp-verify/otp-verify.js';
import type { FaceVerify } from '../../../src/face-verify/face-verify.js';
import type { VoiceVerify } from '../../../src/voice-verify/voice-verify.js';
import type { Strings } from '../../../src/internal/localize.js';
import '../../../src/otp-verify/define.js';
import '../../../src/voice-verify/define.js';

interface Driver {
  attributes: string;
  routes: Routes;
  /** The string of the first step's heading. */
  heading: keyof Strings;
  /** From the first step to the next one the person sees; answers the transitions that fired. */
  advance(element: VerifyElement): Promise<string[]>;
  /** To success with the fake host's receipt; false where this engine's devices cannot get there. */
  succeed(element: VerifyElement): Promise<boolean>;
  receipt: string;
}

const biometricAnswer = (method: string, receipt: string) => () => ({ body: { verified: true, method, receipt, expiresAt: null } });

const DRIVERS: Record<'otp-verify' | 'face-verify' | 'voice-verify', Driver> = {
  'otp-verify': {
    attributes: 'country="SA"',
    routes: { 'send-otp': () => sent(), 'verify-otp': () => verified() },
    heading: 'contactHeading',
    advance: async (element) => {
      await sendTo(element as OtpVerify);
      return ['contact>sending', 'sending>code'];
    },
    succeed: async (element) => {
      await sendTo(element as OtpVerify);
      enterCode(element as OtpVerify, '123456');
      await untilWidgetStep(element, 'success', 5000);
      return true;
    },
    receipt: 'receipt.token',
  },
  'face-verify': {
    attributes: 'manual',
    routes: { 'verify-by-face': biometricAnswer('face', 'face.receipt') },
    heading: 'faceHeading',
    advance: async (element) => {
      partOf(element, 'submit').click();
      await untilWidgetStep(element, 'preview', 8000);
      return ['priming>permission', 'permission>preview'];
    },
    succeed: async (element) => {
      await shootAndSend(element as FaceVerify, 'success');
      return true;
    },
    receipt: 'face.receipt',
  },
  'voice-verify': {
    // The least speech the gate asks for: the fixture's voice in Chromium, whatever sound elsewhere.
    attributes: 'max-duration="2" min-speech="0"',
    routes: { 'verify-by-voice': biometricAnswer('voice', 'voice.receipt') },
    heading: 'voiceHeading',
    advance: async (element) => {
      partOf(element, 'submit').click();
      await untilWidgetStep(element, 'ready', 15_000);
      return ['priming>permission', 'permission>ready'];
    },
    succeed: async (element) => {
      const voice = element as VoiceVerify;
      voiceButton(voice, 'submit').click();
      await untilWidgetStep(voice, 'ready', 15_000);
      voiceButton(voice, 'record').click();
      await untilWidgetStep(voice, 'review', 20_000);
      // A synthetic microphone that gives silence: the gate refuses it, and no receipt can come.
      if (voice.shadowRoot!.querySelector('[part~="error"]')) return false;
      voiceButton(voice, 'submit').click();
      await untilWidgetStep(voice, 'success', 15_000);
      return true;
    },
    receipt: 'voice.receipt',
  },
};

export function runVerifyElementContract(tag: keyof typeof DRIVERS): void {
  const driver = DRIVERS[tag];
  describe(`<${tag}>: the contract every widget keeps`, function () {
    this.timeout(60_000);
    let host: ReturnType<typeof fakeHost>;
    afterEach(() => host?.stop());
    const widget = () => widgetFixture<VerifyElement>(tag, driver.attributes, 'en');

    it('tells each step through the property, a custom state and verify-step-change, which bubbles out of it', async () => {
      host = fakeHost(driver.routes);
      const element = await widget();
      const first = element.step;
      expect(element.matches(`:state(${first})`), `:state(${first})`).to.be.true;
      const seen: string[] = [];
      element.parentElement!.addEventListener('verify-step-change', (event) => {
        seen.push(`${event.detail.previous}>${event.detail.step}`);
        expect(event.detail.step).to.equal(element.step);
      });
      const expected = await driver.advance(element);
      await waitUntil(() => seen.length >= expected.length, `steps ${seen.join(', ')}`);
      expect(seen.slice(0, expected.length)).to.deep.equal(expected);
      expect(element.matches(`:state(${element.step})`)).to.be.true;
      expect(element.matches(`:state(${first})`), 'the first step is no longer a state').to.be.false;
    });

    it('asks the handler for its config in a task after the first render, and not at all once removed', async () => {
      host = fakeHost(driver.routes);
      const kept = document.createElement(tag) as VerifyElement;
      const removed = document.createElement(tag) as VerifyElement;
      document.body.append(kept, removed);
      await Promise.all([kept.updateComplete, removed.updateComplete]);
      expect(host.count('config'), 'within the task that added them').to.equal(0);
      removed.remove();
      await kept.configLoaded;
      await removed.configLoaded;
      expect(host.calls.filter((c) => c.route === 'config')).to.have.length(1);
      expect(kept.config, 'the kept one has it').to.not.equal(undefined);
      kept.remove();
    });

    it('asks for the config again after a fault on its way, and not after a refusal', async () => {
      // The first element's first ask meets the network's fault, the second's a 404; later asks are answered.
      const firsts: Answer[] = [{ network: true }, { status: 404, body: { error: { code: 'invalid_input', message: 'no route' } } }];
      host = fakeHost({ ...driver.routes, config: () => firsts.shift() ?? { body: CONFIG } });
      const [faulted, refused] = [document.createElement(tag) as VerifyElement, document.createElement(tag) as VerifyElement];
      document.body.append(faulted, refused);
      await Promise.all([faulted.configLoaded, refused.configLoaded]);
      expect(faulted.config, 'configLoaded settles on the fault, before any retry').to.equal(undefined);
      await waitUntil(() => faulted.config, 'the config asked again', { timeout: 8000 });
      await new Promise((next) => setTimeout(next, 300));
      expect(host.count('config'), 'two first asks and one retry').to.equal(3);
      expect(refused.config).to.equal(undefined);
      faulted.remove();
      refused.remove();
    });

    it('takes per-instance string overrides, and keeps the built-in ones beside them', async () => {
      host = fakeHost(driver.routes);
      const element = await widget();
      const before = partOf(element, 'heading').textContent;
      element.strings = { [driver.heading]: 'Our own heading' };
      await element.updateComplete;
      expect(partOf(element, 'heading').textContent).to.equal('Our own heading');
      element.strings = {};
      await element.updateComplete;
      expect(partOf(element, 'heading').textContent).to.equal(before);
    });

    it('speaks through one polite live region, on every step', async () => {
      host = fakeHost(driver.routes);
      const element = await widget();
      const regions = () => [...element.shadowRoot!.querySelectorAll('[aria-live]')].map((r) => r.getAttribute('aria-live'));
      expect(regions()).to.deep.equal(['polite']);
      await driver.advance(element);
      expect(regions()).to.deep.equal(['polite']);
    });

    it('moves focus into each step that appears, when the person is in the widget', async () => {
      host = fakeHost(driver.routes);
      const element = await widget();
      await driver.advance(element);
      await element.updateComplete;
      await waitUntil(() => element.matches(':focus-within'), `focus is in <${tag}> on ${element.step}`);
    });

    it('is a form field: missing when required until verified, then the receipt is its value', async function () {
      host = fakeHost(driver.routes);
      const form = document.createElement('form');
      form.innerHTML = `<${tag} endpoint="/host" name="receipt" required ${driver.attributes}></${tag}>`;
      document.body.append(form);
      try {
        const element = form.querySelector<VerifyElement>(tag)!;
        await element.updateComplete;
        expect(form.checkValidity()).to.be.false;
        expect(new FormData(form).get('receipt')).to.equal(null);
        if (!(await driver.succeed(element))) return this.skip();
        expect(form.checkValidity()).to.be.true;
        expect(new FormData(form).get('receipt')).to.equal(driver.receipt);
      } finally {
        form.remove();
      }
    });
  });
}

for (const tag of Object.keys(DRIVERS) as (keyof typeof DRIVERS)[]) runVerifyElementContract(tag);
