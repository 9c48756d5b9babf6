/**
 * Receipts: the proof of a verification that the host's own server checks (DESIGN §3). A receipt
 * is `base64url(claims).base64url(HMAC-SHA256(claims))`, short-lived, bound to the user, the method
 * and a keyed hash of the identifier, and usable once through the store.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { VerificationMethod } from '../internal/protocol.js';
import type { VerifyStore } from './store/store.js';

export interface ReceiptClaims {
  /** Format version. */
  v: 1;
  /** Unique id: what single use is tracked by. */
  jti: string;
  /** The host's user id, or `session:<hash>` for a verification without a signed-in user. */
  sub: string;
  mth: VerificationMethod;
  /** Keyed hash of the verified phone or email (OTP only); see `hashIdentifier`. */
  idh?: string;
  /** Issued at and expiry, in seconds since the epoch. */
  iat: number;
  exp: number;
}

export type ReceiptFailure = 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'replayed' | 'wrong_user' | 'wrong_method' | 'wrong_identifier';

export class ReceiptError extends Error {
  override name = 'ReceiptError';
  constructor(readonly reason: ReceiptFailure) {
    super(`Receipt refused: ${reason.replace(/_/g, ' ')}`);
  }
}

const encoder = new TextEncoder();

// node:crypto rather than Web Crypto: HMAC there is synchronous and about ten times faster in
// Node, and Bun, Deno and Workers (nodejs_compat) provide it too.
const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest();
const toBase64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || encoder.encode(secret).length < 32) {
    throw new TypeError('receiptSecret must be a string of at least 32 bytes (for example 32 random bytes in hex)');
  }
}

/**
 * A keyed hash of a phone or email: stable for one secret, useless without it. Receipts and store
 * keys carry it instead of the identifier itself.
 */
export async function hashIdentifier(identifier: string, secret: string): Promise<string> {
  return toBase64Url(hmac(secret, `identifier:${identifier}`).subarray(0, 16));
}

/** A keyed hash of a browser session id: what store keys and a guest's receipt (`session:<hash>`) carry. */
export function hashSession(sessionId: string, secret: string): Promise<string> {
  return hashIdentifier(`session:${sessionId}`, secret);
}

export async function signReceipt(claims: ReceiptClaims, secret: string): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify(claims)));
  return `${payload}.${toBase64Url(hmac(secret, payload))}`;
}

export interface VerifyReceiptOptions {
  secret: string;
  /** The store that makes a receipt single-use. Without it the receipt can be replayed. */
  store: VerifyStore;
  /** When given, the receipt must be for this user (the host's user id). */
  user?: string;
  /**
   * When given, the receipt may be for this browser session (the id `getSessionId` returns): how a
   * guest's receipt is bound. With `user` too, either will do.
   */
  session?: string;
  /** Accepts a receipt whoever it was for: without `user` or `session`, this must be said. */
  anyUser?: boolean;
  /** When given, the receipt must be for this method. */
  method?: VerificationMethod;
  /** When given, the receipt must be for this phone (E.164) or email (lower case). */
  identifier?: string;
  /** Seconds of clock difference tolerated between servers; 5 by default. */
  clockSkewSeconds?: number;
  now?: () => number;
}

/** Strict base64url: its alphabet only, no padding or whitespace, and the one spelling of its bytes. */
function canonical(part: string | undefined): part is string {
  return !!part && /^[A-Za-z0-9_-]+$/.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part;
}

/** Checks a receipt and uses it up. Throws a ReceiptError saying why it is refused. */
export async function verifyReceipt(token: unknown, options: VerifyReceiptOptions): Promise<ReceiptClaims> {
  assertSecret(options.secret);
  if (options.user === undefined && options.session === undefined && options.anyUser !== true) {
    throw new TypeError('verifyReceipt needs the user or session the receipt must be for, or { anyUser: true }');
  }
  if (typeof token !== 'string' || token.length > 2048) throw new ReceiptError('malformed');
  const [payload, signature, extra] = token.split('.');
  if (!canonical(payload) || !canonical(signature) || extra !== undefined) throw new ReceiptError('malformed');
  const given = Buffer.from(signature, 'base64url');
  const expected = hmac(options.secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ReceiptError('bad_signature');
  let claims: ReceiptClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new ReceiptError('malformed');
  }
  if (claims?.v !== 1 || typeof claims.jti !== 'string' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') {
    throw new ReceiptError('malformed');
  }
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const skew = options.clockSkewSeconds ?? 5;
  if (claims.exp + skew < now) throw new ReceiptError('expired');
  if (claims.iat - skew > now) throw new ReceiptError('not_yet_valid');
  const subjects = [options.user, options.session === undefined ? undefined : `session:${await hashSession(options.session, options.secret)}`];
  if (!options.anyUser && !subjects.includes(claims.sub)) throw new ReceiptError('wrong_user');
  if (options.method !== undefined && claims.mth !== options.method) throw new ReceiptError('wrong_method');
  if (options.identifier !== undefined && claims.idh !== (await hashIdentifier(options.identifier, options.secret))) {
    throw new ReceiptError('wrong_identifier');
  }
  // Claimed last, so that a receipt refused for another reason is not used up.
  const { claimed } = await options.store.claim(`receipt:${claims.jti}`, Math.max(1, claims.exp - now + skew));
  if (!claimed) throw new ReceiptError('replayed');
  return claims;
}
