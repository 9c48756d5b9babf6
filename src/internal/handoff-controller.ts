/**
 * Continue on your phone (demo/pages/handoff.md), the part every face and voice widget carries:
 * whether to offer it, and the phone's side of a link: its token from the URL's fragment (never
 * sent to a server but in a header), claimed once, kept in sessionStorage for a reload, and watched
 * so that a cancel on the computer ends the phone too. The computer's panel, with the QR code's
 * library, is fetched the first time it is shown (handoff-panel.ts).
 */
import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import { HANDOFF_FRAGMENT, type BiometricKind } from '../core/protocol.js';
import { shortCode, type HandoffHost, type HandoffSetting } from './handoff-host.js';
import { HostError } from './host-api.js';
import { onDemand } from './on-demand.js';
import { RequestController } from './request-controller.js';
import type { HandoffPanel } from './handoff-panel.js';

const SPINNER = html`<div part="spinner" class="spinner" aria-hidden="true"></div>`;
const panelCode = onDemand(() => import('./handoff-panel.js'));
/** How often the phone asks whether the computer cancelled. */
const PHONE_WATCH_MS = 3000;
const saved = (token: string) => `verify-handoff:${token}`;

/** The link's token for a widget of this kind, from `#verify-handoff=<kind>.<token>`, or null on a page not opened from a link. */
function linkToken(kind: BiometricKind): string | null {
  const value = new URLSearchParams(location.hash.slice(1)).get(HANDOFF_FRAGMENT);
  const [linkKind, token] = value?.split('.') ?? [];
  return linkKind === kind && token ? token : null;
}

export class HandoffController implements ReactiveController {
  /** On the phone: the link's token, and once claimed the pass its calls carry and the code both screens show. */
  phone: { token: string; pass: string | null; code: string } | null = null;
  #panel: HandoffPanel | null = null;
  #watch?: ReturnType<typeof setTimeout>;
  #step?: string;
  readonly #watcher: RequestController;

  constructor(
    private readonly host: HandoffHost & { endpoint: string; requestTimeout: number },
    private readonly requests: RequestController,
  ) {
    host.addController(this);
    // Its own calls: the phone's watch must not abort the capture's.
    this.#watcher = new RequestController(host);
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
    const [pass = null, code = '', mode] = sessionStorage.getItem(saved(token))?.split(' ') ?? [];
    this.phone = { token, pass, code };
    if (mode === 'verify' || mode === 'enroll') this.host.mode = mode;
  }

  hostDisconnected(): void {
    removeEventListener('hashchange', this.#onHash);
    this.#stopPanel();
    clearTimeout(this.#watch);
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
    if (this.phone?.pass && step === 'permission') void this.#tell('capturing');
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
   * On the phone, before anything else: the link claimed (or, after a reload, found still open).
   * False when it has ended, the element then showing so.
   */
  async claim(tries = 4): Promise<boolean> {
    const phone = this.phone;
    if (!phone) return true;
    try {
      if (phone.pass) {
        const { state } = await this.requests.call('handoff-phone', {});
        if (state === 'done' || state === 'cancelled') throw new HostError('handoff_ended', state, 410);
      } else {
        const claimed = await this.requests.call('handoff-claim', {});
        phone.pass = claimed.device;
        phone.code = claimed.code;
        sessionStorage.setItem(saved(phone.token), `${claimed.device} ${claimed.code} ${claimed.mode}`);
        this.host.mode = claimed.mode;
      }
      this.#schedule();
      return true;
    } catch (error) {
      const ended = error instanceof HostError && error.code === 'handoff_ended';
      // A network that dropped for a moment (a phone on the move): asked again, every 2 s, a few times.
      if (!ended && error instanceof HostError && error.code === 'upstream_unavailable' && tries > 1 && this.host.isConnected) {
        await new Promise((next) => setTimeout(next, 2000));
        return this.claim(tries - 1);
      }
      if (!ended) throw error;
      this.host.handoffEnded();
      return false;
    }
  }

  /** The phone cancels: the computer hears it, and the phone's capture ends. */
  async cancelOnPhone(): Promise<void> {
    clearTimeout(this.#watch);
    await this.#tell('cancelled');
    this.host.handoffEnded();
  }

  async #tell(state?: 'capturing' | 'cancelled'): Promise<void> {
    try {
      // `done` is the phone's own upload finishing, which its answer tells.
      if ((await this.#watcher.call('handoff-phone', state ? { state } : {})).state === 'cancelled') this.host.handoffEnded();
    } catch (error) {
      if (error instanceof HostError && error.code === 'handoff_ended') this.host.handoffEnded();
    }
  }

  #schedule(): void {
    clearTimeout(this.#watch);
    this.#watch = setTimeout(async () => {
      await this.#tell();
      // Watched until the phone is done, or the element has left the page.
      const { step, isConnected } = this.host;
      if (isConnected && step !== 'success' && step !== 'failure') this.#schedule();
    }, PHONE_WATCH_MS);
  }

  /** On the phone's first step: that it continues the computer's capture, the code the computer shows, and a way to stop. */
  banner(): TemplateResult | typeof nothing {
    const { phone, host } = this;
    if (!phone?.code) return nothing;
    return html`<div class="handoff-note">
      <p part="message">${host.t.handoffFromComputer} ${shortCode(phone.code)}</p>
      <button part="button" class="secondary" type="button" @click=${() => void this.cancelOnPhone()}>${host.t.handoffCancel}</button>
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
