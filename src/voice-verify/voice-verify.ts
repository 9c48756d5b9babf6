import type { PropertyDeclarations } from 'lit';
import type { MicrophoneFailure } from '../core/protocol.js';
import { BiometricElement } from '../biometric/biometric-element.js';
import { FlowController } from '../internal/flow-controller.js';
import { onDemand } from '../internal/on-demand.js';
import type { RecordingTools } from './later/recording-tools.js';
import type { Reading } from './later/voice-digits.js';
import type { VoiceEvent, VoiceState, VoiceStep } from './later/voice-verify.flow.js';
import { baseStyles } from '../internal/base.styles.js';
import type { VoiceView } from './later/voice-verify.templates.js';
import { renderVoicePriming } from './first-step.js';
import type { VoiceStrings } from '../translations/en/voice.js';
import { biometricFirst, commonFirst, voiceFirst } from '../translations/en/first.js';

type VoiceLater = typeof import('./later/later-steps.js');

/**
 * Verifies a person by their voice reading a prompt, or registers their voice (mode="enroll"),
 * through the host handler.
 *
 * @summary Voice verification: priming, a prompt to read, recording with a level meter, quality gate, review, upload.
 *
 * @fires {VerifyStepChangeEvent<VoiceStep>} verify-step-change - The step changed: `{step, previous}`.
 * @fires {VerifySuccessEvent} verify-success - Verified: `{method: 'voice', receipt, expiresAt, metrics}`; check the receipt on your server.
 * @fires {VerifyEnrolledEvent} verify-enrolled - The voice was registered (mode="enroll"): `{kind: 'voice'}`.
 * @fires {VerifyFailureEvent} verify-failure - The voice did not match: `{code, message, attemptsLeft, metrics}`.
 * @fires {VerifyErrorEvent} verify-error - The microphone, the network, the host or a limit failed: `{code, message, retryAfter, status, metrics}`.
 * @fires {VerifyRequestEvent} verify-request - Before each call to the host; cancelable, to amend headers or answer it.
 * @fires {VerifyOtherWayEvent} verify-other-way - The person chose to verify another way (the `other-way` attribute offers it): `{kind, step}`; show your other path.
 * @fires {VerifySessionTokenEvent} verify-session-token - The service refused the session token: call `respondWith(freshToken)` during the event.
 *
 * @csspart base - The whole widget.
 * @csspart heading - Each step's heading.
 * @csspart message - Explanatory text.
 * @csspart prompt - The words to read.
 * @csspart meter - The level meter.
 * @csspart bar - One bar of the level meter.
 * @csspart countdown - The time left to record.
 * @csspart feedback - What the person should change while recording.
 * @csspart error - An error message, or what the gate asks after a recording.
 * @csspart button - Every button.
 * @csspart submit - The main button of a step.
 * @csspart record - The record button.
 * @csspart stop - The stop button.
 * @csspart play - The play-back button.
 * @csspart other-way - The button to verify another way.
 * @csspart spinner - The progress indicator.
 * @csspart live - The polite live region.
 *
 * @cssproperty --verify-accent - Accent color (buttons, focus).
 * @cssproperty --verify-accent-contrast - Text on the accent color.
 * @cssproperty --verify-fg - Text color.
 * @cssproperty --verify-bg - Background color.
 * @cssproperty --verify-surface - Background of secondary buttons.
 * @cssproperty --verify-border - Border color.
 * @cssproperty --verify-error - Error color.
 * @cssproperty --verify-success - Success color.
 * @cssproperty --verify-radius - Corner radius.
 * @cssproperty --verify-gap - Spacing unit.
 * @cssproperty --verify-font - Font family.
 *
 * @cssstate priming - Saying why the microphone is needed.
 * @cssstate permission - Waiting for the browser's microphone prompt.
 * @cssstate ready - The prompt, before recording.
 * @cssstate recording - Recording, with the level meter.
 * @cssstate review - The recording, to use, play back or record again.
 * @cssstate uploading - Sending the recording.
 * @cssstate success - Verified or registered.
 * @cssstate failure - Stopped, with a way on.
 */
export class VoiceVerify extends BiometricElement<VoiceStep, VoiceStrings, VoiceLater> implements VoiceView {
  readonly kind = 'voice';
  static override styles = baseStyles;
  static override properties: PropertyDeclarations = {
    prompt: {},
    digits: { type: Number },
    maxDuration: { attribute: 'max-duration', type: Number },
    minSpeech: { attribute: 'min-speech', type: Number },
    echoCancellation: { attribute: 'echo-cancellation', type: Boolean },
    noiseSuppression: { attribute: 'noise-suppression', type: Boolean },
    autoGainControl: { attribute: 'auto-gain-control', type: Boolean },
    workletUrl: { attribute: 'worklet-url' },
  };
  protected readonly firstEnglish = { ...commonFirst, ...biometricFirst, ...voiceFirst };

  /**
   * The text to read; by default a fresh sequence of random digits for each recording. Where the
   * host hears the digits (its `voiceLiveness`), they are the host's, and this is not shown.
   */
  prompt = '';
  /** How many digits the default prompt has. */
  digits = 8;
  /** Longest recording, in seconds. */
  maxDuration = 8;
  /** Least detected speech, in seconds, for an upload. */
  minSpeech = 2;
  /** The browser's processing of the microphone: off by default, as speaker verification wants raw audio. */
  echoCancellation = false;
  noiseSuppression = false;
  autoGainControl = false;
  /** Where the recorder worklet is served, for bundlers that move it; beside this module by default. */
  workletUrl: string = new URL('./recorder.worklet.js', import.meta.url).href;

  /** @internal The microphone, the recorder and the playback, once the person has started. */
  tools: RecordingTools | null = null;
  /** Their code (recording-tools.ts), fetched on the first start. */
  readonly #loadTools = onDemand(async () => {
    this.tools = (await import('./later/later-steps.js')).recordingTools(this, () => this.flow.send({ type: 'released' }), {
      workletUrl: () => this.workletUrl,
      maxDuration: () => this.maxDuration,
      minSpeech: () => this.minSpeech,
      recording: () => this.step === 'recording',
      warning: (problem) => this.flow.send({ type: 'warning', problem }),
      recorded: (result) => {
        this.flow.send({ type: 'recorded', ...result });
        if (result.problems[0]) this.announce(this.t[`voice_${result.problems[0]}`]);
      },
      unsupported: () => this.#microphoneFailed('unsupported'),
    });
    return this.tools;
  });
  /** @internal What to read for this recording (voice-digits.ts): fresh digits each time, so that a recording of an earlier one does not fit. */
  reading: Reading = { digits: '', nonce: undefined, language: null };
  /** @internal */
  readonly flow = new FlowController<VoiceState, VoiceEvent>(this, this.laterTransition(() => this.later?.transition), { step: 'priming' }, {
    enter: {
      permission: () => void this.#openMicrophone(),
      ready: () => void this.later!.freshDigits(this),
      recording: () => void this.tools?.recorder.start(),
      uploading: (state) => void this.upload(state.audio, undefined, this.reading.nonce),
    },
    change: (state, before) => {
      if (state.step === 'recording' && state.warning && before.step === 'recording' && before.warning !== state.warning) {
        this.announce(this.t[`voice_${state.warning}`]);
      }
      // The microphone is only on from the prompt to the end of the recording.
      if (state.step !== 'permission' && state.step !== 'ready' && state.step !== 'recording') this.tools?.microphone.stop();
      if (state.step !== 'review') this.tools?.playback.stop();
    },
  });

  protected fetchLater(): Promise<VoiceLater> {
    return import('./later/later-steps.js');
  }

  protected renderStep() {
    return this.step !== 'priming' && this.later ? this.later.render(this) : renderVoicePriming(this);
  }

  async #openMicrophone(): Promise<void> {
    let tools: RecordingTools | undefined;
    try {
      tools = await this.#loadTools();
      await tools.microphone.open({ echoCancellation: this.echoCancellation, noiseSuppression: this.noiseSuppression, autoGainControl: this.autoGainControl });
      this.flow.send({ type: 'granted' });
    } catch (error) {
      // The microphone's code could not be fetched: the person tries again.
      if (!tools) return void (this.isConnected && this.reportLiveFailure(error));
      this.#microphoneFailed(tools.failure(error));
    }
  }

  #microphoneFailed(reason: MicrophoneFailure): void {
    if (!this.isConnected) return;
    this.flow.send({ type: 'microphone-failed', reason });
    this.reportDeviceFailure(reason);
  }
}
