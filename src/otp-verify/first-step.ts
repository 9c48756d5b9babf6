/**
 * What <otp-verify> shows before anything else is fetched: its contact form. Everything after it
 * comes with the later steps (later-steps.ts), fetched when the page is idle or on the first press.
 */
import { css, html, nothing } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { live } from 'lit/directives/live.js';
import { leftToRight } from './bidi.js';
import { format } from '../core/format.js';
import { baseStyles, fieldStyles } from '../internal/base.styles.js';
import type { ContactForm } from './contact-form.js';
import { countryList } from './country-list.js';
import type { Problem } from './later/otp-verify.flow.js';
import type { OtpView } from './later/otp-verify.templates.js';

/** The picker's options: rendered again only when the list or the choice changes, never on a keystroke. */
function countryOptions(language: string, form: ContactForm) {
  const list = countryList(language, form.countries, form.country, form.allCountries);
  const codes = form.callingCodes;
  return guard([list, form.country, codes], () =>
    list.map((c) => html`<option value=${c.code} ?selected=${c.code === form.country}>${c.name}${codes[c.code] ? ` (${leftToRight(`+${codes[c.code]}`)})` : ''}</option>`),
  );
}

const prevent = (action: () => void) => (event: Event) => {
  event.preventDefault();
  action();
};

/** The contact form, with what the handler refused of the last send (`problem`). */
export function renderContactStep(v: OtpView, problem?: Problem) {
  const { t, contactForm: form } = v;
  const fieldError = form.error;
  // The later steps' code could not be fetched (offline at the press), or the handler refused the last send.
  const serverError = v.laterFailed ? t.error_upstream_unavailable : problem && problem.field !== 'email' && problem.field !== 'phone' ? v.problemText(problem) : undefined;
  const errorFor = (field: 'phone' | 'email') => fieldError?.field === field ? fieldError.message : problem?.field === field ? v.problemText(problem) : undefined;
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

/** The contact form's look: the channels, the country and the number's prefix, the email's suggestion. */
export const firstStepStyles = [
  baseStyles,
  fieldStyles,
  css`

    .channels {
      display: flex;
      flex-wrap: wrap;
      gap: calc(var(--verify-gap) / 2);
      border: 0;
      margin: 0;
      padding: 0;
    }
    .channels legend {
      font-weight: 500;
      margin-block-end: calc(var(--verify-gap) / 2);
      padding: 0;
    }
    .channel {
      position: relative;
    }
    .channel input {
      position: absolute;
      opacity: 0;
      inset: 0;
      margin: 0;
      cursor: pointer;
    }
    .channel span {
      display: inline-block;
      padding: 0.45em 0.9em;
      border: 1px solid var(--verify-border);
      border-radius: 999px;
      background: var(--verify-surface);
    }
    .channel input:checked + span {
      border-color: var(--verify-accent);
      background: color-mix(in srgb, var(--verify-accent) 12%, var(--verify-bg));
      color: var(--verify-fg);
      font-weight: 600;
    }
    .channel input:focus-visible + span {
      outline: 2px solid var(--verify-accent);
      outline-offset: 2px;
    }
    /* Country above phone in a narrow widget, beside it when there is room for both. */
    .row {
      display: grid;
      gap: var(--verify-gap);
    }
    @container (min-width: 34rem) {
      .row {
        grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr);
      }
    }
    .prefixed {
      display: flex;
      align-items: stretch;
    }
    .prefix {
      display: flex;
      align-items: center;
      padding-inline: 0.75em;
      border: 1px solid var(--verify-border);
      border-inline-end: 0;
      border-radius: var(--verify-radius) 0 0 var(--verify-radius);
      background: var(--verify-surface);
      color: var(--verify-muted);
      font-variant-numeric: tabular-nums;
      /* The card lets long words break anywhere; a dial code is not a word to break ("+9" over "66"). */
      flex: none;
      white-space: nowrap;
    }
    .prefixed input {
      border-start-start-radius: 0;
      border-end-start-radius: 0;
    }
    .suggestion {
      margin: 0;
      color: var(--verify-muted);
    }
  `,
];
