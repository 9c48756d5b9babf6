/**
 * The recording steps' code: the microphone, the recorder with its quality gate and WAV, and the
 * playback. <voice-verify> fetches it when the person starts, so that a page that shows only the
 * priming step does not carry it.
 */
import type { ReactiveControllerHost } from 'lit';
import type { MicrophoneFailure } from '../../core/protocol.js';
import { failureOf } from '../../biometric/later/device-controller.js';
import { MicrophoneController } from './microphone-controller.js';
import { PlaybackController } from './playback-controller.js';
import { RecordingController, type RecordingOptions } from './recording-controller.js';
import { OUTPUT_RATE } from './voice-frames.js';

export function recordingTools(host: ReactiveControllerHost & HTMLElement, released: () => void, recording: RecordingOptions) {
  const microphone = new MicrophoneController(host, released);
  const recorder = new RecordingController(host, microphone, recording);
  const playback = new PlaybackController(host);
  return {
    microphone,
    recorder,
    playback,
    /** Plays the last recording back, or stops it. */
    togglePlayback: () => playback.toggle(recorder.samples, OUTPUT_RATE),
    /** Why the microphone did not open. */
    failure: failureOf<MicrophoneFailure>,
  };
}

export type RecordingTools = ReturnType<typeof recordingTools>;
