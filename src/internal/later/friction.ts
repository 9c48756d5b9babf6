/**
 * What a call does when the handler puts friction in its way: prove (a proof of work, or the page's
 * human check) after a `challenge_required`, or fetch a fresh session token after the service
 * refused one. Loaded on the first such answer (request-controller.ts), so that a page that never
 * meets friction does not carry it.
 */
// Types only from the rest of the widget: a value shared with it would put both in a third file.
import type { Caller, HostError } from '../host-api.js';
import type { FrictionFields } from '../../core/protocol.js';
import { VerifySessionTokenEvent } from '../../events/session-token.js';
import { VerifyHumanCheckEvent } from '../../events/human-check.js';
import { solveChallenge } from '../../core/proof-of-work.js';

export type Prover = Caller & { proving?(seconds: number | null): void };

/**
 * A fresh session token after the service refused one: the page's answer to `verify-session-token`,
 * else a token function's next value; null when neither gives one.
 */
export async function renewToken(host: Caller, reason: VerifySessionTokenEvent['detail']['reason'], signal: AbortSignal): Promise<string | null> {
  const event = new VerifySessionTokenEvent({ reason, signal });
  host.dispatchEvent(event);
  const token = event.token ? await event.token : typeof host.sessionToken === 'function' ? await host.sessionToken() : null;
  if (typeof token !== 'string' || !token) return null;
  // A token string is replaced for the calls to come; a token function is asked again on each.
  if (typeof host.sessionToken !== 'function') host.sessionToken = token;
  return token;
}

/** The fields that answer the handler's challenge: a solved proof of work, or the page's human check. */
export async function prove(host: Prover, error: HostError, signal: AbortSignal): Promise<FrictionFields> {
  const { challenge, humanCheck } = error.extra;
  if (humanCheck) {
    const event = new VerifyHumanCheckEvent({ signal });
    host.dispatchEvent(event);
    if (!event.token) throw error;
    return { humanCheck: await event.token };
  }
  if (!challenge) throw error;
  const started = performance.now();
  // The wait is told once it passes a second, and each second after.
  const ticks = setInterval(() => host.proving?.(Math.floor((performance.now() - started) / 1000)), 1000);
  try {
    return { altcha: await solveChallenge(challenge, signal) };
  } finally {
    clearInterval(ticks);
    host.proving?.(null);
  }
}
