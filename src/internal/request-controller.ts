/**
 * Owns the widget's calls to the host: one AbortSignal per call, the previous call aborted when a
 * new one starts, every call aborted when the element leaves the page, and stale answers dropped
 * (the lifecycle of lit/task, for calls started by the person rather than by rendering). A call the
 * handler answers `challenge_required` is proved (a proof of work, or the page's human check) and
 * sent again, the person seeing nothing unless it takes over a second; a call the stand-alone service
 * refuses for its session token is sent again once with a fresh one the page gives. Both load their
 * code (friction.ts) when first needed.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { callHost, HostError, isTokenRefusal } from './host-api.js';
import type { Prover } from './later/friction.js';
import { onDemand } from './on-demand.js';
import type { Route, Routes } from '../core/protocol.js';

export class StaleAnswer extends Error {
  override name = 'StaleAnswer';
}

type Host = ReactiveControllerHost & Prover & { endpoint: string; requestTimeout: number };

/** The friction code, fetched on the first answer that needs it. */
const friction = onDemand(() => import('./later/friction.js'));

/** A handler asks again after a proof it finds too weak (pressure rose meanwhile): at most this many proofs per call. */
const MAX_PROOFS = 3;

/**
 * After a fault on a call's way (no answer in time, the network, the handler's 5xx), its `tries`-th,
 * runs `again` later: three more over half a minute. A refusal (a 4xx) is the handler's answer: not
 * again. The caller's promise settles now, so nobody waits on the retries.
 */
export function againAfterFault(error: unknown, tries: number, again: () => void): void {
  const wait = error instanceof HostError && (error.status === 0 || error.status >= 500) ? [2000, 8000, 20000][tries] : undefined;
  if (wait !== undefined) setTimeout(again, wait);
}

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
            freshToken = (await (await friction()).renewToken(this.host, error.code, controller.signal)) ?? undefined;
            // Without a fresh token the call is signed out.
            if (!freshToken) throw new HostError('unauthorized', error.message, error.status);
          } else if (error instanceof HostError && error.code === 'challenge_required' && proofs < MAX_PROOFS && request) {
            proofs++;
            request = { ...request, ...(await (await friction()).prove(this.host, error, controller.signal)) };
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

  abort(): void {
    this.#controller?.abort();
    this.#controller = undefined;
  }

  hostDisconnected(): void {
    this.abort();
  }
}
