/**
 * Faces checked live: the handler chooses the movements (`liveness-challenge`), keeps them for one
 * answer in the shared store, and checks the frames the widget sends back against them (judge.ts)
 * before the service is paid. The browser is not trusted: the challenge is bound to the session and
 * the user, taken once, and a picture sent instead of frames is refused.
 */
import { base64url } from 'jose';
import { json } from '../../core/http.js';
import { base64Problem, fromBase64, SAMPLE_BOUNDS, sniffImage } from '../../core/media-sniff.js';
import { LIVE_FRAMES, LIVE_FRONTAL_MS, type LivenessChallenge, type LivenessMove } from '../../core/protocol.js';
import { checkLive } from '../liveness/check.js';
import { randomMoves, UnreadablePictureError, type Pictures, type Verdict } from '../liveness/judge.js';
import { LIGHT, randomLight, type LightColour } from '../liveness/light.js';
import { keys } from '../store/keys.js';
import type { RequestContext } from './context.js';
import { fail } from './errors.js';
import { takeChallenge } from './challenge-taken.js';

/** Movements asked for in one challenge. */
const MOVES_ASKED = 2;

interface StoredChallenge {
  nonce: string;
  moves: LivenessMove[];
  user: string;
  /** The light challenge's colours, with `livenessLight`. */
  light?: LightColour[];
}

export async function livenessChallenge(ctx: RequestContext): Promise<Response> {
  if (!ctx.options.liveness) fail('invalid_input', 'Live face checks are not enabled on this site.', { status: 404 });
  const user = await ctx.requireUser();
  const session = await ctx.session();
  const nonce = base64url.encode(crypto.getRandomValues(new Uint8Array(16)));
  const moves = randomMoves(MOVES_ASKED);
  const { store, limits, livenessLight } = ctx.options;
  const light = livenessLight !== false ? randomLight() : undefined;
  // One live challenge per session: a new one replaces the last, so a crowd of requests keeps one key.
  await store.set(keys.livenessChallenge(session), limits.livenessSeconds, JSON.stringify({ nonce, moves, user: await ctx.userHash(user), ...(light ? { light } : {}) } satisfies StoredChallenge));
  const answer: LivenessChallenge = { nonce, moves, expiresIn: limits.livenessSeconds, ...(light ? { light: { colours: light, holdMs: LIGHT.holdMs } } : {}) };
  return json(answer);
}

const SAY: Record<LivenessMove, string> = {
  left: 'turn your head further to your left',
  right: 'turn your head further to your right',
  up: 'tilt your head further up',
  down: 'tilt your head further down',
  closer: 'move closer to the camera',
};

/** What to tell the person, for each rule broken: what to do next, never a score. */
export function refusal(verdict: Pick<Extract<Verdict, { live: false }>, 'reason' | 'move'>): string {
  switch (verdict.reason) {
    case 'no_face':
      return 'Your face was not seen in every picture. Keep your face in the frame, in good light.';
    case 'several_faces':
      return 'More than one face was seen. Make sure you are alone in the frame.';
    case 'not_same_person':
      return 'The pictures do not show the same person throughout.';
    case 'not_frontal':
      return 'Look straight at the camera at the start.';
    case 'move_not_seen':
      return `Please ${SAY[verdict.move!]}.`;
    case 'screen_or_print':
      return 'Make sure the camera sees you, not a screen or a photo: hold it in front of your face, in plain light.';
    case 'flat':
      // Judged once every movement was seen: the movements are not what to ask for again.
      return 'The movements were seen, but not the depth of a face. Hold the camera still, face a light, and turn your head itself, not the camera.';
    case 'frames_missing':
      return 'A live person was not seen. Please try again, following each movement.';
    case 'light_not_seen':
      return "The screen's colours were not seen on your face. Come closer to the screen, turn its brightness up, and keep bright light off your face.";
    case 'light_moved':
      return 'You moved while the colours showed. Stay close to the screen and hold still until they end.';
    case 'digits_not_heard':
      return "We didn't hear the digits. Read them aloud, clearly, in a quiet place.";
  }
}

/** Each part's frames decoded, every one within the protocol's bounds, and all of them together within its bytes. */
function decodeFrames(parts: { video: unknown[]; light: unknown[] }): Pictures {
  let total = 0;
  const decode = (maxSide: number) => (frame: unknown) => {
    if (typeof frame !== 'string') fail('invalid_input', 'Send the frames as base64 JPEG pictures.', { field: 'video' });
    const problem = base64Problem(frame, LIVE_FRAMES.maxTotalBytes);
    if (problem) fail('bad_sample', `A frame ${problem}.`, { field: 'video' });
    // Decoded once, whole (a frame is at most the whole answer's bytes), and sniffed from there.
    const bytes = fromBase64(frame);
    const image = sniffImage(bytes);
    if (image?.type !== 'jpeg') fail('bad_sample', 'Each frame must be a JPEG picture.', { field: 'video' });
    if (Math.max(image.width, image.height) > maxSide || Math.min(image.width, image.height) < SAMPLE_BOUNDS.minImageSide) {
      fail('bad_sample', `Each frame must be between ${SAMPLE_BOUNDS.minImageSide} and ${maxSide} pixels a side.`, { field: 'video' });
    }
    total += bytes.length;
    if (total > LIVE_FRAMES.maxTotalBytes) fail('bad_sample', `The frames must come to at most ${LIVE_FRAMES.maxTotalBytes / 1024} KB together.`, { field: 'video' });
    return bytes;
  };
  return { moves: [], video: parts.video.map(decode(LIVE_FRAMES.filmSide)), light: parts.light.map(decode(LIVE_FRAMES.maxSide)) };
}

/** Each frame's time, in ms from the first (0), increasing, within the challenge's life. */
function validTimes(times: unknown, count: number, seconds: number): times is number[] {
  return Array.isArray(times) && times.length === count && times[0] === 0 && times.every((t, i) => typeof t === 'number' && Number.isFinite(t) && t <= seconds * 1000 && (i === 0 || t > times[i - 1]));
}

/**
 * The frontal frame of a live answer, once its challenge is taken and its frames keep every rule
 * (base64, for the service); throws the refusal otherwise. A refusal for the frames themselves
 * (`liveness_failed`) keeps the attempt it was counted as.
 */
export async function liveSample(ctx: RequestContext, body: Record<string, unknown>, user: string): Promise<string> {
  const { nonce, video, times, lit } = body;
  if (typeof nonce !== 'string' || !Array.isArray(video)) {
    fail('liveness_required', 'Only a live capture is accepted: look at the camera and follow the movements asked for.');
  }
  const challenge = await takeChallenge<StoredChallenge>(ctx, keys.livenessChallenge, nonce, user);
  // Counted before anything is decoded, with the judge's own answer.
  const litFrames = challenge.light ? lit : [];
  const { minFilm, maxFilm } = LIVE_FRAMES;
  if (video.length < minFilm || !Array.isArray(litFrames) || litFrames.length !== (challenge.light?.length ?? 0)) {
    fail('liveness_failed', refusal({ reason: 'frames_missing' }), { reason: 'frames_missing' });
  }
  if (video.length > maxFilm) fail('bad_sample', `A live answer's film holds at most ${maxFilm} frames.`, { field: 'video' });
  if (!validTimes(times, video.length, ctx.options.limits.livenessSeconds)) fail('invalid_input', 'Send when each frame was taken, in ms from the first, increasing, in times.', { field: 'times' });
  const verdict = await checkLive(ctx.options.liveness!, { ...decodeFrames({ video, light: litFrames }), opening: times.filter((t) => t < LIVE_FRONTAL_MS).length }, challenge).catch((error: unknown) => {
    if (error instanceof UnreadablePictureError) fail('bad_sample', 'A frame could not be read as a picture.', { field: 'video' });
    throw error;
  });
  if (!verdict.live) fail('liveness_failed', refusal(verdict), { reason: verdict.reason, ...(verdict.move ? { move: verdict.move } : {}) });
  // The frame the service compares: the film's, where the face looked straightest at the camera.
  return video[verdict.frontal] as string;
}
