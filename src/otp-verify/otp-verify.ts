import type { PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { VerifyCodeSentEvent } from '../events/code-sent.js';
import { VerifySuccessEvent } from '../events/success.js';
import { CountdownController } from './countdown-controller.js';
import { countryForDialed, dialedDigits, DIAL_CODES, toE164 } from './dial-codes.js';
import { isEmailAddress, suggestEmail } from '../core/email.js';
import { leftToRight } from './bidi.js';
import { format, formatSeconds } from '../internal/localize.js';
import { OTP_CHANNELS, type ConfigResponse, type OtpChannel } from '../core/protocol.js';
import { RequestController, StaleAnswer } from '../internal/request-controller.js';
import { VerifyElement } from '../internal/verify-element.js';
import { FlowController } from '../internal/flow-controller.js';
import { failureText } from '../internal/failure-text.js';
import { receiveSmsCode } from './webotp.js';
import { CodeFieldController } from './code-field-controller.js';
import { contactFields, initialState, resendWait, transition, type Contact, type OtpEvent, type OtpState, type Problem, type OtpStep } from './otp-verify.flow.js';
import { styles } from './otp-verify.styles.js';
import { renderStep as renderOtpStep, type OtpView } from './otp-verify.templates.js';


/**
 * Verifies a person by a one-time code sent by SMS, WhatsApp or email, through the host handler.
 *
 * @summary One-time code verification: contact entry, channel choice, code entry, resend, fallback.
 *
 * @fires verify-step-change - The step changed: `{step, previous}`.
 * @fires verify-code-sent - A code went out: `{method, to, resendAfter}`.
 * @fires verify-success - Verified: `{method, receipt, expiresAt}`; check the receipt on your server.
 * @fires verify-failure - A wrong, expired or exhausted code: `{code, message, attemptsLeft}`.
 * @fires verify-error - The network, the host or a limit failed: `{code, message, retryAfter, status}`.
 * @fires verify-request - Before each call to the host; cancelable, to amend headers or answer it.
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
export class OtpVerify extends VerifyElement<OtpStep> {
  static override styles = styles;

  /** Channels offered, space-separated; narrowed further by the host handler's config. */
  @property() channels = OTP_CHANNELS.join(' ');
  /** The country preselected for phone numbers (ISO 3166 alpha-2). */
  @property() country = '';
  /** Countries offered, space-separated; narrowed further by the host handler's config. */
  @property() countries = '';

  @state() protected draft: OtpView['draft'] = { phone: '', email: '' };
  @state() protected fieldError?: { field: 'phone' | 'email'; message: string };
  @state() protected suggestion?: string;

  protected readonly requests = new RequestController(this);
  protected readonly codeField = new CodeFieldController(this, { complete: (code) => this.submitCode(code), enter: () => this.submitCode(), shown: () => this.step === 'code' });
  protected readonly cooldown = new CountdownController(this, () => this.announce(this.t.resendReady));
  protected readonly wait = new CountdownController(this);
  #webotp?: AbortController;
  protected readonly flow = new FlowController<OtpState, OtpEvent>(this, transition, initialState, {
    enter: {
      sending: (state) => void this.send(state.contact),
      verifying: (state) => void this.verify(state.contact, state.code),
    },
    // Back at the form (change, fallback): show the channel the flow chose, keep what was typed.
    change: (state) => {
      if (state.step === 'contact' && state.contact) this.draft = { ...this.draft, method: state.contact.method };
    },
  });
  /** The field's value when the person asked to verify an incomplete code; the error shows until it changes. */
  @state() protected incompleteCode: string | null = null;

  /** The current step: contact, sending, code, verifying, success or failure. */
  get step(): OtpStep {
    return this.flow.step;
  }

  protected get state(): OtpState {
    return this.flow.state;
  }

  /** Channels offered now: the attribute's, within the handler's. */
  protected get offeredChannels(): OtpChannel[] {
    const wanted = this.channels.split(/\s+/).filter((c): c is OtpChannel => (OTP_CHANNELS as readonly string[]).includes(c));
    return this.config ? wanted.filter((c) => this.config!.channels.includes(c)) : wanted;
  }

  protected get offeredCountries(): string[] {
    const wanted = this.countries.trim() ? this.countries.trim().toUpperCase().split(/\s+/) : [...DIAL_CODES.keys()];
    const allowed = this.config?.countries;
    return wanted.filter((c) => DIAL_CODES.has(c) && (!allowed || allowed.includes(c)));
  }

  protected get method(): OtpChannel {
    const offered = this.offeredChannels;
    return this.draft.method && offered.includes(this.draft.method) ? this.draft.method : (offered[0] ?? 'email');
  }

  protected get selectedCountry(): string {
    const offered = this.offeredCountries;
    const region = navigator.language.split('-')[1]?.toUpperCase();
    return [this.draft.country, this.country.toUpperCase(), region].find((c) => c && offered.includes(c)) ?? offered[0] ?? 'SA';
  }

  protected override configured(config: ConfigResponse): void {
    // A config that arrives after a send was answered must not undo the length that answer gave.
    if (this.step === 'contact' || this.codeField.length === null) this.codeField.length = config.codeLength;
    this.#resume(config.pending);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#webotp?.abort();
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const t = this.t;
    const length = this.codeField.length;
    const hint = length ? format(t.codeHint, { length: this.number(length) }) : t.codeHintAny;
    this.codeField.describe(`${t.codeLabel}, ${hint}`, this.codeError);
  }

  /** What is wrong with the code in the field, shown under it and read as its description. */
  protected get codeError(): string | null {
    if (this.state.step !== 'code') return null;
    if (this.incompleteCode !== null && this.incompleteCode === this.codeField.value) return this.t.codeIncomplete;
    // A send that may not have gone out says so above the field: nothing is wrong with the code.
    const problem = this.state.problem;
    return problem && !problem.maybeSent ? this.problemText(problem) : null;
  }

  protected renderStep() {
    return renderOtpStep(this.#view());
  }

  protected get busy(): boolean {
    return this.step === 'sending' || this.step === 'verifying';
  }

  protected override focusTarget(): HTMLElement | null {
    return this.step === 'code' ? this.codeField.input : super.focusTarget();
  }

  #view(): OtpView {
    return {
      state: this.state,
      t: this.t,
      language: this.language,
      heading: (text) => this.heading(text),
      channels: this.offeredChannels,
      method: this.method,
      countries: this.offeredCountries,
      country: this.selectedCountry,
      draft: this.draft,
      fieldError: this.fieldError,
      suggestion: this.suggestion,
      code: this.codeField.value,
      codeLength: this.codeField.length,
      codeSelection: this.codeField.selection,
      codeError: this.codeError,
      resendSeconds: this.resendSeconds,
      waitSeconds: this.wait.remaining,
      fallback: this.config?.fallbackChannel ?? null,
      problemText: (problem) => this.problemText(problem),
      number: (value) => this.number(value),
      on: {
        draft: (change) => this.updateDraft(change),
        submitContact: () => this.submitContact(),
        submitCode: () => this.submitCode(),
        useSuggestion: () => {
          this.updateDraft({ email: this.suggestion ?? this.draft.email });
          this.suggestion = undefined;
        },
        resend: () => this.flow.send({ type: 'resend', now: Date.now() }),
        retry: () => this.flow.send({ type: 'retry' }),
        change: () => this.flow.send({ type: 'change' }),
        fallback: () => this.flow.send({ type: 'fallback', method: this.config?.fallbackChannel ?? 'email' }),
        focusCode: () => this.codeField.focus(),
      },
    };
  }

  /** The contact form was submitted: check it here first, so a mistake costs no request. */
  protected submitContact(): void {
    const method = this.method;
    this.fieldError = undefined;
    let contact: Contact;
    if (method === 'email') {
      const email = this.draft.email.trim();
      if (!isEmailAddress(email)) return this.#fieldProblem('email', this.t.emailInvalid);
      contact = { method, email };
    } else {
      const phone = toE164(this.selectedCountry, this.draft.phone);
      if (!phone) return this.#fieldProblem('phone', this.t.phoneInvalid);
      contact = { method, phone };
    }
    this.flow.send({ type: 'send', contact });
  }

  #fieldProblem(field: 'phone' | 'email', message: string): void {
    this.fieldError = { field, message };
    this.announce(message);
    this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#${field}`)?.focus());
  }

  protected updateDraft(change: Partial<OtpView['draft']>): void {
    this.draft = { ...this.draft, ...change };
    const dialed = change.phone === undefined ? undefined : dialedDigits(change.phone);
    if (dialed) {
      const country = countryForDialed(dialed, this.selectedCountry, this.offeredCountries);
      if (country) this.draft = { ...this.draft, country };
    }
    if (change.email !== undefined) this.suggestion = suggestEmail(change.email.trim());
    if (this.fieldError) this.fieldError = undefined;
  }

  protected submitCode(code = this.codeField.value): void {
    if (!this.codeField.complete) {
      this.incompleteCode = this.codeField.value;
      this.announce(this.t.codeIncomplete);
      this.codeField.focus();
      return;
    }
    this.incompleteCode = null;
    this.#webotp?.abort();
    this.flow.send({ type: 'submit', code });
  }

  protected get resendSeconds(): number {
    return resendWait(this.state, Date.now());
  }

  /** The person-facing text for a problem, in the widget's language. */
  protected problemText(problem: Problem): string {
    const retryAfter = this.wait.remaining || problem.retryAfter;
    return failureText(this.t, this.language, null, { reason: problem.code, attemptsLeft: problem.attemptsLeft, retryAfter });
  }

  protected number(value: number): string {
    return new Intl.NumberFormat(this.language).format(value);
  }

  /** Back to the code this session is waiting for, unless the person has started on another. */
  #resume(pending: ConfigResponse['pending'] | undefined): void {
    if (!pending || this.step !== 'contact' || this.draft.phone || this.draft.email) return;
    this.flow.send({ type: 'resume', method: pending.method, to: pending.to, resendAfter: pending.resendAfter, now: Date.now() });
    this.#awaitCode(pending.resendAfter);
  }

  /** A code is on its way (or may be): the wait before another starts, and the SMS is listened for. */
  #awaitCode(resendAfter: number): void {
    this.cooldown.start(resendAfter);
    this.#listenForSms();
  }

  protected async send(contact: Contact): Promise<void> {
    try {
      const lang = this.language.split('-')[0];
      const fields = contactFields(contact);
      const answer = await this.requests.call('send-otp', fields ? { method: contact.method, ...fields, lang } : { resend: true, lang });
      const to = String(answer.to ?? contact.phone ?? contact.email);
      const resendAfter = Number(answer.resendAfter ?? this.config?.resendCooldown ?? 30);
      if (typeof answer.codeLength === 'number') this.codeField.length = answer.codeLength;
      this.codeField.value = '';
      this.flow.send({ type: 'sent', to, resendAfter, now: Date.now() });
      this.#awaitCode(resendAfter);
      this.announce(`${format(this.t.codeSentAnnouncement, { to: leftToRight(to) })} ${format(this.t.resendIn, { time: formatSeconds(resendAfter, this.language) })}`);
      this.dispatchEvent(new VerifyCodeSentEvent({ method: contact.method, to, resendAfter }));
    } catch (error) {
      this.#failed(error);
    }
  }

  protected async verify(contact: Contact, code: string): Promise<void> {
    try {
      const answer = await this.requests.call('verify-otp', { ...contactFields(contact), otp: code });
      const receipt = typeof answer.receipt === 'string' ? answer.receipt : '';
      const expiresAt = typeof answer.expiresAt === 'string' ? answer.expiresAt : null;
      this.flow.send({ type: 'verified', receipt, expiresAt });
      this.setReceipt(receipt);
      this.announce(this.t.successText);
      this.dispatchEvent(new VerifySuccessEvent({ method: 'otp', receipt, expiresAt }));
    } catch (error) {
      this.#failed(error);
    }
  }

  #failed(error: unknown): void {
    if (error instanceof StaleAnswer) return;
    const host = this.hostError(error);
    const problem: Problem = { code: host.code, ...host.extra };
    // No answer to a send (the network, the deadline): the handler may have sent the code.
    if (this.state.step === 'sending' && host.status === 0) problem.maybeSent = true;
    const tried = this.state.step === 'verifying' ? this.state.code : null;
    this.flow.send({ type: 'failed', problem, now: Date.now() });
    let message = this.problemText(problem);
    if (this.state.step === 'code' && problem.maybeSent) {
      // As after a send: an empty field, the wait before another, and the SMS listened for.
      this.codeField.value = '';
      this.#awaitCode(this.state.resendAfter);
      message = format(this.t.codeMaybeSentTo, { to: leftToRight(this.state.to) });
    } else if (tried !== null && this.state.step === 'code') {
      this.codeField.refuse(tried);
    }
    if (problem.retryAfter && !problem.maybeSent) this.wait.start(problem.retryAfter);
    this.announce(message);
    this.reportProblem(host, message);
  }

  #listenForSms(): void {
    this.#webotp?.abort();
    const controller = (this.#webotp = new AbortController());
    void receiveSmsCode(controller.signal).then((code) => {
      if (!code || controller.signal.aborted || this.step !== 'code') return;
      this.codeField.value = code;
      this.submitCode(this.codeField.value);
    });
  }
}
