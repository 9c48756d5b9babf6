import type { ErrorCode } from '../internal/protocol.js';

/** Something other than the person failed: the network, the host, the service, a limit. */
export class VerifyErrorEvent extends Event {
  static readonly type = 'verify-error';
  constructor(readonly detail: { readonly code: ErrorCode; readonly message: string; readonly retryAfter?: number; readonly status: number }) {
    super(VerifyErrorEvent.type, { bubbles: true, composed: true });
  }
}
