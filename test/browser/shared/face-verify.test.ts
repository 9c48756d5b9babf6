import { expect, waitUntil } from '@open-wc/testing';
import { fakeHost } from '../support/fake-host.js';
import { faceButton, faceFixture, shootAndSend, untilFaceStep } from '../support/face.js';
import { restoreGetUserMedia } from '../support/media.js';

const verifiedFace = () => ({ body: { verified: true, method: 'face', receipt: 'face.receipt', expiresAt: null } });

describe('<face-verify>', () => {
  let host: ReturnType<typeof fakeHost>;
  restoreGetUserMedia();
  afterEach(() => host?.stop());

  it('primes, opens the camera only when asked, takes a photo with the shutter, and uploads it', async () => {
    host = fakeHost({ 'verify-by-face': () => verifiedFace() });
    const element = await faceFixture('manual');
    expect(element.step).to.equal('priming');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'preview');
    const video = element.shadowRoot!.querySelector('video')!;
    // The attributes are what iOS reads; Firefox has no playsInline property.
    expect(video.hasAttribute('playsinline') && video.hasAttribute('muted') && video.muted).to.be.true;
    await waitUntil(() => video.videoWidth > 0, 'frames', { timeout: 5000 });
    faceButton(element, 'shutter').click();
    await untilFaceStep(element, 'review');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'success');
    const sent = host.calls.find((c) => c.route === 'verify-by-face')!.body;
    expect(Object.keys(sent)).to.deep.equal(['query_face_image']);
    expect((sent.query_face_image as string).startsWith('/9j/')).to.be.true;
    expect(element.value).to.equal('face.receipt');
  });

  it('a blocked camera says how to unblock it in this browser, and offers the photo upload', async () => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' }));
    host = fakeHost({});
    const element = await faceFixture();
    const error = new Promise<CustomEvent>((resolve) => element.addEventListener('verify-error', (e) => resolve(e as CustomEvent), { once: true }));
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'failure');
    const shown = element.shadowRoot!.querySelector('[part~="error"]')!.textContent;
    expect(shown).to.match(/blocked/);
    // The page and screen-reader users are told the same steps as the screen shows.
    expect((await error).detail).to.include({ code: 'denied', message: shown });
    expect(faceButton(element, 'upload')).to.exist;
    expect(faceButton(element, 'submit').textContent).to.contain('Try again');
  });

  it('takes a photo from a file instead of the camera, and enrols it', async () => {
    host = fakeHost({ 'enroll-face': () => ({ body: { enrolled: true, kind: 'face' } }) });
    const element = await faceFixture('mode="enroll"');
    const canvas = Object.assign(document.createElement('canvas'), { width: 800, height: 600 });
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#c08060';
    context.fillRect(0, 0, 800, 600);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg'));
    const files = new DataTransfer();
    files.items.add(new File([blob], 'me.jpg', { type: 'image/jpeg' }));
    const input = element.shadowRoot!.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.accept).to.equal('image/*');
    expect(input.getAttribute('capture')).to.equal('user');
    input.files = files.files;
    input.dispatchEvent(new Event('change'));
    await untilFaceStep(element, 'review');
    const enrolled = new Promise((resolve) => element.addEventListener('verify-enrolled', resolve, { once: true }));
    faceButton(element, 'submit').click();
    await enrolled;
    const sent = host.calls.find((c) => c.route === 'enroll-face')!.body;
    const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(sent.face_image as string), (c) => c.charCodeAt(0))]));
    expect([bitmap.width, bitmap.height]).to.deep.equal([640, 480]);
  });

  // Every way the camera can fail ends on a screen that says what happened and how to go on.
  const cameraFailures: [string, string | null, RegExp, boolean][] = [
    ['NotFoundError', 'no-camera', /No camera/, true],
    ['NotReadableError', 'busy', /Another app/, true],
    ['OverconstrainedError', 'constraints', /can’t be used/, true],
    ['TypeError', 'unsupported', /This browser/, false],
    ['insecure context', 'insecure', /secure \(https\)/, false],
  ];
  // On the global object the attribute is the window's own property: put back what was there.
  const secureContext = Object.getOwnPropertyDescriptor(window, 'isSecureContext') ?? Object.getOwnPropertyDescriptor(Window.prototype, 'isSecureContext')!;
  for (const [cause, code, text, canRetry] of cameraFailures) {
    it(`${cause}: says so, ${canRetry ? 'offers another try and' : 'offers'} the photo upload`, async function () {
      if (cause === 'insecure context') {
        // WebKitGTK's compiled reads of the window's attribute miss a redefinition once they have
        // run (the test itself reads false, the controller true): Chromium and Firefox check this.
        if (/AppleWebKit/.test(navigator.userAgent) && !/Chrome/.test(navigator.userAgent)) this.skip();
        Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
      }
      else navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('stubbed'), { name: cause }));
      try {
        host = fakeHost({});
        const element = await faceFixture();
        const error = new Promise<CustomEvent>((resolve) => element.addEventListener('verify-error', (e) => resolve(e as CustomEvent), { once: true }));
        faceButton(element, 'submit').click();
        await untilFaceStep(element, 'failure');
        expect(element.shadowRoot!.querySelector('[part~="error"]')!.textContent).to.match(text);
        expect((await error).detail.code).to.equal(code);
        expect(faceButton(element, 'upload')).to.exist;
        expect(Boolean(element.shadowRoot!.querySelector('button[part~="submit"]'))).to.equal(canRetry);
      } finally {
        Object.defineProperty(window, 'isSecureContext', secureContext);
      }
    });
  }

  it('a non-match says how many tries are left and offers another; none left, it stops', async () => {
    let left = 1;
    host = fakeHost({ 'verify-by-face': () => ({ status: 422, body: { error: { code: 'no_match', message: 'no', attemptsLeft: left-- } } }) });
    const element = await faceFixture('manual');
    for (const expected of [/That didn’t match\. 1 try left\./, /^That didn’t match\.$/]) {
      await shootAndSend(element, 'failure');
      expect(element.shadowRoot!.querySelector('[part~="error"]')!.textContent).to.match(expected);
    }
    expect(element.shadowRoot!.querySelector('button[part~="submit"]')).to.equal(null);
  });

  it('too many tries: says how long to wait, with the time written out', async () => {
    host = fakeHost({ 'verify-by-face': () => ({ status: 429, headers: { 'retry-after': '90' }, body: { error: { code: 'rate_limited', message: 'wait', retryAfter: 90 } } }) });
    const element = await faceFixture('manual');
    await shootAndSend(element, 'failure');
    const shown = element.shadowRoot!.querySelector('[part~="error"]')!.textContent!;
    // 90 seconds written as minutes and seconds (a second may tick before it is read).
    expect(shown.trim()).to.match(/^Too many requests\. Please wait 1:(30|29)\.$/);
  });

  it('when the page is hidden, the camera is released and the widget starts over', async () => {
    host = fakeHost({});
    const element = await faceFixture('manual');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'preview');
    const tracks = (element as unknown as { tools: { camera: { stream: MediaStream } } }).tools.camera.stream.getTracks();
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    expect(tracks.every((t) => t.readyState === 'ended')).to.be.true;
    await untilFaceStep(element, 'priming');
  });
});
