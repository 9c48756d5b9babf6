/**
 * Fired when the host handler asks for the host's own human check (its `verifyHumanCheck` option):
 * run it (Cloudflare Turnstile, hCaptcha) and call `respondWith`, while the event is dispatched, with
 * the token or a promise of it.
 * The widget sends the same request again with the token; unanswered, the request fails.
 */
export class VerifyHumanCheckEvent extends Event {
  static readonly type = 'verify-human-check';
  /** Set by `respondWith`. */
  token?: Promise<string>;
  constructor(readonly detail: { readonly signal: AbortSignal }) {
    super(VerifyHumanCheckEvent.type, { bubbles: true, composed: true });
  }

  respondWith(token: string | Promise<string>): void {
    this.token = Promise.resolve(token);
  }
}
