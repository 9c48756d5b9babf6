/**
 * Every step fits a phone: at 320 and 390 px (the widget's width on such a screen; the widgets lay
 * themselves out by container queries, so the width they are given is what counts), in English and
 * Arabic, nothing is wider than the space, nothing sticks out of the card on either side.
 */
import { expect } from '@open-wc/testing';
import { fakeHost, failure, sent } from '../support/fake-host.js';
import { enterCode, otpFixture, sendTo, untilStep } from '../support/otp.js';
import { faceFixture, untilFaceStep } from '../support/face.js';
import { voiceFixture } from '../support/voice.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';

/** Elements (shadow and slotted light DOM) that reach outside the card, by a pixel or more. */
function outside(element: VerifyElement): string[] {
  const card = element.shadowRoot!.querySelector('[part~="base"]')!;
  const box = card.getBoundingClientRect();
  const nodes = [...element.shadowRoot!.querySelectorAll('*'), ...element.children];
  return nodes
    .filter((node) => {
      const r = node.getBoundingClientRect();
      return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
    })
    .map((node) => `${node.tagName.toLowerCase()}${node.getAttribute('part') ? `[${node.getAttribute('part')}]` : ''} ${Math.round(node.getBoundingClientRect().left - box.left)}..${Math.round(node.getBoundingClientRect().right - box.left)} of ${Math.round(box.width)}`);
}

function fits(element: VerifyElement, width: number, what: string) {
  const card = element.shadowRoot!.querySelector<HTMLElement>('[part~="base"]')!;
  expect(card.getBoundingClientRect().width, `${what}: card width`).to.be.at.most(width + 0.5);
  expect(card.scrollWidth, `${what}: card scrollWidth`).to.be.at.most(card.clientWidth);
  expect(element.parentElement!.scrollWidth, `${what}: page scrollWidth`).to.be.at.most(width);
  expect(outside(element), what).to.deep.equal([]);
}

function narrow(element: VerifyElement, width: number) {
  Object.assign(element.parentElement!.style, { width: `${width}px`, overflow: 'auto' });
}

for (const width of [320, 390]) {
  for (const lang of ['en', 'ar']) {
    describe(`at ${width} px (${lang})`, () => {
      let host: ReturnType<typeof fakeHost>;
      afterEach(() => host?.stop());

      it('<otp-verify>: contact, code (8 boxes), wrong code, failure', async () => {
        host = fakeHost({ 'send-otp': () => ({ body: { ...sent().body, codeLength: 8 } }), 'verify-otp': () => failure(422, 'wrong_code', { attemptsLeft: 2 }) });
        const element = await otpFixture(lang);
        narrow(element, width);
        await element.updateComplete;
        fits(element, width, 'contact');
        await sendTo(element);
        fits(element, width, 'code');
        enterCode(element, '12345678');
        await untilStep(element, 'code');
        await new Promise((resolve) => setTimeout(resolve, 50));
        fits(element, width, 'wrong code');
        host.stop();
        host = fakeHost({ 'verify-otp': () => failure(429, 'too_many_attempts', { attemptsLeft: 0 }) });
        enterCode(element, '87654321');
        await untilStep(element, 'failure');
        fits(element, width, 'failure');
      });

      it('<face-verify> and <voice-verify>: priming and a failure', async () => {
        host = fakeHost({});
        for (const fixture of [() => faceFixture('', lang), () => voiceFixture('', lang)]) {
          const element = await fixture();
          narrow(element, width);
          await element.updateComplete;
          fits(element, width, `${element.localName} priming`);
          navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' }));
          element.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
          await untilFaceStep(element as never, 'failure');
          fits(element, width, `${element.localName} blocked`);
        }
      });
    });
  }
}
