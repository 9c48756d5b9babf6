/**
 * The steps of <face-verify> and how events move between them. Pure: no DOM, no camera, no clock
 * of its own, so every path is tested on Node. The element opens the camera, measures frames and
 * uploads as the steps ask.
 */
import type { AccountProblem, SampleEvent, CameraFailure, ErrorCode, FaceStep, LivenessChallenge, LivenessMove, StepsOf } from '../../core/protocol.js';
import type { QualityProblem } from './frame-quality.js';

export type FaceFailure = CameraFailure | ErrorCode | AccountProblem | 'bad_file';
export type ImageSource = 'camera' | 'file';

/**
 * A live challenge's answer: its nonce, and its film so far (the frontal look first, then every
 * movement), with when each frame was taken (ms from the first); `filmed` once the movements end.
 */
export interface LiveAnswer {
  nonce: string;
  moves: LivenessMove[];
  video: string[];
  times: number[];
  /** The step shown: 0 the frontal look, then 1 for the first movement, and on. */
  asked: number;
  filmed: boolean;
  /** With the host's light challenge: its colours, and a frame taken under each so far. */
  light?: LightChallenge;
  lit?: string[];
}

export type LightChallenge = NonNullable<LivenessChallenge['light']>;

/** Each colour of the light shows at least this long, whatever a handler asks: 2.5 changes a second at most, under WCAG 2.3.1's three. */
export const MIN_HOLD_MS = 400;

/** How long each colour of `light` shows: what the handler asked, never under `MIN_HOLD_MS`. */
export const heldMs = (light: LightChallenge): number => Math.max(light.holdMs, MIN_HOLD_MS);

export type FaceState = StepsOf<
  FaceStep,
  | { step: 'priming' }
  | { step: 'permission' }
  /** `problems` is null until a frame has been measured: no verdict, good or bad, before that. */
  | { step: 'preview'; problems: QualityProblem[] | null; steadySince: number | null }
  /**
   * Following the movements the host chose: `live` is null until the challenge has come. With a
   * light challenge, once the movements are done the person is warned and comes close, and
   * `lighting` is true while the colours show; `away`, while the face is seen out of their oval.
   */
  | { step: 'challenge'; live: LiveAnswer | null; lighting?: boolean; away?: boolean }
  | { step: 'review'; image: string; source: ImageSource }
  | { step: 'uploading'; image: string; source: ImageSource; live?: LiveAnswer }
  | { step: 'success' }
  /** A phone makes the capture: the computer shows its link and how it is getting on. */
  | { step: 'handoff' }
  | {
      step: 'failure';
      reason: FaceFailure;
      attemptsLeft?: number;
      retryAfter?: number;
      /** The rule a live check's frames broke, and the movement it did not see. */
      livenessReason?: string;
      move?: LivenessMove;
      canRetry: boolean;
      canUpload: boolean;
      /** The photo the service never judged (a fault on the way): "Try again" sends it again. */
      kept?: { image: string; source: ImageSource };
    }
>;

export type { FaceStep };

export type FaceEvent =
  | { type: 'start' }
  | { type: 'granted' }
  /** `filesAllowed` is false where the host checks faces live and takes no file. */
  | { type: 'camera-failed'; reason: CameraFailure; filesAllowed: boolean }
  /** The page was hidden, or the person stopped the colours: the camera is released. */
  | { type: 'released' }
  | { type: 'quality'; problems: QualityProblem[]; now: number }
  | { type: 'capture'; image: string; source: ImageSource }
  /** The host checks faces live: the framed face starts a challenge instead of a photo. */
  | { type: 'live' }
  | { type: 'challenge'; nonce: string; moves: LivenessMove[]; light?: LightChallenge }
  /** The film's next frame, taken `at` ms after its first. */
  | { type: 'frame'; image: string; at: number }
  /** The next movement is asked for. */
  | { type: 'ask' }
  /** The movements' steps are over: the film is whole. */
  | { type: 'filmed' }
  /** The person, warned and close to the screen, starts the colours. */
  | { type: 'light' }
  /** The frame taken under the next colour. */
  | { type: 'lit'; image: string }
  /** While the colours show: whether the face is away from the larger oval (close-face.ts). */
  | { type: 'close-face'; away: boolean }
  | { type: 'retake' }
  | { type: 'confirm' }
  | { type: 'retry' }
  /** The chosen file is not an image the browser can read. */
  | { type: 'file-refused' }
  | SampleEvent;

export const initialFaceState: FaceState = { step: 'priming' };

/** How long the quality must hold before the widget captures by itself. */
export const STEADY_MS = 900;

/** Whether the preview has been good for long enough to capture without the shutter. */
export function readyToCapture(state: FaceState, now: number, steadyMs = STEADY_MS): boolean {
  return state.step === 'preview' && state.problems?.length === 0 && state.steadySince !== null && now - state.steadySince >= steadyMs;
}

/** Camera failures the person can undo (allow the camera, close the other app); the rest cannot be retried. */
const RETRYABLE_CAMERA: readonly CameraFailure[] = ['denied', 'busy', 'no-camera', 'constraints'];

export function transitionFace(state: FaceState, event: FaceEvent): FaceState {
  switch (event.type) {
    case 'start':
      return state.step === 'priming' ? { step: 'permission' } : state;
    case 'granted':
      return state.step === 'permission' ? { step: 'preview', problems: null, steadySince: null } : state;
    case 'camera-failed':
      if (state.step !== 'permission' && state.step !== 'preview') return state;
      // A file from the device works wherever the camera does not, unless the host wants a live face.
      return { step: 'failure', reason: event.reason, canRetry: RETRYABLE_CAMERA.includes(event.reason), canUpload: event.filesAllowed };
    case 'released':
      return state.step === 'permission' || state.step === 'preview' || state.step === 'challenge' ? { step: 'priming' } : state;
    case 'quality': {
      if (state.step !== 'preview') return state;
      const good = event.problems.length === 0;
      return { step: 'preview', problems: event.problems, steadySince: good ? (state.steadySince ?? event.now) : null };
    }
    case 'live':
      return state.step === 'preview' ? { step: 'challenge', live: null } : state;
    case 'challenge':
      if (state.step !== 'challenge' || state.live) return state;
      return { step: 'challenge', live: { nonce: event.nonce, moves: event.moves, video: [], times: [], asked: 0, filmed: false, ...(event.light ? { light: event.light, lit: [] } : {}) } };
    case 'frame':
      if (state.step !== 'challenge' || !state.live || state.live.filmed) return state;
      return { ...state, live: { ...state.live, video: [...state.live.video, event.image], times: [...state.live.times, event.at] } };
    case 'ask':
      return state.step === 'challenge' && state.live && !state.live.filmed && state.live.asked < state.live.moves.length ? { ...state, live: { ...state.live, asked: state.live.asked + 1 } } : state;
    case 'filmed':
      return state.step === 'challenge' && state.live && !state.live.filmed && state.live.video.length ? answered({ ...state.live, filmed: true }) : state;
    case 'light':
      return state.step === 'challenge' && state.live?.light && movementsDone(state.live) && !state.lighting ? { ...state, lighting: true } : state;
    case 'lit': {
      if (state.step !== 'challenge' || !state.lighting || !state.live) return state;
      const next = answered({ ...state.live, lit: [...state.live.lit!, event.image] }, true);
      return next.step === 'challenge' && state.away ? { ...next, away: true } : next;
    }
    case 'close-face':
      return state.step === 'challenge' && state.lighting && (state.away ?? false) !== event.away ? { ...state, away: event.away } : state;
    case 'capture':
      if (event.source === 'camera' && state.step !== 'preview') return state;
      if (event.source === 'file' && state.step === 'uploading') return state;
      return { step: 'review', image: event.image, source: event.source };
    case 'retake': {
      const source = state.step === 'review' ? state.source : state.step === 'failure' ? state.kept?.source : undefined;
      if (!source) return state;
      return source === 'camera' ? { step: 'permission' } : { step: 'priming' };
    }
    case 'confirm':
      return state.step === 'review' ? { step: 'uploading', image: state.image, source: state.source } : state;
    case 'done':
      return state.step === 'uploading' || state.step === 'handoff' ? { step: 'success' } : state;
    case 'failed':
      // The challenge itself may be refused or lost on its way, and so may the camera's code.
      if (state.step === 'challenge' || state.step === 'permission') return liveFailed(event);
      if (state.step !== 'uploading') return state;
      return uploadFailed(state, event);
    case 'retry':
      if (state.step !== 'failure' || !state.canRetry) return state;
      // A live challenge is answered once: another try is another challenge, from the camera.
      return state.kept ? { step: 'uploading', ...state.kept } : { step: 'permission' };
    case 'file-refused':
      return state.step === 'uploading' ? state : { step: 'failure', reason: 'bad_file', canRetry: true, canUpload: true };
    case 'blocked':
      // A phone's link that ended stops the phone wherever it was; the account is checked before the capture.
      return state.step === 'priming' || state.step === 'failure' || state.step === 'uploading' || (event.reason === 'handoff_ended' && state.step !== 'success') ? { step: 'failure', reason: event.reason, canRetry: false, canUpload: false } : state;
    case 'restart':
      return state.step === 'failure' ? { step: 'priming' } : state;
    case 'handoff':
      return state.step === 'priming' || state.step === 'failure' ? { step: 'handoff' } : state;
    case 'handoff-ended':
      return state.step === 'handoff' ? { step: 'priming' } : state;
  }
}

function uploadFailed({ image, source, live }: Extract<FaceState, { step: 'uploading' }>, event: Extract<FaceEvent, { type: 'failed' }>): FaceState {
  const { code, attemptsLeft, retryAfter } = event;
  if (live) return liveFailed(event);
  switch (code) {
    case 'no_match':
      // Another try, by camera or by another photo.
      return { step: 'failure', reason: code, attemptsLeft, canRetry: attemptsLeft !== 0, canUpload: attemptsLeft !== 0 };
    case 'bad_sample':
      return { step: 'failure', reason: code, retryAfter, canRetry: true, canUpload: true };
    // The photo was not judged: the same one goes again, unless the person retakes it.
    case 'upstream_unavailable':
    case 'rate_limited':
      return { step: 'failure', reason: code, retryAfter, canRetry: true, canUpload: false, kept: { image, source } };
    default:
      return { step: 'failure', reason: code, canRetry: false, canUpload: false };
  }
}

const movementsDone = (live: LiveAnswer) => live.filmed;

/** The answer is sent once every frame is taken: the film, then the light's. */
function answered(live: LiveAnswer, lighting = false): FaceState {
  const done = movementsDone(live) && (!live.light || live.lit!.length === live.light.colours.length);
  return done ? { step: 'uploading', image: live.video[0]!, source: 'camera', live } : { step: 'challenge', live, ...(lighting ? { lighting } : {}) };
}

/** A live answer refused or lost: its challenge is spent, so a retry frames the face again for a new one; no file is offered. */
function liveFailed({ code, attemptsLeft, retryAfter, move, livenessReason }: Extract<FaceEvent, { type: 'failed' }>): FaceState {
  const again = attemptsLeft !== 0;
  switch (code) {
    case 'no_match':
    case 'liveness_failed':
      return { step: 'failure', reason: code, attemptsLeft, ...(move ? { move } : {}), ...(livenessReason ? { livenessReason } : {}), canRetry: again, canUpload: false };
    case 'liveness_required':
    case 'bad_sample':
    case 'upstream_unavailable':
    case 'rate_limited':
      return { step: 'failure', reason: code, retryAfter, canRetry: true, canUpload: false };
    default:
      return { step: 'failure', reason: code, canRetry: false, canUpload: false };
  }
}
