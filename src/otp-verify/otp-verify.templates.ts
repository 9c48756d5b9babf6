/** The markup of each <otp-verify> step, read from the element through OtpView: no state lives here. */
import { html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { live } from 'lit/directives/live.js';
import { cssVars } from '../internal/css-vars.js';
import { leftToRight } from './bidi.js';
import { failureHeading, failureText } from '../internal/failure-text.js';
import { format, formatSeconds } from '../internal/localize.js';
import { plural } from '../core/plural.js';
import type { OtpStrings } from '../translations/en/otp.js';
import type { StepView } from '../internal/verify-element.js';
import type { ConfigResponse } from '../core/protocol.js';
import type { CodeFieldController } from './code-field-controller.js';
import type { ContactForm } from './contact-form.js';
import { countryList } from './country-list.js';
import { resendWait, type OtpEvent, type OtpState, type Problem } from './otp-verify.flow.js';

/** What the templates read from <otp-verify>, which implements it. */
export interface OtpView extends StepView {
  readonly t: OtpStrings;
  readonly flow: { readonly state: OtpState; send(event: OtpEvent): void };
  readonly contactForm: ContactForm;
  /** The code step: the code's length, and its field once its code has come. */
  readonly code: { readonly length: number | null; readonly field: Pick<CodeFieldController, 'value' | 'length' | 'selection' | 'error' | 'focus' | 'submit'> | null };
  /** The wait a rate limit asks before another try. */
  readonly wait: { readonly remaining: number };
  readonly config?: ConfigResponse;
}

/** The person-facing text for a problem, in the widget's language. */
export function problemText(v: Pick<OtpView, 't' | 'language' | 'wait'>, problem: Problem): string {
  const retryAfter = v.wait.remaining || problem.retryAfter;
  return failureText(v.t, v.language, null, { reason: problem.code, attemptsLeft: problem.attemptsLeft, retryAfter });
}

/** How many digits the code has, when known, in the widget's digits and grammar. */
export function codeHint(t: OtpStrings, language: string, length: number | null): string {
  return length ? plural(t.codeHint, length, language) : t.codeHintAny;
}

/** The code field's accessible name and errors, which it keeps in the light DOM. */
export function codeFieldWords(v: OtpView): { label: string; incomplete: string; problem: string | null } {
  const { state } = v.flow;
  // A send that may not have gone out says so above the field: nothing is wrong with the code.
  const problem = state.step === 'code' && state.problem && !state.problem.maybeSent ? problemText(v, state.problem) : null;
  return { label: `${v.t.codeLabel}, ${codeHint(v.t, v.language, v.code.length)}`, incomplete: v.t.codeIncomplete, problem };
}

/** The picker's options: rendered again only when the list or the choice changes, never on a keystroke. */
function countryOptions(language: string, form: ContactForm) {
  const list = countryList(language, form.countries, form.country, form.allCountries);
  const codes = form.callingCodes;
  return guard([list, form.country, codes], () =>
    list.map((c) => html`<option value=${c.code} ?selected=${c.code === form.country}>${c.name}${codes[c.code] ? ` (${leftToRight(`+${codes[c.code]}`)})` : ''}</option>`),
  );
}

/** A sentence with a left-to-right value (a phone, an email) kept in order inside right-to-left text. */
function isolate(template: string, name: string, value: string) {
  const [before, after = ''] = template.split(`{${name}}`);
  return html`${before}<bdi dir="ltr">${value}</bdi>${after}`;
}

const prevent = (action: () => void) => (event: Event) => {
  event.preventDefault();
  action();
};

export function renderOtpStep(v: OtpView): TemplateResult {
  const { state } = v.flow;
  switch (state.step) {
    case 'contact':
      return contactStep(v, state.problem);
    case 'sending':
      return progress(v, v.t.sending);
    case 'code':
      return codeStep(v, state.to, state.problem?.maybeSent ?? false);
    case 'verifying':
      return progress(v, v.t.verifying);
    case 'success':
      return html`<div class="result success">${v.heading(v.t.successHeading)}<p part="message">${v.t.successText}</p></div>`;
    case 'failure':
      return failureStep(v, state.problem, state.retry);
  }
}

function progress(v: OtpView, text: string) {
  return html`${v.heading(text)}<div part="spinner" class="spinner" aria-hidden="true"></div>`;
}

function contactStep(v: OtpView, problem?: Problem) {
  const { t, contactForm: form } = v;
  const fieldError = form.error;
  const serverError = problem && problem.field !== 'email' && problem.field !== 'phone' ? problemText(v, problem) : undefined;
  const errorFor = (field: 'phone' | 'email') => fieldError?.field === field ? fieldError.message : problem?.field === field ? problemText(v, problem) : undefined;
  const field = form.method === 'email' ? 'email' : 'phone';
  const error = errorFor(field);
  return html`${v.heading(t.contactHeading)}
    <p part="message">${t.contactIntro}</p>
    <form part="form" novalidate @submit=${prevent(() => void form.submit())}>
      ${form.channels.length > 1
        ? html`<fieldset part="channels" class="channels">
            <legend>${t.channelLegend}</legend>
            ${form.channels.map(
              (channel) => html`<label part="channel" class="channel">
                <input type="radio" name="method" .value=${channel} .checked=${live(channel === form.method)} @change=${() => form.update({ method: channel })} />
                <span>${t[`channel_${channel}`]}</span>
              </label>`,
            )}
          </fieldset>`
        : nothing}
      ${field === 'phone'
        ? html`<div class="row">
            <div class="field country">
              <label part="label" for="country">${t.countryLabel}</label>
              <select id="country" part="country" autocomplete="tel-country-code" @focus=${() => form.showAllCountries()} @pointerdown=${() => form.showAllCountries()}
                @change=${(e: Event) => form.update({ country: (e.target as HTMLSelectElement).value })}>
                ${countryOptions(v.language, form)}
              </select>
            </div>
            <div class="field grow">
              <label part="label" for="phone">${t.phoneLabel}</label>
              <div class="prefixed" dir="ltr">
                <span part="prefix" class="prefix" aria-hidden="true">+${form.dialCode ?? ''}</span>
                <input id="phone" part="input" type="tel" inputmode="tel" autocomplete="tel-national" dir="ltr"
                  .value=${live(form.draft.phone)} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${error ? 'contact-error' : nothing}
                  @input=${(e: Event) => form.update({ phone: (e.target as HTMLInputElement).value })} />
              </div>
            </div>
          </div>`
        : html`<div class="field">
            <label part="label" for="email">${t.emailLabel}</label>
            <input id="email" part="input" type="email" inputmode="email" autocomplete="email" dir="ltr" spellcheck="false"
              .value=${live(form.draft.email)} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${error ? 'contact-error' : form.suggestion ? 'suggestion' : nothing}
              @input=${(e: Event) => form.update({ email: (e.target as HTMLInputElement).value })} />
          </div>
          ${form.suggestion
            ? html`<p part="suggestion" id="suggestion" class="suggestion">
                ${format(t.didYouMean, { suggestion: form.suggestion })}
                <button type="button" part="button link" class="link" @click=${() => form.useSuggestion()}>${format(t.useSuggestion, { suggestion: form.suggestion })}</button>
              </p>`
            : nothing}`}
      ${error || serverError ? html`<p part="error" id="contact-error" class="error">${error ?? serverError}</p>` : nothing}
      <button part="button submit" class="primary" type="submit">${t.sendCode}</button>
    </form>`;
}

/** The code field: the real input (slotted from the light DOM) under the boxes drawn from it. */
function codeForm(v: OtpView, field: NonNullable<OtpView['code']['field']>) {
  const { t } = v;
  const { value: code, length, selection, error } = field;
  const boxes = length ?? Math.max(4, code.length + (code.length < 8 ? 1 : 0));
  const caret = selection && selection.start === selection.end ? Math.min(selection.start, boxes - 1) : -1;
  const selected = (i: number) => selection !== null && i >= selection.start && i < selection.end;
  return html`<form part="form" novalidate @submit=${prevent(() => field.submit())}>
    <div part="code" class="code ${error ? 'invalid' : ''}" ${cssVars({ '--length': String(boxes) })} @click=${() => field.focus()}>
      <slot name="code"></slot>
      <div class="boxes" aria-hidden="true">
        ${Array.from({ length: boxes }, (_, i) => html`<span part="digit" class="digit ${i === caret ? 'active' : ''} ${selected(i) ? 'selected' : ''} ${code[i] ? 'filled' : ''}">${code[i] ?? ''}</span>`)}
      </div>
    </div>
    <p class="hint" part="message">${codeHint(t, v.language, length)}</p>
    ${error ? html`<p part="error" class="error" id="code-error"><slot name="code-message"></slot></p>` : nothing}
    <button part="button submit" class="primary" type="submit">${t.verify}</button>
  </form>`;
}

function codeStep(v: OtpView, to: string, maybeSent: boolean) {
  const { t } = v;
  const { field } = v.code;
  const wait = resendWait(v.flow.state, Date.now());
  const fallback = v.config?.fallbackChannel;
  return html`${v.heading(t.codeHeading)}
    <p part="message">${isolate(maybeSent ? t.codeMaybeSentTo : t.codeSentTo, 'to', to)}</p>
    ${field ? codeForm(v, field) : html`<div part="spinner" class="spinner" aria-hidden="true"></div>`}
    <div class="actions">
      <button part="button resend" class="secondary" type="button" ?disabled=${wait > 0} @click=${() => v.flow.send({ type: 'resend', now: Date.now() })}>
        ${wait > 0 ? format(t.resendIn, { time: formatSeconds(wait, v.language) }) : t.resend}
      </button>
      <button part="button link" class="link" type="button" @click=${() => v.flow.send({ type: 'change' })}>${t.changeContact}</button>
      ${fallback && v.flow.state.step === 'code' && v.flow.state.contact.method !== fallback
        ? html`<button part="button link" class="link" type="button" @click=${() => v.flow.send({ type: 'fallback', method: fallback })}>${format(t.useFallback, { channel: t[`channel_${fallback}`] })}</button>`
        : nothing}
    </div>`;
}

function failureStep(v: OtpView, problem: Problem, retry: 'send' | 'verify' | 'restart') {
  const { t } = v;
  const wait = Math.max(v.wait.remaining, retry === 'send' ? resendWait(v.flow.state, Date.now()) : 0);
  const label = retry === 'send' && problem.code !== 'upstream_unavailable' && problem.code !== 'rate_limited' ? t.resend : retry === 'restart' ? t.startOver : t.tryAgain;
  return html`${v.heading(failureHeading(t, problem.code, problem.code === 'upstream_unavailable'))}
    <p part="error" class="error">${problemText(v, problem)}</p>
    <div class="actions">
      <button part="button submit" class="primary" type="button" ?disabled=${wait > 0} @click=${() => v.flow.send({ type: 'retry' })}>
        ${wait > 0 ? `${label} (${formatSeconds(wait, v.language)})` : label}
      </button>
      ${retry !== 'restart' ? html`<button part="button link" class="link" type="button" @click=${() => v.flow.send({ type: 'change' })}>${t.changeContact}</button>` : nothing}
    </div>`;
}
