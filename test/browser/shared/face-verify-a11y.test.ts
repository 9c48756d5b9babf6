import { waitUntil } from '@open-wc/testing';
import { faceButton, faceFixture, LIVE_CHALLENGE, LIVE_CONFIG, lightChallenge, quickMovements, toColours, toLightWarning, toMovement, untilFaceStep } from '../support/face.js';
import type { FaceVerify } from '../../../src/face-verify/face-verify.js';
import { axeEachStep } from '../support/axe-steps.js';

async function toPreview(element: FaceVerify) {
  faceButton(element, 'submit').click();
  await untilFaceStep(element, 'preview');
  await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames', { timeout: 5000 });
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
  // Where the host checks faces live: a movement on screen, and an answer refused for one.
  ['challenge', toMovement],
  // With the light: its warning, and the colours filling the page (held long enough for axe).
  ['challenge (the light’s warning)', toLightWarning],
  ['challenge (the light’s colours)', toColours],
  ['failure (a live check refused)', async (element) => {
    await toMovement(element);
    await untilFaceStep(element, 'failure');
  }],
  ['failure (no match)', async (element) => {
    await toPreview(element);
    faceButton(element, 'shutter').click();
    await untilFaceStep(element, 'review');
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'failure');
  }],
];

// The movements of a live challenge, timed for tests.
let restoreTiming: () => void;
before(() => (restoreTiming = quickMovements()));
after(() => restoreTiming());

axeEachStep<FaceVerify>('face-verify', {
  fixture: (attributes, lang) => faceFixture(`manual ${attributes}`, lang),
  routes: (step) => ({
    ...(step.startsWith('challenge') || step.includes('live')
      ? {
          config: () => ({ body: LIVE_CONFIG }),
          'liveness-challenge': () => ({ body: step.includes('light') ? lightChallenge(5000) : LIVE_CHALLENGE }),
        }
      : {}),
    'verify-by-face': () =>
      step.startsWith('challenge')
        ? { pending: true }
        : step.includes('live')
          ? { status: 422, body: { error: { code: 'liveness_failed', message: 'no', reason: 'move_not_seen', move: 'up', attemptsLeft: 2 } } }
          : step === 'uploading'
        ? { pending: true }
        : step === 'success'
          ? { body: { verified: true, method: 'face', receipt: 'r', expiresAt: null } }
          : { status: 422, body: { error: { code: 'no_match', message: 'no', attemptsLeft: 2 } } },
  }),
  steps: STEPS.map(([name, drive]) => ({ name, drive })),
});
