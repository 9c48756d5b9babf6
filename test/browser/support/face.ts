import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/face-verify/define.js';
import type { FaceVerify } from '../../../src/face-verify/face-verify.js';

export async function faceFixture(attributes = '', lang = 'en') {
  const wrapper = await fixture<HTMLDivElement>(html`<div lang=${lang} dir=${lang === 'ar' ? 'rtl' : 'ltr'} .innerHTML=${`<face-verify endpoint="/host" ${attributes}></face-verify>`}></div>`);
  const element = wrapper.querySelector('face-verify') as FaceVerify;
  await element.updateComplete;
  return element;
}

export async function untilFaceStep(element: FaceVerify, step: string, timeout = 8000) {
  await waitUntil(() => element.step === step, `step ${step}, still ${element.step}`, { timeout });
  await element.updateComplete;
}

export const faceButton = (element: FaceVerify, part: string) => element.shadowRoot!.querySelector<HTMLButtonElement>(`[part~="${part}"]`)!;

/** From wherever the element starts (priming or a failure with Try again) to an upload's outcome. */
export async function shootAndSend(element: FaceVerify, step: string) {
  faceButton(element, 'submit').click();
  await untilFaceStep(element, 'preview');
  await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames');
  faceButton(element, 'shutter').click();
  await untilFaceStep(element, 'review');
  faceButton(element, 'submit').click();
  await untilFaceStep(element, step);
}
