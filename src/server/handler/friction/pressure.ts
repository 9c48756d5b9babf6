/**
 * How hard a number, a network and the whole site are being pushed, read before a send or a verify
 * so that proof (proof.ts) is asked for before anything is spent. Each signal counts levels past
 * its free allowance (settings.ts); the pressure is their sum, and 0 is free.
 */
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';
import type { Window } from '../options.js';
import { countOf, stepOn, type GuessBudget } from './guess-budget.js';

export interface Pressure {
  /** Past this, every request needs proof; 0 or less is free. */
  level: number;
  /** What the proof is for (the route, the session and the identifier): one cannot pay for another. */
  scope: string;
}

/** Levels above free, beyond `free`: one more for each `step` counted past it. */
export function excess(count: number, free: number, step: number): number {
  return count < free ? 0 : 1 + Math.floor((count - free) / step);
}

/**
 * The pressure on a verify: the identifier's guesses past its free allowance, this session's own
 * wrong codes on top once there is any, the network's and the site's. Throws when the budget is spent.
 * `attempts` is this session's count of checks of its code so far.
 */
export async function verifyPressure(ctx: RequestContext, budget: GuessBudget, scope: string, sessionAttempts: string): Promise<Pressure & { attempts: number }> {
  const { friction } = ctx.options.limits;
  const [hour, fromNetwork, onSite, own] = await Promise.all([
    budget.guessesThisHour(),
    countOf(ctx, budget.network && keys.guessesByNetwork(budget.network)),
    countOf(ctx, keys.guessesOnSite()),
    countOf(ctx, sessionAttempts),
  ]);
  const level =
    excess(hour, friction.freeWrongCodesPerIdentifier, 3) + excess(fromNetwork, friction.freeWrongCodesPerNetwork, 10) + excess(onSite, friction.freeWrongCodesPerMinute, friction.freeWrongCodesPerMinute);
  // Whoever is guessing pays more with each wrong code of theirs.
  return { level: level > 0 ? level + own : 0, scope, attempts: own };
}

/** How much of a budget is in use now, and when it is full, the seconds until one is back; none in use for no key (no address known). */
async function usedOf(ctx: RequestContext, key: string | null, window: Window): Promise<{ used: number; full: number }> {
  const answer = key ? await stepOn(ctx, key, window, 0) : null;
  return { used: answer?.used ?? 0, full: answer && !answer.spent ? answer.retryAfter : 0 };
}

/** Levels a number's sends from one network add, with `sent` before this one: one more for each past its free share. */
export const networkLevel = (ctx: RequestContext, sent: number) => excess(sent, ctx.options.limits.friction.freeSendsPerIdentifierPerNetwork, 1);

/**
 * The pressure on a send: codes to this identifier over all callers past a share of its ceiling,
 * from the caller's network past its free share, the caller's address past half its cap, sends over
 * the site in the last minute, and guesses at the identifier. Throws when its guess budget is spent:
 * a code nobody may check is not worth paying for. `network` is the network's part of the level;
 * `cannotPass`, when a cap will refuse the send whatever is paid, the seconds until it would not (else 0).
 */
export async function sendPressure(
  ctx: RequestContext,
  budget: GuessBudget,
  counters: { session: string; sessionToIdentifier: string; identifier: string; ip: string | null; network: string | null },
  scope: string,
): Promise<Pressure & { network: number; cannotPass: number }> {
  const { limits } = ctx.options;
  const { friction } = limits;
  const [guesses, fromSession, fromSessionToNumber, toNumber, fromIp, fromNetwork, onSite] = await Promise.all([
    budget.guessesThisHour(),
    usedOf(ctx, counters.session, limits.sendsPerSession),
    usedOf(ctx, counters.sessionToIdentifier, limits.sendsPerIdentifier),
    usedOf(ctx, counters.identifier, limits.sendsPerIdentifierAllCallers),
    usedOf(ctx, counters.ip, limits.sendsPerIp),
    countOf(ctx, counters.network),
    countOf(ctx, keys.sendsOnSite()),
  ]);
  // A caller past its own caps, or a number at its ceiling, is refused by them: no work for a request that cannot pass.
  const cannotPass = Math.max(fromSession.full, fromSessionToNumber.full, fromIp.full, toNumber.full);
  if (cannotPass) return { level: 0, scope, network: 0, cannotPass };
  const network = networkLevel(ctx, fromNetwork);
  const level =
    excess(toNumber.used, friction.freeSendsPerIdentifier, 2) +
    network +
    excess(fromIp.used, friction.freeSendsPerIp, 5) +
    excess(onSite, friction.freeSendsPerMinute, friction.freeSendsPerMinute) +
    excess(guesses, friction.freeWrongCodesPerIdentifier, 3);
  return { level, scope, network, cannotPass: 0 };
}
