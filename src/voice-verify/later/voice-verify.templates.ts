/** The markup of each <voice-verify> step, read from the element through VoiceView: no state lives here. */
import { html, nothing, type TemplateResult } from 'lit';
import { cssVars } from '../../internal/css-vars.js';
import { failureHeading, failureText } from '../../internal/later/failure-text.js';
import { format, formatSeconds } from '../../core/format.js';
import { accountButton } from '../../biometric/later/account-actions.js';
import type { SampleView } from '../../biometric/biometric-element.js';
import type { VoiceEvent, VoiceState } from './voice-verify.flow.js';
import type { VoiceStrings } from '../../translations/en/voice.js';
import type { ConfigResponse } from '../../core/protocol.js';
import { promptOf, type Reading } from './voice-digits.js';

/** What the templates read from <voice-verify>, which implements it. */
export interface VoiceView extends SampleView {
  readonly t: VoiceStrings;
  readonly flow: { readonly state: VoiceState; send(event: VoiceEvent): void };
  /** The page's text to read, or '' for the fresh digits. */
  readonly prompt: string;
  readonly config?: ConfigResponse | null;
  readonly reading: Reading;
  readonly maxDuration: number;
  /** The recorder and the playback, once the person has started (the steps that show them come after). */
  readonly tools: {
    readonly recorder: { readonly levels: number[]; readonly elapsed: number; stop(): void };
    readonly playback: { readonly playing: boolean };
    togglePlayback(): void;
  } | null;
}

/** The meter's floor: quieter than this draws an empty bar. */
const METER_FLOOR_DB = -60;

function meter(v: VoiceView) {
  const levels = v.tools?.recorder.levels ?? [];
  const current = levels.at(-1) ?? -Infinity;
  const shown = Number.isFinite(current) ? Math.max(METER_FLOOR_DB, Math.round(current)) : METER_FLOOR_DB;
  // Bars grow from the middle, like a voice's outline; clipping shows in the error color.
  return html`<div part="meter" class="meter" role="meter" aria-label=${v.t.level} aria-valuemin=${METER_FLOOR_DB} aria-valuemax="0"
      aria-valuenow=${shown} aria-valuetext=${`${shown} dB`}>
    ${levels.map((db) => {
      const height = Number.isFinite(db) ? Math.max(0.04, Math.min(1, 1 - db / METER_FLOOR_DB)) : 0.04;
      return html`<span part="bar" class="bar ${db > -1 ? 'hot' : db < -45 ? 'low' : ''}" ${cssVars({ '--h': height.toFixed(3) })}></span>`;
    })}
  </div>`;
}

function promptText(v: VoiceView) {
  const prompt = promptOf(v);
  if (prompt) return html`<p part="prompt" class="prompt">${prompt}</p>`;
  // Digits in the script of the language they are read in (Arabic-Indic in Arabic), kept in reading order left to right.
  const reading = v.reading.language ?? v.language;
  const digit = new Intl.NumberFormat(reading, { numberingSystem: reading.startsWith('ar') ? 'arab' : 'latn' });
  const digits = Array.from(v.reading.digits, (c) => (c === ' ' ? ' ' : digit.format(Number(c))));
  // Said one digit at a time: a screen reader reads "4820" as a number.
  return html`<p part="prompt" class="prompt digits" dir="ltr" aria-hidden="true">${digits.join('')}</p>
    <p class="visually-hidden">${digits.filter((c) => c !== ' ').join(' ')}</p>`;
}

/** What to read, and in which language where the host hears the digits in another than the page's. */
function readWhat(v: VoiceView): string {
  const { t, reading } = v;
  if (promptOf(v)) return t.readText;
  return reading.language ? format(t.readDigitsIn, { language: new Intl.DisplayNames(v.language, { type: 'language' }).of(reading.language) ?? reading.language }) : t.readDigits;
}

export function renderVoiceStep(v: VoiceView): TemplateResult | typeof nothing {
  const { t } = v;
  const { state } = v.flow;
  const send = (event: VoiceEvent) => () => v.flow.send(event);
  const remaining = Math.max(0, v.maxDuration - (v.tools?.recorder.elapsed ?? 0));
  const title = v.mode === 'enroll' ? t.voiceEnrollHeading : t.voiceHeading;
  switch (state.step) {
    case 'priming':
      // The element draws its first step itself (first-step.ts).
      return nothing;
    case 'permission':
      return html`${v.heading(title)}<p part="message">${t.microphoneAsking}</p><div part="spinner" class="spinner" aria-hidden="true"></div>`;
    case 'ready':
      return html`${v.heading(t.readHeading)}
        <p part="message">${readWhat(v)}</p>
        ${promptText(v)}
        <div class="actions"><button part="button submit record" class="primary" type="button" ?disabled=${!promptOf(v) && !v.reading.digits} @click=${send({ type: 'record' })}>${t.record}</button></div>`;
    case 'recording':
      return html`${v.heading(t.recordingHeading)}
        ${promptText(v)} ${meter(v)}
        <div part="countdown" class="countdown">
          <progress max=${v.maxDuration} value=${v.maxDuration - remaining} aria-hidden="true"></progress>
          <span>${format(t.timeLeft, { time: formatSeconds(Math.ceil(remaining), v.language) })}</span>
        </div>
        <p part="feedback" class="feedback ${state.warning ? 'warn' : ''}">${state.warning ? t[`voice_${state.warning}`] : v.tools?.recorder.elapsed ? t.listening : ''}</p>
        <div class="actions"><button part="button submit stop" class="primary" type="button" @click=${() => void v.tools?.recorder.stop()}>${t.stop}</button></div>`;
    case 'review': {
      const problem = state.problems[0];
      const playing = v.tools?.playback.playing ?? false;
      const play = html`<button part="button play" class="secondary" type="button" aria-pressed=${playing} @click=${() => v.tools?.togglePlayback()}>${playing ? t.stopPlaying : t.play}</button>`;
      return problem
        ? html`${v.heading(t.reviewVoiceProblem)}
            <p part="error" class="error">${t[`voice_${problem}`]}</p>
            <div class="actions"><button part="button submit" class="primary" type="button" @click=${send({ type: 'rerecord' })}>${t.recordAgain}</button>${play}</div>`
        : html`${v.heading(t.reviewVoiceHeading)}
            <div class="actions">
              <button part="button submit" class="primary" type="button" @click=${send({ type: 'confirm' })}>${t.useRecording}</button>
              ${play}
              <button part="button" class="secondary" type="button" @click=${send({ type: 'rerecord' })}>${t.recordAgain}</button>
            </div>`;
    }
    case 'uploading':
      return html`${v.heading(t.checkingVoice)}<div part="spinner" class="spinner" aria-hidden="true"></div>`;
    case 'success':
      return html`<div class="result success">${v.heading(v.mode === 'enroll' ? t.enrolledHeading : t.successHeading)}<p part="message">${v.phoneLink.phone ? t.handoffPhoneDone : v.mode === 'enroll' ? t.voiceEnrolled : t.voiceVerified}</p></div>`;
    case 'handoff':
      return html`${v.heading(t.handoffHeading)}${v.phoneLink.render()}`;
    case 'failure':
      return html`${v.heading(failureHeading(t, state.reason, state.canRetry))}
        <p part="error" class="error">${failureText(t, v.language, 'microphone', state)}</p>
        <div class="actions">
          ${state.canRetry ? html`<button part="button submit" class="primary" type="button" @click=${send({ type: 'retry' })}>${t.tryAgain}</button>` : nothing}
          ${state.kept ? html`<button part="button" class="secondary" type="button" @click=${send({ type: 'rerecord' })}>${t.recordAgain}</button>` : nothing}
          ${accountButton(t, state.reason, v.accountWay)}${v.otherWays()}
        </div>`;
  }
}
