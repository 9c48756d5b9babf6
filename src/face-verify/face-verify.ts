import type { PropertyValues, PropertyDeclarations } from 'lit';
import type { CaptureTools } from './later/capture.js';
import { BiometricElement } from '../biometric/biometric-element.js';
import { FlowController } from '../internal/flow-controller.js';
import { onDemand } from '../internal/on-demand.js';
import type { FaceDetectorLike } from './later/face-detector.js';
import type { FaceEvent, FaceState, FaceStep } from './later/face-verify.flow.js';
import type { FaceView } from './later/face-verify.templates.js';
import { filesAllowed, firstStepStyles, renderFacePriming, uploadButton } from './first-step.js';
import type { FaceStrings } from '../translations/en/face.js';
import { biometricFirst, commonFirst, faceFirst } from '../translations/en/first.js';

type FaceLater = typeof import('./later/later-steps.js');

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
 * @csspart stop - The button that ends a light challenge's colours.
 * @csspart decline - The button, where the page offers no other way, not to see a light challenge's colours.
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
export class FaceVerify extends BiometricElement<FaceStep, FaceStrings, FaceLater> implements FaceView {
  readonly kind = 'face';
  static override styles = firstStepStyles;
  static override properties: PropertyDeclarations = { maxSide: { attribute: 'max-side', type: Number }, manual: { type: Boolean }, detector: { attribute: false } };
  protected readonly firstEnglish = { ...commonFirst, ...biometricFirst, ...faceFirst };
  /** Longest side of the uploaded JPEG, in pixels. */
  maxSide = 640;
  /** Turn off capturing by itself when the quality holds; the shutter always works. */
  manual = false;
  /** A face detector for the quality gate; when undefined, the browser's FaceDetector where there is one; null for none. */
  detector: FaceDetectorLike | null | undefined = undefined;

  /** @internal The camera step's code: the camera, the sampler, the shutter, once the person has started. */
  tools: CaptureTools | null = null;
  /** That code (capture.ts, with the later steps), fetched on the first start or file; the person is told if it cannot come. */
  readonly #loadTools = onDemand(async (): Promise<CaptureTools> => (this.tools ??= (await import('./later/later-steps.js')).captureTools(this)));
  #withTools(use: (tools: CaptureTools) => Promise<void>): Promise<void> {
    return this.#loadTools().then(use, (error) => void (this.isConnected && this.reportLiveFailure(error)));
  }
  /** @internal */
  readonly flow = new FlowController<FaceState, FaceEvent>(this, this.laterTransition(() => this.later?.transition), { step: 'priming' }, {
    enter: {
      permission: () => void this.openCamera(null),
      preview: () => void this.#withTools(async ({ sampler }) => sampler.start()),
      challenge: () => void this.#withTools(({ challenge }) => challenge()),
      uploading: ({ image, source, live }) => void this.upload(live ? { nonce: live.nonce, video: live.video, times: live.times, ...(live.lit ? { lit: live.lit } : {}) } : image, source),
    },
    // The camera is only on while the person is framing the photo or following the movements.
    change: ({ step }) => void (['permission', 'preview', 'challenge'].includes(step) || this.tools?.camera.stop()),
  });
  /** @internal */
  photo: HTMLCanvasElement | null = null;

  protected fetchLater(): Promise<FaceLater> {
    return import('./later/later-steps.js');
  }

  protected renderStep() {
    return this.step !== 'priming' && this.later ? this.later.render(this) : renderFacePriming(this);
  }

  /** @internal */
  uploadButton() {
    return uploadButton(this);
  }

  /** @internal Whether a photo file may stand in for the camera, as the host's config says. */
  get filesAllowed(): boolean {
    return filesAllowed(this.config, this.mode);
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
  openCamera(deviceId: string | null): Promise<void> {
    return this.#withTools((tools) => tools.open(deviceId));
  }

  /** @internal The shutter: the preview's frame, for review. */
  capture(): Promise<void> {
    return this.#withTools((tools) => tools.capture());
  }

  /** @internal A chosen photo instead of the camera's, for review. */
  useFile(file: File): Promise<void> {
    return this.#withTools((tools) => tools.useFile(file));
  }
}
