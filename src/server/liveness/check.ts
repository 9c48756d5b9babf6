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

/** The film's verdict (film.ts), then, with a light challenge, the light's, on the person of the film's frontal frame. */
export async function checkLive(observer: FaceObserver, pictures: Pictures, asked: AskedFor): Promise<Verdict> {
  const { video = [], light } = await observer.observe(pictures);
  const verdict = await judgeFilm(video, asked.moves);
  if (!verdict.live || !asked.light) return verdict;
  const front = video[verdict.frontal]!;
  return judgeLit({ ...front, landmarks: front.landmarks!, luma: front.luma! }, light, asked.light);
}
