/**
 * Biometric references kept in the site's own database (demo/pages/any-backend.md): the handler's `getReference`
 * and `saveReference` as calls to the site, `GET` and `PUT {url}/{userId}/{face|voice}` with
 * `{"sample": base64}`, each signed as Stripe signs its webhooks: `Verify-Signature: t=<unix
 * seconds>,v1=<hex HMAC-SHA256 of "t.METHOD.path.body">` under the server secret. The site checks
 * the signature and refuses one older than 300 s, so a request seen on the way cannot be replayed.
 */
import type { BiometricKind } from '../../core/protocol.js';
import { hmacKey } from '../keyed-crypto.js';

export const SIGNATURE_HEADER = 'verify-signature';

export interface ReferenceCallbackOptions {
  /** The site's endpoint, such as `https://site.example/verify-references`. */
  url: string;
  /** The secret the site checks the signature with, at least 32 bytes. */
  secret: string;
  fetch?: typeof fetch;
  /** Milliseconds the site may take to answer; 5000 by default. */
  timeoutMs?: number;
}

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** The `Verify-Signature` value for a request: what the site recomputes to trust it. */
export async function signatureFor(secret: string, method: string, path: string, body: string, time = Math.floor(Date.now() / 1000)): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(`${time}.${method}.${path}.${body}`));
  return `t=${time},v1=${hex(mac)}`;
}

export class ReferenceCallbackError extends Error {
  override name = 'ReferenceCallbackError';
}

export function referenceCallbacks(options: ReferenceCallbackOptions) {
  const base = new URL(options.url.replace(/\/+$/, ''));
  const send = options.fetch ?? fetch;
  async function call(method: 'GET' | 'PUT', userId: string, kind: BiometricKind, body = ''): Promise<Response> {
    const url = new URL(`${base.pathname}/${encodeURIComponent(userId)}/${kind}`, base);
    const headers: Record<string, string> = { [SIGNATURE_HEADER]: await signatureFor(options.secret, method, url.pathname, body), accept: 'application/json' };
    if (body) headers['content-type'] = 'application/json';
    const response = await send(url, { method, headers, body: body || undefined, redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs ?? 5000) });
    if (!response.ok && response.status !== 404) throw new ReferenceCallbackError(`the site answered ${method} ${url.pathname} with ${response.status}`);
    return response;
  }
  return {
    async getReference(userId: string, kind: BiometricKind): Promise<string | null> {
      const response = await call('GET', userId, kind);
      if (response.status === 404) return null;
      const { sample } = (await response.json()) as { sample?: unknown };
      if (typeof sample !== 'string') throw new ReferenceCallbackError('the site answered a reference without a sample');
      return sample || null;
    },
    async saveReference(userId: string, kind: BiometricKind, sample: string): Promise<void> {
      const response = await call('PUT', userId, kind, JSON.stringify({ sample }));
      await response.body?.cancel();
      if (response.status === 404) throw new ReferenceCallbackError('the site has no reference endpoint for this user');
    },
  };
}
