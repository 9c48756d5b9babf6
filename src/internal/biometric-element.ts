/**
 * What <face-verify> and <voice-verify> share beyond VerifyElement: the mode (verify or enrol),
 * and sending the sample — to the route and in the field the protocol names — then telling the
 * page and the person how it went. Each element moves its own flow through `done` and `failed`.
 */
import { property } from 'lit/decorators.js';
import { VerifyEnrolledEvent } from '../events/enrolled.js';
import { VerifyErrorEvent } from '../events/error.js';
import { VerifySuccessEvent } from '../events/success.js';
import type { DeviceFailure } from './device-controller.js';
import { failureText } from './failure-text.js';
import type { HostError } from './host-api.js';
import { SAMPLE_FIELDS, type BiometricKind } from './protocol.js';
import { RequestController, StaleAnswer } from './request-controller.js';
import { VerifyElement } from './verify-element.js';

const FAILURES = new Set(['no_match', 'too_many_attempts']);

export abstract class BiometricElement extends VerifyElement {
  /** `verify` compares with the user's registered sample; `enroll` registers this one. */
  @property({ reflect: true }) mode: 'verify' | 'enroll' = 'verify';
  protected readonly requests = new RequestController(this);
  protected abstract readonly kind: BiometricKind;

  /** Waiting on the browser's permission prompt, or on the host with the sample. */
  protected get busy(): boolean {
    return this.step === 'uploading' || this.step === 'permission';
  }

  protected get device(): 'camera' | 'microphone' {
    return this.kind === 'face' ? 'camera' : 'microphone';
  }

  /** Tells the person and the page that the camera or microphone failed (the flow has moved on). */
  protected reportDeviceFailure(reason: DeviceFailure): void {
    const message = failureText(this.t, this.language, this.device, { reason });
    this.announce(message);
    this.dispatchEvent(new VerifyErrorEvent({ code: reason, message, status: 0 }));
  }

  protected async uploadSample(sample: string, moves: { done(): void; failed(error: HostError): void }): Promise<void> {
    const { kind } = this;
    const enrolling = this.mode === 'enroll';
    try {
      const answer = await this.requests.call(enrolling ? `enroll-${kind}` : `verify-by-${kind}`, { [SAMPLE_FIELDS[this.mode][kind]]: sample });
      moves.done();
      if (enrolling) {
        this.announce(this.t[`${kind}Enrolled`]);
        this.dispatchEvent(new VerifyEnrolledEvent({ kind }));
        return;
      }
      const receipt = typeof answer.receipt === 'string' ? answer.receipt : '';
      const expiresAt = typeof answer.expiresAt === 'string' ? answer.expiresAt : null;
      this.setReceipt(receipt);
      this.announce(this.t[`${kind}Verified`]);
      this.dispatchEvent(new VerifySuccessEvent({ method: kind, receipt, expiresAt }));
    } catch (error) {
      if (error instanceof StaleAnswer) return;
      const host = this.hostError(error);
      moves.failed(host);
      const message = failureText(this.t, this.language, this.device, { reason: host.code, ...host.extra });
      this.announce(message);
      this.reportProblem(host, message, FAILURES);
    }
  }
}
