/**
 * Friction instead of lockouts: under pressure (pressure.ts) a send or a verify first needs proof,
 * a proof of work or, when the host plugs one in, its own human check. A request refused for want
 * of proof has spent nothing: no count, no cooldown, no send.
 */
import type { RequestContext } from '../context.js';
import { HandlerError } from '../errors.js';
import { humanChecked } from './human-check.js';
import type { Pressure } from './pressure.js';
import { challengeFor, solved } from './proof-of-work.js';

/** Throws `challenge_required` unless the body carries proof enough for this pressure, claimed now. */
export async function requireProof(ctx: RequestContext, body: Record<string, unknown>, { level, scope }: Pressure): Promise<void> {
  if (level <= 0) return;
  if (ctx.options.verifyHumanCheck) {
    if (await humanChecked(ctx, body.humanCheck)) return;
    throw new HandlerError('challenge_required', 'Please confirm you are a person.', { humanCheck: true });
  }
  if (await solved(ctx, body.altcha, level, scope)) return;
  throw new HandlerError('challenge_required', 'Checking your browser.', { challenge: await challengeFor(ctx, level, scope) });
}
