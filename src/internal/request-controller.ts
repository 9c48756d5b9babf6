/**
 * Owns the widget's calls to the host: one AbortSignal per call, the previous call aborted when a
 * new one starts, every call aborted when the element leaves the page, and stale answers dropped
 * (the lifecycle of lit/task, for calls started by the person rather than by rendering). A call the
 * handler answers `challenge_required` is proved (a proof of work, or the page's human check) and
 * sent again, the person seeing nothing unless it takes over a second; a call the stand-alone service
 * refuses for its session token is sent again once with a fresh one the page gives.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { callHost, freshSessionToken, HostError, isTokenRefusal, type Caller } from './host-api.js';
import { solveChallenge } from '../core/proof-of-work.js';
import { VerifyHumanCheckEvent } from '../events/human-check.js';
import type { FrictionFields, Route, Routes } from '../core/protocol.js';

export class StaleAnswer extends Error {
  override name = 'StaleAnswer';
}

type Host = ReactiveControllerHost & Caller & { endpoint: string; requestTimeout: number; proving?(seconds: number | null): void };

/** A handler asks again after a proof it finds too weak (pressure rose meanwhile): at most this many proofs per call. */
const MAX_PROOFS = 3;

export class RequestController implements ReactiveController {
  #controller?: AbortController;

  constructor(private readonly host: Host) {
    host.addController(this);
  }

  get busy(): boolean {
    return this.#controller !== undefined;
  }

  /** Calls the host; rejects with StaleAnswer when superseded or disconnected. */
  async call<R extends Route>(route: R, ...[body]: Routes[R]['request'] extends undefined ? [] : [Routes[R]['request']]): Promise<Routes[R]['response']> {
    this.#controller?.abort();
    const controller = (this.#controller = new AbortController());
    let request = body as Routes[R]['request'];
    let freshToken: string | undefined;
    try {
      for (let proofs = 0; ; ) {
        try {
          const answer = await callHost(this.host, this.host.endpoint, route, request, controller.signal, this.host.requestTimeout, freshToken);
          if (controller.signal.aborted) throw new StaleAnswer();
          return answer;
        } catch (error) {
          if (isTokenRefusal(error) && freshToken === undefined) {
            freshToken = await this.#renewToken(error, controller.signal);
          } else if (error instanceof HostError && error.code === 'challenge_required' && proofs < MAX_PROOFS && request) {
            proofs++;
            request = { ...request, ...(await this.#prove(error, controller.signal)) };
          } else {
            throw isTokenRefusal(error) ? new HostError('unauthorized', error.message, error.status) : error;
          }
        }
      }
    } catch (error) {
      if (controller.signal.aborted) throw new StaleAnswer();
      throw error;
    } finally {
      if (this.#controller === controller) this.#controller = undefined;
    }
  }

  /** Asks the page for a fresh session token, once a call; without one the call is signed out. */
  async #renewToken(error: HostError & { code: 'token_missing' | 'token_expired' | 'token_invalid' }, signal: AbortSignal): Promise<string> {
    const token = await freshSessionToken(this.host, error.code, signal);
    if (!token) throw new HostError('unauthorized', error.message, error.status);
    // A token string is replaced for the calls to come; a token function is asked again on each.
    if (typeof this.host.sessionToken !== 'function') this.host.sessionToken = token;
    return token;
  }

  /** The fields that answer the handler's challenge: a solved proof of work, or the page's human check. */
  async #prove(error: HostError, signal: AbortSignal): Promise<FrictionFields> {
    const { challenge, humanCheck } = error.extra;
    if (humanCheck) {
      const event = new VerifyHumanCheckEvent({ signal });
      this.host.dispatchEvent(event);
      if (!event.token) throw error;
      return { humanCheck: await event.token };
    }
    if (!challenge) throw error;
    const started = performance.now();
    // The wait is told once it passes a second, and each second after.
    const ticks = setInterval(() => this.host.proving?.(Math.floor((performance.now() - started) / 1000)), 1000);
    try {
      return { altcha: await solveChallenge(challenge, signal) };
    } finally {
      clearInterval(ticks);
      this.host.proving?.(null);
    }
  }

  abort(): void {
    this.#controller?.abort();
    this.#controller = undefined;
  }

  hostDisconnected(): void {
    this.abort();
  }
}
