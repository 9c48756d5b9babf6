/**
 * The code step of <otp-verify> as the element holds it: its code (code-step.ts: the code field and
 * WebOTP) fetched through the element's own loader while a code is sent or when one is pending, so
 * that a contact form does not carry it; and meanwhile, the code's length the handler told.
 */
import type { ReactiveControllerHost } from 'lit';
import { onDemand } from '../internal/on-demand.js';
import type { CodeFieldController, CodeFieldEvents } from './later/code-field-controller.js';

/** What <otp-verify> fetches after its first step: one chunk, its code step among it. */
export type OtpLater = typeof import('./later/later-steps.js');

export class LazyCodeStep {
  /** Digits in a code, as the handler said (config, or a send's answer); null when unknown. */
  length: number | null = null;
  /** The code field, once its code has come. */
  field: CodeFieldController | null = null;
  #left?: () => void;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly events: Omit<CodeFieldEvents, 'length'>,
    /** The element's own fetch of its later steps, so that their look is added once, whoever asks first. */
    private readonly later: () => Promise<OtpLater>,
  ) {}

  /** Fetches the step's code (once). */
  readonly load = onDemand(async () => {
    const step = (await this.later()).codeStep(this.host, { ...this.events, length: () => this.length });
    this.field = step.field;
    this.#left = step.left;
    this.host.requestUpdate();
    return step;
  });

  /** The step shows, with the code the host refused (else a new code is on its way): once its code is here, and if the step still shows. */
  async show(refused: string | null): Promise<void> {
    const step = await this.load();
    if (this.events.shown()) step.shown(refused);
  }

  left(): void {
    this.#left?.();
  }
}
