/**
 * What the three widgets share: the endpoint, strings in the page's language with per-instance
 * overrides, the current step (a read-only property, a custom state `:state(step)`, and a
 * `verify-step-change` event), one polite live region, focus moved to each step's heading, and
 * form association with the receipt as the form value.
 */
import { adoptStyles, html, LitElement, nothing, type CSSResult, type PropertyValues, type TemplateResult, type PropertyDeclarations } from 'lit';
import { VerifyErrorEvent } from '../events/error.js';
import { VerifyFailureEvent } from '../events/failure.js';
import { VerifyStepChangeEvent } from '../events/step-change.js';
import { VerifySuccessEvent, type VerifySuccessDetail } from '../events/success.js';
import { asHostError, HostError, type SessionToken } from './host-api.js';
import { isFailureCode, type ConfigResponse, type VerifyStep } from '../core/protocol.js';
import { againAfterFault, RequestController } from './request-controller.js';
import { onDemand } from './on-demand.js';
import type { LaterTransition } from './flow-controller.js';
import { directionOf, languageOf, LOCALE_REGISTERED, localeVersion, stringsFor } from './localize.js';
import { format, formatSeconds } from '../core/format.js';
import type { CommonStrings } from '../translations/en/common.js';
import type { VerifyMetrics } from '../events/metrics.js';

export interface Proof {
  receipt: string;
  expiresAt: string | null;
  presence?: boolean;
}

/** The receipt in a verify answer, whatever a host sent. */
export function proofIn(answer: { receipt?: unknown; expiresAt?: unknown; presence?: unknown }): Proof {
  const presence = typeof answer.presence === 'boolean' ? { presence: answer.presence } : {};
  return { receipt: typeof answer.receipt === 'string' ? answer.receipt : '', expiresAt: typeof answer.expiresAt === 'string' ? answer.expiresAt : null, ...presence };
}

/** What every widget's templates read from it. */
export interface StepView {
  readonly t: CommonStrings;
  readonly language: string;
  heading(text: string): TemplateResult;
  /** The steps after the first could not be fetched (offline at the press): the first step says so, and the next press fetches again. */
  readonly laterFailed: boolean;
}

/**
 * What a widget fetches for its steps after the first, a chunk of its own (its later-steps.ts),
 * beside what its own element reads of it (their markup, the flow's transition): all its English
 * but the first step's, and those steps' look.
 */
export interface LaterCode<S> {
  readonly english: Partial<S>;
  readonly styles: readonly CSSResult[];
}

const BUSY_STEPS: readonly VerifyStep[] = ['sending', 'verifying', 'permission', 'uploading'];
/** What a person does in a widget: until one of these, a step it reaches on its own takes no focus. */
const ENGAGING = ['pointerdown', 'keydown', 'focusin', 'click', 'input', 'change', 'submit'];

export abstract class VerifyElement<Step extends VerifyStep = VerifyStep, S extends CommonStrings = CommonStrings, Later extends LaterCode<S> = LaterCode<S>> extends LitElement implements StepView {
  static formAssociated = true;
  static override properties: PropertyDeclarations = {
    endpoint: {},
    sessionToken: { attribute: 'session-token' },
    requestTimeout: { attribute: 'request-timeout', type: Number },
    strings: { attribute: false },
    required: { type: Boolean, reflect: true },
    name: { reflect: true },
    headingLevel: { attribute: 'heading-level', type: Number },
  };

  /** Base URL of the host handler. */
  endpoint = '/api/verify';
  /**
   * The session token the site's back end minted, for the stand-alone service (sent as
   * `Authorization: Bearer`, never in a URL), or a function that returns a fresh one for each call.
   * Refused, the widget asks the page for another once through `verify-session-token`.
   */
  sessionToken: SessionToken = null;
  /**
   * Milliseconds a call to the host handler may take, answer included, before the widget gives up
   * and offers to try again; a little above the handler's own 10 s limit on the service.
   */
  requestTimeout = 15_000;
  /** Per-instance string overrides, over the built-in language. */
  strings: Partial<S> = {};
  /** When set, the element is invalid (valueMissing) in its form until verified. */
  required = false;
  /** The form field the receipt is submitted under, as for any form control. */
  name = '';
  /** The aria-level of each step's heading. */
  headingLevel = 2;

  #announcement = '';
  /** Seconds a proof of work the handler asked for has taken so far; null when none is running. */
  #proving: number | null = null;
  /** @internal What the host handler says (GET config); undefined until it answers, or when it cannot. */
  config?: ConfigResponse;
  protected readonly configRequest: RequestController = new RequestController(this);
  /** @internal The widget's calls to the host (send, verify, upload), apart from config: a new one drops the last. */
  readonly requests: RequestController = new RequestController(this);
  #configLoaded: Promise<void> = Promise.resolve();
  protected readonly internals: ElementInternals = this.attachInternals();
  #receipt = '';
  #renderedStep: Step | null = null;

  /** @internal The widget's flow: its step, the events that move it, and the steps it entered. */
  abstract readonly flow: { readonly step: Step; readonly entered: ReadonlyMap<string, number> };
  #shownAt?: number;
  /** Whether the person has pressed, typed, focused or sent anything in the widget yet. */
  #engaged = false;
  readonly #engage = () => void (this.#engaged = true);

  protected override createRenderRoot() {
    const root = super.createRenderRoot();
    // In the shadow tree, and in the light DOM (the code field): events that stay in either count.
    for (const target of [root, this]) for (const type of ENGAGING) target.addEventListener(type, this.#engage, true);
    return root;
  }

  /** The current step; also the custom state `:state(<step>)` and the `verify-step-change` event. */
  get step(): Step {
    return this.flow.step;
  }

  /** The receipt once verified, else ''. It is the form value. */
  get value(): string {
    return this.#receipt;
  }

  /** The form the element belongs to, as for any form control. */
  get form(): HTMLFormElement | null {
    return this.internals.form;
  }

  /** @internal The language the widget speaks: its own or nearest `lang`, else the page's. */
  get language(): string {
    return languageOf(this);
  }

  /** This widget's English on its first step; the rest comes with the later steps. */
  protected abstract readonly firstEnglish: Partial<S>;
  /** Fetches the code of the steps after the first (a dynamic import, so a chunk of its own). */
  protected abstract fetchLater(): Promise<Later>;
  /** @internal That code, once it has come. */
  later?: Later;
  /** @internal */
  laterFailed = false;
  /** Fetches it once (the next call after a failure fetches again), and adds its look. */
  protected readonly loadLater: () => Promise<Later> = onDemand(async () => {
    const later = await this.fetchLater();
    this.addStyles(later.styles);
    this.later = later;
    this.laterFailed = false;
    this.requestUpdate();
    return this.later;
  });

  #english?: S;
  /** This widget's English strings, which a registered language and the overrides overlay: the first step's until the rest has come. */
  protected get english(): S {
    return (this.#english ??= this.later && ({ ...this.firstEnglish, ...this.later.english } as S)) ?? (this.firstEnglish as S);
  }

  /** The flow's transition (`current`, once the later steps have come): what the flow waits for before it moves. */
  protected laterTransition<State, Event>(current: () => ((state: State, event: Event) => State) | undefined): LaterTransition<State, Event> {
    return {
      current,
      // A press the code cannot follow (offline) leaves the person on the first step, told why.
      load: () =>
        this.loadLater().catch(() => {
          this.laterFailed = true;
          this.requestUpdate();
          this.announce(this.t.error_upstream_unavailable);
        }),
    };
  }

  override firstUpdated(changed: PropertyValues): void {
    super.firstUpdated(changed);
    // When the page is idle after the first step shows, so that the first press does not wait for it.
    const idle = globalThis.requestIdleCallback ?? ((next: () => void) => setTimeout(next, 200));
    idle(() => void this.loadLater().catch(() => {}));
  }

  #strings?: { english: S; language: string; overrides: Partial<S>; version: number; value: S };

  /** @internal The strings in that language, with this instance's overrides. */
  get t(): S {
    const { english, language, strings: overrides } = this;
    const cached = this.#strings;
    const version = localeVersion();
    if (cached?.english === english && cached.language === language && cached.overrides === overrides && cached.version === version) return cached.value;
    const value = stringsFor(english, language, overrides);
    this.#strings = { english, language, overrides, version, value };
    return value;
  }

  /** @internal Says something in the one polite live region, even if it is the same text again. */
  announce(text: string): void {
    this.#announcement = '';
    this.requestUpdate();
    requestAnimationFrame(() => {
      this.#announcement = text;
      this.requestUpdate();
    });
  }

  /** @internal Told by the request controller each second of a proof of work, and null at its end. */
  proving(seconds: number | null): void {
    this.#proving = seconds;
    if (seconds === 1) this.announce(format(this.t.checkingBrowser, { time: '' }).trim());
    this.requestUpdate();
  }

  /** @internal Any failure of a host call, as a HostError (a thrown non-HostError is a network or script fault). */
  hostError(error: unknown): HostError {
    return asHostError(error);
  }

  /**
   * @internal Tells the person and the page a host call failed (the flow has moved on): `message` in the live
   * region; `verify-failure` when the person did not pass (the protocol's failure codes),
   * `verify-error` for everything else.
   */
  reportProblem(error: HostError, message: string): void {
    const { code, extra, status } = error;
    this.announce(message);
    const metrics = this.metrics();
    this.dispatchEvent(
      isFailureCode(code)
        ? new VerifyFailureEvent({ code, message, attemptsLeft: extra.attemptsLeft, ...(extra.livenessReason ? { reason: extra.livenessReason } : {}), ...(extra.move ? { move: extra.move } : {}), metrics })
        : new VerifyErrorEvent({ code, message, retryAfter: extra.retryAfter, status, metrics }),
    );
  }

  /** This widget's own counts for the outcome events: attempts, and resends or retakes. */
  protected abstract measure(): Omit<VerifyMetrics, 'elapsedMs'>;

  /** What the outcome events tell a product team: the time since the first step was on screen, and the counts. */
  protected metrics(): VerifyMetrics {
    const now = performance.now();
    return { elapsedMs: Math.round(now - (this.#shownAt ?? now)), ...this.measure() };
  }

  /** How many times the flow entered `step`. */
  protected entries(step: Step): number {
    return this.flow.entered.get(step) ?? 0;
  }

  /**
   * @internal The host said yes (the flow has moved on): the receipt becomes the form value, the person hears
   * it, and the page gets `verify-success`, whose receipt its server checks.
   */
  succeeded(method: VerifySuccessDetail['method'], { receipt, expiresAt, presence }: Proof, text: string): void {
    this.#setReceipt(receipt);
    this.announce(text);
    this.dispatchEvent(new VerifySuccessEvent({ method, receipt, expiresAt, ...(presence === undefined ? {} : { presence }), metrics: this.metrics() }));
  }

  #setReceipt(receipt: string): void {
    this.#receipt = receipt;
    this.#updateValidity();
  }

  /** @internal A step's heading, at the element's level; focus goes to it when the step appears. */
  heading(text: string): TemplateResult {
    return html`<div part="heading" class="heading" role="heading" aria-level=${this.headingLevel} tabindex="-1">${text}</div>`;
  }

  protected liveRegion() {
    return html`<div part="live" class="visually-hidden" role="status" aria-live="polite">${this.#announcement || nothing}</div>`;
  }

  /** Adds the look of the steps after the first, which came with their code, to the element's own. */
  protected addStyles(styles: readonly CSSResult[]): void {
    adoptStyles(this.renderRoot as ShadowRoot, [...(this.constructor as typeof LitElement).elementStyles, ...styles]);
  }

  /** Where focus goes when a step appears; the heading unless a step says otherwise. */
  protected focusTarget(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('[part~="heading"]');
  }

  // A language registered after the first render: say everything again in it.
  readonly #onLocale = () => this.requestUpdate();

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener(LOCALE_REGISTERED, this.#onLocale);
    this.#updateValidity();
    // After the first render, in a task of its own: the widget shows at once, the page's task that
    // added it does not also start a request (0.5-15 ms in Chromium), and the answer refines it.
    // An element removed by then (a framework's trial mount) asks for nothing.
    this.#configLoaded = this.updateComplete
      .then(() => new Promise((next) => setTimeout(next)))
      .then(() => (this.isConnected ? this.loadConfig() : undefined));
  }

  /** @internal Settles when the handler's config has come, or could not. */
  get configLoaded(): Promise<void> {
    return this.#configLoaded;
  }

  /** Reads the handler's config, then lets the element act on it (`configured`). */
  protected async loadConfig(tries = 0): Promise<void> {
    try {
      this.config = await this.configRequest.call('config');
      this.requestUpdate();
    } catch (error) {
      // Without config the widget works on its attributes; after a fault it asks again, this class's part alone (a phone's claim of its link was done).
      return againAfterFault(error, tries, () => void (this.isConnected && !this.config && VerifyElement.prototype.loadConfig.call(this, tries + 1)));
    }
    this.configured(this.config);
  }

  /** What an element does once the handler's config is known. */
  protected configured(_config: ConfigResponse): void {}

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('required')) this.#updateValidity();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const step = this.step;
    if (step === this.#renderedStep) return;
    const previous = this.#renderedStep;
    this.#renderedStep = step;
    this.#shownAt ??= performance.now();
    try {
      if (previous) this.internals.states.delete(previous);
      this.internals.states.add(step);
    } catch {
      // Older engines without CustomStateSet: the property and the event still tell the step.
    }
    this.dispatchEvent(new VerifyStepChangeEvent<Step>({ step, previous }));
    // Focus follows the person through the steps; it is never taken from elsewhere on the page
    // (the first step, or a step reached on its own while they type in another field or widget).
    // Focus on the page's body follows too, where the person's last press removed its own button; but
    // not before they have used the widget: a step reached at load would scroll the page to it.
    const page = document.activeElement;
    const following = this.matches(':focus-within') || (this.#engaged && (!page || page === document.body));
    // After this update, so that what focus changes renders in an update of its own.
    if (previous !== null && following) void this.updateComplete.then(() => this.focusTarget()?.focus());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener(LOCALE_REGISTERED, this.#onLocale);
  }

  formResetCallback(): void {
    this.#setReceipt('');
  }

  #updateValidity(): void {
    this.internals.setFormValue(this.#receipt || null);
    if (this.required && !this.#receipt) {
      this.internals.setValidity({ valueMissing: true }, this.t.valueMissing, this.focusTarget() ?? undefined);
    } else {
      this.internals.setValidity({});
    }
  }

  /** The current step's markup; the element wraps it in the base part, with the live region. */
  protected abstract renderStep(): TemplateResult | typeof nothing;
  protected override render() {
    // aria-busy while the widget waits on the browser (a permission prompt) or on the host.
    const busy = BUSY_STEPS.includes(this.step);
    // A proof of work past a second is shown with its time; the live region says it once.
    const proving = this.#proving
      ? html`<p part="message" class="checking" aria-hidden="true">${format(this.t.checkingBrowser, { time: formatSeconds(this.#proving, this.language) })}</p>`
      : nothing;
    return html`<div part="base" class="base" dir=${this.direction} aria-busy=${busy}>${this.liveRegion()} ${this.renderStep()}${proving}</div>`;
  }

  protected get direction(): 'ltr' | 'rtl' {
    return directionOf(this);
  }
}
