import type { BiometricKind } from '../core/protocol.js';

/** A reference sample was registered for the signed-in user (mode="enroll"). */
export class VerifyEnrolledEvent extends Event {
  static readonly type = 'verify-enrolled';
  constructor(readonly detail: { readonly kind: BiometricKind }) {
    super(VerifyEnrolledEvent.type, { bubbles: true, composed: true });
  }
}
