/**
 * The handler's keyed crypto under the receipt secret: HMAC-SHA256 for the hashes that stand in
 * for sessions, networks and identifiers, and AES-256-GCM for what the store must not hold in
 * clear. Web Crypto here, for every runtime; the Node entry gives node:crypto's, which makes the
 * same bytes for a fraction of the CPU (Web Crypto runs each call as a job of its own).
 */
import { base64url } from 'jose';
import { fromBase64 } from '../core/media-sniff.js';

export interface KeyedCrypto {
  /** HMAC-SHA256 of `data`, keyed by `secret`. */
  hmac(secret: string, data: string): Promise<Uint8Array>;
  /** AES-256-GCM under SHA-256("pending:" + secret): `base64(iv).base64(ciphertext and tag)`. */
  seal(secret: string, plain: string): Promise<string>;
  /** What `seal` sealed, or null when it was sealed under another secret or altered. */
  open(secret: string, sealed: string): Promise<string | null>;
}

const encoder = new TextEncoder();

/** What `make` gives for a secret, made once per secret (keys cost more to derive than to use). */
export function memo<T>(make: (secret: string) => T): (secret: string) => T {
  const made = new Map<string, T>();
  return (secret) => {
    if (!made.has(secret)) made.set(secret, make(secret));
    return made.get(secret)!;
  };
}

/** The HMAC key of a secret; receipts are signed with it too. */
export const hmacKey = memo((secret) => crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));

const sealKey = memo(async (secret) =>
  crypto.subtle.importKey('raw', await crypto.subtle.digest('SHA-256', encoder.encode(`pending:${secret}`)), 'AES-GCM', false, ['encrypt', 'decrypt']),
);

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export const webKeyedCrypto: KeyedCrypto = {
  hmac: async (secret, data) => new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(data))),
  async seal(secret, plain) {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await sealKey(secret), encoder.encode(plain)));
    return `${toBase64(iv)}.${toBase64(sealed)}`;
  },
  async open(secret, text) {
    try {
      const [iv = '', sealed = ''] = text.split('.');
      return new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, await sealKey(secret), fromBase64(sealed)));
    } catch {
      return null;
    }
  },
};

/**
 * The keyed hash of a value (see `hashIdentifier`), remembered for the values seen last: each
 * request hashes its session and network, and the send, check and resume of one code hash the
 * same identifier, where a Map look-up costs nothing.
 */
export function keyedHash(keyed: KeyedCrypto, secret: string, value: string): Promise<string> {
  const key = `${secret}\u0000${value}`;
  let hash = recentHashes.get(key);
  if (hash) {
    recentHashes.delete(key); // to the back of the line: kept as long as it is used
  } else {
    hash = keyed.hmac(secret, `identifier:${value}`).then((mac) => base64url.encode(mac.subarray(0, 16)));
    hash.catch(() => recentHashes.delete(key));
    if (recentHashes.size >= RECENT_HASHES) recentHashes.delete(recentHashes.keys().next().value!);
  }
  recentHashes.set(key, hash);
  return hash;
}

const recentHashes = new Map<string, Promise<string>>();
const RECENT_HASHES = 10_000;
