/** One request as the routes see it: checked origin, capped body, and who is asking. */
import { readJsonObject, type RequestInfo } from '../../core/http.js';
import { hashSession } from '../receipts.js';
import { keyedHash } from '../keyed-crypto.js';
import { forwardedFor, networkOf, wideNetworkOf } from './client-address.js';
import { fail } from './errors.js';
import type { ResolvedOptions } from './options.js';
import type { BiometricKind, HandoffState, RouteInfo } from '../../core/protocol.js';

/** A phone's link (handoff.ts): who and what it captures for, in place of the host's session. */
export interface PhoneHandoff {
  /** The keyed hash of the link's token, which its store keys use. */
  token: string;
  user: string;
  /** The desktop's session (its keyed hash). */
  session: string;
  kind: BiometricKind;
  mode: 'verify' | 'enroll';
  code: string;
  /** Whether the desktop had fresh proof to register, when it made the link. */
  proof: boolean;
  /** When the link ends (ms since the epoch). */
  exp: number;
  state: HandoffState;
}

export class RequestContext {
  #session?: Promise<string | null>;
  #networkRead?: Promise<string | null>;
  /** For the log: how a code went or is checked (a channel; `phone` for a check by SMS or WhatsApp). */
  channel?: string;
  #answer!: () => void;
  /** Set when a phone calls through a link: the user and session are the link's, never the host's. */
  handoff?: PhoneHandoff;
  /** Settles once the handler has built its answer: work the answer does not wait for starts then (afterwards.ts). */
  readonly answered = new Promise<void>((resolve) => (this.#answer = resolve));

  constructor(
    readonly request: Request,
    readonly options: ResolvedOptions,
    readonly info: RequestInfo,
    /** The route's entry in the protocol's table: its method and the fields it accepts. */
    readonly route: RouteInfo,
  ) {}

  /** The answer is built (the handler's last step). */
  answer(): void {
    this.#answer();
  }

  /** Aborts when the caller goes away: the service's calls stop with it. */
  get signal(): AbortSignal {
    return this.info.signal ?? this.request.signal;
  }

  /** The route's body cap: the JSON one, or the media one for face and voice. */
  get maxBodyBytes(): number {
    return this.route.media ? this.options.limits.maxMediaBodyBytes : this.options.limits.maxJsonBytes;
  }

  /** CSRF defence: a browser always sends Origin on POST; it must be one we serve. */
  checkOrigin(): void {
    const { headers } = this.request;
    const { allowedOrigins, requiredHeader } = this.options;
    if (requiredHeader && !headers.get(requiredHeader)) fail('forbidden', `The ${requiredHeader} header is required.`);
    const origin = headers.get('origin');
    if (origin) {
      const allowed = allowedOrigins ? allowedOrigins.includes(origin) : sameHost(origin, this.#addressedHost());
      if (!allowed) fail('forbidden', 'This origin may not call the verification endpoint.');
    } else if (headers.get('sec-fetch-site') === 'cross-site') {
      fail('forbidden', 'Cross-site requests are not accepted.');
    }
  }

  /**
   * The host the browser addressed: the Host header (frameworks such as Next.js rebuild
   * `request.url` from their own listening address), or behind the host's own proxies the
   * X-Forwarded-Host they set; the URL's host when neither is there.
   */
  #addressedHost(): string {
    const { headers, url } = this.request;
    const { trustProxy } = this.options;
    const forwarded = trustProxy ? forwardedFor(headers.get('x-forwarded-host'), trustProxy) : null;
    return forwarded ?? headers.get('host') ?? new URL(url).host;
  }

  /** The JSON body, refused before parsing when too large, slow or deep, and with no field beyond the route's. */
  async body(): Promise<Record<string, unknown>> {
    const allowed = this.route.fields;
    if (!/^application\/json\b/i.test(this.request.headers.get('content-type') ?? '')) {
      fail('invalid_input', 'Send the request as application/json.', { status: 415 });
    }
    const body = await readJsonObject(this.request, { maxBytes: this.maxBodyBytes, timeoutMs: this.options.limits.bodyReadSeconds * 1000, source: this.info.body });
    // Whatever the browser adds (user_id, a reference sample, a chosen code) is refused, never passed on.
    const extra = Object.keys(body).find((key) => !allowed.includes(key));
    if (extra) fail('invalid_input', `The field ${extra} is not accepted here.`, { field: extra });
    return body;
  }

  async user(): Promise<string | null> {
    if (this.handoff) return this.handoff.user;
    const user = await this.options.getUser(this.request);
    return typeof user === 'string' && user ? user : null;
  }

  async requireUser(): Promise<string> {
    return (await this.user()) ?? fail('unauthorized', 'Sign in to continue.');
  }

  /** A keyed hash of the session id (store keys never hold the id itself); null without a session. */
  sessionOrNull(): Promise<string | null> {
    this.#session ??= (async () => {
      // The phone's own session: its live challenge is its own, not the desktop's.
      if (this.handoff) return `handoff.${this.handoff.token}`;
      const id = (await this.options.getSessionId?.(this.request)) ?? (await this.user());
      const session = id ? await hashSession(id, this.options.receiptSecret, this.options.crypto) : null;
      // What this session's last request wrote after its answer is read as written.
      if (session) await this.options.afterwards.written(session);
      return session;
    })();
    return this.#session;
  }

  async session(): Promise<string> {
    return (await this.sessionOrNull()) ?? fail('unauthorized', 'Your session has expired. Reload the page to continue.');
  }

  /**
   * A keyed hash of the caller's network, for per-IP caps: from the host's `getClientIp`, else with
   * `trustProxy` from X-Forwarded-For, else the address the adapter saw. Null when none is known:
   * the per-IP cap is then skipped, rather than one shared bucket shutting every caller out.
   */
  async clientKey(): Promise<string | null> {
    const network = await this.#network();
    return network && this.hash(`ip:${network}`);
  }

  /** The same for the wider network around the caller (an IPv4 /24, an IPv6 /48); null when unknown. */
  async wideNetworkKey(): Promise<string | null> {
    const network = await this.#network();
    return network && this.hash(`net:${wideNetworkOf(network)}`);
  }

  #network(): Promise<string | null> {
    this.#networkRead ??= (async () => {
      const { getClientIp, trustProxy } = this.options;
      const address = getClientIp
        ? await getClientIp(this.request)
        : trustProxy
          ? (forwardedFor(this.request.headers.get('x-forwarded-for'), trustProxy) ?? this.info.clientIp)
          : this.info.clientIp;
      const network = networkOf(address);
      if (!network) this.options.unknownClient();
      return network;
    })();
    return this.#networkRead;
  }

  /** The keyed hash of a value, as `hashIdentifier` makes it. */
  hash(value: string): Promise<string> {
    return keyedHash(this.options.crypto, this.options.receiptSecret, value);
  }

  /** The keyed hash of a user id, for the keys of that user's faces, voices and proof. */
  userHash(user: string): Promise<string> {
    return this.hash(`user:${user}`);
  }
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
