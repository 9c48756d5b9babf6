/**
 * <face-verify> with the host's light challenge: after the movements, a warning says what will
 * happen, the face comes close to a larger oval, and only the person's press starts the colours;
 * they fill the page around the preview, never faster than the minimum hold, each set through the
 * CSSOM, a frame taken under each once it shows; Stop and Escape end them; the answer carries `lit`.
 */
import { executeServerCommand } from '@web/test-runner-commands';
import { expect, waitUntil } from '@open-wc/testing';
import { fakeHost } from '../support/fake-host.js';
import { faceButton, faceFixture, LIVE_CONFIG, lightChallenge, quickMovements, toColours, toLightWarning, untilFaceStep, partText } from '../support/face.js';
import { restoreGetUserMedia } from '../support/media.js';
import { MIN_HOLD_MS } from '../../../src/face-verify/later/face-verify.flow.js';
import type { VerifyFailureEvent } from '../../../src/events/failure.js';
import '../support/languages.js';

const text = partText;
const box = (element: HTMLElement) => element.shadowRoot!.querySelector<HTMLElement>('.lighting');

describe('<face-verify> with a light challenge', function () {
  this.timeout(30_000);
  let host: ReturnType<typeof fakeHost>;
  let restoreTiming: () => void;
  restoreGetUserMedia();
  beforeEach(() => (restoreTiming = quickMovements()));
  afterEach(() => {
    host?.stop();
    restoreTiming();
  });
  const routes = (holdMs: number, verify = () => ({ body: { verified: true, method: 'face', receipt: 'r', expiresAt: null } }) as object) => ({
    config: () => ({ body: LIVE_CONFIG }),
    'liveness-challenge': () => ({ body: lightChallenge(holdMs) }),
    'verify-by-face': verify,
  });

  it('warns first, starts on the press alone, fills the page with each colour in turn no faster than asked, and sends a frame under each', async () => {
    host = fakeHost(routes(600));
    const element = await faceFixture('manual other-way');
    await toLightWarning(element);
    expect(text(element, 'heading')).to.equal('Colours on your screen');
    expect(text(element, 'feedback')).to.equal('Bring your face close to the screen, to fill the larger oval.');
    expect(element.shadowRoot!.textContent).to.include('Your whole screen will flash 4 colours, one after another, for 2.4 seconds in all. Stop, or the Escape key, ends them at once. If flashing colours could make you unwell, don’t start them.');
    expect(text(element, 'other-way'), 'the other way, beside the start').to.equal('Verify another way');
    await waitUntil(() => text(element, 'live') === 'Bring your face close to the screen, to fill the larger oval. Your whole screen will flash 4 colours, one after another, for 2.4 seconds in all. Stop, or the Escape key, ends them at once. If flashing colours could make you unwell, don’t start them.', 'the warning, said', { timeout: 5000 });
    expect(element.shadowRoot!.querySelector('.guide ellipse')!.getAttribute('rx'), 'a larger oval').to.equal('30');
    // Nothing starts by itself.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(box(element), 'no colour before the press').to.equal(null);
    expect(host.count('verify-by-face')).to.equal(0);
    // Every colour change, timed as the page sees it.
    const changes: { colour: string; at: number }[] = [];
    const watch = new MutationObserver(() => {
      const colour = box(element)?.style.backgroundColor;
      if (colour && colour !== changes.at(-1)?.colour) changes.push({ colour, at: performance.now() });
    });
    watch.observe(element.shadowRoot!, { subtree: true, attributes: true, attributeFilter: ['style'] });
    // When "Keep still" is said, timed as the page sees it too (not as a poll finds it).
    let said = 0;
    const hear = new MutationObserver(() => void (!said && text(element, 'live') === 'Keep still, close to the screen, until the colours end.' && (said = performance.now())));
    hear.observe(element.shadowRoot!, { subtree: true, childList: true, characterData: true });
    // Pressed twice before the step redraws: the colours run once.
    faceButton(element, 'submit').click();
    faceButton(element, 'submit').click();
    await waitUntil(() => box(element), 'the colours');
    const lit = box(element)!.getBoundingClientRect();
    expect([lit.left, lit.top, lit.width, lit.height], 'the whole page').to.deep.equal([0, 0, innerWidth, innerHeight]);
    expect(element.shadowRoot!.activeElement?.getAttribute('part'), 'focus on Stop').to.equal('button stop');
    await waitUntil(() => said, 'said as the page fills');
    await untilFaceStep(element, 'success', 10_000);
    watch.disconnect();
    hear.disconnect();
    expect(changes[0]!.at - said, '"Keep still" said a second or more before the first colour: time for a screen reader to say it').to.be.at.least(1000);
    expect(changes.map((c) => c.colour)).to.deep.equal(['rgb(255, 255, 255)', 'rgb(0, 0, 255)', 'rgb(255, 255, 0)', 'rgb(0, 255, 255)']);
    for (let i = 1; i < changes.length; i++) expect(changes[i]!.at - changes[i - 1]!.at, `change ${i}: at most 1.7 a second`).to.be.at.least(590);
    const sent = host.calls.find((call) => call.route === 'verify-by-face')!.body;
    expect(Object.keys(sent).sort()).to.deep.equal(['lit', 'nonce', 'times', 'video']);
    const frames = [...(sent.video as string[]), ...(sent.lit as string[])];
    expect((sent.video as string[]).length).to.be.at.least(1);
    expect((sent.lit as string[]).length).to.equal(4);
    for (const frame of frames) expect(frame.startsWith('/9j/'), 'a JPEG, in base64').to.equal(true);
    expect(frames.reduce((sum, frame) => sum + (frame.length * 3) / 4, 0), 'within the handler’s 1 MB').to.be.below(1024 * 1024);
  });

  it('a handler asking for a faster light still gets no more than 2.5 changes a second', async () => {
    host = fakeHost(routes(100, () => ({ pending: true })));
    const element = await faceFixture('manual');
    await toColours(element);
    const start = performance.now();
    await waitUntil(() => host.count('verify-by-face') === 1, 'sent', { timeout: 10_000 });
    expect(performance.now() - start, 'four colours, at least three full holds').to.be.at.least(3 * MIN_HOLD_MS - 20);
  });

  it('with a face detector, the oval says while the colours show when the face has left it, and when it is back: on screen and said', async () => {
    host = fakeHost(routes(5000));
    const element = await faceFixture('manual');
    // Where the detector finds the face, as a share of the frame: in the larger oval, then gone, then back.
    let face: { x: number; y: number; height: number } | null = { x: 0.5, y: 0.48, height: 0.6 };
    element.detector = {
      detect: async ({ width, height }) => (face ? [{ x: (face.x - face.height * 0.375) * width, y: (face.y - face.height / 2) * height, width: face.height * 0.75 * width, height: face.height * height }] : []),
    };
    await toColours(element);
    const ring = () => element.shadowRoot!.querySelector('.guide')!.classList.contains('good');
    const keepStill = 'Keep still, close to the screen, until the colours end.';
    const away = 'Bring your face back into the oval, close to the screen.';
    expect([text(element, 'feedback'), ring()]).to.deep.equal([keepStill, true]);
    face = null;
    await waitUntil(() => text(element, 'feedback') === away && !ring(), 'the face gone: the oval says so', { timeout: 2000 });
    await waitUntil(() => text(element, 'live') === away, 'and it is said');
    face = { x: 0.5, y: 0.48, height: 0.25 };
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(text(element, 'feedback'), 'a face too far back is not yet in the oval').to.equal(away);
    face = { x: 0.52, y: 0.5, height: 0.55 };
    await waitUntil(() => text(element, 'feedback') === keepStill && ring(), 'back in the oval', { timeout: 2000 });
    await waitUntil(() => text(element, 'live') === keepStill, 'and that is said too');
    faceButton(element, 'stop').click();
    await untilFaceStep(element, 'priming');
  });

  it('the camera lost while the colours show (its track ended): they end within a colour or two, back to the start, nothing sent', async () => {
    host = fakeHost(routes(MIN_HOLD_MS));
    const element = await faceFixture('manual');
    await toColours(element);
    const video = element.shadowRoot!.querySelector('video')!;
    for (const track of (video.srcObject as MediaStream).getTracks()) track.stop();
    const lost = performance.now();
    await untilFaceStep(element, 'priming', 4000);
    expect(performance.now() - lost, 'ended within a colour or two').to.be.below(2500);
    expect(box(element)).to.equal(null);
    expect(host.count('verify-by-face')).to.equal(0);
  });

  for (const how of ['Stop', 'Escape']) {
    it(`${how} ends the colours at once, stops the camera, and sends nothing`, async () => {
      host = fakeHost(routes(5000));
      const element = await faceFixture('manual');
      await toColours(element);
      if (how === 'Stop') faceButton(element, 'stop').click();
      else await executeServerCommand('keys', { press: 'Escape' });
      await untilFaceStep(element, 'priming');
      expect(box(element)).to.equal(null);
      expect(host.count('verify-by-face')).to.equal(0);
    });
  }

  it('without the host\'s other way, the warning says so and offers not to see the colours: the challenge ends, the page hears it, nothing is sent', async () => {
    host = fakeHost(routes(600));
    const element = await faceFixture('manual');
    await toLightWarning(element);
    expect(element.shadowRoot!.textContent).to.include('This page offers no other way to check your face.');
    expect(element.shadowRoot!.querySelector('[part~="other-way"]')).to.equal(null);
    const heard = new Promise<CustomEvent>((resolve) => element.addEventListener('verify-other-way', (event) => resolve(event as CustomEvent), { once: true }));
    faceButton(element, 'decline').click();
    expect((await heard).detail).to.deep.equal({ kind: 'face', step: 'challenge' });
    await untilFaceStep(element, 'priming');
    expect(host.count('verify-by-face')).to.equal(0);
  });

  it('with the host\'s other way, that is the way offered: no second one', async () => {
    host = fakeHost(routes(600));
    const element = await faceFixture('manual other-way');
    await toLightWarning(element);
    expect(element.shadowRoot!.querySelector('[part~="decline"]')).to.equal(null);
    expect(element.shadowRoot!.textContent).not.to.include('This page offers no other way');
  });

  it('Escape at the warning, before any colour, ends the challenge and stops the camera, and sends nothing', async () => {
    host = fakeHost(routes(600));
    const element = await faceFixture('manual');
    await toLightWarning(element);
    await executeServerCommand('keys', { press: 'Escape' });
    await untilFaceStep(element, 'priming');
    expect(box(element)).to.equal(null);
    expect(host.count('verify-by-face')).to.equal(0);
  });

  it('by the keyboard alone, in Arabic: the start reached by Tab and pressed with Enter, the words right to left', async () => {
    host = fakeHost(routes(400));
    const element = await faceFixture('manual', 'ar');
    await toLightWarning(element);
    expect(text(element, 'heading')).to.equal('ألوان على شاشتك');
    (document.activeElement as HTMLElement | null)?.blur();
    for (let i = 0; i < 6 && element.shadowRoot!.activeElement?.getAttribute('part') !== 'button submit'; i++) await executeServerCommand('keys', { press: 'Tab' });
    expect(element.shadowRoot!.activeElement?.textContent?.trim()).to.equal('اعرض الألوان');
    await executeServerCommand('keys', { press: 'Enter' });
    await waitUntil(() => box(element), 'the colours');
    expect(getComputedStyle(box(element)!).direction).to.equal('rtl');
    await untilFaceStep(element, 'success', 10_000);
  });

  it('the colours\' code not fetched (offline at the press): the person is told, nothing is sent, and Try again goes on to the colours', async () => {
    host = fakeHost(routes(400));
    const element = await faceFixture('manual');
    await toLightWarning(element);
    // The network drops before the press: the code fetched ahead is not there either.
    const tools = element.tools as unknown as { lightCode(): Promise<unknown> };
    const online = tools.lightCode;
    tools.lightCode = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'failure', 10_000);
    expect(text(element, 'error')).to.equal('We couldn’t reach the verification service. Please try again.');
    expect(box(element), 'no colour shown').to.equal(null);
    expect(host.count('verify-by-face')).to.equal(0);
    await expect(element).to.be.accessible();
    tools.lightCode = online;
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'preview');
    await waitUntil(() => element.shadowRoot!.querySelector('video')?.videoWidth, 'frames', { timeout: 5000 });
    faceButton(element, 'shutter').click();
    await untilFaceStep(element, 'challenge');
    await toColours(element);
    await untilFaceStep(element, 'success', 10_000);
    expect(host.count('liveness-challenge'), 'a new challenge for the new try').to.equal(2);
  });

  for (const reason of ['light_not_seen', 'light_moved']) {
    it(`a refusal as ${reason} says what to do, with the tries left, and Try again asks for a new challenge`, async () => {
      host = fakeHost(routes(400, () => ({ status: 422, body: { error: { code: 'liveness_failed', message: 'no', reason, attemptsLeft: 2 } } })));
      const element = await faceFixture('manual');
      let failure: VerifyFailureEvent | undefined;
      element.addEventListener('verify-failure', (event) => (failure = event));
      await toColours(element);
      await untilFaceStep(element, 'failure', 10_000);
      const said = reason === 'light_not_seen'
        ? 'The screen’s colours weren’t seen on your face. Come closer to the screen, turn its brightness up, and keep bright light off your face. 2 tries left.'
        : 'You moved while the colours showed. Stay close to the screen and keep still until they end. 2 tries left.';
      expect(text(element, 'error')).to.equal(said);
      expect(failure!.detail).to.include({ code: 'liveness_failed', reason, attemptsLeft: 2 });
      faceButton(element, 'submit').click();
      await untilFaceStep(element, 'preview');
    });
  }
});
