import type { VerifyMetrics } from './metrics.js';
import type { DeviceFailure, ErrorCode } from '../core/protocol.js';

export interface VerifyErrorDetail {
  readonly code: ErrorCode | DeviceFailure;
  /** What the widget said, in its language. */
  readonly message: string;
  /** Seconds before trying again, when the host said. */
  readonly retryAfter?: number;
  /** The host's HTTP status; 0 when no answer came (the network, the deadline, a device). */
  readonly status: number;
  /** The way to this outcome: its time and attempts, and on a device failure the device. */
  readonly metrics: VerifyMetrics;
}

/** Something other than the person failed: the camera or microphone, the network, the host, a limit. */
export class VerifyErrorEvent extends Event {
  static readonly type = 'verify-error';
  constructor(readonly detail: VerifyErrorDetail) {
    super(VerifyErrorEvent.type, { bubbles: true, composed: true });
  }
}
