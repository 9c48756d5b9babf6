import type { OtpChannel } from '../core/protocol.js';

/** A code went out; `to` is the masked destination the host handler reported. */
export class VerifyCodeSentEvent extends Event {
  static readonly type = 'verify-code-sent';
  constructor(readonly detail: { readonly method: OtpChannel; readonly to: string; readonly resendAfter: number }) {
    super(VerifyCodeSentEvent.type, { bubbles: true, composed: true });
  }
}
