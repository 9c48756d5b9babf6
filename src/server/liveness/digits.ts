/**
 * A voice said now: the server draws digits for the person to read, and a recogniser hears them in
 * the recording before the service is paid. A recording made earlier holds other digits. Pure:
 * the recogniser itself is the host's (the Node entry's runs PocketSphinx, `soundswallower`).
 */
import { secureRandom } from './random.js';

/**
 * Eight digits, of which at most two may be misheard (a digit missed, added or taken for another):
 * on the recogniser's own synthetic voices every digit is heard, on real people at telephone
 * quality about one in ten goes astray (the liveness page). A recording of other digits is heard
 * as other digits: it lands within two of eight random ones with a chance under 1 in 10,000
 * (digits.test.ts computes it).
 */
export const SPOKEN_DIGITS = { count: 8, misheard: 2 };

/** The languages whose digits a recogniser here can hear, and the words it hears for each digit. */
export const DIGIT_WORDS = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
  fr: ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'],
} as const;
export type DigitLanguage = keyof typeof DIGIT_WORDS;

/** "Oh" for zero, as English speakers read digits aloud. */
const ALSO: Partial<Record<DigitLanguage, Record<string, number>>> = { en: { oh: 0 } };

/** The language a page's `lang` is heard in, or null where no recogniser here hears it. */
export function digitLanguage(lang: unknown): DigitLanguage | null {
  const base = typeof lang === 'string' ? lang.toLowerCase().split('-')[0] : '';
  return base && base in DIGIT_WORDS ? (base as DigitLanguage) : null;
}

/** `count` digits from the platform's secure source. */
export function randomDigits(count = SPOKEN_DIGITS.count, random: (n: number) => number = secureRandom): string {
  return Array.from({ length: count }, () => String(random(10))).join('');
}

/**
 * A JSGF grammar of exactly `count` digit words in `language`: the recogniser chooses the words
 * that fit the recording best among digit strings of that length, and nothing else.
 */
export function digitGrammar(language: DigitLanguage, count: number): string {
  const words = [...DIGIT_WORDS[language], ...Object.keys(ALSO[language] ?? {})];
  return `#JSGF V1.0;\ngrammar digits;\npublic <digits> = ${Array(count).fill('<digit>').join(' ')};\n<digit> = ${words.join(' | ')};\n`;
}

/** The digits in the recogniser's words, in order; words that are not digits are left out. */
export function digitsOf(language: DigitLanguage, text: string): string {
  const words: readonly string[] = DIGIT_WORDS[language];
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => (words.includes(word) ? words.indexOf(word) : ALSO[language]?.[word]))
    .filter((digit) => digit !== undefined)
    .join('');
}

/** How many digits were missed, added or heard as others: the edit distance of two digit strings. */
export function misheard(heard: string, asked: string): number {
  let previous = Array.from({ length: asked.length + 1 }, (_, j) => j);
  for (let i = 1; i <= heard.length; i++) {
    const row = [i];
    for (let j = 1; j <= asked.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (heard[i - 1] === asked[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[asked.length]!;
}

/** Whether `heard` says the digits asked, within the tolerance. */
export function saidDigits(heard: string, asked: string, limits = SPOKEN_DIGITS): boolean {
  return misheard(heard, asked) <= limits.misheard;
}

/**
 * What hears the digits in a recording: given a 16-bit PCM WAV, the `count` digits said in it in
 * `language`, as a string (the Node entry's `createDigitListener()` runs PocketSphinx in a worker
 * thread, with `digitGrammar`).
 */
export interface DigitListener {
  hear(wav: Uint8Array, language: DigitLanguage, count: number): Promise<string>;
}

/** A recording the recogniser cannot frame (PocketSphinx builds no front end at 20 kHz): the sender's to record again, never the server's fault. */
export class UnreadableRecordingError extends Error {
  override name = 'UnreadableRecordingError';
}
