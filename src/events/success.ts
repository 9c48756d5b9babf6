import type { VerifyMetrics } from './metrics.js';
import type { VerificationMethod } from '../core/protocol.js';

export interface VerifySuccessDetail {
  readonly method: VerificationMethod;
  /** Signed, single-use proof for your server's `verifyReceipt`. */
  readonly receipt: string;
  readonly expiresAt: string | null;
  /**
   * A face or a voice: whether the host's live check proved the person there (its movements, its
   * digits heard), or false where it was not made (a photo, a language no recogniser hears). The
   * receipt's `prs` says the same, for the server.
   */
  readonly presence?: boolean;
  /** The way to this outcome: its time, attempts, resends or retakes; never personal data. */
  readonly metrics: VerifyMetrics;
}

/**
 * Verified. The event alone is not proof: send `receipt` to your server and check it there with
 * `verifyReceipt`. It is also the element's form value.
 */
export class VerifySuccessEvent extends Event {
  static readonly type = 'verify-success';
  constructor(readonly detail: VerifySuccessDetail) {
    super(VerifySuccessEvent.type, { bubbles: true, composed: true });
  }
}
