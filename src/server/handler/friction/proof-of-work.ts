/**
 * The proof of work: an ALTCHA challenge from altcha-lib, signed with the receipt secret, so that it
 * is stateless until solved; a solution is claimed once in the store. The widget solves it with Web
 * Crypto (core/proof-of-work.ts).
 */
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';

/** How long a challenge may be solved, and its solution remembered as used. */
export const PROOF_SECONDS = 300;

/** The counters tried at most for a level: doubling from `minWork`, up to `maxWork`. */
function workFor(ctx: RequestContext, level: number): number {
  const { minWork, maxWork } = ctx.options.limits.friction;
  return Math.min(maxWork, minWork * 2 ** (level - 1));
}

async function secrets(ctx: RequestContext) {
  // The challenge signed with the receipt secret; the derived key with a key of its own from it.
  return { hmacSignatureSecret: ctx.options.receiptSecret, hmacKeySignatureSecret: await ctx.hash('altcha-key-signature') };
}

/** A challenge for this scope, as hard as the level asks. */
export async function challengeFor(ctx: RequestContext, level: number, scope: string): Promise<Challenge> {
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(workFor(ctx, level), 0),
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + PROOF_SECONDS,
    data: { scope, level },
    ...(await secrets(ctx)),
  });
}

/**
 * The level `payload` proves for this scope, and the key that claims it once (the store claims it
 * in the request's plan, only if the pressure needs it); level 0 when it proves nothing.
 */
export async function solvedLevel(ctx: RequestContext, payload: unknown, scope: string): Promise<{ over: number; proof?: string }> {
  if (typeof payload !== 'string' || payload.length > 4096) return { over: 0 };
  let parsed: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
  try {
    parsed = JSON.parse(atob(payload));
  } catch {
    return { over: 0 };
  }
  const { challenge, solution } = parsed ?? {};
  const data = challenge?.parameters?.data;
  // Solved for this request: a proof for another route, session or number proves nothing here.
  const level = Number(data?.level);
  if (!challenge || !solution || data?.scope !== scope || !(level >= 1)) return { over: 0 };
  const result = await verifySolution({ challenge, solution, deriveKey, ...(await secrets(ctx)) }).catch(() => null);
  if (!result?.verified || !challenge.signature) return { over: 0 };
  // One solution, one request: a solved challenge replayed by a crowd is worth a single request.
  return { over: level, proof: keys.proofOfWork(challenge.signature) };
}
