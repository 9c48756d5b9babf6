import type { PropertyValues, PropertyDeclarations } from 'lit';
import type { CaptureTools } from './capture.js';
import { BiometricElement } from '../internal/biometric-element.js';
import { FlowController } from '../internal/flow-controller.js';
import { onDemand } from '../internal/on-demand.js';
import type { FaceDetectorLike } from './face-detector.js';
import { filesAllowed, initialFaceState, readyToCapture, transitionFace, type FaceEvent, type FaceState, type FaceStep } from './face-verify.flow.js';
import { styles } from './face-verify.styles.js';
import { liveInstruction, renderFaceStep, type FaceView } from './face-verify.templates.js';
import type { QualityProblem } from './frame-quality.js';
import type { ChallengeHost } from './live-challenge.js';
import { faceEnglish, type FaceStrings } from '../translations/en/face.js';

/**
 * Verifies a person by a selfie, or registers their face (mode="enroll"), through the host handler.
 *
 * @summary Selfie verification: priming, camera preview with a face guide, quality gate, review, upload.
 *
 * @fires {VerifyStepChangeEvent<FaceStep>} verify-step-change - The step changed: `{step, previous}`.
 * @fires {VerifySuccessEvent} verify-success - Verified: `{method: 'face', receipt, expiresAt, metrics}`; check the receipt on your server.
 * @fires {VerifyEnrolledEvent} verify-enrolled - The face was registered (mode="enroll"): `{kind: 'face'}`.
 * @fires {VerifyFailureEvent} verify-failure - The face did not match, or the live check refused the frames: `{code, message, attemptsLeft, reason, move, metrics}` (`reason` and `move` for `liveness_failed`).
 * @fires {VerifyErrorEvent} verify-error - The camera, the network, the host or a limit failed: `{code, message, retryAfter, status, metrics}`.
 * @fires {VerifyRequestEvent} verify-request - Before each call to the host; cancelable, to amend headers or answer it.
 * @fires {VerifyOtherWayEvent} verify-other-way - The person chose to verify another way (the `other-way` attribute offers it): `{kind, step}`; show your other path.
 * @fires {VerifySessionTokenEvent} verify-session-token - The service refused the session token: call `respondWith(freshToken)` during the event.
 *
 * @csspart base - The whole widget.
 * @csspart heading - Each step's heading.
 * @csspart message - Explanatory text.
 * @csspart stage - The camera preview or the photo under review.
 * @csspart video - The mirrored live preview.
 * @csspart guide - The oval face guide.
 * @csspart photo - The photo under review.
 * @csspart feedback - What the quality gate, or a live challenge, asks of the person.
 * @csspart arrow - The movement a live challenge asks for, over the preview.
 * @csspart error - An error message.
 * @csspart button - Every button.
 * @csspart submit - The main button of a step.
 * @csspart shutter - The shutter button.
 * @csspart switch - The camera switcher.
 * @csspart upload - The photo-upload fallback.
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
 * @cssstate priming - Saying why the camera is needed.
 * @cssstate permission - Waiting for the browser's camera prompt.
 * @cssstate preview - Live preview with the guide.
 * @cssstate challenge - Following the movements the host chose, where it checks faces live.
 * @cssstate review - The photo, to use or retake.
 * @cssstate uploading - Sending the photo.
 * @cssstate success - Verified or registered.
 * @cssstate failure - Stopped, with a way on.
 */
export class FaceVerify extends BiometricElement<FaceStep, FaceStrings> implements FaceView {
  readonly kind = 'face';
  static override styles = styles;
  static override properties: PropertyDeclarations = { maxSide: { attribute: 'max-side', type: Number }, manual: { type: Boolean }, detector: { attribute: false } };
  protected readonly english = faceEnglish;
  /** Longest side of the uploaded JPEG, in pixels. */
  maxSide = 640;
  /** Turn off capturing by itself when the quality holds; the shutter always works. */
  manual = false;
  /** A face detector for the quality gate; when undefined, the browser's FaceDetector where there is one; null for none. */
  detector: FaceDetectorLike | null | undefined = undefined;

  /** @internal The camera step's code: the camera, the sampler, the shutter, once the person has started. */
  tools: CaptureTools | null = null;
  /** That code (capture.ts), fetched on the first start or file. */
  readonly #loadTools = onDemand(async (): Promise<CaptureTools> => {
    const tools = (await import('./capture.js')).captureTools(this, () => this.flow.send({ type: 'released' }), {
      video: () => this.renderRoot.querySelector('video'),
      detector: () => this.detector,
      active: () => this.step === 'preview',
      measured: (problems) => this.#measured(problems),
    });
    return (this.tools = tools);
  });
  /** @internal */
  readonly flow = new FlowController<FaceState, FaceEvent>(this, transitionFace, initialFaceState, {
    enter: {
      permission: () => void this.openCamera(null),
      preview: () => void this.#loadTools().then(({ sampler }) => sampler.start()),
      challenge: () => void this.#loadTools().then(({ runChallenge }) => runChallenge(this.#live)),
      uploading: ({ image, source, live }) => void this.upload(live ? { nonce: live.nonce, frames: live.frames } : image, source),
    },
    // The camera is only on while the person is framing the photo or following the movements.
    change: ({ step }) => void (['permission', 'preview', 'challenge'].includes(step) || this.tools?.camera.stop()),
  });
  /** @internal */
  photo: HTMLCanvasElement | null = null;
  #spoken = '';
  /** What a live challenge needs of the element (live-challenge.ts). */
  readonly #live: ChallengeHost = { requests: this.requests, flow: this.flow, video: () => (this.isConnected ? this.renderRoot.querySelector('video') : null), failed: (e) => this.reportLiveFailure(e), instruct: (move) => this.announce(liveInstruction(this.t, move)) };

  protected renderStep() {
    return renderFaceStep(this);
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const video = this.renderRoot.querySelector('video');
    const stream = this.tools?.camera.stream;
    if (video && stream && video.srcObject !== stream) {
      video.srcObject = stream;
      void video.play().catch(() => {});
    }
  }

  /** @internal Opens the camera (the default one, or the one named), or tells why it cannot. */
  async openCamera(deviceId: string | null): Promise<void> {
    let tools: CaptureTools | undefined;
    try {
      tools = await this.#loadTools();
      await tools.camera.open(deviceId);
      this.flow.send({ type: 'granted' });
    } catch (error) {
      if (!this.isConnected) return;
      // The camera's code could not be fetched: the person tries again.
      if (!tools) return this.reportLiveFailure(error);
      const reason = tools.failure(error);
      this.flow.send({ type: 'camera-failed', reason, filesAllowed: filesAllowed(this.config, this.mode) });
      this.reportDeviceFailure(reason);
    }
  }

  /** The gate's verdict on a frame; a photo is taken by itself once it has held (unless `manual`). */
  #measured(problems: QualityProblem[]): boolean {
    this.flow.send({ type: 'quality', problems, now: performance.now() });
    this.#speak(problems[0] ? this.t[`quality_${problems[0]}`] : this.t.qualityGood);
    if (this.manual || !readyToCapture(this.flow.state, performance.now())) return true;
    void this.capture();
    return false;
  }

  /** Says what the gate asks, when it changes, in the live region as well as on screen. */
  #speak(text: string): void {
    if (text === this.#spoken) return;
    this.#spoken = text;
    this.announce(text);
  }

  /** @internal The shutter: the preview's frame, for review. */
  async capture(): Promise<void> {
    const video = this.renderRoot.querySelector('video');
    if (this.step !== 'preview' || !video?.videoWidth) return;
    // Where the host checks faces live, the framed face starts the movements instead of a photo.
    if (this.config?.liveness) return this.flow.send({ type: 'live' });
    const shot = await (await this.#loadTools()).shoot(video, this.maxSide);
    this.photo = shot.canvas;
    this.flow.send({ type: 'capture', image: shot.base64, source: 'camera' });
  }

  /** @internal A chosen photo instead of the camera's, for review. */
  async useFile(file: File): Promise<void> {
    const bitmap = await createImageBitmap(file).catch(() => null);
    if (!bitmap) {
      this.flow.send({ type: 'file-refused' });
      return this.announce(this.t.error_bad_file);
    }
    const tools = await this.#loadTools().catch((error) => void this.reportLiveFailure(error));
    if (!tools) return;
    const shot = await tools.shoot(bitmap, this.maxSide);
    this.photo = shot.canvas;
    this.flow.send({ type: 'capture', image: shot.base64, source: 'file' });
  }
}
