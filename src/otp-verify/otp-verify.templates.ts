/** The markup of each <otp-verify> step, from a view the element builds: no state lives here. */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { cssVars } from '../internal/css-vars.js';
import { leftToRight } from './bidi.js';
import { failureHeading } from '../internal/failure-text.js';
import { format, formatSeconds, type Strings } from '../internal/localize.js';
import type { OtpChannel } from '../core/protocol.js';
import { DIAL_CODES } from './dial-codes.js';
import type { OtpState, Problem } from './otp-verify.flow.js';

export interface OtpView {
  state: OtpState;
  t: Strings;
  language: string;
  heading(text: string): TemplateResult;
  channels: OtpChannel[];
  method: OtpChannel;
  countries: string[];
  country: string;
  draft: { method?: OtpChannel; country?: string; phone: string; email: string };
  fieldError?: { field: 'phone' | 'email'; message: string };
  suggestion?: string;
  code: string;
  codeLength: number | null;
  /** The caret or selection in the code field while it has focus. */
  codeSelection: { start: number; end: number } | null;
  codeError: string | null;
  resendSeconds: number;
  waitSeconds: number;
  fallback: OtpChannel | null;
  problemText(problem: Problem): string;
  number(value: number): string;
  on: {
    draft(change: Partial<OtpView['draft']>): void;
    submitContact(): void;
    submitCode(): void;
    useSuggestion(): void;
    resend(): void;
    retry(): void;
    change(): void;
    fallback(): void;
    focusCode(): void;
  };
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

export function renderStep(v: OtpView): TemplateResult {
  switch (v.state.step) {
    case 'contact':
      return contactStep(v, v.state.problem);
    case 'sending':
      return progress(v, v.t.sending);
    case 'code':
      return codeStep(v, v.state.to, v.state.problem?.maybeSent ?? false);
    case 'verifying':
      return progress(v, v.t.verifying);
    case 'success':
      return html`<div class="result success">${v.heading(v.t.successHeading)}<p part="message">${v.t.successText}</p></div>`;
    case 'failure':
      return failureStep(v, v.state.problem, v.state.retry);
  }
}

function progress(v: OtpView, text: string) {
  return html`${v.heading(text)}<div part="spinner" class="spinner" aria-hidden="true"></div>`;
}

function contactStep(v: OtpView, problem?: Problem) {
  const { t } = v;
  const names = new Intl.DisplayNames([v.language, 'en'], { type: 'region' });
  const collator = new Intl.Collator(v.language);
  const countries = v.countries.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
  const fieldError = v.fieldError;
  const serverError = problem && problem.field !== 'email' && problem.field !== 'phone' ? v.problemText(problem) : undefined;
  const errorFor = (field: 'phone' | 'email') => fieldError?.field === field ? fieldError.message : problem?.field === field ? v.problemText(problem) : undefined;
  const field = v.method === 'email' ? 'email' : 'phone';
  const error = errorFor(field);
  return html`${v.heading(t.contactHeading)}
    <p part="message">${t.contactIntro}</p>
    <form part="form" novalidate @submit=${prevent(v.on.submitContact)}>
      ${v.channels.length > 1
        ? html`<fieldset part="channels" class="channels">
            <legend>${t.channelLegend}</legend>
            ${v.channels.map(
              (channel) => html`<label part="channel" class="channel">
                <input type="radio" name="method" .value=${channel} .checked=${live(channel === v.method)} @change=${() => v.on.draft({ method: channel })} />
                <span>${t[`channel_${channel}`]}</span>
              </label>`,
            )}
          </fieldset>`
        : nothing}
      ${field === 'phone'
        ? html`<div class="row">
            <div class="field country">
              <label part="label" for="country">${t.countryLabel}</label>
              <select id="country" part="country" autocomplete="tel-country-code" @change=${(e: Event) => v.on.draft({ country: (e.target as HTMLSelectElement).value })}>
                ${countries.map((c) => html`<option value=${c.code} ?selected=${c.code === v.country}>${c.name} (${leftToRight(`+${DIAL_CODES.get(c.code)}`)})</option>`)}
              </select>
            </div>
            <div class="field grow">
              <label part="label" for="phone">${t.phoneLabel}</label>
              <div class="prefixed" dir="ltr">
                <span part="prefix" class="prefix" aria-hidden="true">+${DIAL_CODES.get(v.country)}</span>
                <input id="phone" part="input" type="tel" inputmode="tel" autocomplete="tel-national" dir="ltr"
                  .value=${live(v.draft.phone)} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${error ? 'contact-error' : nothing}
                  @input=${(e: Event) => v.on.draft({ phone: (e.target as HTMLInputElement).value })} />
              </div>
            </div>
          </div>`
        : html`<div class="field">
            <label part="label" for="email">${t.emailLabel}</label>
            <input id="email" part="input" type="email" inputmode="email" autocomplete="email" dir="ltr" spellcheck="false"
              .value=${live(v.draft.email)} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${error ? 'contact-error' : v.suggestion ? 'suggestion' : nothing}
              @input=${(e: Event) => v.on.draft({ email: (e.target as HTMLInputElement).value })} />
          </div>
          ${v.suggestion
            ? html`<p part="suggestion" id="suggestion" class="suggestion">
                ${format(t.didYouMean, { suggestion: v.suggestion })}
                <button type="button" part="button link" class="link" @click=${v.on.useSuggestion}>${format(t.useSuggestion, { suggestion: v.suggestion })}</button>
              </p>`
            : nothing}`}
      ${error || serverError ? html`<p part="error" id="contact-error" class="error">${error ?? serverError}</p>` : nothing}
      <button part="button submit" class="primary" type="submit">${t.sendCode}</button>
    </form>`;
}

function codeStep(v: OtpView, to: string, maybeSent: boolean) {
  const { t } = v;
  const length = v.codeLength;
  const boxes = length ?? Math.max(4, v.code.length + (v.code.length < 8 ? 1 : 0));
  const selection = v.codeSelection;
  const caret = selection && selection.start === selection.end ? Math.min(selection.start, boxes - 1) : -1;
  const selected = (i: number) => selection !== null && i >= selection.start && i < selection.end;
  const hint = length ? format(t.codeHint, { length: v.number(length) }) : t.codeHintAny;
  const wait = v.resendSeconds;
  return html`${v.heading(t.codeHeading)}
    <p part="message">${isolate(maybeSent ? t.codeMaybeSentTo : t.codeSentTo, 'to', to)}</p>
    <form part="form" novalidate @submit=${prevent(v.on.submitCode)}>
      <div part="code" class="code ${v.codeError ? 'invalid' : ''}" ${cssVars({ '--length': String(boxes) })} @click=${v.on.focusCode}>
        <slot name="code"></slot>
        <div class="boxes" aria-hidden="true">
          ${Array.from({ length: boxes }, (_, i) => html`<span part="digit" class="digit ${i === caret ? 'active' : ''} ${selected(i) ? 'selected' : ''} ${v.code[i] ? 'filled' : ''}">${v.code[i] ?? ''}</span>`)}
        </div>
      </div>
      <p class="hint" part="message">${hint}</p>
      ${v.codeError ? html`<p part="error" class="error" id="code-error"><slot name="code-message"></slot></p>` : nothing}
      <button part="button submit" class="primary" type="submit">${t.verify}</button>
    </form>
    <div class="actions">
      <button part="button resend" class="secondary" type="button" ?disabled=${wait > 0} @click=${v.on.resend}>
        ${wait > 0 ? format(t.resendIn, { time: formatSeconds(wait, v.language) }) : t.resend}
      </button>
      <button part="button link" class="link" type="button" @click=${v.on.change}>${t.changeContact}</button>
      ${v.fallback && v.state.step === 'code' && v.state.contact.method !== v.fallback
        ? html`<button part="button link" class="link" type="button" @click=${v.on.fallback}>${format(t.useFallback, { channel: t[`channel_${v.fallback}`] })}</button>`
        : nothing}
    </div>`;
}

function failureStep(v: OtpView, problem: Problem, retry: 'send' | 'verify' | 'restart') {
  const { t } = v;
  const wait = Math.max(v.waitSeconds, retry === 'send' ? v.resendSeconds : 0);
  const label = retry === 'send' && problem.code !== 'upstream_unavailable' && problem.code !== 'rate_limited' ? t.resend : retry === 'restart' ? t.startOver : t.tryAgain;
  return html`${v.heading(failureHeading(t, problem.code, problem.code === 'upstream_unavailable'))}
    <p part="error" class="error">${v.problemText(problem)}</p>
    <div class="actions">
      <button part="button submit" class="primary" type="button" ?disabled=${wait > 0} @click=${v.on.retry}>
        ${wait > 0 ? `${label} (${formatSeconds(wait, v.language)})` : label}
      </button>
      ${retry !== 'restart' ? html`<button part="button link" class="link" type="button" @click=${v.on.change}>${t.changeContact}</button>` : nothing}
    </div>`;
}
