/**
 * The code a session is waiting for, so that a reload, a new tab or the back button can go straight
 * back to code entry: the widget learns it from `config`, never from anything the page could
 * forge, and verifies or asks again without knowing the phone or email itself. The identifier is
 * sealed (AES-GCM with a key derived from the receipt secret; see keyed-crypto.ts), so the store never
 * holds a phone or an email in clear.
 */
import type { OtpChannel, PendingCode } from '../../core/protocol.js';
import { maskIdentifier } from './contacts.js';
import type { RequestContext } from './context.js';
import { keys } from '../store/keys.js';

export interface Pending {
  method: OtpChannel;
  identifier: string;
  /** When the code went out (ms since the epoch): the resend wait is counted from it. */
  sentAt: number;
}

/** The record as the store keeps it (keys.pending), sealed. */
export function sealPending(ctx: RequestContext, pending: Pending): Promise<string> {
  const { crypto, receiptSecret } = ctx.options;
  return crypto.seal(receiptSecret, JSON.stringify(pending));
}

/** The session's pending code, while its challenge can still be verified. */
export async function readPending(ctx: RequestContext, session: string): Promise<Pending | null> {
  const { store, crypto, receiptSecret } = ctx.options;
  const sealed = await store.get(keys.pending(session));
  // Sealed under another (rotated) secret: as if nothing were pending.
  const plain = sealed ? await crypto.open(receiptSecret, sealed) : null;
  const pending = plain === null ? null : (JSON.parse(plain) as Pending);
  if (!pending) return null;
  const live = await store.get(keys.code(session, await ctx.hash(pending.identifier)));
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
