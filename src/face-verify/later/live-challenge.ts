/**
 * Leads the person through a live challenge: asks the host for its movements, then says and shows
 * each one (the frontal look first), gives the person time to make it, and takes a frame at its
 * end. No detector is needed: the host judges the frames. A camera lost or a step left ends it.
 * A light challenge's colours come after the movements, once the person has been warned and
 * starts them (light/show-light.ts, fetched as the challenge arrives).
 */
import { LIVE_FRAMES, liveFrameBase64, type LivenessChallenge, type LivenessMove } from '../../core/protocol.js';
import type { FaceEvent, FaceState } from './face-verify.flow.js';
import { snapshot } from './snapshot.js';

/** Time to settle before the frontal frame, and to make each movement before its frame is taken. */
export const LIVE_TIMING = { frontalMs: 800, moveMs: 2200 };

export interface ChallengeHost {
  readonly requests: { call(route: 'liveness-challenge', body: Record<never, never>): Promise<LivenessChallenge> };
  readonly flow: { readonly state: FaceState; send(event: FaceEvent): void };
  video(): HTMLVideoElement | null;
  /** Says the instruction in the live region. */
  instruct(move: LivenessMove | null): void;
  /** The host refused or lost the challenge (or the call was left: a StaleAnswer, which the element drops). */
  failed(error: unknown): void;
  /** The host asked for light too: its code is fetched now, while the movements are made. */
  prefetchLight(): void;
  /** The movements are done and the light's warning shows: it is said too, for it waits on the person. */
  warnLight(light: NonNullable<LivenessChallenge['light']>): void;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runChallenge(host: ChallengeHost, timing = LIVE_TIMING): Promise<void> {
  let challenge: LivenessChallenge;
  try {
    challenge = await host.requests.call('liveness-challenge', {});
  } catch (error) {
    return host.failed(error);
  }
  const { nonce, moves, light } = challenge;
  host.flow.send({ type: 'challenge', nonce, moves, ...(light ? { light } : {}) });
  if (light) host.prefetchLight();
  // Each frame's share of the handler's bytes, the light's frames counted.
  const maxBase64 = liveFrameBase64(moves.length + 1 + (light?.colours.length ?? 0));
  for (const move of [null, ...moves]) {
    host.instruct(move);
    await pause(move ? timing.moveMs : timing.frontalMs);
    const video = host.video();
    if (host.flow.state.step !== 'challenge' || !video) return;
    // A camera that has not given a frame yet (a slow engine) is waited for, not taken as gone.
    for (let waited = 0; !video.videoWidth && waited < 5000; waited += 50) await pause(50);
    if (host.flow.state.step !== 'challenge' || !video.videoWidth) return;
    const { base64 } = await snapshot(video, { maxSide: LIVE_FRAMES.maxSide, maxBase64 });
    host.flow.send({ type: 'frame', image: base64 });
  }
  if (light && host.flow.state.step === 'challenge') host.warnLight(light);
}
