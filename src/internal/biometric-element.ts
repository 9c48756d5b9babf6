/**
 * What <face-verify> and <voice-verify> share beyond VerifyElement: the mode (verify or enrol),
 * and sending the sample — to the route and in the field the protocol names — then telling the
 * page and the person how it went. Each element moves its own flow through `done` and `failed`.
 */
import type { PropertyDeclarations } from 'lit';
import type { AccountWay } from './account-actions.js';
import { VerifyEnrolledEvent } from '../events/enrolled.js';
import { VerifyErrorEvent } from '../events/error.js';
import { VerifyOtherWayEvent } from '../events/other-way.js';
import type { DeviceFailure } from '../core/protocol.js';
import { failureText } from './failure-text.js';
import { type AccountProblem, type SampleEvent, type FaceStep, type VoiceStep, type BiometricKind, type ConfigResponse, type LiveFaceBody } from '../core/protocol.js';
import { StaleAnswer } from './request-controller.js';
import { proofIn, VerifyElement, type StepView } from './verify-element.js';
import type { BiometricStrings } from '../translations/en/biometric.js';


/** What the face and voice templates read beside the steps' common view. */
export interface SampleView extends StepView {
  readonly mode: 'verify' | 'enroll';
  readonly accountWay: AccountWay;
}

export abstract class BiometricElement<Step extends FaceStep | VoiceStep, S extends BiometricStrings> extends VerifyElement<Step, S> implements SampleView {
  static override properties: PropertyDeclarations = { mode: { reflect: true }, otherWay: { attribute: 'other-way', type: Boolean } };
  /** `verify` compares with the user's registered sample; `enroll` registers this one. */
  mode: 'verify' | 'enroll' = 'verify';
  /** Offer "Verify another way" (before the camera or microphone, during a live challenge, after a failure); the page answers `verify-other-way`. */
  otherWay = false;
  protected abstract readonly kind: BiometricKind;
  /** Whether the flow stands on an account failure (and not on a camera or sample one). */
  #blocked = false;
  /** Where the last sample sent came from, for the outcome events (a face: the camera or a file). */
  #capture?: 'camera' | 'file';

  /** @internal The widget's flow, which takes the sample's outcome, an account problem and a start over as events of its own. */
  abstract override readonly flow: { readonly step: Step; send(event: SampleEvent): void; readonly entered: ReadonlyMap<string, number> };

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

  /** @internal The buttons of an account failure. */
  get accountWay(): AccountWay {
    return {
      canEnroll: this.config?.canEnroll ?? false,
      enroll: () => {
        this.mode = 'enroll';
        // Registering may itself wait on the account (a code verified first): the config says.
        if (this.config) this.configured(this.config);
        else this.#restart();
      },
      recheck: () => void this.loadConfig(),
      other: this.otherWay ? () => this.dispatchEvent(new VerifyOtherWayEvent({ kind: this.kind, step: this.step })) : null,
    };
  }

  protected get device(): 'camera' | 'microphone' {
    return this.kind === 'face' ? 'camera' : 'microphone';
  }

  /** Tells the person and the page that the camera or microphone failed (the flow has moved on). */
  protected reportDeviceFailure(reason: DeviceFailure): void {
    const message = failureText(this.t, this.language, this.device, { reason });
    this.announce(message);
    this.dispatchEvent(new VerifyErrorEvent({ code: reason, message, status: 0, metrics: { ...this.metrics(), device: this.device } }));
  }

  /** Samples sent, samples taken again (a photo framed, a recording made), and where a photo came from. */
  protected measure() {
    const taken = this.entries((this.kind === 'face' ? 'preview' : 'recording') as Step);
    return { attempts: this.entries('uploading' as Step), retakes: Math.max(0, taken - 1), ...(this.#capture ? { capture: this.#capture } : {}) };
  }

  /** Tells the flow, the person and the page that a host call before the upload failed (a live challenge asked for). */
  protected reportLiveFailure(error: unknown): void {
    if (error instanceof StaleAnswer) return;
    const host = this.hostError(error);
    this.flow.send({ type: 'failed', code: host.code, ...host.extra });
    this.reportProblem(host, failureText(this.t, this.language, this.device, { reason: host.code, ...host.extra }));
  }

  /** Sends the sample (on entering `uploading`), moves the flow by the answer, and says how it went (`said`, on success); `capture` says where a photo came from. */
  protected async upload(sample: string | LiveFaceBody, said: { verified: string; enrolled: string }, capture?: 'camera' | 'file'): Promise<void> {
    const { kind } = this;
    this.#capture = capture;
    const enrolling = this.mode === 'enroll';
    try {
      // Each route and its field spelt out, so that every call is checked against the protocol's table.
      if (enrolling) {
        await (typeof sample !== 'string'
          ? this.requests.call('enroll-face', sample)
          : kind === 'face'
            ? this.requests.call('enroll-face', { face_image: sample })
            : this.requests.call('enroll-voice', { audio: sample }));
        this.flow.send({ type: 'done' });
        this.announce(said.enrolled);
        this.dispatchEvent(new VerifyEnrolledEvent({ kind }));
        return;
      }
      // A live face goes as the challenge's answer, its frames and nonce.
      const answer = await (typeof sample !== 'string'
        ? this.requests.call('verify-by-face', sample)
        : kind === 'face'
          ? this.requests.call('verify-by-face', { query_face_image: sample })
          : this.requests.call('verify-by-voice', { query_audio: sample }));
      this.flow.send({ type: 'done' });
      this.succeeded(kind, proofIn(answer), said.verified);
    } catch (error) {
      if (error instanceof StaleAnswer) return;
      const host = this.hostError(error);
      // Refused for want of a user, by a handler that said nobody is signed in: say so, not "session ended".
      const signedOut = host.code === 'unauthorized' && this.config?.enrolled === null;
      const account = signedOut ? 'signed_out' : host.code === 'proof_required' ? 'proof_required' : null;
      if (account) this.#block(account);
      else this.flow.send({ type: 'failed', code: host.code, ...host.extra });
      const message = failureText(this.t, this.language, this.device, { reason: account ?? host.code, ...host.extra });
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
