/**
 * The code a session is waiting for, so that a reload, a new tab or the back button can go straight
 * back to code entry: the widget learns it from `config`, never from anything the page could
 * forge, and verifies or asks again without knowing the phone or email itself. The identifier is
 * sealed (AES-GCM with a key derived from the receipt secret, Web Crypto), so the store never
 * holds a phone or an email in clear.
 */
import type { OtpChannel, PendingCode } from '../../core/protocol.js';
import { maskIdentifier } from './contacts.js';
import type { RequestContext } from './context.js';

export interface Pending {
  method: OtpChannel;
  identifier: string;
  /** When the code went out (ms since the epoch): the resend wait is counted from it. */
  sentAt: number;
}

const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest('SHA-256', encoder.encode(`pending:${secret}`))
      .then((raw) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']));
    keys.set(secret, key);
  }
  return key;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function seal(secret: string, data: Pending): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyFor(secret), encoder.encode(JSON.stringify(data))));
  return `${toBase64(iv)}.${toBase64(sealed)}`;
}

async function open(secret: string, text: string): Promise<Pending | null> {
  try {
    const [iv, sealed] = text.split('.') as [string, string];
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, await keyFor(secret), fromBase64(sealed));
    return JSON.parse(new TextDecoder().decode(plain)) as Pending;
  } catch {
    // Sealed under another secret (rotated): as if nothing were pending.
    return null;
  }
}

export async function savePending(ctx: RequestContext, session: string, pending: Pending): Promise<void> {
  const { store, limits, receiptSecret } = ctx.options;
  await store.set(`pending:${session}`, limits.challengeSeconds, await seal(receiptSecret, pending));
}

/** Once its code is verified, nothing is pending any more. */
export async function clearPending(ctx: RequestContext, session: string): Promise<void> {
  await ctx.options.store.delete(`pending:${session}`);
}

/** The session's pending code, while its challenge can still be verified. */
export async function readPending(ctx: RequestContext, session: string): Promise<Pending | null> {
  const { store, receiptSecret } = ctx.options;
  const sealed = await store.get(`pending:${session}`);
  const pending = sealed ? await open(receiptSecret, sealed) : null;
  if (!pending) return null;
  const live = await store.get(`challenge:${session}:${await ctx.hash(pending.identifier)}`);
  return live === null ? null : pending;
}

/** What the widget may see of it: the masked destination and the true wait before a new code. */
export function describePending(ctx: RequestContext, pending: Pending): PendingCode {
  const waited = (Date.now() - pending.sentAt) / 1000;
  return {
    method: pending.method,
    to: maskIdentifier(pending.identifier),
    resendAfter: Math.max(0, Math.ceil(ctx.options.limits.resendCooldownSeconds - waited)),
  };
}
