/**
 * The live service's observed departures from its document (demo/pages/emulator.md, live quirks), each a flag of its own, so
 * that a client can be tested against the exact mix a live account shows.
 */
export const QUIRKS = [
  /** A validation failure without `Accept: application/json` answers 302 to an HTML page. */
  'redirect-without-accept',
  /** `balance` as a string such as "91.00". */
  'string-balance',
  /** A face non-match or a picture without a face answers 422 `{success: false, message}`. */
  'face-422',
  /** A wrong code's 422 says only "Failed to verify OTP", without the emulator's `reason`. */
  'terse-otp-failure',
  /** `result` as the string "True" or "False" (documented once). */
  'string-result',
] as const;

export type Quirk = (typeof QUIRKS)[number];

/** The most recently observed live behaviour: every quirk but the string result, which a client written from live testing does not see. */
export const LIVE_QUIRKS: readonly Quirk[] = QUIRKS.filter((quirk) => quirk !== 'string-result');

/** `true` or "all" for every quirk, "live" for the preset, or a list of names (presets allowed). */
export type QuirksInput = boolean | string | readonly string[];

export function resolveQuirks(input: QuirksInput | undefined): Quirk[] {
  if (input === undefined || input === false) return [];
  if (input === true) return [...QUIRKS];
  const names = (typeof input === 'string' ? [input] : input).flatMap((entry) => entry.split(',')).map((name) => name.trim()).filter(Boolean);
  const chosen = new Set<Quirk>();
  for (const name of names) {
    if (name === 'all') QUIRKS.forEach((quirk) => chosen.add(quirk));
    else if (name === 'live') LIVE_QUIRKS.forEach((quirk) => chosen.add(quirk));
    else if ((QUIRKS as readonly string[]).includes(name)) chosen.add(name as Quirk);
    else throw new RangeError(`unknown quirk "${name}"; known: ${QUIRKS.join(', ')}, or the presets live and all`);
  }
  return QUIRKS.filter((quirk) => chosen.has(quirk));
}
