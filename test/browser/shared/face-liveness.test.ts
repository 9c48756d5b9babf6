/**
 * <face-verify> where the host checks faces live: the framed face starts the movements the host
 * chose, each said and drawn on the mirrored preview, and the challenge is filmed; the answer is the
 * nonce, the film's frames and their times, never a photo, and a photo file is not offered.
 */
import { executeServerCommand } from '@web/test-runner-commands';
import { expect, waitUntil } from '@open-wc/testing';
import { fakeHost } from '../support/fake-host.js';
import { faceButton, faceFixture, LIVE_CHALLENGE, LIVE_CONFIG, quickMovements, toMovement, untilFaceStep, partText } from '../support/face.js';
import { restoreGetUserMedia } from '../support/media.js';
import type { VerifyFailureEvent } from '../../../src/events/failure.js';
// The right-to-left languages the arrows are checked in, registered as a page registers them.
import '../support/languages.js';

const press = (key: string) => executeServerCommand('keys', { press: key });

/** Presses Tab until the widget's focus is on `part`; what it passed on the way. */
async function tabTo(element: HTMLElement, part: string): Promise<string[]> {
  const passed: string[] = [];
  for (let i = 0; i < 8; i++) {
    await press('Tab');
    const at = element.shadowRoot!.activeElement?.getAttribute('part') ?? '';
    if (at.split(' ').includes(part)) return passed;
    passed.push(at);
  }
  throw new Error(`${part} not reached by Tab; passed ${passed.join(', ')}`);
}

const text = partText;

describe('<face-verify> with a live challenge', function () {
  this.timeout(20_000);
  let host: ReturnType<typeof fakeHost>;
  let restoreTiming: () => void;
  restoreGetUserMedia();
  beforeEach(() => (restoreTiming = quickMovements()));
  /** Movements of `moveMs` for this test, set back after it. */
  const slower = (moveMs: number) => {
    restoreTiming();
    restoreTiming = quickMovements({ frontalMs: moveMs / 3, moveMs });
  };
  afterEach(() => {
    host?.stop();
    restoreTiming();
  });

  it('says and draws each movement, then sends the nonce and the challenge filmed, four frames a second, with their times', async () => {
    host = fakeHost({
      config: () => ({ body: LIVE_CONFIG }),
      'liveness-challenge': () => ({ body: LIVE_CHALLENGE }),
      'verify-by-face': () => ({ body: { verified: true, method: 'face', receipt: 'r', expiresAt: null } }),
    });
    // Each sentence reaches the live region a frame after it is said: movements long enough for a
    // busy engine's frames to show each one (WebKit under CI's load once ran two sentences' frames
    // together at 400 ms, and the second was never shown; the widget's own are 2.2 s).
    const moveMs = 1000;
    slower(moveMs);
    const element = await faceFixture('manual');
    await waitUntil(() => element.config?.liveness, 'the host says it checks faces live');
    await element.updateComplete;
    expect(element.shadowRoot!.querySelector('[part~="upload"]'), 'no photo file where faces are checked live').to.equal(null);
    const said: string[] = [];
    new MutationObserver(() => said.push(text(element, 'live'))).observe(element.shadowRoot!, { subtree: true, childList: true, characterData: true });
    await toMovement(element);
    expect(text(element, 'feedback')).to.equal('Turn your head to your left. Hold it there until the next step.');
    expect(element.shadowRoot!.querySelector('[part~="arrow"]')!.classList.contains('left')).to.equal(true);
    await untilFaceStep(element, 'success');
    const sent = host.calls.find((call) => call.route === 'verify-by-face')!.body;
    expect(Object.keys(sent).sort()).to.deep.equal(['nonce', 'times', 'video']);
    expect(sent.nonce).to.equal('nonce-1');
    const [video, times] = [sent.video as string[], sent.times as number[]];
    // Four frames a second at most over the steps (a busy engine, slow to encode a JPEG, takes fewer).
    expect(video.length).to.be.within(3, Math.floor((moveMs / 3 + 2 * moveMs) / 250) + 1);
    expect(times).to.have.length(video.length);
    // From the first frame, in order (how far apart depends on how fast the engine encodes a JPEG).
    expect(times[0]).to.equal(0);
    times.slice(1).forEach((time, i) => expect(time).to.be.above(times[i]!));
    for (const frame of video) expect(frame.startsWith('/9j/'), 'a JPEG, in base64').to.equal(true);
    // At most 480 px a side, as the host takes them.
    const picture = await createImageBitmap(new Blob([Uint8Array.from(atob(video[0]!), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }));
    expect(Math.max(picture.width, picture.height)).to.be.at.most(480);
    expect(said.join('|')).to.include('Look straight at the camera.').and.include('Turn your head to your left. Hold it there until the next step.').and.include('Tilt your head up. Hold it there until the next step.');
  });

  it('each movement lasts until the face has moved and holds it, and a face that does not move is asked the next at the limit', async () => {
    host = fakeHost({ config: () => ({ body: LIVE_CONFIG }), 'liveness-challenge': () => ({ body: LIVE_CHALLENGE }), 'verify-by-face': () => ({ pending: true }) });
    restoreTiming();
    // Long enough that a busy engine's looks at the picture (WebKit here: one every 300 to 500 ms,
    // not 125) see the turn and its hold well within it: under CI's load WebKit once took 4.3 s
    // to end a step made at once, past the 3.5 s a limit of 6 s allowed.
    const limit = 9000;
    restoreTiming = quickMovements({ frontalMs: 800, minMoveMs: 300, moveMs: limit });
    // A camera showing a bright oval (the face) on a dark room, redrawn as a camera sends frames.
    const canvas = Object.assign(document.createElement('canvas'), { width: 640, height: 480 });
    const context = canvas.getContext('2d')!;
    let faceAt = 320;
    const paint = setInterval(() => {
      context.fillStyle = '#222';
      context.fillRect(0, 0, 640, 480);
      context.fillStyle = '#e8c0a0';
      context.beginPath();
      context.ellipse(faceAt, 240, 100, 140, 0, 0, 2 * Math.PI);
      context.fill();
    }, 33);
    navigator.mediaDevices.getUserMedia = async () => canvas.captureStream(30);
    try {
      const element = await faceFixture('manual');
      const arrow = () => [...(element.shadowRoot!.querySelector('[part~="arrow"]')?.classList ?? [])].find((c) => c !== 'arrow');
      await toMovement(element);
      // The person turns as soon as the arrow shows, and holds it.
      let asked = performance.now();
      faceAt = 440;
      await waitUntil(() => arrow() === 'up', 'the next movement, once the first was made and held', { timeout: limit + 2000 });
      const made = performance.now() - asked;
      // Then does not move: the next comes at the limit.
      asked = performance.now();
      await waitUntil(() => element.shadowRoot!.querySelector('[part~="arrow"]') === null, 'the movements over', { timeout: limit + 2000 });
      const unmoved = performance.now() - asked;
      expect(made, 'a movement made and held ends its step').to.be.below(limit - 2500);
      // Timed from when the test saw the arrow change, up to a poll and a busy WebKit's frame late
      // (CI on 323607e: 8749 ms against 8750): 500 ms of room, far from a made movement's 2500.
      expect(unmoved, 'no movement: the step lasts its limit').to.be.above(limit - 500);
    } finally {
      clearInterval(paint);
    }
  });

  it('a refused answer says which movement and the tries left, on screen, in the live region and in the event; offers no file; Try again asks for a new challenge', async () => {
    host = fakeHost({
      config: () => ({ body: LIVE_CONFIG }),
      'liveness-challenge': () => ({ body: LIVE_CHALLENGE }),
      'verify-by-face': () => ({ status: 422, body: { error: { code: 'liveness_failed', message: 'no', reason: 'move_not_seen', move: 'left', attemptsLeft: 3 } } }),
    });
    const element = await faceFixture('manual');
    await waitUntil(() => element.config?.liveness, 'the host says it checks faces live');
    let failure: VerifyFailureEvent | undefined;
    element.addEventListener('verify-failure', (event) => (failure = event));
    await toMovement(element);
    await untilFaceStep(element, 'failure');
    const said = 'We didn’t see the movement. Turn your head to your left. 3 tries left.';
    expect(text(element, 'error')).to.equal(said);
    await waitUntil(() => text(element, 'live') === said, 'the live region says it all');
    expect(failure, 'the person did not pass: a verify-failure').to.not.equal(undefined);
    expect(failure!.detail).to.include({ code: 'liveness_failed', reason: 'move_not_seen', move: 'left', attemptsLeft: 3, message: said });
    expect(element.shadowRoot!.querySelector('[part~="upload"]')).to.equal(null);
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'preview');
    await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames', { timeout: 5000 });
    faceButton(element, 'shutter').click();
    await waitUntil(() => host.count('liveness-challenge') === 2, 'a new challenge');
  });

  for (const lang of ['ar', 'ur']) {
    it(`in ${lang}, "left" is the person's own, and its arrow points to the screen's left as on the mirrored preview`, async () => {
      host = fakeHost({ config: () => ({ body: LIVE_CONFIG }), 'liveness-challenge': () => ({ body: LIVE_CHALLENGE }), 'verify-by-face': () => ({ pending: true }) });
      const element = await faceFixture('manual', lang);
      await waitUntil(() => element.config?.liveness, 'the host says it checks faces live');
      expect(getComputedStyle(element).direction).to.equal('rtl');
      await toMovement(element);
      const arrow = element.shadowRoot!.querySelector<SVGSVGElement>('[part~="arrow"]')!;
      const head = arrow.querySelector('path')!.getAttribute('d')!;
      // The arrow's head is drawn at x = 34 of 100: on the left, whatever the text's direction.
      expect(head.startsWith('M66 50H34')).to.equal(true);
      // On screen, with every transform applied: the tip is left of the tail.
      const screen = arrow.querySelector('path')!.getScreenCTM()!;
      const [tail, tip] = [new DOMPoint(66, 50).matrixTransform(screen), new DOMPoint(34, 50).matrixTransform(screen)];
      expect(tip.x, 'the tip, on the screen\'s left').to.be.below(tail.x - 10);
      expect(text(element, 'feedback')).to.equal(lang === 'ar' ? 'أدر رأسك إلى يسارك. ابقَ على هذه الوضعية حتى الخطوة التالية.' : 'اپنا سر اپنی بائیں طرف موڑیں۔ اگلے مرحلے تک اسی طرح رہیں۔');
      element.remove();
    });
  }

  it('with no camera, no photo file is offered to verify where faces are checked live', async () => {
    host = fakeHost({ config: () => ({ body: LIVE_CONFIG }) });
    navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('none'), { name: 'NotFoundError' }));
    const element = await faceFixture('manual');
    await waitUntil(() => element.config?.liveness, 'the host says it checks faces live');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'failure');
    expect(element.shadowRoot!.querySelector('[part~="upload"]')).to.equal(null);
  });

  it('with no camera, or mid-challenge, "Verify another way" (other-way) tells the page, which shows its other path', async () => {
    host = fakeHost({ config: () => ({ body: LIVE_CONFIG }), 'liveness-challenge': () => ({ body: LIVE_CHALLENGE }), 'verify-by-face': () => ({ pending: true }) });
    const plain = await faceFixture('manual');
    await waitUntil(() => plain.config?.liveness, 'the host says it checks faces live');
    expect(plain.shadowRoot!.querySelector('[part~="other-way"]'), 'not offered unless the page has another way').to.equal(null);
    plain.remove();
    const element = await faceFixture('manual other-way');
    const chosen: { kind: string; step: string }[] = [];
    const choose = (event: { detail: { kind: string; step: string } }) => chosen.push(event.detail);
    document.addEventListener('verify-other-way', choose);
    element.addEventListener('verify-other-way', choose);
    await waitUntil(() => element.config?.liveness, 'the host says it checks faces live');
    expect(text(element, 'other-way'), 'offered before the camera').to.equal('Verify another way');
    await toMovement(element);
    faceButton(element, 'other-way').click();
    expect(chosen).to.deep.equal([{ kind: 'face', step: 'challenge' }, { kind: 'face', step: 'challenge' }], 'bubbles out of the widget to the document');
    element.remove();
    navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('none'), { name: 'NotFoundError' }));
    const noCamera = await faceFixture('manual other-way', 'ar');
    await waitUntil(() => noCamera.config?.liveness, 'the host says it checks faces live');
    faceButton(noCamera, 'submit').click();
    await untilFaceStep(noCamera, 'failure');
    expect(text(noCamera, 'other-way')).to.equal('التحقق بطريقة أخرى');
    faceButton(noCamera, 'other-way').click();
    expect(chosen.at(-1)).to.deep.equal({ kind: 'face', step: 'failure' });
    document.removeEventListener('verify-other-way', choose);
  });

  for (const lang of ['en', 'ar']) {
    it(`by the keyboard alone (${lang}): the camera started, the movements begun, the other way reached, and passed`, async () => {
      host = fakeHost({
        config: () => ({ body: LIVE_CONFIG }),
        'liveness-challenge': () => ({ body: LIVE_CHALLENGE }),
        'verify-by-face': () => ({ body: { verified: true, method: 'face', receipt: 'r', expiresAt: null } }),
      });
      // Slow enough movements for Tab to reach the button while they are asked for.
      slower(1200);
      const element = await faceFixture('manual other-way', lang);
      await waitUntil(() => element.config?.liveness, 'the host says it checks faces live');
      (document.activeElement as HTMLElement | null)?.blur();
      await tabTo(element, 'submit');
      await press('Enter');
      await untilFaceStep(element, 'preview');
      await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames', { timeout: 5000 });
      await tabTo(element, 'shutter');
      await press('Enter');
      await untilFaceStep(element, 'challenge');
      await tabTo(element, 'other-way');
      await untilFaceStep(element, 'success', 10_000);
      expect(host.count('verify-by-face')).to.equal(1);
    });
  }
});
