/**
 * Phone numbers as the widget builds them: from the country's calling code, which the host
 * handler's config gives (it has libphonenumber-js and checks every number fully), and what the
 * person typed. The widget keeps no table of its own.
 */
import { asciiDigits } from '../core/digits.js';

/** Calling codes by ISO 3166 alpha-2 country: `{ SA: '966' }`. */
export type CallingCodes = Readonly<Record<string, string>>;

/**
 * The digits after the international prefix when the person typed one ("+971…", "00971…", in any
 * digits: "+٩٧١…"), else undefined.
 */
export function dialedDigits(typed: string): string | undefined {
  const match = /^\s*(?:\+|00)(.*)$/s.exec(asciiDigits(typed));
  return match ? match[1]!.replace(/\D/g, '') : undefined;
}

/**
 * The country a typed "+<digits>" belongs to: the longest calling code that prefixes it, keeping
 * the current country when it shares that code (+1 is the US, Canada and others).
 */
export function countryForDialed(digits: string, current: string | undefined, codes: CallingCodes): string | undefined {
  for (let length = Math.min(3, digits.length); length > 0; length--) {
    const code = digits.slice(0, length);
    if (current && codes[current] === code) return current;
    const match = Object.keys(codes).find((country) => codes[country] === code);
    if (match) return match;
  }
  return undefined;
}

/**
 * E.164 from the country's calling code and what the person typed, or undefined when it cannot be
 * one: 8 to 15 digits in all (the handler checks the rest). A national trunk 0 is dropped. Without
 * a calling code (the handler has not answered) only a number typed with its own +code can be one.
 */
export function toE164(code: string | undefined, typed: string): string | undefined {
  const international = dialedDigits(typed);
  let digits: string;
  if (international === undefined) {
    if (!code) return undefined;
    digits = code + asciiDigits(typed).replace(/\D/g, '').replace(/^0+/, '');
  } else if (code) {
    if (!international.startsWith(code)) return undefined;
    digits = code + international.slice(code.length).replace(/^0+/, '');
  } else {
    digits = international;
  }
  return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : undefined;
}
