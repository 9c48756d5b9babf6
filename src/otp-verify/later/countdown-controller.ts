/** Re-renders its host every second until a deadline, for cooldowns shown to the person. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class CountdownController implements ReactiveController {
  #deadline = 0;
  #timer?: ReturnType<typeof setInterval>;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly onDone: () => void = () => {},
  ) {
    host.addController(this);
  }

  /** Whole seconds left, 0 when the deadline has passed. */
  get remaining(): number {
    return Math.max(0, Math.ceil((this.#deadline - Date.now()) / 1000));
  }

  start(seconds: number): void {
    this.#deadline = Date.now() + seconds * 1000;
    this.#stopTimer();
    if (seconds <= 0) return;
    this.#timer = setInterval(() => {
      this.host.requestUpdate();
      if (this.remaining === 0) {
        this.#stopTimer();
        this.onDone();
      }
    }, 1000);
    this.host.requestUpdate();
  }

  #stopTimer(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  hostConnected(): void {
    if (this.remaining > 0) this.start(this.remaining);
  }

  hostDisconnected(): void {
    this.#stopTimer();
  }
}

/** <otp-verify>'s two: the resend wait (which says when it is over) and a rate limit's wait. */
export const waits = (host: ReactiveControllerHost, resendReady: () => void) => ({ cooldown: new CountdownController(host, resendReady), wait: new CountdownController(host) });
