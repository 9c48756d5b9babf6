/**
 * What <face-verify> and <voice-verify> share beyond VerifyElement: the mode (verify or enrol),
 * and sending the sample — to the route and in the field the protocol names — then telling the
 * page and the person how it went. Each element moves its own flow through `done` and `failed`.
 */
import { property } from 'lit/decorators.js';
import type { AccountWay } from './account-actions.js';
import { VerifyEnrolledEvent } from '../events/enrolled.js';
import { VerifyErrorEvent } from '../events/error.js';
import { VerifySuccessEvent } from '../events/success.js';
import type { DeviceFailure } from '../core/protocol.js';
import { failureText } from './failure-text.js';
import type { HostError } from './host-api.js';
import { type AccountProblem, type FaceStep, type VoiceStep, type BiometricKind, type ConfigResponse } from '../core/protocol.js';
import { RequestController, StaleAnswer } from './request-controller.js';
import { VerifyElement } from './verify-element.js';


export abstract class BiometricElement<Step extends FaceStep | VoiceStep = FaceStep | VoiceStep> extends VerifyElement<Step> {
  /** `verify` compares with the user's registered sample; `enroll` registers this one. */
  @property({ reflect: true }) mode: 'verify' | 'enroll' = 'verify';
  protected readonly requests = new RequestController(this);
  protected abstract readonly kind: BiometricKind;
  /** Whether the flow stands on an account failure (and not on a camera or sample one). */
  #blocked = false;

  /** The widget's flow, which takes an account problem and a start over as events of its own. */
  protected abstract readonly flow: { send(event: { type: 'blocked'; reason: AccountProblem } | { type: 'restart' }): void };

  /**
   * Stops before the camera or microphone when nobody is signed in, nothing is registered, or (to
   * register) no code has been verified yet; starts again once the account allows.
   */
  protected override configured(config: ConfigResponse): void {
    const problem = accountProblem(config, this.mode, this.kind);
    if (problem) this.#block(problem);
    else if (this.#blocked && this.step === 'failure') this.#restart();
  }

  // A code verified anywhere on the page may be the proof registering waits for: ask the host again.
  readonly #onVerified = (event: Event) => {
    if (this.#blocked && event.target !== this) void this.loadConfig();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('verify-success', this.#onVerified);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('verify-success', this.#onVerified);
  }

  #block(reason: AccountProblem): void {
    this.#blocked = true;
    this.flow.send({ type: 'blocked', reason });
  }

  #restart(): void {
    this.#blocked = false;
    this.flow.send({ type: 'restart' });
  }

  /** The buttons of an account failure. */
  protected get accountWay(): AccountWay {
    return {
      canEnroll: this.config?.canEnroll ?? false,
      enroll: () => {
        this.mode = 'enroll';
        // Registering may itself wait on the account (a code verified first): the config says.
        if (this.config) this.configured(this.config);
        else this.#restart();
      },
      recheck: () => void this.loadConfig(),
    };
  }

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
      // Each route and its field spelt out, so that every call is checked against the protocol's table.
      if (enrolling) {
        await (kind === 'face' ? this.requests.call('enroll-face', { face_image: sample }) : this.requests.call('enroll-voice', { audio: sample }));
        moves.done();
        this.announce(this.t[`${kind}Enrolled`]);
        this.dispatchEvent(new VerifyEnrolledEvent({ kind }));
        return;
      }
      const answer = await (kind === 'face'
        ? this.requests.call('verify-by-face', { query_face_image: sample })
        : this.requests.call('verify-by-voice', { query_audio: sample }));
      moves.done();
      const receipt = typeof answer.receipt === 'string' ? answer.receipt : '';
      const expiresAt = typeof answer.expiresAt === 'string' ? answer.expiresAt : null;
      this.setReceipt(receipt);
      this.announce(this.t[`${kind}Verified`]);
      this.dispatchEvent(new VerifySuccessEvent({ method: kind, receipt, expiresAt }));
    } catch (error) {
      if (error instanceof StaleAnswer) return;
      const host = this.hostError(error);
      // Refused for want of a user, by a handler that said nobody is signed in: say so, not "session ended".
      const signedOut = host.code === 'unauthorized' && this.config?.enrolled === null;
      const account = signedOut ? 'signed_out' : host.code === 'proof_required' ? 'proof_required' : null;
      if (account) this.#block(account);
      else moves.failed(host);
      const message = failureText(this.t, this.language, this.device, { reason: account ?? host.code, ...host.extra });
      this.announce(message);
      this.reportProblem(host, message);
    }
  }
}

function accountProblem({ enrolled, needsProof }: ConfigResponse, mode: 'verify' | 'enroll', kind: BiometricKind): AccountProblem | null {
  if (enrolled === null) return 'signed_out';
  if (mode === 'verify' && !enrolled[kind]) return 'not_enrolled';
  if (mode === 'enroll' && needsProof) return 'proof_required';
  return null;
}
