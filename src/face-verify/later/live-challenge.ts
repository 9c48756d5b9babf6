/**
 * Leads the person through a live challenge and films it: asks the host for its movements, then
 * says and shows each one (the frontal look first) until the person has made it and holds it
 * (pace.ts), while the camera's frames are taken a few times a second, each with its time. No
 * detector is needed: the host follows the face through the film and judges it. A camera lost or
 * a step left ends it. A light challenge's colours come after the movements, once the person has
 * been warned and starts them (light/show-light.ts, fetched as the challenge arrives).
 */
import { LIVE_FRAMES, LIVE_FRONTAL_MS, liveFrameBase64, type LivenessChallenge, type LivenessMove } from '../../core/protocol.js';
import type { FaceEvent, FaceState } from './face-verify.flow.js';
import { snapshot } from './snapshot.js';
import { watchPace } from './pace.js';

/**
 * Time for the frontal look; for each movement, at least `minMoveMs` and at most `moveMs`, ending
 * once the person has made it and holds it (pace.ts); the film's frames a second. Four a second
 * follow a head turning at a person's pace (the host finds a quick one again): at most 24 frames
 * for two movements at their limit (LIVE_FRAMES.maxFilm), each at most 480 px and 40 KB of base64
 * (liveFrameBase64): at most 960 KB to upload; a person who moves at once, 13 frames, 520 KB.
 */
export const LIVE_TIMING = { frontalMs: LIVE_FRONTAL_MS, minMoveMs: 1200, moveMs: 2500, fps: 4 };

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

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  const video = host.video();
  const going = () => host.flow.state.step === 'challenge' && !host.flow.state.live?.filmed && video?.isConnected;
  // A camera that has not given a frame yet (a slow engine) is waited for, not taken as gone.
  for (let waited = 0; video && !video.videoWidth && waited < 5000; waited += 50) await pause(50);
  if (!video?.videoWidth || !going()) return;
  const film = filming(host, video, going, timing.fps, liveFrameBase64(LIVE_FRAMES.maxFilm + (light?.colours.length ?? 0)));
  const pace = watchPace(video);
  try {
    for (const [i, move] of [null, ...moves].entries()) {
      if (i) host.flow.send({ type: 'ask' });
      host.instruct(move);
      if (move) await pace.made(Math.min(timing.minMoveMs, timing.moveMs), timing.moveMs, going);
      else await pause(timing.frontalMs).then(pace.still);
      if (!going()) return;
    }
  } finally {
    pace.stop();
  }
  await film.stop();
  host.flow.send({ type: 'filmed' });
  if (light && host.flow.state.step === 'challenge') host.warnLight(light);
}

/** Takes the camera's frame `fps` times a second while `going`, each with its time from the first, until stopped or the film is full. */
function filming(host: ChallengeHost, video: HTMLVideoElement, going: () => boolean | undefined, fps: number, maxBase64: number) {
  let stopped = false;
  const started = performance.now();
  let first = started;
  const done = (async () => {
    for (let taken = 0; !stopped && going() && taken < LIVE_FRAMES.maxFilm; taken++) {
      const due = started + (taken * 1000) / fps;
      await pause(Math.max(0, due - performance.now()));
      if (stopped || !going()) return;
      // Times from the film's first frame, which is 0, however late the camera gave it.
      const at = taken ? Math.round(performance.now() - first) : ((first = performance.now()), 0);
      const { base64 } = await snapshot(video, { maxSide: LIVE_FRAMES.filmSide, maxBase64 });
      host.flow.send({ type: 'frame', image: base64, at });
    }
  })();
  return {
    stop: () => {
      stopped = true;
      return done;
    },
  };
}
