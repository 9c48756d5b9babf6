/** The widget moved to another step; `step` is also readable on the element and as `:state(step)`. */
export class VerifyStepChangeEvent extends Event {
  static readonly type = 'verify-step-change';
  constructor(readonly detail: { readonly step: string; readonly previous: string | null }) {
    super(VerifyStepChangeEvent.type, { bubbles: true, composed: true });
  }
}
