import type { BiometricKind } from '../core/protocol.js';

export interface VerifyEnrolledDetail {
  readonly kind: BiometricKind;
}

/** A reference sample was registered for the signed-in user (mode="enroll"). */
export class VerifyEnrolledEvent extends Event {
  static readonly type = 'verify-enrolled';
  constructor(readonly detail: VerifyEnrolledDetail) {
    super(VerifyEnrolledEvent.type, { bubbles: true, composed: true });
  }
}
