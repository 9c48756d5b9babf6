/**
 * What <voice-verify> shows before anything else is fetched: its priming step. Everything after it
 * comes with the later steps (later-steps.ts), fetched when the page is idle or on the first press.
 */
import { html, nothing } from 'lit';
import type { VoiceView } from './later/voice-verify.templates.js';

export function renderVoicePriming(v: VoiceView) {
  const { t } = v;
  return html`${v.heading(v.mode === 'enroll' ? t.voiceEnrollHeading : t.voiceHeading)}
    ${v.phoneLink.banner()}
    <p part="message">${t.voicePriming}</p>
    ${v.laterFailed ? html`<p part="error" class="error">${t.error_upstream_unavailable}</p>` : nothing}
    <div class="actions">
      <button part="button submit" class="primary" type="button" @click=${() => v.flow.send({ type: 'start' })}>${t.startMicrophone}</button>
      ${v.otherWays()}
    </div>`;
}
