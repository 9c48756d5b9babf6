import type { Route } from '../core/protocol.js';

export interface VerifyRequestDetail {
  readonly route: Route;
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly body: unknown;
  readonly headers: Headers;
  /** Aborts when the widget gives up (its deadline, a newer call, removal): pass it to your own fetch. */
  readonly signal: AbortSignal;
}

/**
 * Fired before each call to the host handler. Amend `headers` (a CSRF token, say), or call
 * `preventDefault()` and set `response` to take the request over and answer it yourself.
 */
export class VerifyRequestEvent extends Event {
  static readonly type = 'verify-request';
  /** Set after preventDefault(): the answer the widget will read instead of its own fetch. */
  response?: Promise<Response>;
  constructor(readonly detail: VerifyRequestDetail) {
    super(VerifyRequestEvent.type, { bubbles: true, composed: true, cancelable: true });
  }
}
