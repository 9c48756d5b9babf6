import '../../../src/voice-verify/define.js';
import type { VoiceVerify } from '../../../src/voice-verify/voice-verify.js';
import { partOf, untilWidgetStep, widgetFixture } from './widget.js';

export const voiceFixture = (attributes = '', lang = 'en') => widgetFixture<VoiceVerify>('voice-verify', attributes, lang);
export const untilVoiceStep = (element: VoiceVerify, step: string, timeout = 15_000) => untilWidgetStep(element, step, timeout);
export const voiceButton = (element: VoiceVerify, part: string) => partOf(element, part);
export const voiceText = (element: VoiceVerify, part: string) => element.shadowRoot!.querySelector(`[part~="${part}"]`)?.textContent?.trim() ?? '';

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
