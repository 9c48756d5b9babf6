import { waitUntil } from '@open-wc/testing';
import '../../../src/face-verify/define.js';
import type { FaceVerify } from '../../../src/face-verify/face-verify.js';
import { partOf, untilWidgetStep, widgetFixture } from './widget.js';
import { CONFIG } from './fake-host.js';
import { LIVE_TIMING } from '../../../src/face-verify/later/live-challenge.js';
import type { VerifyElement } from '../../../src/internal/verify-element.js';

export const faceFixture = (attributes = '', lang = 'en') => widgetFixture<FaceVerify>('face-verify', attributes, lang);
export const untilFaceStep = (element: FaceVerify, step: string, timeout = 8000) => untilWidgetStep(element, step, timeout);
export const faceButton = (element: FaceVerify, part: string) => partOf(element, part);
/** The trimmed text of the widget's `part`, or '' where there is none. */
export const partText = (element: HTMLElement, part: string) => element.shadowRoot!.querySelector(`[part~="${part}"]`)?.textContent?.trim() ?? '';

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

/** What a host that checks faces live says in its config. */
export const LIVE_CONFIG = { ...CONFIG, liveness: { photoEnrolment: false } };
/** Its challenge, always the same here: the person's left, then up. */
export const LIVE_CHALLENGE = { nonce: 'nonce-1', moves: ['left', 'up'], expiresIn: 60 };

/** Movements timed for tests: the frames come as fast as the camera gives them. */
export function quickMovements(timing: Partial<typeof LIVE_TIMING> = { frontalMs: 30, moveMs: 120 }): () => void {
  const saved = { ...LIVE_TIMING };
  Object.assign(LIVE_TIMING, timing);
  return () => Object.assign(LIVE_TIMING, saved);
}

/** From priming to the challenge's first movement on screen (its arrow drawn). */
export async function toMovement(element: FaceVerify) {
  await waitUntil(() => element.config?.liveness, 'the host says it checks faces live');
  faceButton(element, 'submit').click();
  await untilFaceStep(element, 'preview');
  await waitUntil(() => element.shadowRoot!.querySelector('video')!.videoWidth > 0, 'frames', { timeout: 5000 });
  faceButton(element, 'shutter').click();
  await untilFaceStep(element, 'challenge');
  await waitUntil(() => element.shadowRoot!.querySelector('[part~="arrow"]'), 'a movement asked for', { timeout: 5000 });
}

/** A challenge with the light: four colours of `holdMs` after the movements. */
export const lightChallenge = (holdMs = 600) => ({ ...LIVE_CHALLENGE, light: { colours: ['#ffffff', '#0000ff', '#ffff00', '#00ffff'], holdMs } });

/** From priming, through the movements, to the light's warning (its Start button on screen). */
export async function toLightWarning(element: FaceVerify) {
  if (element.step !== 'challenge') await toMovement(element);
  await waitUntil(() => element.shadowRoot!.querySelector('[part~="submit"]'), 'the light’s warning, once the movements are done', { timeout: 8000 });
  await element.updateComplete;
}

/** From priming to the colours filling the page (the first of them set). */
export async function toColours(element: FaceVerify) {
  await toLightWarning(element);
  faceButton(element, 'submit').click();
  await waitUntil(() => element.shadowRoot!.querySelector<HTMLElement>('.lighting')?.style.backgroundColor, 'the first colour', { timeout: 5000 });
}
