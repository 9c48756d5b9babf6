/** The numbers the outcome events carry for a product team: times and counts, never personal data. */
import { expect, waitUntil } from '@open-wc/testing';
import { CONFIG, failure, fakeHost, sent, verified } from '../support/fake-host.js';
import { codeInput, enterCode, otpFixture, sendTo, untilStep } from '../support/otp.js';
import { faceButton, faceFixture, fileInput, photoFile, untilFaceStep } from '../support/face.js';
import type { VerifyMetrics } from '../../../src/index.js';
import type { OtpVerify } from '../../../src/otp-verify/otp-verify.js';

/** Every `metrics` an element's outcome events carried, in order. */
function metricsOf(element: HTMLElement): { type: string; metrics: VerifyMetrics }[] {
  const seen: { type: string; metrics: VerifyMetrics }[] = [];
  for (const type of ['verify-success', 'verify-failure', 'verify-error']) {
    element.addEventListener(type, (event) => seen.push({ type, metrics: (event as CustomEvent).detail.metrics }));
  }
  return seen;
}

/** A paste into the focused code field, as the browser sends it. */
function paste(element: OtpVerify, text: string) {
  const clipboardData = new DataTransfer();
  clipboardData.setData('text/plain', text);
  const event = new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true });
  // WebKitGTK drops clipboardData given to the constructor.
  if (!event.clipboardData?.getData('text')) Object.defineProperty(event, 'clipboardData', { value: clipboardData });
  codeInput(element).dispatchEvent(event);
}

/** What autofill does: the whole value at once, with an input event that names no input type. */
function autofill(element: OtpVerify, code: string) {
  const input = codeInput(element);
  input.value = code;
  input.dispatchEvent(new InputEvent('input', { bubbles: true }));
}

const PERSONAL = /501234567|654321|123456|@|\+966|receipt\.token/;

describe('outcome metrics', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('<otp-verify>: a wrong code typed, then the right one pasted: attempts, channel, entry, time', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': (body) => (body.otp === '654321' ? verified() : failure(422, 'wrong_code', { attemptsLeft: 4 })) });
    const element = await otpFixture();
    const seen = metricsOf(element);
    await sendTo(element);
    enterCode(element, '123456');
    await waitUntil(() => seen.length === 1, 'verify-failure');
    await untilStep(element, 'code');
    paste(element, 'Your code is 654321');
    await untilStep(element, 'success');
    await waitUntil(() => seen.length === 2, 'verify-success');
    expect(seen.map((s) => s.type)).to.deep.equal(['verify-failure', 'verify-success']);
    const [wrong, right] = seen.map((s) => s.metrics);
    expect(wrong).to.include({ attempts: 1, resends: 0, channel: 'sms', fallback: false, entry: 'typed' });
    expect(right).to.include({ attempts: 2, resends: 0, channel: 'sms', fallback: false, entry: 'pasted' });
    expect(right!.elapsedMs).to.be.a('number').and.at.least(wrong!.elapsedMs);
    expect(JSON.stringify(seen)).not.to.match(PERSONAL);
  });

  it('<otp-verify>: a resend, then the email fallback, then an autofilled code', async () => {
    host = fakeHost({ 'send-otp': () => sent(0), 'verify-otp': () => verified() });
    const element = await otpFixture();
    const seen = metricsOf(element);
    await sendTo(element);
    element.shadowRoot!.querySelector<HTMLButtonElement>('[part~="resend"]')!.click();
    await waitUntil(() => host.count('send-otp') === 2, 'the resend');
    await untilStep(element, 'code');
    const fallback = [...element.shadowRoot!.querySelectorAll<HTMLButtonElement>('.actions .link')].find((b) => /Email/.test(b.textContent!))!;
    fallback.click();
    await untilStep(element, 'contact');
    const email = element.shadowRoot!.querySelector<HTMLInputElement>('#email')!;
    email.value = 'sara@example.com';
    email.dispatchEvent(new Event('input'));
    await element.updateComplete;
    element.shadowRoot!.querySelector<HTMLFormElement>('form')!.requestSubmit();
    await untilStep(element, 'code');
    autofill(element, '123456');
    await untilStep(element, 'success');
    await waitUntil(() => seen.length === 1);
    expect(seen[0]!.metrics).to.include({ attempts: 1, resends: 2, channel: 'email', fallback: true, entry: 'autofilled' });
    expect(JSON.stringify(seen)).not.to.match(PERSONAL);
  });

  it('<face-verify>: a blocked camera names the device; a retaken photo counts as a retake', async () => {
    host = fakeHost({ config: () => ({ body: { ...CONFIG, enrolled: { face: true, voice: true } } }), 'verify-by-face': () => ({ body: { verified: true, method: 'face', receipt: 'receipt.token', expiresAt: null } }) });
    const blocked = await faceFixture();
    const refusals = metricsOf(blocked);
    const getUserMedia = navigator.mediaDevices.getUserMedia;
    navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' }));
    try {
      faceButton(blocked, 'submit').click();
      await untilFaceStep(blocked, 'failure');
    } finally {
      navigator.mediaDevices.getUserMedia = getUserMedia;
    }
    await waitUntil(() => refusals.length === 1);
    expect(refusals[0]).to.deep.include({ type: 'verify-error' });
    expect(refusals[0]!.metrics).to.include({ device: 'camera', attempts: 0, retakes: 0 });

    const element = await faceFixture('manual');
    const seen = metricsOf(element);
    const shoot = async () => {
      await untilFaceStep(element, 'preview');
      await waitUntil(() => element.shadowRoot!.querySelector('video')?.videoWidth, 'frames', { timeout: 5000 });
      faceButton(element, 'shutter').click();
      await untilFaceStep(element, 'review');
    };
    faceButton(element, 'submit').click();
    await shoot();
    [...element.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Retake')!.click();
    await shoot();
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'success');
    await waitUntil(() => seen.length === 1);
    expect(seen[0]!.metrics).to.include({ attempts: 1, retakes: 1, capture: 'camera' });
    expect(JSON.stringify(seen)).not.to.match(PERSONAL);
  });

  it('<face-verify>: a photo uploaded instead of taken says so', async () => {
    host = fakeHost({ config: () => ({ body: { ...CONFIG, enrolled: { face: true, voice: true } } }), 'verify-by-face': () => ({ body: { verified: true, method: 'face', receipt: 'receipt.token', expiresAt: null } }) });
    const element = await faceFixture();
    const seen = metricsOf(element);
    await untilFaceStep(element, 'priming');
    await fileInput(element, await photoFile());
    await untilFaceStep(element, 'review');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'success');
    await waitUntil(() => seen.length === 1);
    expect(seen[0]!.metrics).to.include({ attempts: 1, retakes: 0, capture: 'file' });
  });
});
