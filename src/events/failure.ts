import type { ErrorCode } from '../core/protocol.js';

/** The person did not pass: a wrong or expired code, too many tries, no match. */
export class VerifyFailureEvent extends Event {
  static readonly type = 'verify-failure';
  constructor(readonly detail: { readonly code: ErrorCode; readonly message: string; readonly attemptsLeft?: number }) {
    super(VerifyFailureEvent.type, { bubbles: true, composed: true });
  }
}
