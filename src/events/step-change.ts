import type { VerifyStep } from '../core/protocol.js';

export interface VerifyStepChangeDetail<Step extends VerifyStep = VerifyStep> {
  readonly step: Step;
  /** The step before; null for the first. */
  readonly previous: Step | null;
}

/** The widget moved to another step; `step` is also readable on the element and as `:state(step)`. */
export class VerifyStepChangeEvent<Step extends VerifyStep = VerifyStep> extends Event {
  static readonly type = 'verify-step-change';
  constructor(readonly detail: VerifyStepChangeDetail<Step>) {
    super(VerifyStepChangeEvent.type, { bubbles: true, composed: true });
  }
}
