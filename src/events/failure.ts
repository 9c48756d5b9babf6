import type { VerifyMetrics } from './metrics.js';
import type { FailureCode } from '../core/protocol.js';

export interface VerifyFailureDetail {
  readonly code: FailureCode;
  /** What the widget said, in its language. */
  readonly message: string;
  /** Wrong codes or comparisons left, when the host said. */
  readonly attemptsLeft?: number;
  /** `liveness_failed`: the rule the live check's frames broke (`screen_or_print`, `flat`…, the protocol's LivenessReason), and the movement it did not see. */
  readonly reason?: string;
  readonly move?: string;
  /** The way to this outcome: its time, attempts, resends or retakes; never personal data. */
  readonly metrics: VerifyMetrics;
}

/** The person did not pass: a wrong or expired code, too many tries, no match. */
export class VerifyFailureEvent extends Event {
  static readonly type = 'verify-failure';
  constructor(readonly detail: VerifyFailureDetail) {
    super(VerifyFailureEvent.type, { bubbles: true, composed: true });
  }
}
