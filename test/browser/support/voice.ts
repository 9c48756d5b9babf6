import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/voice-verify/define.js';
import type { VoiceVerify } from '../../../src/voice-verify/voice-verify.js';

export async function voiceFixture(attributes = '', lang = 'en') {
  const wrapper = await fixture<HTMLDivElement>(html`<div lang=${lang} dir=${lang === 'ar' ? 'rtl' : 'ltr'} .innerHTML=${`<voice-verify endpoint="/host" ${attributes}></voice-verify>`}></div>`);
  const element = wrapper.querySelector('voice-verify') as VoiceVerify;
  await element.updateComplete;
  return element;
}

export async function untilVoiceStep(element: VoiceVerify, step: string, timeout = 15_000) {
  await waitUntil(() => element.step === step, `step ${step}, still ${element.step}`, { timeout });
  await element.updateComplete;
}

export const voiceButton = (element: VoiceVerify, part: string) => element.shadowRoot!.querySelector<HTMLButtonElement>(`[part~="${part}"]`)!;
export const voiceText = (element: VoiceVerify, part: string) => element.shadowRoot!.querySelector(`[part~="${part}"]`)?.textContent?.trim() ?? '';

/** From priming to a finished recording (stopped by max-duration), ready for review. */
export async function recordVoice(element: VoiceVerify) {
  voiceButton(element, 'submit').click();
  await untilVoiceStep(element, 'ready');
  voiceButton(element, 'record').click();
  await untilVoiceStep(element, 'recording');
  await untilVoiceStep(element, 'review', 20_000);
}

/** The fields of a 16-bit PCM WAV header, and its duration. */
export function readWav(base64: string) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  const text = (offset: number, length: number) => String.fromCharCode(...bytes.subarray(offset, offset + length));
  const sampleRate = view.getUint32(24, true);
  const channels = view.getUint16(22, true);
  const bits = view.getUint16(34, true);
  const dataBytes = view.getUint32(40, true);
  return { riff: text(0, 4), wave: text(8, 4), format: view.getUint16(20, true), channels, sampleRate, bits, seconds: dataBytes / (sampleRate * channels * (bits / 8)), bytes };
}
