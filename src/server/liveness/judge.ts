/**
 * The rules a live challenge's frames must keep, in order: one face in each frame, the same person
 * in all, a frontal first frame, each movement asked for in the order asked, pixels that a passive
 * model takes for a live face's (not a screen's or a print's), and depth: the landmarks off one
 * homography of the first frame's (not a flat picture moved), and the nose's texture moving against
 * the face's around it (not a picture bent, parallax.ts). The first rule broken is the answer, with
 * the movement it concerns, so that the widget can say what to do ("turn further to your left");
 * never a score.
 *
 * Thresholds are in the pose proxies of geometry.ts, measured on rendered heads and pictures of the
 * fixtures' people (the liveness page has the figures): a head turned 25° moves the nose by 0.18 to
 * 0.23 of the jaw's width and leaves 0.085 to 0.10 eye distances of non-planar residual; a flat
 * picture turned as far leaves 0.014 to 0.025, a bent print 0.04 to 0.05.
 */
import { LIVENESS_MOVES as MOVES, type LivenessMove as Move, type LivenessReason } from '../../core/protocol.js';
import { planarResidual, poseOf, type Point } from './geometry.js';
import { noseParallax, noseShifts, type Luma } from './parallax.js';
import { secureRandom } from './random.js';
import { judgeLight, type ColourGrid, type LightColour } from './light.js';

export type { Move };

/** What a model found in one frame: each face's 68 landmarks, its 128-number embedding, and its surroundings in grey. */
export interface FaceFound {
  landmarks: Point[];
  descriptor: ArrayLike<number>;
  luma: Luma;
  /**
   * In a later frame with one face, where the first frame had one too: `noseShifts` of the first
   * frame's face to this one, worked out beforehand (the handler does, a frame a task, so as not to
   * hold the event loop). Absent, the judge works it out itself.
   */
  noseShifts?: Point[];
  /** The face and the room around it in linear colours: what the light challenge is judged on (light.ts). */
  colours?: ColourGrid;
  /**
   * How live the face's own pixels look, 0 to 1: a passive print and screen model's answer
   * (MiniFASNet in the Node entry's pool). A face without it counts as not live.
   */
  live: number;
}

/** A live answer's pictures (JPEG or PNG), by the part of the challenge each was taken in. */
export interface FrameParts<T = Uint8Array> {
  /** The frontal frame, then one for each movement. */
  moves: T[];
  /**
   * One under each of the light challenge's colours. They need landmarks and colours; the
   * recognition model on the first of them (the judge ties the others to it by where the eyes
   * are), and no passive model (`live` NaN): a third of their cost.
   */
  light: T[];
}

/** What the face worker found in one frame of a film. */
export interface FilmFrame {
  /** How many faces the detector found in this frame, where it ran (null where the face was followed only). */
  faces: number | null;
  /** The followed face's 68 landmarks; null once it was lost. */
  landmarks: Point[] | null;
  /** Its surroundings in grey (parallax.ts). */
  luma: Luma | null;
  /** Its embedding, on the frames where it faces the camera most and where it is furthest from that (else empty). */
  descriptor: number[];
  /** The passive model's score, on the frames where it faces the camera most (else NaN). */
  live: number;
}

/** A live answer's pictures, with the challenge filmed: its frames in order (film.ts). */
export type Pictures = FrameParts & {
  video?: Uint8Array[];
  /**
   * How many of the film's first frames were taken in its frontal look (LIVE_FRONTAL_MS): how the
   * face sits looking ahead is learnt from them. Absent, the film's first sixth.
   */
  opening?: number;
};

/** What was found in each part's pictures: every face in each still, the one face followed through the film. */
export type Observed = FrameParts<FaceFound[]> & { video?: FilmFrame[] };

/**
 * Finds the faces in each picture of each part: the Node entry's `createFacePool()`, running the
 * models in worker threads. A picture it cannot decode rejects with `UnreadablePictureError`.
 */
export interface FaceObserver {
  observe(parts: Pictures): Promise<Observed>;
}

/** A picture that could not be decoded: the sender's fault (a frame cut short, not an image), never the server's. */
export class UnreadablePictureError extends Error {
  override name = 'UnreadablePictureError';
}

export type Verdict = { live: true; frontal: number } | { live: false; reason: LivenessReason; move?: Move; frame?: number };

export const LIMITS = {
  /**
   * Two faces of one person lie within this embedding distance: face-api's own threshold is 0.6
   * for two frontal pictures; a head turned or nodded 20-25° drifts up to 0.62 from its frontal
   * frame, and another person is 0.76 or more away.
   */
  samePerson: 0.66,
  /** The frontal frame's nose within this share of the jaw's width of its middle. */
  frontalYaw: 0.12,
  /** A turn moves the nose at least this share of the jaw's width. */
  turn: 0.12,
  /** A nod moves the nose tip at least this share of the eyes-to-chin height. */
  nod: 0.07,
  /** Closer: the eyes at least this many times as far apart. */
  closer: 1.2,
  /** Below this residual (in eye distances), every frame is one homography of the first: a flat picture. */
  depth: 0.065,
  /**
   * Below this, in eye distances, the nose's texture moved with the face's around it in every turn
   * and nod: a picture, bent or not (parallax.ts). Pictures flat and bent every way, moved up to
   * 45°, stay under 0.046; heads turned or nodded 20-25° show 0.061 or more, and a real head
   * turning in the fixtures' clip 0.077 to 0.26 where its texture can be followed (real-clip.test.ts).
   */
  parallax: 0.055,
  /**
   * The passive model's mean over the frames (but a move closer), at least: below it, the frames
   * show a screen or a print. Live faces of the fixtures (photos, clips, the Silent-Face sample)
   * score 0.57 to 1 a frame; its printed poster 0.18, its tablet replay 0.02, a real clip replayed
   * on a simulated screen at most 0.33 (print-screen-model.test.ts, the liveness page).
   */
  live: 0.5,
};

/** Whether `frame` shows `move` made from `front`: the rule the snapshots and the film share. */
export const shows: Record<Move, (front: ReturnType<typeof poseOf>, frame: ReturnType<typeof poseOf>, limits: typeof LIMITS) => boolean> = {
  // The person's left is the camera's right: the nose moves towards the picture's right.
  left: (front, frame, limits) => frame.yaw - front.yaw >= limits.turn,
  right: (front, frame, limits) => front.yaw - frame.yaw >= limits.turn,
  up: (front, frame, limits) => front.pitch - frame.pitch >= limits.nod,
  down: (front, frame, limits) => frame.pitch - front.pitch >= limits.nod,
  closer: (front, frame, limits) => frame.size / front.size >= limits.closer,
};

/** Where each movement carries the nose in the picture (the person's left is the picture's right). */
export const NOSE_GOES: Record<Exclude<Move, 'closer'>, Point> = { left: { x: 1, y: 0 }, right: { x: -1, y: 0 }, up: { x: 0, y: -1 }, down: { x: 0, y: 1 } };

/** Frame 0 is the frontal one; frame i + 1 shows the i-th movement asked for. */
export function judge(frames: FaceFound[][], moves: readonly Move[], limits = LIMITS): Verdict {
  if (frames.length !== moves.length + 1) return { live: false, reason: 'frames_missing' };
  for (const [index, faces] of frames.entries()) {
    if (faces.length === 0) return { live: false, reason: 'no_face', frame: index };
    if (faces.length > 1) return { live: false, reason: 'several_faces', frame: index };
  }
  const faces = frames.map((found) => found[0]!);
  const front = faces[0]!;
  for (const [index, face] of faces.entries()) {
    if (distance(face, front) > limits.samePerson) return { live: false, reason: 'not_same_person', frame: index };
  }
  const frontPose = poseOf(front.landmarks);
  if (Math.abs(frontPose.yaw) > limits.frontalYaw) return { live: false, reason: 'not_frontal', frame: 0 };
  for (const [i, move] of moves.entries()) {
    if (!shows[move](frontPose, poseOf(faces[i + 1]!.landmarks), limits)) return { live: false, reason: 'move_not_seen', move, frame: i + 1 };
  }
  // A face moved closer fills the frame and leaves the passive model none of the surroundings it
  // needs (close-ups of live people score as low as screens): it judges the other frames.
  const judged = faces.filter((_, index) => moves[index - 1] !== 'closer');
  const live = judged.reduce((sum, face) => sum + (Number.isFinite(face.live) ? face.live : 0), 0) / judged.length;
  if (!(live >= limits.live)) return { live: false, reason: 'screen_or_print' };
  const depth = Math.max(...faces.slice(1).map((face) => planarResidual(front.landmarks, face.landmarks)));
  if (!(depth >= limits.depth)) return { live: false, reason: 'flat' };
  const parallax = Math.max(...moves.map((move, i) => {
    if (move === 'closer') return 0;
    const face = faces[i + 1]!;
    return noseParallax(face.noseShifts ?? noseShifts(front, face), NOSE_GOES[move]);
  }));
  if (!(parallax >= limits.parallax)) return { live: false, reason: 'flat' };
  return { live: true, frontal: 0 };
}

/**
 * The movements a challenge is drawn from: the turns and nods. Depth is judged on them (the
 * landmarks' residual, the nose's texture), at least two a challenge: a move closer shows none, and
 * a challenge of one turn and a move closer rested on that one turn, which real people at a
 * webcam's distance failed one time in five (real-clip.test.ts); two turns or nods pass them all.
 * `closer` stays in the protocol's words, which a widget still follows.
 */
export const CHALLENGE_MOVES: readonly Move[] = MOVES.filter((move) => move !== 'closer');

/** How far apart two faces' embeddings lie. */
function distance(a: FaceFound, b: FaceFound): number {
  let sum = 0;
  for (let i = 0; i < a.descriptor.length; i++) sum += (a.descriptor[i]! - b.descriptor[i]!) ** 2;
  return Math.sqrt(sum);
}

/**
 * The light challenge's frames, after the movements' frames were judged live: one face in each,
 * the person of the frontal frame, and the colours asked reflected on it (light.ts).
 * `lit[i]` is what was found in the frame taken under `colours[i]`.
 */
export function judgeLit(front: FaceFound, lit: FaceFound[][], colours: readonly LightColour[], limits = LIMITS): Verdict {
  if (lit.length !== colours.length) return { live: false, reason: 'frames_missing' };
  for (const [index, faces] of lit.entries()) {
    if (faces.length === 0) return { live: false, reason: 'no_face', frame: index };
    if (faces.length > 1) return { live: false, reason: 'several_faces', frame: index };
    // The first is described; the light's rule that the face does not jump from one frame to the next ties the others to it.
    if (faces[0]!.descriptor.length && distance(faces[0]!, front) > limits.samePerson) return { live: false, reason: 'not_same_person', frame: index };
  }
  if (!lit[0]![0]!.descriptor.length) return { live: false, reason: 'not_same_person', frame: 0 };
  const faces = lit.map(([face]) => face!);
  if (!faces.every((face) => face.colours)) return { live: false, reason: 'light_not_seen' };
  const verdict = judgeLight(faces.map(({ landmarks, colours }) => ({ landmarks, colours: colours! })), colours);
  return verdict.lit ? { live: true, frontal: 0 } : { live: false, reason: verdict.reason };
}

/** A random order of `count` different turns and nods. */
export function randomMoves(count = 2, random: (n: number) => number = secureRandom): Move[] {
  const pool = [...CHALLENGE_MOVES];
  const moves: Move[] = [];
  while (moves.length < count) moves.push(pool.splice(random(pool.length), 1)[0]!);
  return moves;
}
