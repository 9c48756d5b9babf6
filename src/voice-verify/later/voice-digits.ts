/** The digits to read for each recording: the host's, where it hears them; the widget's own otherwise. */
import type { ConfigResponse, Routes } from '../../core/protocol.js';

/** Digits in groups of four, easy to read aloud. */
const groupDigits = (digits: string): string => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/** A fresh random prompt of the widget's own, grouped. */
function randomDigits(count: number): string {
  const values = crypto.getRandomValues(new Uint8Array(count));
  return groupDigits(Array.from(values, (v) => String(v % 10)).join(''));
}

/** What the person reads for one recording. */
export interface Reading {
  /** The digits, in groups of four; '' while the host's are on their way. */
  digits: string;
  /** The host's voice challenge they are from, sent back with the recording. */
  nonce: string | undefined;
  /** The language the host hears them in, where it is not the page's; else null. */
  language: string | null;
}

export interface DigitsHost {
  readonly config?: ConfigResponse | null;
  readonly requests: { call(route: 'voice-challenge', body: Routes['voice-challenge']['request']): Promise<Routes['voice-challenge']['response']> };
  readonly language: string;
  readonly step: string;
  /** How many digits the widget's own prompt has. */
  readonly digits: number;
  reading: Reading;
  requestUpdate(): void;
  /** The host refused or lost the challenge (or the call was left). */
  reportLiveFailure(error: unknown): void;
}

/** The page's prompt, unless the host chose digits it will hear. */
export const promptOf = (v: { readonly config?: ConfigResponse | null; readonly prompt: string }): string => (v.config?.voiceDigits ? '' : v.prompt);

/** Asks the host for digits in the page's language (Record waits for them), or draws the widget's own. */
export async function freshDigits(host: DigitsHost): Promise<void> {
  if (!host.config?.voiceDigits) return void (host.reading = { digits: randomDigits(host.digits), nonce: undefined, language: null });
  host.reading = { digits: '', nonce: undefined, language: null };
  try {
    const { nonce, digits, lang } = await host.requests.call('voice-challenge', { lang: host.language });
    if (host.step !== 'ready') return;
    // Read in another language than the page's: the widget says which.
    host.reading = { digits: groupDigits(digits), nonce, language: lang && lang !== host.language.split('-')[0] ? lang : null };
    host.requestUpdate();
  } catch (error) {
    host.reportLiveFailure(error);
  }
}
