import type { BiometricKind } from '../core/protocol.js';

export interface VerifyOtherWayDetail {
  readonly kind: BiometricKind;
  /** The step the person left from: `priming`, a live `challenge`, or a `failure` (no camera among them). */
  readonly step: string;
}

/**
 * The person chose to verify another way (the widget's `other-way` attribute offers it): the page
 * answers with its other path, such as an `<otp-verify>` in place of this widget.
 */
export class VerifyOtherWayEvent extends Event {
  static readonly type = 'verify-other-way';
  constructor(readonly detail: VerifyOtherWayDetail) {
    super(VerifyOtherWayEvent.type, { bubbles: true, composed: true });
  }
}
