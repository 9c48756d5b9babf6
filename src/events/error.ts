import type { DeviceFailure } from '../core/protocol.js';
import type { ErrorCode } from '../core/protocol.js';

/** Something other than the person failed: the camera or microphone, the network, the host, a limit. */
export class VerifyErrorEvent extends Event {
  static readonly type = 'verify-error';
  constructor(readonly detail: { readonly code: ErrorCode | DeviceFailure; readonly message: string; readonly retryAfter?: number; readonly status: number }) {
    super(VerifyErrorEvent.type, { bubbles: true, composed: true });
  }
}
