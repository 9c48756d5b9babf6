import type { VerifyMetrics } from './metrics.js';
import type { FailureCode } from '../core/protocol.js';

export interface VerifyFailureDetail {
  readonly code: FailureCode;
  /** What the widget said, in its language. */
  readonly message: string;
  /** Wrong codes or comparisons left, when the host said. */
  readonly attemptsLeft?: number;
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
