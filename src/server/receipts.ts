/**
 * Receipts: the proof of a verification that the host's own server checks (demo/pages/protocol.md). A receipt
 * is a JWT signed with HS256 (so a PHP, Python or Go host checks it with a stock library),
 * short-lived, bound to the user, the method and a keyed hash of the identifier, and usable once
 * through the store. Web Crypto only, through jose: it runs wherever the handler does.
 */
import { base64url, errors, jwtVerify, SignJWT } from 'jose';
import { VERIFICATION_METHODS, type VerificationMethod } from '../core/protocol.js';
import type { VerifyStore } from './store/store.js';
import { keys } from './store/keys.js';
import { hmacKey, keyedHash, webKeyedCrypto, type KeyedCrypto } from './keyed-crypto.js';

export interface ReceiptClaims {
  /** Unique id: what single use is tracked by. */
  jti: string;
  /** The host's user id, or `session:<hash>` for a verification without a signed-in user. */
  sub: string;
  mth: VerificationMethod;
  /** Keyed hash of the verified phone or email (OTP only); see `hashIdentifier`. */
  idh?: string;
  /**
   * A face or a voice: whether the person's presence was proven, not only their likeness (a face's
   * live check passed; a voice's digits heard), or false where the check was not made (a photo
   * taken, a language no recogniser hears).
   */
  prs?: boolean;
  /** Issued at and expiry, in seconds since the epoch. */
  iat: number;
  exp: number;
}

export type ReceiptFailure = 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'replayed' | 'wrong_user' | 'wrong_method' | 'wrong_identifier' | 'presence_not_proven';

export class ReceiptError extends Error {
  override name = 'ReceiptError';
  constructor(readonly reason: ReceiptFailure) {
    super(`Receipt refused: ${reason.replace(/_/g, ' ')}`);
  }
}

const encoder = new TextEncoder();

export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || encoder.encode(secret).length < 32) {
    throw new TypeError('receiptSecret must be a string of at least 32 bytes (for example 32 random bytes in hex)');
  }
}

/**
 * A keyed hash of a phone or email: stable for one secret, useless without it. Receipts and store
 * keys carry it instead of the identifier itself.
 */
export function hashIdentifier(identifier: string, secret: string): Promise<string> {
  return keyedHash(webKeyedCrypto, secret, identifier);
}

/** A keyed hash of a browser session id: what store keys and a guest's receipt (`session:<hash>`) carry. */
export function hashSession(sessionId: string, secret: string, keyed: KeyedCrypto = webKeyedCrypto): Promise<string> {
  return keyedHash(keyed, secret, `session:${sessionId}`);
}

export async function signReceipt(claims: ReceiptClaims, secret: string): Promise<string> {
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(await hmacKey(secret));
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
  /** When true, the receipt must say the person's presence was proven (`prs`): a face or voice whose live check was not made is refused. */
  presence?: boolean;
  /** Seconds of clock difference tolerated between servers; 5 by default. */
  clockSkewSeconds?: number;
  now?: () => number;
}

/** Strict base64url: its alphabet only, no padding or whitespace, and the one spelling of its bytes. */
function canonical(part: string | undefined): part is string {
  if (!part || !/^[A-Za-z0-9_-]+$/.test(part)) return false;
  try {
    return base64url.encode(base64url.decode(part)) === part;
  } catch {
    return false;
  }
}

/** Checks a receipt and uses it up. Throws a ReceiptError saying why it is refused. */
export async function verifyReceipt(token: unknown, options: VerifyReceiptOptions): Promise<ReceiptClaims> {
  assertSecret(options.secret);
  if (options.user === undefined && options.session === undefined && options.anyUser !== true) {
    throw new TypeError('verifyReceipt needs the user or session the receipt must be for, or { anyUser: true }');
  }
  if (typeof token !== 'string' || token.length > 2048) throw new ReceiptError('malformed');
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every(canonical)) throw new ReceiptError('malformed');
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const skew = options.clockSkewSeconds ?? 5;
  let claims: ReceiptClaims;
  try {
    const verified = await jwtVerify<ReceiptClaims>(token, await hmacKey(options.secret), {
      algorithms: ['HS256'],
      requiredClaims: ['jti', 'sub', 'iat', 'exp'],
      clockTolerance: skew,
      currentDate: new Date(now * 1000),
    });
    claims = verified.payload as ReceiptClaims;
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) throw new ReceiptError('bad_signature');
    if (error instanceof errors.JWTExpired) throw new ReceiptError('expired');
    throw new ReceiptError('malformed');
  }
  if (!VERIFICATION_METHODS.includes(claims.mth)) throw new ReceiptError('malformed');
  if (claims.iat - skew > now) throw new ReceiptError('not_yet_valid');
  const subjects = [options.user, options.session === undefined ? undefined : `session:${await hashSession(options.session, options.secret)}`];
  if (!options.anyUser && !subjects.includes(claims.sub)) throw new ReceiptError('wrong_user');
  if (options.method !== undefined && claims.mth !== options.method) throw new ReceiptError('wrong_method');
  if (claims.prs !== undefined && typeof claims.prs !== 'boolean') throw new ReceiptError('malformed');
  if (options.presence === true && claims.prs !== true) throw new ReceiptError('presence_not_proven');
  if (options.identifier !== undefined && claims.idh !== (await hashIdentifier(options.identifier, options.secret))) {
    throw new ReceiptError('wrong_identifier');
  }
  // Claimed last, so that a receipt refused for another reason is not used up.
  const { claimed } = await options.store.claim(keys.receipt(claims.jti), Math.max(1, claims.exp - now + skew));
  if (!claimed) throw new ReceiptError('replayed');
  return claims;
}
