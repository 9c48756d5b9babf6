import type { PropertyDeclarations } from 'lit';
import { VerifyCodeSentEvent } from '../events/code-sent.js';
import { CountdownController } from './countdown-controller.js';
import { leftToRight } from './bidi.js';
import { format, formatSeconds } from '../internal/localize.js';
import { OTP_CHANNELS, type ConfigResponse } from '../core/protocol.js';
import { StaleAnswer } from '../internal/request-controller.js';
import { proofIn, VerifyElement } from '../internal/verify-element.js';
import { FlowController } from '../internal/flow-controller.js';
import { LazyCodeStep } from './lazy-code-step.js';
import { ContactForm } from './contact-form.js';
import { contactFields, initialState, otpMeasure, transition, type Contact, type OtpEvent, type OtpState, type Problem, type OtpStep } from './otp-verify.flow.js';
import { styles } from './otp-verify.styles.js';
import { codeFieldWords, problemText, renderOtpStep, type OtpView } from './otp-verify.templates.js';
import { otpEnglish, type OtpStrings } from '../translations/en/otp.js';

/**
 * Verifies a person by a one-time code sent by SMS, WhatsApp or email, through the host handler.
 *
 * @summary One-time code verification: contact entry, channel choice, code entry, resend, fallback.
 *
 * @fires {VerifyStepChangeEvent<OtpStep>} verify-step-change - The step changed: `{step, previous}`.
 * @fires {VerifyCodeSentEvent} verify-code-sent - A code went out: `{method, to, resendAfter}`.
 * @fires {VerifySuccessEvent} verify-success - Verified: `{method, receipt, expiresAt, metrics}`; check the receipt on your server.
 * @fires {VerifyFailureEvent} verify-failure - A wrong, expired or exhausted code: `{code, message, attemptsLeft, metrics}`.
 * @fires {VerifyErrorEvent} verify-error - The network, the host or a limit failed: `{code, message, retryAfter, status, metrics}`.
 * @fires {VerifyRequestEvent} verify-request - Before each call to the host; cancelable, to amend headers or answer it.
 * @fires {VerifySessionTokenEvent} verify-session-token - The service refused the session token: call `respondWith(freshToken)` during the event.
 * @fires {VerifyHumanCheckEvent} verify-human-check - The handler asks for the host's own human check: call `respondWith(token)` during the event.
 *
 * @slot code - The code input; the element adds one, when the code step first appears, if the page gives none (so server-rendered markup is unchanged until then). It stays in the light DOM, where autofill can see it.
 *
 * @csspart base - The whole widget.
 * @csspart heading - Each step's heading.
 * @csspart message - Explanatory text.
 * @csspart form - A step's form.
 * @csspart channels - The channel choice.
 * @csspart channel - One channel option.
 * @csspart label - A field label.
 * @csspart input - A text field (phone, email).
 * @csspart country - The country picker.
 * @csspart prefix - The dial code shown before the phone number.
 * @csspart code - The segmented code field.
 * @csspart digit - One box of the code field.
 * @csspart error - An error message.
 * @csspart suggestion - The email typo suggestion.
 * @csspart button - Every button.
 * @csspart submit - The main button of a step.
 * @csspart resend - The resend button.
 * @csspart link - Secondary actions (change number, fallback, start over).
 * @csspart spinner - The progress indicator.
 * @csspart live - The polite live region.
 *
 * @cssproperty --verify-accent - Accent color (buttons, focus, active box).
 * @cssproperty --verify-accent-contrast - Text on the accent color.
 * @cssproperty --verify-fg - Text color.
 * @cssproperty --verify-bg - Background color.
 * @cssproperty --verify-surface - Background of fields and secondary buttons.
 * @cssproperty --verify-muted - Secondary text color.
 * @cssproperty --verify-border - Border color.
 * @cssproperty --verify-error - Error color.
 * @cssproperty --verify-success - Success color.
 * @cssproperty --verify-radius - Corner radius.
 * @cssproperty --verify-gap - Spacing unit.
 * @cssproperty --verify-font - Font family.
 * @cssproperty --verify-box-size - Width of one code box.
 *
 * @cssstate contact - Entering a phone or email.
 * @cssstate sending - Sending the code.
 * @cssstate code - Entering the code.
 * @cssstate verifying - Checking the code.
 * @cssstate success - Verified.
 * @cssstate failure - Stopped, with a way to go on.
 */
export class OtpVerify extends VerifyElement<OtpStep, OtpStrings> implements OtpView {
  static override styles = styles;
  static override properties: PropertyDeclarations = { channels: {}, country: {}, countries: {} };
  protected readonly english = otpEnglish;

  /** Channels offered, space-separated; narrowed further by the host handler's config. */
  channels: string = OTP_CHANNELS.join(' ');
  /** The country preselected for phone numbers (ISO 3166 alpha-2). */
  country = '';
  /** Countries offered, space-separated; narrowed further by the host handler's config. */
  countries = '';
  /** @internal */
  readonly contactForm = new ContactForm(this, { submit: (contact) => this.flow.send({ type: 'send', contact }), invalid: (message) => this.announce(message) });
  /** @internal The code step: its field once its code has come, and the code's length meanwhile. */
  readonly code: LazyCodeStep = new LazyCodeStep(this, {
    submit: (code) => this.flow.send({ type: 'submit', code }),
    incomplete: () => this.announce(this.t.codeIncomplete),
    shown: () => this.step === 'code',
    words: () => codeFieldWords(this),
  });
  protected readonly cooldown: CountdownController = new CountdownController(this, () => this.announce(this.t.resendReady));
  /** @internal The wait a rate limit asks before another try. */
  readonly wait = new CountdownController(this);
  /** @internal */
  readonly flow = new FlowController<OtpState, OtpEvent>(this, transition, initialState, {
    enter: {
      sending: (state) => void this.send(state.contact),
      // A code on its way (or that may be) starts the resend wait.
      code: (state, before) => {
        const refused = before.step === 'verifying' ? before.code : null;
        if (refused === null) this.cooldown.start(state.resendAfter);
        void this.code.show(refused).catch((error) => this.#failed(error));
      },
      verifying: (state) => void this.verify(state.contact, state.code),
    },
    leave: { code: () => this.code.left() },
    // Back at the form (change, fallback): show the channel the flow chose, keep what was typed.
    change: (state) => {
      if (state.step === 'contact' && state.contact) this.contactForm.update({ method: state.contact.method });
    },
  });

  protected override configured(config: ConfigResponse): void {
    // A config that arrives after a send was answered must not undo the length that answer gave.
    if (this.step === 'contact' || this.code.length === null) this.code.length = config.codeLength;
    // Back to the code this session is waiting for, unless the person has started on another.
    const { pending } = config;
    if (pending && this.step === 'contact' && this.contactForm.empty) {
      this.flow.send({ type: 'resume', method: pending.method, to: pending.to, resendAfter: pending.resendAfter, now: Date.now() });
    }
  }

  protected renderStep() {
    return renderOtpStep(this);
  }

  protected measure() {
    return otpMeasure(this.flow.state, this.flow.entered, this.code.field?.entry ?? 'typed', this.contactForm.firstMethod);
  }

  protected override focusTarget(): HTMLElement | null {
    return (this.step === 'code' && this.code.field?.input) || super.focusTarget();
  }

  protected async send(contact: Contact): Promise<void> {
    try {
      const [lang, fields] = [this.language.split('-')[0], contactFields(contact)];
      // The code step's code comes while the code does: it is there when the code step shows.
      const [answer] = await Promise.all([this.requests.call('send-otp', fields ? { method: contact.method, ...fields, lang } : { resend: true, lang }), this.code.load()]);
      const to = String(answer.to ?? contact.phone ?? contact.email);
      const resendAfter = Number(answer.resendAfter ?? this.config?.resendCooldown ?? 30);
      if (typeof answer.codeLength === 'number') this.code.length = answer.codeLength;
      this.flow.send({ type: 'sent', to, resendAfter, now: Date.now() });
      this.announce(`${format(this.t.codeSentAnnouncement, { to: leftToRight(to) })} ${format(this.t.resendIn, { time: formatSeconds(resendAfter, this.language) })}`);
      this.dispatchEvent(new VerifyCodeSentEvent({ method: contact.method, to, resendAfter }));
    } catch (error) {
      this.#failed(error);
    }
  }

  protected async verify(contact: Contact, code: string): Promise<void> {
    try {
      const answer = await this.requests.call('verify-otp', { ...contactFields(contact), otp: code });
      const proof = proofIn(answer);
      this.flow.send({ type: 'verified', ...proof });
      this.succeeded('otp', proof, this.t.successText);
    } catch (error) {
      this.#failed(error);
    }
  }

  #failed(error: unknown): void {
    if (error instanceof StaleAnswer) return;
    const host = this.hostError(error);
    const problem: Problem = { code: host.code, ...host.extra };
    // No answer to a send (the network, the deadline): the handler may have sent the code.
    if (this.step === 'sending' && host.status === 0) problem.maybeSent = true;
    this.flow.send({ type: 'failed', problem, now: Date.now() });
    const { state } = this.flow;
    const message = state.step === 'code' && problem.maybeSent ? format(this.t.codeMaybeSentTo, { to: leftToRight(state.to) }) : problemText(this, problem);
    if (problem.retryAfter && !problem.maybeSent) this.wait.start(problem.retryAfter);
    this.reportProblem(host, message);
  }
}
