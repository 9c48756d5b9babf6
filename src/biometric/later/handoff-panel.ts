/**
 * The computer's side of "Continue on your phone", fetched the first time it is shown: it asks the
 * handler for a link, shows it as a QR code (drawn by uqr, as an SVG path: no image, no third party,
 * nothing the strict CSP refuses), as a link to copy and with the short code both screens show, then
 * polls how the phone is getting on until it is done, cancelled or the link ends.
 */
import { html, svg, type TemplateResult } from 'lit';
import { HANDOFF_FRAGMENT, type HandoffState } from '../../core/protocol.js';
import { shortCode, spelled, type HandoffHost } from '../handoff-host.js';
import { asHostError, HostError } from '../../internal/host-api.js';
import { format } from '../../core/format.js';
import { handoffPanelEnglish, type HandoffPanelStrings } from '../../translations/en/handoff.js';
import { qrPath } from './qr-path.js';
import { StaleAnswer, type RequestController } from '../../internal/request-controller.js';

/** How often the computer asks how the phone is getting on. */
const POLL_MS = 2000;

type Shown =
  | { at: 'starting' }
  | { at: 'link'; token: string; code: string; link: string; qr: { path: string; size: number }; state: HandoffState }
  | { at: 'ended'; message: string };


export class HandoffPanel {
  #shown: Shown = { at: 'starting' };
  #timer?: ReturnType<typeof setTimeout>;
  #copied = false;

  constructor(
    private readonly host: HandoffHost,
    private readonly requests: RequestController,
  ) {
    void this.#start();
  }

  /** The panel's own words, in the widget's language, with the page's overrides. */
  #t(): HandoffPanelStrings {
    return this.host.stringsOf(handoffPanelEnglish);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #show(shown: Shown): void {
    this.#shown = shown;
    this.host.requestUpdate();
  }

  async #start(): Promise<void> {
    this.#show({ at: 'starting' });
    const { kind, mode } = this.host;
    try {
      const { token, code } = await this.requests.call('handoff-start', { kind, mode });
      const url = new URL(this.host.handoffUrl || location.href, location.href);
      url.hash = `${HANDOFF_FRAGMENT}=${kind}.${token}`;
      this.#show({ at: 'link', token, code, link: url.href, qr: qrPath(url.href), state: 'waiting' });
      this.#later();
    } catch (error) {
      this.#failed(error);
    }
  }

  #later(): void {
    this.#timer = setTimeout(() => void this.#poll(), POLL_MS);
  }

  async #poll(): Promise<void> {
    const shown = this.#shown;
    if (shown.at !== 'link') return;
    try {
      const status = await this.requests.call('handoff-status', { token: shown.token });
      if (this.#shown !== shown) return;
      if (status.state === 'done') return this.host.finishedElsewhere(status);
      if (status.state === 'cancelled') return this.#show({ at: 'ended', message: this.#t().handoffCancelledThere });
      if (status.state !== shown.state) this.#show({ ...shown, state: status.state });
    } catch (error) {
      // A network fault or a busy handler: the phone may still finish, so the computer keeps asking.
      if (!(error instanceof HostError) || error.code === 'upstream_unavailable' || error.code === 'rate_limited') return void (this.#timer && this.#later());
      return this.#failed(error);
    }
    if (this.#timer) this.#later();
  }

  #failed(error: unknown): void {
    if (error instanceof StaleAnswer) return;
    const host = asHostError(error);
    this.#show({ at: 'ended', message: host.code === 'handoff_ended' ? this.#t().handoffExpired : this.host.failureText({ reason: host.code, ...host.extra }) });
  }

  #cancel(): void {
    const shown = this.#shown;
    this.stop();
    if (shown.at === 'link') void this.requests.call('handoff-status', { token: shown.token, cancel: true }).catch(() => {});
    this.host.flow.send({ type: 'handoff-ended' });
  }

  async #copy(link: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(link);
      this.#copied = true;
    } catch {
      // No clipboard here (an insecure page, a refused permission): the link is selected to copy by hand.
      this.host.renderRoot.querySelector<HTMLInputElement>('input[part~="link"]')?.select();
    }
    this.host.requestUpdate();
  }

  render(): TemplateResult {
    const t = this.#t();
    const shown = this.#shown;
    const back = html`<button part="button" class="secondary" type="button" @click=${() => this.#cancel()}>${shown.at === 'ended' ? t.handoffBack : this.host.t.handoffCancel}</button>`;
    if (shown.at === 'starting') return html`<div part="spinner" class="spinner" aria-hidden="true"></div><div class="actions">${back}</div>`;
    if (shown.at === 'ended') {
      return html`<p part="error" class="error">${shown.message}</p>
        <div class="actions"><button part="button submit" class="primary" type="button" @click=${() => void this.#start()}>${t.handoffNewLink}</button>${back}</div>`;
    }
    const { code, link, qr, state } = shown;
    const progress = { waiting: t.handoffWaiting, connected: t.handoffConnected, capturing: t.handoffCapturing, done: t.handoffConnected, cancelled: t.handoffCancelledThere }[state];
    return html`<p part="message">${t.handoffScan}</p>
      <svg part="qr" class="qr" role="img" aria-label=${format(t.handoffQrLabel, { link, code: spelled(code) })} viewBox="-4 -4 ${qr.size + 8} ${qr.size + 8}" shape-rendering="crispEdges">
        <rect x="-4" y="-4" width=${qr.size + 8} height=${qr.size + 8} fill="#fff"></rect>${svg`<path d=${qr.path} fill="#000"></path>`}
      </svg>
      <p part="message">${t.handoffCodeIs} ${shortCode(code)}</p>
      <div class="link-row">
        <input part="link" class="handoff-link" readonly .value=${link} aria-label=${t.handoffLinkLabel} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
        <button part="button" class="secondary" type="button" @click=${() => void this.#copy(link)}>${this.#copied ? t.handoffCopied : t.handoffCopy}</button>
      </div>
      <p part="feedback" class="feedback" role="status">${progress}</p>
      <div class="actions">${back}</div>`;
  }
}
