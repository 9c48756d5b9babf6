/**
 * Fired when the stand-alone service refuses the widget's session token (expired, missing or not
 * the site's): ask the site's back end for a fresh one and call `respondWith`, while the event is
 * dispatched, with it or a promise of it. The widget keeps the new token and sends the same request
 * again, once; unanswered, the request fails as a signed-out session, with nothing typed lost.
 */
export class VerifySessionTokenEvent extends Event {
  static readonly type = 'verify-session-token';
  /** Set by `respondWith`. */
  token?: Promise<string>;
  constructor(readonly detail: { readonly reason: 'token_missing' | 'token_expired' | 'token_invalid'; readonly signal: AbortSignal }) {
    super(VerifySessionTokenEvent.type, { bubbles: true, composed: true });
  }

  respondWith(token: string | Promise<string>): void {
    this.token = Promise.resolve(token);
  }
}
