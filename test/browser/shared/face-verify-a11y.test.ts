import { expect, waitUntil } from '@open-wc/testing';
import { fakeHost } from '../support/fake-host.js';
import { faceButton, faceFixture, untilFaceStep } from '../support/face.js';
import type { FaceVerify } from '../../../src/face-verify/face-verify.js';
import { restoreGetUserMedia } from '../support/media.js';

async function toPreview(element: FaceVerify) {
  faceButton(element, 'submit').click();
  await untilFaceStep(element, 'preview');
  await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames');
}

const STEPS: [string, (element: FaceVerify) => Promise<void>][] = [
  ['priming', async () => {}],
  ['permission', async (element) => {
    navigator.mediaDevices.getUserMedia = () => new Promise(() => {});
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'permission');
  }],
  ['failure (camera blocked)', async (element) => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' }));
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'failure');
  }],
  ['preview', toPreview],
  ['review', async (element) => {
    await toPreview(element);
    faceButton(element, 'shutter').click();
    await untilFaceStep(element, 'review');
  }],
  ['uploading', async (element) => {
    await toPreview(element);
    faceButton(element, 'shutter').click();
    await untilFaceStep(element, 'review');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'uploading');
  }],
  ['success', async (element) => {
    await toPreview(element);
    faceButton(element, 'shutter').click();
    await untilFaceStep(element, 'review');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'success');
  }],
  ['failure (no match)', async (element) => {
    await toPreview(element);
    faceButton(element, 'shutter').click();
    await untilFaceStep(element, 'review');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'failure');
  }],
];

for (const lang of ['en', 'ar']) {
  describe(`<face-verify> accessibility (${lang})`, () => {
    let host: ReturnType<typeof fakeHost>;
    restoreGetUserMedia();
    afterEach(() => host?.stop());
    for (const [name, drive] of STEPS) {
      it(`axe finds no violation at ${name}`, async () => {
        host = fakeHost({
          'verify-by-face': () =>
            name === 'uploading'
              ? { pending: true }
              : name === 'success'
                ? { body: { verified: true, method: 'face', receipt: 'r', expiresAt: null } }
                : { status: 422, body: { error: { code: 'no_match', message: 'no', attemptsLeft: 2 } } },
        });
        const element = await faceFixture('manual', lang);
        await drive(element);
        await expect(element).to.be.accessible();
        element.remove();
      });
    }
  });
}
