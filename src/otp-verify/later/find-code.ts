/**
 * The code inside a text that holds more than a code: a whole SMS ("Order 42: your code is
 * 123456"), a keyboard suggestion, an autofilled value. Pure, so every message shape is a Node test.
 */
import { asciiDigits } from '../../core/digits.js';

/** The most digits any code has (4 to 8 digits have been seen: demo/pages/emulator.md, live quirks). */
export const MAX_CODE_LENGTH = 8;
const MIN_CODE_LENGTH = 4;

/** Digits only, Arabic-Indic and Persian ones turned into ASCII. */
export function digitsOf(text: string): string {
  return asciiDigits(text).replace(/\D/g, '');
}

/**
 * The code in `text`: a run of exactly `length` digits (or, when the length is unknown, the
 * longest run of 4 to 8), else digits written in groups ("123 456", "123-456") that add up to it.
 * Null when nothing in the text can be the code.
 */
export function findCode(text: string, length: number | null): string | null {
  const ascii = asciiDigits(text);
  const fits = (digits: string) => (length ? digits.length === length : digits.length >= MIN_CODE_LENGTH && digits.length <= MAX_CODE_LENGTH);
  const longest = (candidates: string[]) => candidates.filter(fits).reduce<string | null>((best, d) => (best && best.length >= d.length ? best : d), null);
  return longest(ascii.match(/\d+/g) ?? []) ?? longest((ascii.match(/\d+(?:[ \u00a0-]\d+)+/g) ?? []).map(digitsOf));
}
