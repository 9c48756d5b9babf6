/**
 * How hard a number, a network and the whole site are being pushed, read before a send or a verify
 * so that proof (proof.ts) is asked for before anything is spent. Each signal counts levels past
 * its free allowance (settings.ts); the pressure is their sum, and 0 is free.
 */
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';
import { countOf, type GuessBudget } from './guess-budget.js';

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
 */
export async function verifyPressure(ctx: RequestContext, budget: GuessBudget, scope: string, sessionAttempts: string): Promise<Pressure> {
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
  return { level: level > 0 ? level + own : 0, scope };
}

/**
 * The pressure on a send: codes to this identifier over all callers past a share of its ceiling,
 * the caller's address past half its cap, sends over the site in the last minute, and guesses at
 * the identifier. Throws when its guess budget is spent: a code nobody may check is not worth paying for.
 */
export async function sendPressure(ctx: RequestContext, budget: GuessBudget, counters: { session: string; identifier: string; ip: string | null }, scope: string): Promise<Pressure> {
  const { limits } = ctx.options;
  const { friction } = limits;
  const [guesses, fromSession, toNumber, fromIp, onSite] = await Promise.all([
    budget.guessesThisHour(),
    countOf(ctx, counters.session),
    countOf(ctx, counters.identifier),
    countOf(ctx, counters.ip),
    countOf(ctx, keys.sendsOnSite()),
  ]);
  // A caller past its own caps is refused by them, at no cost to anyone: no work for a request that cannot pass.
  if (fromSession >= limits.sendsPerSession.max || fromIp >= limits.sendsPerIp.max) return { level: 0, scope };
  const level =
    excess(toNumber, friction.freeSendsPerIdentifier, 2) +
    excess(fromIp, friction.freeSendsPerIp, 5) +
    excess(onSite, friction.freeSendsPerMinute, friction.freeSendsPerMinute) +
    excess(guesses, friction.freeWrongCodesPerIdentifier, 3);
  return { level, scope };
}
