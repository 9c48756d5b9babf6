/**
 * Friction instead of lockouts: under pressure a send or a verify first needs a proof of work (an
 * ALTCHA challenge from altcha-lib, signed with the receipt secret) or, when the host plugs one in,
 * its own human check. The challenge is stateless until solved; a solution is claimed once in the
 * store. A request refused for want of proof has spent nothing: no count, no cooldown, no send.
 */
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { RequestContext } from './context.js';
import { HandlerError } from './errors.js';

/** How far past its free allowance each signal is; the level is their sum. */
export interface Pressure {
  /** Past this, every request needs proof; 0 or less is free. */
  level: number;
  /** What the challenge is for (the route, the session and the identifier): one cannot pay for another. */
  scope: string;
}

const CHALLENGE_SECONDS = 300;

/** Levels above free, beyond `free`: one more for each `step` counted past it. */
export function excess(count: number, free: number, step: number): number {
  return count < free ? 0 : 1 + Math.floor((count - free) / step);
}

/** The counters tried at most for a level: doubling from `minWork`, up to `maxWork`. */
function workFor(ctx: RequestContext, level: number): number {
  const { minWork, maxWork } = ctx.options.limits.friction;
  return Math.min(maxWork, minWork * 2 ** (level - 1));
}

/** Throws `challenge_required` unless the body carries proof enough for this pressure, claimed now. */
export async function requireProof(ctx: RequestContext, body: Record<string, unknown>, { level, scope }: Pressure): Promise<void> {
  if (level <= 0) return;
  const { verifyHumanCheck } = ctx.options;
  if (verifyHumanCheck) {
    if (await humanChecked(ctx, body.humanCheck)) return;
    throw new HandlerError('challenge_required', 'Please confirm you are a person.', { humanCheck: true });
  }
  if (await solved(ctx, body.altcha, level, scope)) return;
  const challenge = await createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(workFor(ctx, level), 0),
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_SECONDS,
    data: { scope, level },
    ...(await secrets(ctx)),
  });
  throw new HandlerError('challenge_required', 'Checking your browser.', { challenge });
}

async function secrets(ctx: RequestContext) {
  // The challenge signed with the receipt secret; the derived key with a key of its own from it.
  return { hmacSignatureSecret: ctx.options.receiptSecret, hmacKeySignatureSecret: await ctx.hash('altcha-key-signature') };
}

async function solved(ctx: RequestContext, payload: unknown, level: number, scope: string): Promise<boolean> {
  if (typeof payload !== 'string' || payload.length > 4096) return false;
  let parsed: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
  try {
    parsed = JSON.parse(atob(payload));
  } catch {
    return false;
  }
  const { challenge, solution } = parsed ?? {};
  const data = challenge?.parameters?.data;
  // Solved for this request, at a level no lower than today's pressure asks.
  if (!challenge || !solution || data?.scope !== scope || !(Number(data.level) >= level)) return false;
  const result = await verifySolution({ challenge, solution, deriveKey, ...(await secrets(ctx)) }).catch(() => null);
  if (!result?.verified) return false;
  // One solution, one request: a solved challenge replayed by a crowd is worth a single request.
  return (await ctx.options.store.claim(`pow:${challenge.signature}`, CHALLENGE_SECONDS)).claimed;
}

async function humanChecked(ctx: RequestContext, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !token || token.length > 4096) return false;
  if (!(await ctx.options.verifyHumanCheck!(token, ctx.request))) return false;
  return (await ctx.options.store.claim(`human:${await ctx.hash(token)}`, CHALLENGE_SECONDS)).claimed;
}
