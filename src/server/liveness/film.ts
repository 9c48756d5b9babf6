/**
 * A live challenge judged as a film, not as three snapshots: one face followed through every frame
 * (a detector counts the faces every few frames; the landmarks follow the face in between), and
 * the rules read over the whole of it.
 *
 * - One face: a second one in any frame the detector ran on refuses; so does a face lost.
 * - One person: the face is continuous from frame to frame (a cut to another clip jumps where a
 *   head does not; a face swapped in where the other was loses its texture from one frame to the
 *   next), and in the frames the worker described (the most frontal of each third of the film, and
 *   the furthest from frontal) it is the person of the frontal frame, unless turned or nodded
 *   beyond what a movement asks: a turn to full profile is not judged on identity, which the
 *   recognition model cannot give there; continuity carries the person through it.
 * - The movements asked, each reached after the last, in the order asked.
 * - Depth and the passive layer over many frames: the median of each movement's frames, so that
 *   one frame a model misread cannot pass or refuse a person.
 *
 * The thresholds are judge.ts's, measured there, but for continuity's, measured on the fixtures'
 * real clips (film.test.ts prints their margins).
 */
import { LIMITS, NOSE_GOES, shows, type FilmFrame, type Move, type Verdict } from './judge.js';
import { eyeCentres, median, planarResidual, poseOf, type Point } from './geometry.js';
import { noseParallax, noseShifts, textureKept } from './parallax.js';

export type { FilmFrame };

export const FILM_LIMITS = {
  ...LIMITS,
  /**
   * From one frame to the next, the face's middle moves at most this many of its eye distances,
   * and its size changes by at most this factor: a head turning or nodding stays within both (the
   * fixtures' real turn at 12.5 frames a second 0.32 and 1.09; a rendered head going from nodded up
   * to down between two frames 1.7), a cut to a face elsewhere, or of another size, does not. A cut
   * to another person where the face is is refused by identity, where it looks at the camera.
   */
  jump: 2,
  resize: 1.35,
  /**
   * From one frame to the next, the face's own texture is found again where its landmarks went, at
   * least this well (parallax.ts's `textureKept`): one face, followed, 0.93 or more on the fixtures'
   * real clips at four frames a second, turning to profile included (film.test.ts prints it);
   * another person's face swapped in, in the same pose, 0.83 at most (the judge's table).
   */
  texture: 0.86,
};

/** A task's turn for the rest of the event loop, between one frame's pixel work and the next. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

const centre = (landmarks: Point[]) => {
  const [a, b] = eyeCentres(landmarks);
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
};


export async function judgeFilm(film: FilmFrame[], moves: readonly Move[], limits = FILM_LIMITS): Promise<Verdict> {
  if (film.length < moves.length + 1) return { live: false, reason: 'frames_missing' };
  for (const [index, frame] of film.entries()) {
    if ((frame.faces ?? 1) > 1) return { live: false, reason: 'several_faces', frame: index };
    if (!frame.landmarks || (index === 0 && frame.faces === 0)) return { live: false, reason: 'no_face', frame: index };
  }
  const marks = film.map((frame) => frame.landmarks!);
  const poses = marks.map(poseOf);
  for (let i = 1; i < film.length; i++) {
    const [a, b] = [poses[i - 1]!, poses[i]!];
    const [from, to] = [centre(marks[i - 1]!), centre(marks[i]!)];
    const scale = Math.max(a.size, b.size) / Math.max(1e-6, Math.min(a.size, b.size));
    if (Math.hypot(to.x - from.x, to.y - from.y) > limits.jump * Math.max(a.size, b.size) || scale > limits.resize) return { live: false, reason: 'not_same_person', frame: i };
  }
  // The same face's texture from frame to frame: a face swapped in where the other was, in the same
  // pose, keeps the place and the size but not the skin. Judged where the head turned and nodded less
  // than a movement's threshold since the frame before: a head that snaps through a whole movement
  // in a quarter of a second shows its texture too changed to compare (a rendered head nodding 20°
  // in one frame, 0.76), and the identity of each third's furthest frame covers such a snap.
  // A frame at a time, the event loop let through.
  for (let i = 1; i < film.length; i++) {
    const [a, b] = [film[i - 1]!, film[i]!];
    const still = Math.abs(poses[i]!.yaw - poses[i - 1]!.yaw) < limits.turn && Math.abs(poses[i]!.pitch - poses[i - 1]!.pitch) < limits.nod;
    if (!a.luma || !b.luma || !still) continue;
    await nextTask();
    const kept = textureKept({ landmarks: marks[i - 1]!, luma: a.luma }, { landmarks: marks[i]!, luma: b.luma });
    if (kept !== null && !(kept >= limits.texture)) return { live: false, reason: 'not_same_person', frame: i };
  }
  // The frontal frame: the first third's scored one (the worker scores the most frontal frame of
  // each third, and describes it and the furthest from it), where the face looks straightest at
  // the camera before the movements; they are measured from it, and must come after it.
  const described = film.flatMap((frame, index) => (frame.descriptor.length ? [index] : []));
  const start = film.findIndex((frame) => Number.isFinite(frame.live) && frame.descriptor.length);
  if (start < 0) return { live: false, reason: 'not_frontal', frame: 0 };
  const frontPose = poses[start]!;
  if (Math.abs(frontPose.yaw) > limits.frontalYaw) return { live: false, reason: 'not_frontal', frame: start };
  // The person of the frontal frame wherever the face is turned or nodded no further than three
  // times a movement's threshold (a head turned 25° lies 0.5 to 0.6 from its frontal frame, another
  // person 0.76 or more away); beyond, to a full profile, the model cannot say, and continuity
  // carries the person.
  for (const i of described.filter((i) => i !== start)) {
    const within = Math.abs(poses[i]!.yaw - frontPose.yaw) <= 3 * limits.turn && Math.abs(poses[i]!.pitch - frontPose.pitch) <= 3 * limits.nod;
    if (within && distance(film[start]!.descriptor, film[i]!.descriptor) > limits.samePerson) return { live: false, reason: 'not_same_person', frame: i };
  }
  // Each movement: the frames where it shows, from the first after the last movement's.
  let from = start + 1;
  const held: number[][] = [];
  for (const move of moves) {
    const showing = (i: number) => shows[move](frontPose, poses[i]!, limits);
    const reached = film.findIndex((_, i) => i >= from && showing(i));
    if (reached < 0) return { live: false, reason: 'move_not_seen', move, frame: from };
    let until = reached;
    while (until + 1 < film.length && showing(until + 1)) until++;
    held.push(Array.from({ length: until - reached + 1 }, (_, k) => reached + k));
    from = until + 1;
  }
  const scored = film.filter((frame) => Number.isFinite(frame.live));
  if (!scored.length || !(median(scored.map((frame) => frame.live)) >= limits.live)) return { live: false, reason: 'screen_or_print' };
  const base = marks[start]!;
  const depth = Math.max(...held.map((frames) => median(frames.map((i) => planarResidual(base, marks[i]!)))));
  if (!(depth >= limits.depth)) return { live: false, reason: 'flat' };
  const first = { landmarks: base, luma: film[start]!.luma! };
  // The nose against the texture: a few milliseconds a frame, a movement's frames one at a time,
  // the event loop let through between them, so that twenty checks at once do not stall the server.
  let parallax = 0;
  for (const [m, move] of moves.entries()) {
    if (move === 'closer') continue;
    const scores: number[] = [];
    for (const i of held[m]!.filter((i) => film[i]!.luma)) {
      await nextTask();
      scores.push(noseParallax(noseShifts(first, { landmarks: marks[i]!, luma: film[i]!.luma! }), NOSE_GOES[move]));
    }
    if (scores.length) parallax = Math.max(parallax, median(scores));
  }
  if (!(parallax >= limits.parallax)) return { live: false, reason: 'flat' };
  return { live: true, frontal: start };
}

function distance(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}
