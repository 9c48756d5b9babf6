import type { VerificationMethod } from '../core/protocol.js';

/**
 * Verified. The event alone is not proof: send `receipt` to your server and check it there with
 * `verifyReceipt`. It is also the element's form value.
 */
export class VerifySuccessEvent extends Event {
  static readonly type = 'verify-success';
  constructor(readonly detail: { readonly method: VerificationMethod; readonly receipt: string; readonly expiresAt: string | null }) {
    super(VerifySuccessEvent.type, { bubbles: true, composed: true });
  }
}
