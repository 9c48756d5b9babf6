/**
 * What <face-verify> and <voice-verify> share beyond VerifyElement: the mode (verify or enrol),
 * and sending the sample — to the route and in the field the protocol names — then telling the
 * page and the person how it went. Each element moves its own flow through `done` and `failed`.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AccountWay } from './later/account-actions.js';
import { VerifyEnrolledEvent } from '../events/enrolled.js';
import { VerifyErrorEvent } from '../events/error.js';
import { VerifyOtherWayEvent } from '../events/other-way.js';
import type { DeviceFailure } from '../core/protocol.js';
import type { failureText, FailureFacts } from '../internal/later/failure-text.js';
import { type AccountProblem, type SampleEvent, type FaceStep, type VoiceStep, type BiometricKind, type ConfigResponse, type HandoffStatus, type LiveFaceBody } from '../core/protocol.js';
import { StaleAnswer } from '../internal/request-controller.js';
import { HandoffController } from './handoff-controller.js';
import { proofIn, VerifyElement, type LaterCode, type StepView } from '../internal/verify-element.js';
import { stringsFor } from '../internal/localize.js';
import type { BiometricStrings } from '../translations/en/biometric.js';


/** What the face and voice templates read beside the steps' common view. */
export interface SampleView extends StepView {
  readonly mode: 'verify' | 'enroll';
  readonly accountWay: AccountWay;
  /** Continue on your phone: the computer's panel, and on the phone the link it came from. */
  readonly phoneLink: HandoffController;
  /** "Continue on your phone" and "Verify another way", where offered. */
  otherWays(): TemplateResult;
}

/** What a face or voice widget's later steps bring beside their words and look: the words for each failure. */
export interface SampleLater<S> extends LaterCode<S> {
  readonly failureText: typeof failureText;
}

/**
 * @csspart phone - The button to continue on a phone.
 * @csspart qr - The QR code of the phone link.
 * @csspart code - The short code the computer and the phone both show.
 * @csspart link - The phone link, to copy.
 *
 * @cssstate handoff - A phone makes the capture: the link, and how the phone is getting on.
 */
export abstract class BiometricElement<Step extends FaceStep | VoiceStep, S extends BiometricStrings, Later extends SampleLater<S>>
  extends VerifyElement<Step, S, Later>
  implements SampleView
{
  static override properties: PropertyDeclarations = {
    mode: { reflect: true },
    otherWay: { attribute: 'other-way', type: Boolean },
    handoff: {},
    handoffUrl: { attribute: 'handoff-url' },
  };
  /** `verify` compares with the user's registered sample; `enroll` registers this one. */
  mode: 'verify' | 'enroll' = 'verify';
  /** Offer "Verify another way" (before the camera or microphone, during a live challenge, after a failure); the page answers `verify-other-way`. */
  otherWay = false;
  /** Continue on your phone: `auto` when the camera or microphone fails, `offer` from the start too, `always` at once, `off` never. */
  handoff: 'auto' | 'offer' | 'always' | 'off' = 'auto';
  /** The page the phone opens (it must show this widget and open without the computer's session); this page by default. */
  handoffUrl = '';
  abstract readonly kind: BiometricKind;
  /** @internal */
  readonly phoneLink: HandoffController = new HandoffController(this, this.requests);
  /** Whether the flow stands on an account failure (and not on a camera or sample one). */
  #blocked = false;
  /** Codes verified elsewhere on the page so far: each may be the proof registering waits for. */
  #proofsSeen = 0;
  /** Where the last sample sent came from, for the outcome events (a face: the camera or a file). */
  #capture?: 'camera' | 'file';

  /** @internal The widget's flow, which takes the sample's outcome, an account problem and a start over as events of its own. */
  abstract override readonly flow: { readonly step: Step; readonly state: { readonly step: Step; readonly reason?: string }; send(event: SampleEvent): void; readonly entered: ReadonlyMap<string, number> };

  /**
   * Stops before the camera or microphone when nobody is signed in, nothing is registered, or (to
   * register) no code has been verified yet; starts again once the account allows.
   */
  protected override configured(config: ConfigResponse): void {
    const problem = accountProblem(config, this.mode, this.kind);
    if (problem) this.#block(problem);
    // At its failure step, or still at the first while the later steps' code that shows the block
    // has not come (the block waits for it, and the start goes after it).
    else if (this.#blocked && (this.step === 'failure' || this.step === 'priming')) this.#restart();
    else if (this.handoff === 'always' && this.phoneLink.offered('offer', 'start')) this.flow.send({ type: 'handoff' });
  }

  /** On a phone opened from a link, the link is claimed before anything else is asked. */
  protected override async loadConfig(): Promise<void> {
    try {
      // The phone's banner and its failures speak words of the later steps.
      if (this.phoneLink.phone) await this.loadLater();
      if (!(await this.phoneLink.claim())) return;
    } catch (error) {
      return this.reportLiveFailure(error);
    }
    // A code verified on the page while the config was on its way: that config may predate the
    // proof registering waits for, so ask once more.
    const proofs = this.#proofsSeen;
    await super.loadConfig();
    if (this.#blocked && this.#proofsSeen !== proofs) return this.loadConfig();
  }

  /** @internal Strings of a part that brings its own English (the phone's panel): in this element's language, with the page's overrides. */
  stringsOf<T extends object>(english: T): T {
    return stringsFor(english, this.language, this.strings as Partial<T>);
  }

  /** @internal The header a phone's calls carry (callHost). */
  get handoffPass(): string | null {
    return this.phoneLink.pass;
  }

  /** @internal The phone's capture verified or registered: the same step, words and events as a capture here. */
  finishedElsewhere({ verified }: HandoffStatus): void {
    this.flow.send({ type: 'done' });
    if (verified) return this.succeeded(this.kind, proofIn(verified), this.#said().verified);
    this.announce(this.#said().enrolled);
    this.dispatchEvent(new VerifyEnrolledEvent({ kind: this.kind }));
  }

  /** @internal The phone's link ended (expired, used, cancelled): the phone stops where it is. */
  handoffEnded(): void {
    if (!this.phoneLink.phone) return void this.flow.send({ type: 'handoff-ended' });
    this.flow.send({ type: 'blocked', reason: 'handoff_ended' });
    this.announce(this.t.error_handoff_ended);
  }

  /** What success says, in this kind's words. */
  #said(): { verified: string; enrolled: string } {
    const t = this.t as S & Record<`${BiometricKind}${'Verified' | 'Enrolled'}`, string>;
    return { verified: t[`${this.kind}Verified`], enrolled: t[`${this.kind}Enrolled`] };
  }

  // A code verified anywhere on the page may be the proof registering waits for: ask the host again.
  readonly #onVerified = (event: Event) => {
    if (event.target === this) return;
    this.#proofsSeen++;
    if (this.#blocked) void this.loadConfig();
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
      phone: this.phoneLink.offered(this.handoff, this.#phoneMoment()) ? () => this.flow.send({ type: 'handoff' }) : null,
    };
  }

  /**
   * @internal "Continue on your phone", where offered, and "Verify another way", where the page
   * offers one: for whoever cannot or will not use this computer's camera or microphone.
   */
  otherWays(): TemplateResult {
    const { t, accountWay: way } = this;
    return html`${way.phone ? html`<button part="button phone" class="secondary" type="button" @click=${way.phone}>${t.handoffOffer}</button>` : nothing}${
      way.other ? html`<button part="button other-way" class="secondary" type="button" @click=${way.other}>${t.otherWay}</button>` : nothing
    }`;
  }

  /** Where the person stands, for offering the phone: at the start, stopped by the device, or elsewhere. */
  #phoneMoment(): 'start' | 'device' | 'other' {
    const { state } = this.flow;
    if (state.step === 'priming') return 'start';
    return state.step === 'failure' && DEVICE_FAILURES.includes(state.reason as DeviceFailure) ? 'device' : 'other';
  }

  protected get device(): 'camera' | 'microphone' {
    return this.kind === 'face' ? 'camera' : 'microphone';
  }

  /** @internal What a failure says to the person; before the later steps have come, only the network can have failed. */
  failureText(facts: FailureFacts): string {
    return this.later?.failureText(this.t, this.language, this.device, facts) ?? this.t.error_upstream_unavailable;
  }

  /** @internal Tells the person and the page that the camera or microphone failed (the flow has moved on). */
  reportDeviceFailure(reason: DeviceFailure): void {
    const message = this.failureText({ reason });
    this.announce(message);
    this.dispatchEvent(new VerifyErrorEvent({ code: reason, message, status: 0, metrics: { ...this.metrics(), device: this.device } }));
  }

  /** Samples sent, samples taken again (a photo framed, a recording made), and where a photo came from. */
  protected measure() {
    const taken = this.entries((this.kind === 'face' ? 'preview' : 'recording') as Step);
    return { attempts: this.entries('uploading' as Step), retakes: Math.max(0, taken - 1), ...(this.#capture ? { capture: this.#capture } : {}) };
  }

  /** @internal Tells the flow, the person and the page that a host call before the upload failed (a live challenge asked for). */
  reportLiveFailure(error: unknown): void {
    if (error instanceof StaleAnswer) return;
    const host = this.hostError(error);
    this.flow.send({ type: 'failed', code: host.code, ...host.extra });
    this.reportProblem(host, this.failureText({ reason: host.code, ...host.extra }));
  }

  /**
   * Sends the sample (on entering `uploading`), moves the flow by the answer, and says how it went;
   * `capture` says where a photo came from, `nonce` which of the host's voice challenges a recording answers.
   */
  protected async upload(sample: string | LiveFaceBody, capture?: 'camera' | 'file', nonce?: string): Promise<void> {
    const { kind } = this;
    const said = this.#said();
    this.#capture = capture;
    const enrolling = this.mode === 'enroll';
    try {
      // Each route and its field spelt out, so that every call is checked against the protocol's table.
      if (enrolling) {
        await (typeof sample !== 'string'
          ? this.requests.call('enroll-face', sample)
          : kind === 'face'
            ? this.requests.call('enroll-face', { face_image: sample })
            : this.requests.call('enroll-voice', { audio: sample, ...(nonce && { nonce }) }));
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
          : this.requests.call('verify-by-voice', { query_audio: sample, ...(nonce && { nonce }) }));
      this.flow.send({ type: 'done' });
      // Captured on a phone from a link: the receipt went to the computer, which says so there.
      if ('handedOff' in answer) return this.announce(this.t.handoffPhoneDone);
      this.succeeded(kind, proofIn(answer), said.verified);
    } catch (error) {
      if (error instanceof StaleAnswer) return;
      const host = this.hostError(error);
      // Refused for want of a user, by a handler that said nobody is signed in: say so, not "session ended".
      const signedOut = host.code === 'unauthorized' && this.config?.enrolled === null;
      const account = signedOut ? 'signed_out' : host.code === 'proof_required' ? 'proof_required' : null;
      if (account) this.#block(account);
      else this.flow.send({ type: 'failed', code: host.code, ...host.extra });
      const message = this.failureText({ reason: account ?? host.code, ...host.extra });
      this.reportProblem(host, message);
    }
  }
}

const DEVICE_FAILURES: readonly DeviceFailure[] = ['denied', 'no-camera', 'no-microphone', 'busy', 'constraints', 'unsupported', 'insecure'];

function accountProblem({ enrolled, needsProof }: ConfigResponse, mode: 'verify' | 'enroll', kind: BiometricKind): AccountProblem | null {
  if (enrolled === null) return 'signed_out';
  if (mode === 'verify' && !enrolled[kind]) return 'not_enrolled';
  if (mode === 'enroll' && needsProof) return 'proof_required';
  return null;
}
