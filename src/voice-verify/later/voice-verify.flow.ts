/**
 * The steps of <voice-verify> and how events move between them. Pure: no DOM, no microphone, no
 * clock — the element feeds it what happened and records, plays and uploads as the steps ask.
 */
import type { AccountProblem, SampleEvent, ErrorCode, MicrophoneFailure, StepsOf, VoiceStep } from '../../core/protocol.js';
import type { VoiceProblem } from './voice-quality.js';

export type VoiceFailure = MicrophoneFailure | ErrorCode | AccountProblem;

export type VoiceState = StepsOf<
  VoiceStep,
  | { step: 'priming' }
  | { step: 'permission' }
  | { step: 'ready' }
  | { step: 'recording'; warning: VoiceProblem | null }
  | { step: 'review'; audio: string; seconds: number; problems: VoiceProblem[] }
  | { step: 'uploading'; audio: string }
  | { step: 'success' }
  /** A phone makes the capture: the computer shows its link and how it is getting on. */
  | { step: 'handoff' }
  | {
      step: 'failure';
      reason: VoiceFailure;
      attemptsLeft?: number;
      retryAfter?: number;
      /** `liveness_failed`: why (the digits were not heard). */
      livenessReason?: string;
      canRetry: boolean;
      /** The recording the service never judged (a fault on the way): "Try again" sends it again. */
      kept?: string;
    }
>;

export type { VoiceStep };

export type VoiceEvent =
  | { type: 'start' }
  | { type: 'granted' }
  | { type: 'microphone-failed'; reason: MicrophoneFailure }
  /** The page was hidden or the device went away: the microphone is released. */
  | { type: 'released' }
  | { type: 'record' }
  | { type: 'warning'; problem: VoiceProblem | null }
  | { type: 'recorded'; audio: string; seconds: number; problems: VoiceProblem[] }
  | { type: 'rerecord' }
  | { type: 'confirm' }
  | { type: 'retry' }
  | SampleEvent;

export const initialVoiceState: VoiceState = { step: 'priming' };

/** Microphone failures the person can undo (allow it, plug one in, close the other app). */
const RETRYABLE_MICROPHONE: readonly MicrophoneFailure[] = ['denied', 'busy', 'no-microphone', 'constraints'];

export function transitionVoice(state: VoiceState, event: VoiceEvent): VoiceState {
  switch (event.type) {
    case 'start':
      return state.step === 'priming' ? { step: 'permission' } : state;
    case 'granted':
      return state.step === 'permission' ? { step: 'ready' } : state;
    case 'microphone-failed':
      if (state.step !== 'permission' && state.step !== 'ready' && state.step !== 'recording') return state;
      return { step: 'failure', reason: event.reason, canRetry: RETRYABLE_MICROPHONE.includes(event.reason) };
    case 'released':
      return state.step === 'ready' || state.step === 'recording' || state.step === 'permission' ? { step: 'priming' } : state;
    case 'record':
      return state.step === 'ready' ? { step: 'recording', warning: null } : state;
    case 'warning':
      return state.step === 'recording' && state.warning !== event.problem ? { ...state, warning: event.problem } : state;
    case 'recorded':
      return state.step === 'recording' ? { step: 'review', audio: event.audio, seconds: event.seconds, problems: event.problems } : state;
    case 'rerecord':
      return state.step === 'review' || (state.step === 'failure' && state.kept) ? { step: 'permission' } : state;
    case 'confirm':
      return state.step === 'review' && state.problems.length === 0 ? { step: 'uploading', audio: state.audio } : state;
    case 'done':
      return state.step === 'uploading' || state.step === 'handoff' ? { step: 'success' } : state;
    case 'failed':
      if (state.step === 'uploading') return uploadFailed(state.audio, event);
      // The microphone's code, or the host's digits, could not be fetched (the network dropped): another try fetches them again.
      return state.step === 'permission' || state.step === 'ready' ? { step: 'failure', reason: event.code, retryAfter: event.retryAfter, canRetry: true } : state;
    case 'retry':
      if (state.step !== 'failure' || !state.canRetry) return state;
      return state.kept ? { step: 'uploading', audio: state.kept } : { step: 'permission' };
    case 'blocked':
      // A phone's link that ended stops the phone wherever it was; the account is checked before the capture.
      return state.step === 'priming' || state.step === 'failure' || state.step === 'uploading' || (event.reason === 'handoff_ended' && state.step !== 'success') ? { step: 'failure', reason: event.reason, canRetry: false } : state;
    case 'restart':
      return state.step === 'failure' ? { step: 'priming' } : state;
    case 'handoff':
      return state.step === 'priming' || state.step === 'failure' ? { step: 'handoff' } : state;
    case 'handoff-ended':
      return state.step === 'handoff' ? { step: 'priming' } : state;
  }
}

function uploadFailed(audio: string, { code, attemptsLeft, retryAfter, livenessReason }: Extract<VoiceEvent, { type: 'failed' }>): VoiceState {
  switch (code) {
    case 'no_match':
      return { step: 'failure', reason: code, attemptsLeft, canRetry: attemptsLeft !== 0 };
    // The digits asked were not heard: a new recording, of new digits, while tries are left.
    case 'liveness_failed':
      return { step: 'failure', reason: code, attemptsLeft, ...(livenessReason ? { livenessReason } : {}), canRetry: attemptsLeft !== 0 };
    case 'bad_sample':
      return { step: 'failure', reason: code, retryAfter, canRetry: true };
    // The recording was not judged: the same one goes again, unless the person records anew.
    case 'upstream_unavailable':
    case 'rate_limited':
      return { step: 'failure', reason: code, retryAfter, canRetry: true, kept: audio };
    default:
      return { step: 'failure', reason: code, canRetry: false };
  }
}
