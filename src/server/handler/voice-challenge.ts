/**
 * Voices said now: the handler draws the digits to read (`voice-challenge`), keeps them for one
 * answer in the shared store, bound to the session and the user, and hears them in the recording
 * (the host's `voiceLiveness`, digits.ts) before the service is paid. A recording made before the
 * challenge says other digits.
 */
import { base64url } from 'jose';
import { json } from '../../core/http.js';
import { fromBase64 } from '../../core/media-sniff.js';
import type { VoiceChallenge } from '../../core/protocol.js';
import { digitLanguage, randomDigits, saidDigits, SPOKEN_DIGITS, UnreadableRecordingError, type DigitLanguage } from '../liveness/digits.js';
import { keys } from '../store/keys.js';
import type { RequestContext } from './context.js';
import { fail } from './errors.js';
import { refusal } from './liveness-routes.js';
import { takeChallenge } from './challenge-taken.js';

interface StoredVoiceChallenge {
  nonce: string;
  digits: string;
  /** The language the digits are heard in; null where none is (the page's is not, and the host gave no other). */
  lang: DigitLanguage | null;
  user: string;
}

export async function voiceChallenge(ctx: RequestContext): Promise<Response> {
  if (!ctx.options.voiceLiveness) fail('invalid_input', 'Spoken digits are not checked on this site.', { status: 404 });
  const user = await ctx.requireUser();
  const session = await ctx.session();
  const { lang } = await ctx.body();
  if (lang !== undefined && typeof lang !== 'string') fail('invalid_input', 'Send the page\'s language as a string in lang.', { field: 'lang' });
  const nonce = base64url.encode(crypto.getRandomValues(new Uint8Array(16)));
  const heard = digitLanguage(lang) ?? ctx.options.voiceDigitsFallback ?? null;
  const challenge: StoredVoiceChallenge = { nonce, digits: randomDigits(), lang: heard, user: await ctx.userHash(user) };
  const { store, limits } = ctx.options;
  // One voice challenge per session: a new one replaces the last.
  await store.set(keys.voiceChallenge(session), limits.livenessSeconds, JSON.stringify(challenge));
  return json({ nonce, digits: challenge.digits, lang: challenge.lang, expiresIn: limits.livenessSeconds } satisfies VoiceChallenge);
}

/**
 * Refuses the recording `audio` (base64 WAV, its bounds already checked) unless it answers the
 * session's voice challenge: its nonce, taken once, and its digits heard. A recording that does not
 * say them (`liveness_failed`, `digits_not_heard`) keeps the attempt it was counted as. Says
 * whether the digits were heard: not where no recogniser hears the challenge's language.
 */
export async function checkSpokenDigits(ctx: RequestContext, nonce: unknown, audio: string, user: string): Promise<boolean> {
  if (typeof nonce !== 'string') fail('liveness_required', 'Read the digits shown aloud: only a recording of them is accepted.');
  const challenge = await takeChallenge<StoredVoiceChallenge>(ctx, keys.voiceChallenge, nonce, user);
  if (challenge.lang === null) return false;
  let heard: string;
  try {
    heard = await ctx.options.voiceLiveness!.hear(fromBase64(audio), challenge.lang, SPOKEN_DIGITS.count);
  } catch (error) {
    if (error instanceof UnreadableRecordingError) fail('bad_sample', 'The recording could not be heard at its sample rate: record it at 16 kHz.');
    throw error;
  }
  if (!saidDigits(heard, challenge.digits)) fail('liveness_failed', refusal({ reason: 'digits_not_heard' }), { reason: 'digits_not_heard' });
  return true;
}
