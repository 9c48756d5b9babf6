/**
 * What <face-verify> shows before anything else is fetched: its priming step. Everything after it
 * comes with the later steps (later-steps.ts), fetched when the page is idle or on the first press.
 */
import { css, html, nothing } from 'lit';
import { baseStyles } from '../internal/base.styles.js';
import type { ConfigResponse } from '../core/protocol.js';
import type { FaceView } from './later/face-verify.templates.js';

/** Whether a photo file may stand in for the camera: never where the host wants a live face, but to register when it says so. */
export function filesAllowed(config: Pick<ConfigResponse, 'liveness'> | undefined, mode: 'verify' | 'enroll'): boolean {
  const live = config?.liveness;
  return !live || (mode === 'enroll' && live.photoEnrolment);
}

export function uploadButton(v: FaceView) {
  // capture="user" opens the front camera on phones; elsewhere it is a file picker.
  return html`<label part="button upload" class="secondary upload">
    ${v.t.uploadPhoto}
    <input type="file" accept="image/*" capture="user" class="visually-hidden"
      @change=${(e: Event) => {
        const file = (e.target as HTMLInputElement).files?.[0];
        if (file) void v.useFile(file);
      }} />
  </label>`;
}

export function renderFacePriming(v: FaceView) {
  const { t } = v;
  return html`${v.heading(v.mode === 'enroll' ? t.faceEnrollHeading : t.faceHeading)}
    ${v.phoneLink.banner()}
    <p part="message">${t.facePriming}</p>
    ${v.laterFailed ? html`<p part="error" class="error">${t.error_upstream_unavailable}</p>` : nothing}
    <div class="actions">
      <button part="button submit" class="primary" type="button" @click=${() => v.flow.send({ type: 'start' })}>${t.startCamera}</button>
      ${filesAllowed(v.config, v.mode) ? uploadButton(v) : nothing}
      ${v.otherWays()}
    </div>`;
}

/** The first step's look: the buttons, and the photo-upload fallback's label. */
export const firstStepStyles = [
  baseStyles,
  css`
    .upload {
      display: inline-flex;
      align-items: center;
      cursor: pointer;
      min-block-size: 2.75em;
      padding: 0.5em 1.1em;
      border-radius: var(--verify-radius);
    }
    .upload:focus-within {
      outline: 2px solid var(--verify-accent);
      outline-offset: 2px;
    }
  `,
];
