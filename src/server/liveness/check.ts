/**
 * A live answer decided: its frames observed by part, what the rules need prepared, and the rules
 * in their order (the movements', judge.ts; then, with a light challenge, the light's). The handler
 * takes the challenge and bounds the frames; what they show is decided here, and only here.
 */
import { judge, judgeLit, type FaceObserver, type FrameParts, type Move, type Verdict } from './judge.js';
import type { LightColour } from './light.js';
import { noseShifts } from './parallax.js';

export interface AskedFor {
  moves: readonly Move[];
  light?: readonly LightColour[];
}

export async function checkLive(observer: FaceObserver, parts: FrameParts, asked: AskedFor): Promise<Verdict> {
  const found = await observer.observe(parts);
  // The texture rule's few milliseconds a frame, one frame a task: the event loop is free between them.
  const [front, ...others] = found.moves;
  for (const faces of others) {
    if (front?.length !== 1 || faces.length !== 1) continue;
    await new Promise((resolve) => setTimeout(resolve, 0));
    faces[0]!.noseShifts = noseShifts(front[0]!, faces[0]!);
  }
  const verdict = judge(found.moves, asked.moves);
  return verdict.live && asked.light ? judgeLit(front![0]!, found.light, asked.light) : verdict;
}
