/**
 * The phone's side of a link (continue on your phone), fetched on a page opened from one: the link
 * claimed once (the device key kept for a reload), the computer told when the capture begins, and
 * asked every few seconds whether it cancelled, which ends the phone too.
 */
import { savedLink, type HandoffHost, type PhoneLink } from '../handoff-host.js';
import { HostError } from '../../internal/host-api.js';
import { RequestController } from '../../internal/request-controller.js';

/** How often the phone asks whether the computer cancelled. */
const PHONE_WATCH_MS = 3000;

export class PhoneSide {
  #watch?: ReturnType<typeof setTimeout>;
  /** Its own calls: the phone's watch must not abort the capture's. */
  readonly #watcher: RequestController;

  constructor(
    private readonly host: HandoffHost & { endpoint: string; requestTimeout: number },
    private readonly requests: RequestController,
    private readonly phone: PhoneLink,
  ) {
    this.#watcher = new RequestController(host);
  }

  stop(): void {
    clearTimeout(this.#watch);
  }

  /**
   * Before anything else: the link claimed (or, after a reload, found still open).
   * False when it has ended, the element then showing so.
   */
  async claim(tries = 4): Promise<boolean> {
    const { phone } = this;
    try {
      if (phone.pass) {
        const { state } = await this.requests.call('handoff-phone', {});
        if (state === 'done' || state === 'cancelled') throw new HostError('handoff_ended', state, 410);
      } else {
        const claimed = await this.requests.call('handoff-claim', {});
        phone.pass = claimed.device;
        phone.code = claimed.code;
        sessionStorage.setItem(savedLink(phone.token), `${claimed.device} ${claimed.code} ${claimed.mode}`);
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
  async cancel(): Promise<void> {
    clearTimeout(this.#watch);
    await this.tell('cancelled');
    this.host.handoffEnded();
  }

  /** Tells the computer where the phone is (or, with no state, asks whether it cancelled). */
  async tell(state?: 'capturing' | 'cancelled'): Promise<void> {
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
      await this.tell();
      // Watched until the phone is done, or the element has left the page.
      const { step, isConnected } = this.host;
      if (isConnected && step !== 'success' && step !== 'failure') this.#schedule();
    }, PHONE_WATCH_MS);
  }
}
