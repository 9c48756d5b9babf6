import type { OtpChannel } from '../core/protocol.js';

export interface VerifyCodeSentDetail {
  readonly method: OtpChannel;
  /** The destination, partly masked, as the host handler reported it. */
  readonly to: string;
  /** Seconds before another code may be asked for. */
  readonly resendAfter: number;
}

/** A code went out; `to` is the masked destination the host handler reported. */
export class VerifyCodeSentEvent extends Event {
  static readonly type = 'verify-code-sent';
  constructor(readonly detail: VerifyCodeSentDetail) {
    super(VerifyCodeSentEvent.type, { bubbles: true, composed: true });
  }
}
