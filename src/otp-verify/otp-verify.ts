import type { PropertyDeclarations } from 'lit';
import { OTP_CHANNELS, type ConfigResponse } from '../core/protocol.js';
import { VerifyElement } from '../internal/verify-element.js';
import { FlowController } from '../internal/flow-controller.js';
import { LazyCodeStep, type OtpLater } from './lazy-code-step.js';
import { ContactForm } from './contact-form.js';
import { firstStepStyles, renderContactStep } from './first-step.js';
import type { OtpEvent, OtpState, Problem, OtpStep } from './later/otp-verify.flow.js';
import type { OtpView } from './later/otp-verify.templates.js';
import type { OtpStrings } from '../translations/en/otp.js';
import { commonFirst, otpFirst } from '../translations/en/first.js';

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
export class OtpVerify extends VerifyElement<OtpStep, OtpStrings, OtpLater> implements OtpView {
  static override styles = firstStepStyles;
  static override properties: PropertyDeclarations = { channels: {}, country: {}, countries: {} };
  protected readonly firstEnglish = { ...commonFirst, ...otpFirst };

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
    words: () => this.later!.codeFieldWords(this),
  }, () => this.loadLater());
  /** The resend wait, and the wait a rate limit asks before another try: they tick from the first send, so they come with the later steps. */
  #waits?: ReturnType<OtpLater['waits']>;
  get #countdowns() {
    return (this.#waits ??= this.later!.waits(this, () => this.announce(this.t.resendReady)));
  }

  /** @internal The wait a rate limit asks before another try. */
  get wait() {
    return this.#countdowns.wait;
  }
  /** @internal Its steps move once their code has come (later-steps.ts), which sends and checks the codes. */
  readonly flow = new FlowController<OtpState, OtpEvent>(this, this.laterTransition(() => this.later?.transition), { step: 'contact' }, {
    enter: {
      sending: (state) => void this.later!.sendCode(this, state.contact),
      // A code on its way (or that may be) starts the resend wait.
      code: (state, before) => {
        const refused = before.step === 'verifying' ? before.code : null;
        if (refused === null) this.#countdowns.cooldown.start(state.resendAfter);
        void this.code.show(refused).catch((error) => this.later!.failed(this, error));
      },
      verifying: (state) => void this.later!.checkCode(this, state.contact, state.code),
    },
    leave: { code: () => this.code.left() },
    // Back at the form (change, fallback): show the channel the flow chose, keep what was typed.
    change: (state) => {
      if (state.step === 'contact' && state.contact) this.contactForm.update({ method: state.contact.method });
    },
  });

  protected fetchLater(): Promise<OtpLater> {
    return import('./later/later-steps.js');
  }

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
    const { state } = this.flow;
    return state.step !== 'contact' && this.later ? this.later.render(this) : renderContactStep(this, state.step === 'contact' ? state.problem : undefined);
  }

  /** @internal The person-facing text for a problem the handler gave (only after a send, so with the later steps). */
  problemText(problem: Problem): string {
    return this.later?.problemText(this, problem) ?? this.t.error_upstream_unavailable;
  }

  protected measure() {
    return this.later!.otpMeasure(this.flow.state, this.flow.entered, this.code.field?.entry ?? 'typed', this.contactForm.firstMethod);
  }

  protected override focusTarget(): HTMLElement | null {
    return (this.step === 'code' && this.code.field?.input) || super.focusTarget();
  }
}
