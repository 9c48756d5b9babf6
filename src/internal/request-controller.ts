/**
 * Owns the widget's calls to the host: one AbortSignal per call, the previous call aborted when a
 * new one starts, every call aborted when the element leaves the page, and stale answers dropped
 * (the lifecycle of lit/task, for calls started by the person rather than by rendering).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { callHost } from './host-api.js';
import type { Route, Routes } from '../core/protocol.js';

export class StaleAnswer extends Error {
  override name = 'StaleAnswer';
}

export class RequestController implements ReactiveController {
  #controller?: AbortController;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement & { endpoint: string; requestTimeout: number }) {
    host.addController(this);
  }

  get busy(): boolean {
    return this.#controller !== undefined;
  }

  /** Calls the host; rejects with StaleAnswer when superseded or disconnected. */
  async call<R extends Route>(route: R, ...[body]: Routes[R]['request'] extends undefined ? [] : [Routes[R]['request']]): Promise<Routes[R]['response']> {
    this.#controller?.abort();
    const controller = (this.#controller = new AbortController());
    try {
      const answer = await callHost(this.host, this.host.endpoint, route, body as Routes[R]['request'], controller.signal, this.host.requestTimeout);
      if (controller.signal.aborted) throw new StaleAnswer();
      return answer;
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
