/**
 * A live answer decided: its frames observed by part, and the rules in their order (the film's,
 * film.ts; then, with a light challenge, the light's, light.ts). The handler takes the challenge
 * and bounds the frames; what they show is decided here, and only here.
 */
import { judgeFilm } from './film.js';
import { judgeLit, type FaceObserver, type Move, type Pictures, type Verdict } from './judge.js';
import type { LightColour } from './light.js';

export interface AskedFor {
  moves: readonly Move[];
  light?: readonly LightColour[];
}

/**
 * Whether two frames are the same to the byte. No camera sends two such frames 0.4 s apart (its
 * sensor's noise alone differs), but a script answering each colour with the earlier frame under
 * the nearest one sends some frame twice (every such answer in real-light.test.ts does). It stops
 * only that script: a repeat encoded again, or each earlier frame used once, is the light's rules'
 * to judge (the liveness page's figures). Compared by their SHA-256, which the platform computes
 * (off the event loop in Node): byte by byte in script, a caller's frames of one length differing
 * only at their ends held the event loop 30 ms.
 */
async function repeated(frames: readonly Uint8Array[]): Promise<boolean> {
  const digests = await Promise.all(frames.map(async (frame) => String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', frame as Uint8Array<ArrayBuffer>)))));
  return new Set(digests).size < digests.length;
}

/** The film's verdict (film.ts), then, with a light challenge, the light's, on the person of the film's frontal frame. */
export async function checkLive(observer: FaceObserver, pictures: Pictures, asked: AskedFor): Promise<Verdict> {
  // Before any model runs: what is decided from the bytes costs nothing.
  if (asked.light && (await repeated(pictures.light))) return { live: false, reason: 'light_not_seen' };
  const { video = [], light } = await observer.observe(pictures);
  const verdict = await judgeFilm(video, asked.moves);
  if (!verdict.live || !asked.light) return verdict;
  const front = video[verdict.frontal]!;
  return judgeLit({ ...front, landmarks: front.landmarks!, luma: front.luma! }, light, asked.light);
}
