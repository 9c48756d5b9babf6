/**
 * Continue on your phone, in each engine and each tested language: the computer's new steps (the
 * offer, the link with its QR code and short code, the phone's progress, an ended link) pass axe,
 * fit 320 px, have a text alternative for the QR code, and are used with the keyboard alone; the
 * phone's side claims the link, sends it in its header, and ends when cancelled.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { CONFIG, fakeHost, failure, type Routes } from '../support/fake-host.js';
import { faceFixture } from '../support/face.js';
import { restoreGetUserMedia } from '../support/media.js';
import { TESTED_LANGUAGES } from '../support/languages.js';
import { voiceFixture } from '../support/voice.js';
import { partOf, untilWidgetStep } from '../support/widget.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';
import { stringsFor } from '../../../src/internal/localize.js';
import { handoffPanelEnglish } from '../../../src/translations/en/handoff.js';

/** The panel's words, in the widget's language. */
const panel = (element: VerifyElement) => stringsFor(handoffPanelEnglish, element.language);

const TOKEN = 'T'.repeat(22);
const DEVICE = 'D'.repeat(22);
const HANDOFF_CONFIG = { ...CONFIG, handoff: true };
const waiting = () => ({ body: { state: 'waiting', expiresIn: 600 } });

/** The computer's handler: links made, and `status` telling how the phone is getting on. */
const computer = (status: Routes[string] = waiting): Routes => ({
  config: () => ({ body: HANDOFF_CONFIG }),
  'handoff-start': () => ({ body: { token: TOKEN, code: 'K7Q4ZM', expiresIn: 600 } }),
  'handoff-status': status,
});

const noCamera = () => {
  navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('none'), { name: 'NotFoundError' }));
};
const text = (element: VerifyElement) => element.shadowRoot!.textContent!.replace(/\s+/g, ' ');
/** What has focus inside the widget: its part. */
const focused = (element: VerifyElement) => element.shadowRoot!.activeElement?.getAttribute('part') ?? element.shadowRoot!.activeElement?.tagName ?? 'nothing';
const press = (keys: string) => executeServerCommand('keys', { press: keys });

async function untilLink(element: VerifyElement) {
  await untilWidgetStep(element, 'handoff', 8000);
  await waitUntil(() => partOf(element, 'qr'), 'the QR code', { timeout: 8000 });
  await element.updateComplete;
}

/** Nothing of the widget's card shows outside it, and it scrolls nowhere. */
function fits(element: VerifyElement, width: number, what: string) {
  const card = partOf<HTMLElement>(element, 'base');
  const box = card.getBoundingClientRect();
  expect(box.width, `${what}: card width`).to.be.at.most(width + 0.5);
  expect(card.scrollWidth, `${what}: card scrollWidth`).to.be.at.most(card.clientWidth);
  const out = [...element.shadowRoot!.querySelectorAll('*')].filter((node) => {
    const r = node.getBoundingClientRect();
    return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
  });
  expect(out.map((node) => node.getAttribute('part') ?? node.tagName), what).to.deep.equal([]);
}

for (const lang of TESTED_LANGUAGES) {
  describe(`continue on your phone, the computer's steps (${lang})`, function () {
    this.timeout(30_000);
    let host: ReturnType<typeof fakeHost>;
    restoreGetUserMedia();
    afterEach(() => host?.stop());

    it('offered when there is no camera; the link, its QR code and the code pass axe and fit 320 px; the phone connects; an ended link offers a new one', async () => {
      let answer: Routes[string] = waiting;
      host = fakeHost(computer((body, calls) => answer(body, calls)));
      noCamera();
      const element = await faceFixture('', lang);
      element.parentElement!.style.width = '320px';
      await element.configLoaded;
      expect(element.shadowRoot!.querySelector('[part~="phone"]'), 'not offered before the camera failed').to.equal(null);
      partOf(element, 'submit').click();
      await untilWidgetStep(element, 'failure', 8000);
      await element.updateComplete;
      partOf(element, 'phone').click();
      await untilLink(element);
      expect(host.calls.find((c) => c.route === 'handoff-start')!.body).to.deep.equal({ kind: 'face', mode: 'verify' });
      // The QR code's text alternative: the link, and the code one character at a time.
      const link = `${location.href.split('#')[0]}#verify-handoff=face.${TOKEN}`;
      expect(partOf<HTMLInputElement>(element, 'link').value).to.equal(link);
      expect(partOf(element, 'qr').getAttribute('role')).to.equal('img');
      const label = partOf(element, 'qr').getAttribute('aria-label')!;
      expect(label).to.include(link);
      expect(label).to.include('K, 7, Q, 4, Z, M');
      expect(partOf(element, 'code').textContent).to.equal('K7Q 4ZM');
      fits(element, 320, 'the link');
      await expect(element).to.be.accessible();
      answer = () => ({ body: { state: 'connected', expiresIn: 500 } });
      await waitUntil(() => partOf(element, 'feedback').textContent === panel(element).handoffConnected, 'the phone connected', { timeout: 5000 });
      answer = () => failure(410, 'handoff_ended');
      await waitUntil(() => element.shadowRoot!.querySelector('[part~="error"]'), 'the link ended', { timeout: 5000 });
      await element.updateComplete;
      expect(text(element)).to.include(panel(element).handoffExpired);
      fits(element, 320, 'the link ended');
      await expect(element).to.be.accessible();
      // A new link, from the same screen.
      answer = waiting;
      [...element.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === panel(element).handoffNewLink)!.click();
      await waitUntil(() => host.count('handoff-start') === 2 && partOf(element, 'qr'), 'a second link', { timeout: 5000 });
      element.remove();
    });
  });
}

for (const lang of ['en', 'ar']) {
  describe(`continue on your phone: the keyboard alone, and the phone done (${lang})`, function () {
    this.timeout(30_000);
    let host: ReturnType<typeof fakeHost>;
    restoreGetUserMedia();
    afterEach(() => host?.stop());

    it('the phone done: the computer verifies with the receipt and the same events, as if it had captured', async () => {
      let done = false;
      host = fakeHost(computer(() => (done ? { body: { state: 'done', expiresIn: 0, verified: { verified: true, method: 'voice', receipt: 'phone.receipt', expiresAt: '2030-01-01T00:00:00Z' } } } : waiting())));
      const element = await voiceFixture('handoff="always"', lang);
      await untilLink(element);
      const success = new Promise<CustomEvent>((resolve) => element.addEventListener('verify-success', (e) => resolve(e as CustomEvent), { once: true }));
      done = true;
      const event = await success;
      expect([event.detail.method, event.detail.receipt, element.value, element.step]).to.deep.equal(['voice', 'phone.receipt', 'phone.receipt', 'success']);
      element.remove();
    });

    it('Tab and Enter: start, the phone offered, the link, copy, cancel, and back at the start', async () => {
      host = fakeHost(computer());
      noCamera();
      const element = await faceFixture('', lang);
      await element.configLoaded;
      partOf(element, 'submit').focus();
      await press('Enter');
      await untilWidgetStep(element, 'failure', 8000);
      await waitUntil(() => focused(element) === 'heading', 'focus on the failure heading');
      for (let i = 0; i < 4 && !/phone/.test(focused(element)); i++) await press('Tab');
      expect(focused(element)).to.equal('button phone');
      await press('Enter');
      await untilLink(element);
      await waitUntil(() => focused(element) === 'heading', 'focus on the link heading');
      await press('Tab');
      expect(focused(element)).to.equal('link');
      await press('Tab');
      expect(element.shadowRoot!.activeElement!.textContent!.trim()).to.equal(panel(element).handoffCopy);
      await press('Tab');
      expect(element.shadowRoot!.activeElement!.textContent!.trim()).to.equal(element.t.handoffCancel);
      await press('Enter');
      await untilWidgetStep(element, 'priming', 5000);
      await waitUntil(() => host.calls.some((c) => c.route === 'handoff-status' && c.body.cancel === true), 'the link cancelled at the handler');
      element.remove();
    });
  });
}

describe('continue on your phone, the phone’s side', function () {
  this.timeout(20_000);
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => {
    host?.stop();
    // Gone without a hashchange, which would load the page again.
    history.replaceState(null, '', location.pathname + location.search);
    sessionStorage.clear();
  });

  it('claims the link before anything else, sends it in its header, shows the computer’s code, and ends when cancelled', async () => {
    history.replaceState(null, '', `#verify-handoff=voice.${TOKEN}`);
    host = fakeHost({
      'handoff-claim': () => ({ body: { kind: 'voice', mode: 'enroll', code: 'K7Q4ZM', device: DEVICE, expiresIn: 590 } }),
      'handoff-phone': (body) => ({ body: { state: body.state ?? 'connected' } }),
    });
    const element = await voiceFixture('mode="verify"');
    await waitUntil(() => partOf(element, 'code'), 'the code shown');
    expect(host.calls.map((c) => [c.route, c.headers.get('verify-handoff'), c.headers.get('authorization')])).to.deep.equal([
      ['handoff-claim', TOKEN, null],
      ['config', `${TOKEN}.${DEVICE}`, null],
    ]);
    // The link said what to capture.
    expect(element.mode).to.equal('enroll');
    expect(partOf(element, 'code').getAttribute('aria-label')).to.equal('K, 7, Q, 4, Z, M');
    await expect(element).to.be.accessible();
    [...element.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === element.t.handoffCancel)!.click();
    await untilWidgetStep(element, 'failure', 5000);
    expect(host.calls.at(-1)!.body).to.deep.equal({ state: 'cancelled' });
    expect(text(element)).to.include(element.t.error_handoff_ended);
    await expect(element).to.be.accessible();
    element.remove();
  });

  it('a link already used: a clear screen, and nothing else asked', async () => {
    history.replaceState(null, '', `#verify-handoff=face.${TOKEN}`);
    host = fakeHost({ 'handoff-claim': () => failure(410, 'handoff_ended') });
    const element = await faceFixture();
    await untilWidgetStep(element, 'failure', 5000);
    expect(text(element)).to.include(element.t.error_handoff_ended);
    expect(host.calls.map((c) => c.route)).to.deep.equal(['handoff-claim']);
    element.remove();
  });
});
