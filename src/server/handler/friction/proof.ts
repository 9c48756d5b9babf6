/**
 * Friction instead of lockouts: under pressure (pressure.ts) a send or a verify first needs proof,
 * a proof of work or, when the host plugs one in, its own human check. The proof a request carries
 * is checked first (no store); its plan's gate (store/plan.ts) weighs the pressure against it and
 * claims it once. A request refused for want of proof has spent nothing: no count, no cooldown, no send.
 */
import type { PlanStep } from '../../store/plan.js';
import type { RequestContext } from '../context.js';
import { HandlerError } from '../errors.js';
import { humanChecked } from './human-check.js';
import { challengeFor, PROOF_SECONDS, solvedLevel } from './proof-of-work.js';

/** What a proof is for (the route, the session and the identifier): one cannot pay for another. */
export const proofScope = (route: 'send' | 'verify', session: string, id: string): string => `${route}:${session}:${id}`;

/** Why a plan stops at its gate. */
export const PROOF = 'proof';

/** The gate for the proof `body` carries for `scope` (`plus`: a slot added once there is pressure). */
export async function proofGate(ctx: RequestContext, body: Record<string, unknown>, scope: string, plus?: string): Promise<PlanStep & { op: 'gate' }> {
  const carried = ctx.options.verifyHumanCheck ? await humanChecked(ctx, body.humanCheck) : await solvedLevel(ctx, body.altcha, scope);
  return { op: 'gate', ...carried, seconds: PROOF_SECONDS, ...(plus ? { plus } : {}) };
}

/** The refusal at a gate: proof of this level asked for, a challenge to solve or the host's human check. */
export async function proofAsked(ctx: RequestContext, level: number, scope: string): Promise<HandlerError> {
  if (ctx.options.verifyHumanCheck) return new HandlerError('challenge_required', 'Please confirm you are a person.', { humanCheck: true });
  return new HandlerError('challenge_required', 'Checking your browser.', { challenge: await challengeFor(ctx, level, scope) });
}
