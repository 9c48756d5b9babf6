/**
 * Continue on your phone (demo/pages/handoff.md), the part every face and voice widget carries:
 * whether to offer it, and on a phone the link's token from the URL's fragment (never sent to a
 * server but in a header), kept in sessionStorage for a reload. The phone's side (claiming the link,
 * watching it) and the computer's panel, with the QR code's library, are fetched when first needed
 * (handoff-phone.ts, handoff-panel.ts).
 */
import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { HANDOFF_FRAGMENT, type BiometricKind } from '../core/protocol.js';
import { savedLink, shortCode, type HandoffHost, type HandoffSetting, type PhoneLink } from './handoff-host.js';
import { onDemand } from '../internal/on-demand.js';
import type { RequestController } from '../internal/request-controller.js';
import type { HandoffPanel } from './later/handoff-panel.js';
import type { PhoneSide } from './later/handoff-phone.js';

const SPINNER = html`<div part="spinner" class="spinner" aria-hidden="true"></div>`;
const panelCode = onDemand(() => import('./later/handoff-panel.js'));
const phoneCode = onDemand(() => import('./later/handoff-phone.js'));

/** The link's token for a widget of this kind, from `#verify-handoff=<kind>.<token>`, or null on a page not opened from a link. */
function linkToken(kind: BiometricKind): string | null {
  const value = new URLSearchParams(location.hash.slice(1)).get(HANDOFF_FRAGMENT);
  const [linkKind, token] = value?.split('.') ?? [];
  return linkKind === kind && token ? token : null;
}

export class HandoffController implements ReactiveController {
  /** On the phone: the link's token, and once claimed the pass its calls carry and the code both screens show. */
  phone: PhoneLink | null = null;
  #panel: HandoffPanel | null = null;
  /** On the phone: its side of the link (handoff-phone.ts), once fetched. */
  #side: PhoneSide | null = null;
  #step?: string;

  constructor(
    private readonly host: HandoffHost & { endpoint: string; requestTimeout: number },
    private readonly requests: RequestController,
  ) {
    host.addController(this);
  }

  // Another link opened in this tab (only the fragment changed, so the page did not load again): the page starts over on it.
  readonly #onHash = () => {
    const token = linkToken(this.host.kind);
    if (token && token !== this.phone?.token) location.reload();
  };

  hostConnected(): void {
    addEventListener('hashchange', this.#onHash);
    const token = linkToken(this.host.kind);
    if (!token || this.phone?.token === token) return;
    // After a reload: the device key, code and mode this tab claimed.
    const [pass = null, code = '', mode] = sessionStorage.getItem(savedLink(token))?.split(' ') ?? [];
    this.phone = { token, pass, code };
    if (mode === 'verify' || mode === 'enroll') this.host.mode = mode;
  }

  hostDisconnected(): void {
    removeEventListener('hashchange', this.#onHash);
    this.#stopPanel();
    this.#side?.stop();
  }

  #stopPanel(): void {
    this.#panel?.stop();
    this.#panel = null;
  }

  hostUpdated(): void {
    const { step } = this.host;
    if (step === this.#step) return;
    this.#step = step;
    if (step !== 'handoff') this.#stopPanel();
    // On the phone: the computer hears that the capture began.
    if (step === 'permission') void this.#side?.tell('capturing');
  }

  /** The header a phone's calls carry: the token alone to claim the link, then with the device key. */
  get pass(): string | null {
    return this.phone && (this.phone.pass ? `${this.phone.token}.${this.phone.pass}` : this.phone.token);
  }

  /** Whether "Continue on your phone" is offered: on a computer whose handler makes links, for a signed-in person. */
  offered(setting: HandoffSetting, at: 'start' | 'device' | 'other'): boolean {
    const { config } = this.host;
    if (this.phone || setting === 'off' || !config?.handoff || config.enrolled === null) return false;
    return at === 'device' || (setting !== 'auto' && at === 'start');
  }

  /**
   * On the phone, before anything else: the link claimed (or, after a reload, found still open), by
   * the phone's code, fetched first. False when it has ended, the element then showing so.
   */
  async claim(): Promise<boolean> {
    if (!this.phone) return true;
    const { PhoneSide } = await phoneCode();
    this.#side ??= new PhoneSide(this.host, this.requests, this.phone);
    return this.#side.claim();
  }

  /** On the phone's first step: that it continues the computer's capture, the code the computer shows, and a way to stop. */
  banner(): TemplateResult | typeof nothing {
    const { phone, host } = this;
    if (!phone?.code) return nothing;
    return html`<div class="handoff-note">
      <p part="message">${host.t.handoffFromComputer} ${shortCode(phone.code)}</p>
      <button part="button" class="secondary" type="button" @click=${() => void this.#side?.cancel()}>${host.t.handoffCancel}</button>
    </div>`;
  }

  /** The computer's panel under its heading: the QR code, the link, the short code and the phone's progress. */
  render(): TemplateResult {
    if (this.#panel) return this.#panel.render();
    void panelCode().then(
      ({ HandoffPanel }) => {
        if (this.host.step !== 'handoff' || this.#panel) return;
        this.#panel = new HandoffPanel(this.host, this.requests);
        this.host.requestUpdate();
      },
      () => this.host.flow.send({ type: 'handoff-ended' }),
    );
    return SPINNER;
  }
}
