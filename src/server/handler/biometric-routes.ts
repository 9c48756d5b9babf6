/**
 * Face and voice: the browser sends only the fresh sample. The user comes from the host's session
 * and the reference from the host's storage, so nobody can choose whom they are compared with.
 */
import { SAMPLE_FIELDS, type BiometricKind, type EnrolledResponse } from '../../core/protocol.js';
import { base64Problem, base64Prefix, SAMPLE_BOUNDS, sniffImage, sniffWav } from '../../core/media-sniff.js';
import { json } from '../../core/http.js';
import { ServiceError } from '../upstream/errors.js';
import type { ServiceClient } from '../upstream/types.js';
import { keys } from '../store/keys.js';
import type { RequestContext } from './context.js';
import { hasProof } from './enroll-proof.js';
import { fail, fromServiceError, HandlerError } from './errors.js';
import { liveSample } from './liveness-routes.js';
import { checkSpokenDigits } from './voice-challenge.js';
import { verified } from './verified.js';
import { requireHooks } from './hooks.js';
import { handedOff } from './handoff.js';

/** Checks what the service would refuse, before paying for the comparison. */
function checkSample(ctx: RequestContext, kind: BiometricKind, field: string, value: unknown): string {
  const { limits } = ctx.options;
  if (typeof value !== 'string') fail('invalid_input', `Send the sample in ${field}.`, { field });
  const problem = base64Problem(value, kind === 'face' ? limits.maxImageBytes : limits.maxAudioBytes);
  if (problem) fail('bad_sample', `The sample ${problem}.`, { field });
  if (kind === 'face') {
    const image = sniffImage(base64Prefix(value));
    if (!image) fail('bad_sample', 'The picture must be a JPEG or PNG image.', { field });
    const { minImageSide, maxImageSide } = SAMPLE_BOUNDS;
    if (Math.min(image.width, image.height) < minImageSide || Math.max(image.width, image.height) > maxImageSide) {
      fail('bad_sample', `The picture must be between ${minImageSide} and ${maxImageSide} pixels a side.`, { field });
    }
  } else {
    let wav: ReturnType<typeof sniffWav>;
    try {
      wav = sniffWav(value);
    } catch {
      fail('bad_sample', 'The recording must be a 16-bit PCM WAV file.', { field });
    }
    const { minAudioSeconds, maxAudioSeconds, minAudioRate, maxAudioRate } = SAMPLE_BOUNDS;
    if (!(wav.seconds >= minAudioSeconds && wav.seconds <= maxAudioSeconds)) {
      fail('bad_sample', `The recording must last between ${minAudioSeconds} and ${maxAudioSeconds} seconds.`, { field });
    }
    if (!(wav.sampleRate >= minAudioRate && wav.sampleRate <= maxAudioRate)) {
      fail('bad_sample', `The recording must be sampled at ${minAudioRate / 1000} to ${maxAudioRate / 1000} kHz.`, { field });
    }
  }
  return value;
}

/**
 * Counts an attempt before the sample is read, so a caller over the cap uploads nothing; the
 * attempt is given back when the request ends without a comparison (`giveBack`).
 */
async function countAttempt(ctx: RequestContext, kind: BiometricKind, user: string) {
  const { biometricAttempts } = ctx.options.limits;
  const key = keys.biometricAttempts(kind, await ctx.userHash(user));
  const { store } = ctx.options;
  const { count, ttl } = await store.increment(key, biometricAttempts.windowSeconds);
  if (count > biometricAttempts.max) fail('rate_limited', 'Too many attempts. Please try again later.', { retryAfter: ttl, attemptsLeft: 0 });
  return {
    attemptsLeft: biometricAttempts.max - count,
    giveBack: () => store.decrement(key),
    reset: () => store.delete(key),
  };
}

/** Runs `work` with an attempt counted; anything but an answer from the service gives it back. */
async function spending<T>(attempt: { attemptsLeft: number; giveBack(): Promise<void> }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Frames that did not show a live person are an attempt like a face that did not match, and
    // the person is told, as for a face that did not match, how many are left.
    if (error instanceof HandlerError && error.code === 'liveness_failed') throw new HandlerError(error.code, error.message, { ...error.extra, attemptsLeft: attempt.attemptsLeft });
    // A bad sample, a missing reference, a fault: the person is not a step nearer the cap for it.
    await attempt.giveBack();
    throw error instanceof ServiceError ? fromServiceError(error) : error;
  }
}

/**
 * The sample to compare or register, and whether a live check proved the person there: with
 * `liveness`, a face only from a live challenge's frames (a picture is refused, whatever the browser
 * says), unless the host lets enrolment take a photo; with `voiceLiveness`, a voice only from a
 * recording of the digits it chose, heard where a recogniser hears their language.
 */
async function readSample(ctx: RequestContext, kind: BiometricKind, field: string, user: string): Promise<{ sample: string; presence: boolean }> {
  const body = await ctx.body();
  const { liveness, enrollFaceFromUnprovenPhoto, voiceLiveness } = ctx.options;
  const photoAllowed = field === SAMPLE_FIELDS.enroll.face && enrollFaceFromUnprovenPhoto && body[field] !== undefined;
  if (kind === 'face' && liveness && !photoAllowed) return { sample: await liveSample(ctx, body, user), presence: true };
  const sample = checkSample(ctx, kind, field, body[field]);
  return { sample, presence: kind === 'voice' && voiceLiveness ? await checkSpokenDigits(ctx, body.nonce, sample, user) : false };
}

export async function verifyBiometric(ctx: RequestContext, upstream: ServiceClient, kind: BiometricKind): Promise<Response> {
  const { getReference } = requireHooks(ctx, kind);
  // Who asks, and whether they may, before megabytes are read.
  const user = await ctx.requireUser();
  const attempt = await countAttempt(ctx, kind, user);
  const { match, presence } = await spending(attempt, async () => {
    const { sample, presence } = await readSample(ctx, kind, SAMPLE_FIELDS.verify[kind], user);
    const reference = await getReference(user, kind);
    if (!reference) fail('not_enrolled', kind === 'face' ? 'No face is registered for this account yet.' : 'No voice is registered for this account yet.');
    const options = { signal: ctx.signal };
    const result =
      kind === 'face'
        ? await upstream.verifyByFace({ user_id: user, registered_face_image: reference, query_face_image: sample }, options)
        : await upstream.verifyByVoice({ user_id: user, registered_audio: reference, query_audio: sample }, options);
    return { match: result.match, presence };
  });
  if (!match) {
    fail('no_match', kind === 'face' ? 'The face did not match.' : 'The voice did not match.', { attemptsLeft: attempt.attemptsLeft });
  }
  await attempt.reset();
  return verified(ctx, kind, { user }, presence);
}

export async function enroll(ctx: RequestContext, kind: BiometricKind): Promise<Response> {
  const { getReference, saveReference } = requireHooks(ctx, kind);
  // Who asks, and whether they may, before megabytes are read.
  const user = await ctx.requireUser();
  if (!(await hasProof(ctx, user))) fail('proof_required', 'Confirm it is you with a code first, then register.');
  if (ctx.options.allowReenrollment) return saveSample(ctx, kind, user, saveReference);
  // Replacing a reference would let whoever holds the session become the account's face or voice.
  // One first enrolment at a time, claimed before the reference is looked up: of concurrent ones,
  // whatever the timing of their bodies, the others find the claim or the saved reference.
  const { store, limits } = ctx.options;
  const claim = keys.enrolling(kind, await ctx.userHash(user));
  if (!(await store.claim(claim, limits.bodyReadSeconds + 30)).claimed) fail('forbidden', 'A reference is already being registered for this account.');
  try {
    if (await getReference(user, kind)) fail('forbidden', 'A reference is already registered for this account.');
    return await saveSample(ctx, kind, user, saveReference);
  } finally {
    await store.delete(claim);
  }
}

/** Reads the sample within the attempt cap and saves it as the user's reference. */
async function saveSample(ctx: RequestContext, kind: BiometricKind, user: string, saveReference: NonNullable<RequestContext['options']['saveReference']>): Promise<Response> {
  const attempt = await countAttempt(ctx, kind, user);
  const { sample } = await spending(attempt, () => readSample(ctx, kind, SAMPLE_FIELDS.enroll[kind], user));
  await saveReference(user, kind, sample);
  if (ctx.handoff) await handedOff(ctx, ctx.handoff, { enrolled: true });
  const answer: EnrolledResponse = { enrolled: true, kind };
  return json(answer);
}
