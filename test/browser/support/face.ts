import { waitUntil } from '@open-wc/testing';
import '../../../src/face-verify/define.js';
import type { FaceVerify } from '../../../src/face-verify/face-verify.js';
import { partOf, untilWidgetStep, widgetFixture } from './widget.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';

export const faceFixture = (attributes = '', lang = 'en') => widgetFixture<FaceVerify>('face-verify', attributes, lang);
export const untilFaceStep = (element: FaceVerify, step: string, timeout = 8000) => untilWidgetStep(element, step, timeout);
export const faceButton = (element: FaceVerify, part: string) => partOf(element, part);

/** From wherever the element starts (priming or a failure with Try again) to an upload's outcome. */
export async function shootAndSend(element: FaceVerify, step: string) {
  faceButton(element, 'submit').click();
  await untilFaceStep(element, 'preview');
  await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames', { timeout: 5000 });
  faceButton(element, 'shutter').click();
  await untilFaceStep(element, 'review');
  faceButton(element, 'submit').click();
  await untilFaceStep(element, step);
}

/** Gives the widget's file input a file, as the person picking it does. */
export async function fileInput(element: VerifyElement, file: File) {
  const files = new DataTransfer();
  files.items.add(file);
  const input = element.shadowRoot!.querySelector<HTMLInputElement>('input[type="file"]')!;
  input.files = files.files;
  input.dispatchEvent(new Event('change'));
}

/** A portrait from the fixtures, as a file a person would pick. */
export async function photoFile(): Promise<File> {
  const blob = await (await fetch('/fixtures/faces/obama_1.jpg')).blob();
  return new File([blob], 'me.jpg', { type: 'image/jpeg' });
}
