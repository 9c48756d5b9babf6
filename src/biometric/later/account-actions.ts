/**
 * The way on from a face or voice failure that is about the account rather than the sample:
 * register when nothing is registered (where the host registers), check again once signed in,
 * reload when the session has ended; and the page's other way, where it offers one. Never a screen
 * without a next step.
 */
import { html, nothing } from 'lit';
import type { BiometricStrings } from '../../translations/en/biometric.js';

export interface AccountWay {
  canEnroll: boolean;
  enroll(): void;
  recheck(): void;
  /** The page's other way to verify, where it offers one (`other-way`). */
  other: (() => void) | null;
  /** Continue on your phone, where it is offered at this step (handoff-controller.ts). */
  phone: (() => void) | null;
}

/** The account's way on from a failure; the other ways (SampleView's otherWays) follow it. */
export function accountButton(t: BiometricStrings, reason: string, way: AccountWay) {
  const button = (label: string, action: () => void) => html`<button part="button submit" class="primary" type="button" @click=${action}>${label}</button>`;
  switch (reason) {
    case 'not_enrolled':
      return way.canEnroll ? button(t.registerInstead, way.enroll) : button(t.checkAgain, way.recheck);
    case 'signed_out':
    case 'proof_required':
      return button(t.checkAgain, way.recheck);
    case 'unauthorized':
      return button(t.reloadPage, () => location.reload());
    default:
      return nothing;
  }
}
