/** Face and voice never leave the person on a screen without a next step that works. */
import { expect, waitUntil } from '@open-wc/testing';
import { CONFIG, failure, fakeHost } from '../support/fake-host.js';
import { faceButton, faceFixture, fileInput, photoFile, untilFaceStep } from '../support/face.js';
import { untilVoiceStep, voiceButton, voiceFixture } from '../support/voice.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';

const errorText = (element: VerifyElement) => element.shadowRoot!.querySelector('[part~="error"]')?.textContent?.trim() ?? '';
const heading = (element: VerifyElement) => element.shadowRoot!.querySelector('[part~="heading"]')?.textContent?.trim() ?? '';

/** A host whose config can change between calls (the person signs in, or registers, elsewhere). */
function accountHost(config: Record<string, unknown>, routes: Parameters<typeof fakeHost>[0] = {}) {
  const current = { ...CONFIG, ...config };
  const host = fakeHost({ config: () => ({ body: current }), ...routes });
  return { host, set: (change: Record<string, unknown>) => Object.assign(current, change) };
}

describe('face and voice: no dead ends', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  for (const [name, fixture, until, button] of [
    ['<face-verify>', () => faceFixture(), untilFaceStep, faceButton],
    ['<voice-verify>', () => voiceFixture(), untilVoiceStep, voiceButton],
  ] as const) {
    it(`${name}: a guest is told to sign in first, and "Check again" goes on once signed in`, async () => {
      const account = accountHost({ enrolled: null });
      host = account.host;
      const element = await fixture();
      await until(element as never, 'failure');
      expect(errorText(element)).to.equal('Sign in first, then try again.');
      expect(errorText(element)).not.to.contain('session');
      expect(heading(element)).not.to.equal('Verification stopped');
      await expect(element).to.be.accessible();
      account.set({ enrolled: { face: true, voice: true } });
      button(element as never, 'submit').click();
      await until(element as never, 'priming');
    });

    it(`${name}: a signed-in person with nothing registered is offered to register, and the button does it`, async () => {
      host = accountHost({ enrolled: { face: false, voice: false }, canEnroll: true }).host;
      const element = await fixture();
      await until(element as never, 'failure');
      expect(errorText(element)).to.equal('Nothing is registered for this account yet.');
      const register = button(element as never, 'submit');
      expect(register.textContent!.trim()).to.equal('Register now');
      await expect(element).to.be.accessible();
      register.click();
      await until(element as never, 'priming');
      expect((element as unknown as { mode: string }).mode).to.equal('enroll');
      expect(heading(element)).to.match(/^Register your/);
    });

    it(`${name}: registering without a code verified first says what to do, and goes on by itself once a code is verified on the page`, async () => {
      const account = accountHost({ enrolled: { face: false, voice: false }, canEnroll: true, needsProof: true });
      host = account.host;
      const element = await fixture();
      await until(element as never, 'failure');
      button(element as never, 'submit').click();
      await until(element as never, 'failure');
      expect(errorText(element)).to.match(/^To register, first confirm it.s you with a code/);
      expect(button(element as never, 'submit').textContent!.trim()).to.equal('Check again');
      await expect(element).to.be.accessible();
      // The person verifies a code in an <otp-verify> elsewhere on the page.
      account.set({ needsProof: false });
      const otp = document.body.appendChild(document.createElement('div'));
      otp.dispatchEvent(new CustomEvent('verify-success', { bubbles: true, composed: true, detail: { method: 'otp', receipt: 'r', expiresAt: null } }));
      otp.remove();
      await until(element as never, 'priming');
      expect(heading(element)).to.match(/^Register your/);
    });

    it(`${name}: a code verified while the config is on its way (its answer from before the proof) still lets registering start`, async () => {
      const beforeProof = { enrolled: { face: false, voice: false }, canEnroll: true, needsProof: true };
      const account = accountHost(beforeProof);
      host = account.host;
      // The first config is held, and answered as it was when asked: before the code was verified.
      let answerFirst: (() => void) | undefined;
      const hold = (event: Event) => {
        const request = event as Event & { detail: { route: string }; response?: Promise<Response> };
        if (request.detail.route !== 'config') return;
        document.removeEventListener('verify-request', hold, true);
        event.stopImmediatePropagation();
        event.preventDefault();
        const body = JSON.stringify({ ...CONFIG, ...beforeProof });
        request.response = new Promise((resolve) => (answerFirst = () => resolve(new Response(body, { headers: { 'content-type': 'application/json' } }))));
      };
      document.addEventListener('verify-request', hold, true);
      const element = document.createElement(name === '<face-verify>' ? 'face-verify' : 'voice-verify') as VerifyElement & { mode: string };
      element.mode = 'enroll';
      document.body.append(element);
      try {
        await waitUntil(() => answerFirst, 'the config was asked for');
        account.set({ needsProof: false });
        element.parentElement!.dispatchEvent(new CustomEvent('verify-success', { bubbles: true, composed: true, detail: { method: 'otp', receipt: 'r', expiresAt: null } }));
        answerFirst!();
        // Asked again, and at the start: not left on "Check again".
        await waitUntil(() => host.count('config') === 1, 'the config asked for again');
        await until(element as never, 'priming');
        expect(heading(element)).to.match(/^Register your/);
      } finally {
        element.remove();
      }
    });

    it(`${name}: a host that refuses for want of proof after the sample is sent: the same screen, and no lost way on`, async () => {
      const route = name === '<face-verify>' ? 'enroll-face' : 'enroll-voice';
      host = accountHost({}, { [route]: () => failure(403, 'proof_required') }).host;
      const element = await fixture();
      // As a person reaches the upload: after the config has come (a config that came after the
      // refusal, allowing the account, would rightly start again).
      await element.configLoaded;
      (element as unknown as { mode: string }).mode = 'enroll';
      await (element as unknown as { upload(sample: string): Promise<void> }).upload('AAAA');
      await until(element as never, 'failure');
      expect(errorText(element)).to.match(/^To register/);
      expect(button(element as never, 'submit').textContent!.trim()).to.equal('Check again');
    });
  }

  it('a widget that stops on its own (config arrived) leaves focus where the person is typing', async () => {
    host = accountHost({ enrolled: null }).host;
    const field = document.body.appendChild(Object.assign(document.createElement('input'), { type: 'text' }));
    field.focus();
    try {
      const element = await faceFixture();
      await untilFaceStep(element, 'failure');
      // A step takes focus in a callback on the update that showed it: after two turns of it, any
      // focus it would take has been taken (a widget that always takes focus fails here).
      await element.updateComplete;
      await element.updateComplete;
      expect(document.activeElement).to.equal(field);
    } finally {
      field.remove();
    }
  });

  it('a widget that stops on its own as the page loads takes no focus, so the page does not scroll to it', async () => {
    host = accountHost({ enrolled: null }).host;
    (document.activeElement as HTMLElement | null)?.blur();
    const element = await faceFixture();
    await untilFaceStep(element, 'failure');
    // As above: after two turns of the update, any focus the step would take has been taken.
    await element.updateComplete;
    await element.updateComplete;
    expect(document.activeElement).to.equal(document.body);
  });

  it('where the host does not register, "Check again" goes on once something is registered', async () => {
    const account = accountHost({ enrolled: { face: false, voice: false }, canEnroll: false });
    host = account.host;
    const element = await faceFixture();
    await untilFaceStep(element, 'failure');
    const check = faceButton(element, 'submit');
    expect(check.textContent!.trim()).to.equal('Check again');
    account.set({ enrolled: { face: true, voice: false } });
    check.click();
    await untilFaceStep(element, 'priming');
  });

  it('a file that is not an image: a visible error, the upload offered again, and the camera', async () => {
    host = fakeHost({});
    const element = await faceFixture();
    await fileInput(element, new File(['%PDF-1.4 not a photo'], 'scan.pdf', { type: 'application/pdf' }));
    await untilFaceStep(element, 'failure');
    expect(errorText(element)).to.equal('That file isn’t a photo we can read. Choose a JPEG or PNG photo of your face.');
    expect(faceButton(element, 'upload')).to.exist;
    await expect(element).to.be.accessible();
    await fileInput(element, await photoFile());
    await untilFaceStep(element, 'review');
  });

  it('after a no-match on an uploaded photo, another photo can be uploaded', async () => {
    host = fakeHost({ 'verify-by-face': () => ({ status: 422, body: { error: { code: 'no_match', message: 'no', attemptsLeft: 2 } } }) });
    const element = await faceFixture('manual');
    await fileInput(element, await photoFile());
    await untilFaceStep(element, 'review');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'failure');
    expect(heading(element)).to.equal('Let’s try that again');
    expect(faceButton(element, 'upload')).to.exist;
    await fileInput(element, await photoFile());
    await untilFaceStep(element, 'review');
  });

  it('the preview gives no verdict before a frame has been measured', async () => {
    host = fakeHost({});
    const element = await faceFixture('manual');
    // A detector still loading: no frame is ever measured.
    Object.assign(element, { detector: { detect: () => new Promise(() => {}) } });
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'preview');
    await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames', { timeout: 5000 });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const feedback = element.shadowRoot!.querySelector('[part~="feedback"]')!;
    expect(feedback.textContent!.trim()).to.equal('Getting ready to check your photo…');
    expect(feedback.classList.contains('good')).to.be.false;
    expect(element.shadowRoot!.querySelector('[part~="guide"]')!.classList.contains('good')).to.be.false;
  });
});
