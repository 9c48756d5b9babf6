/** The markup of each <otp-verify> step, read from the element through OtpView: no state lives here. */
import { html, nothing, type TemplateResult } from 'lit';
import { cssVars } from '../../internal/css-vars.js';
import { failureHeading, failureText } from '../../internal/later/failure-text.js';
import { format, formatSeconds } from '../../core/format.js';
import { plural } from '../../core/plural.js';
import type { OtpStrings } from '../../translations/en/otp.js';
import type { StepView } from '../../internal/verify-element.js';
import type { ConfigResponse } from '../../core/protocol.js';
import type { CodeFieldController } from './code-field-controller.js';
import type { ContactForm } from '../contact-form.js';
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
  /** The person-facing text for a problem (problemText, with the later steps). */
  problemText(problem: Problem): string;
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

/** A sentence with a left-to-right value (a phone, an email) kept in order inside right-to-left text. */
function isolate(template: string, name: string, value: string) {
  const [before, after = ''] = template.split(`{${name}}`);
  return html`${before}<bdi dir="ltr">${value}</bdi>${after}`;
}

export function renderOtpStep(v: OtpView): TemplateResult | typeof nothing {
  const { state } = v.flow;
  switch (state.step) {
    case 'contact':
      // The element draws its first step itself (first-step.ts).
      return nothing;
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

/** The code field: the real input (slotted from the light DOM) under the boxes drawn from it. */
function codeForm(v: OtpView, field: NonNullable<OtpView['code']['field']>) {
  const { t } = v;
  const { value: code, length, selection, error } = field;
  const boxes = length ?? Math.max(4, code.length + (code.length < 8 ? 1 : 0));
  const caret = selection && selection.start === selection.end ? Math.min(selection.start, boxes - 1) : -1;
  const selected = (i: number) => selection !== null && i >= selection.start && i < selection.end;
  return html`<form part="form" novalidate @submit=${(event: Event) => (event.preventDefault(), field.submit())}>
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
