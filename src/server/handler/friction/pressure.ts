/**
 * How hard a number, a network and the whole site are being pushed, read in a send's or a verify's
 * plan (store/plan.ts) so that proof (proof.ts) is asked for before anything is spent. Each signal
 * weighs levels past its free allowance (settings.ts); the pressure is their sum, and 0 is free.
 */
import type { PlanStep, Weigh } from '../../store/plan.js';
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';
import type { Window } from '../options.js';

/** Why a plan stops when a caller's cap, or a number's ceiling, is full. */
export const CAP = 'cap';

/**
 * A step on a budget of the host's limits: 1 takes one, 0 reads it. A budget of `max: Infinity` is
 * never spent and costs no step (a store's scripts take finite numbers).
 */
export function budgetStep(key: string | null, { max, windowSeconds }: Window, step: 0 | 1, need: string, weigh?: Weigh): PlanStep[] {
  if (!key || max === Infinity) return [];
  return [{ op: 'spend', key, max, seconds: windowSeconds, step, need, ...(weigh ? { weigh } : {}) }];
}

/** A counter read for its weight only; none for no key (no address known). */
export const weighed = (key: string | null, weigh: Weigh): PlanStep[] => (key ? [{ op: 'get', key, weigh }] : []);

/**
 * The pressure on a verify: the identifier's guesses past its free allowance (`guesses`, its
 * budget's read, GuessBudget), the network's and the site's, and this session's own wrong codes on
 * top once there is any (`attempts`, its counter; the gate adds the slot 'own').
 */
export function verifyPressure(ctx: RequestContext, network: string | null, attempts: string): PlanStep[] {
  const { limits } = ctx.options;
  const { friction } = limits;
  return [
    ...weighed(network && keys.guessesByNetwork(network), ['network', friction.freeWrongCodesPerNetwork, 10]),
    ...weighed(keys.guessesOnSite(), ['site', friction.freeWrongCodesPerMinute, friction.freeWrongCodesPerMinute]),
    // A code checked as often as it may be is refused before anything is counted.
    { op: 'get', key: attempts, max: limits.maxWrongCodes, need: 'attempts', weigh: ['own', 1, 1] },
  ];
}

/** The weight of a number's sends from one network: a level more for each past its free share. `offset` -1 weighs a count that includes this send. */
export const networkWeigh = (ctx: RequestContext, offset = 0): Weigh => ['network', ctx.options.limits.friction.freeSendsPerIdentifierPerNetwork, 1, offset];

/**
 * The pressure on a send: codes to this identifier over all callers past a share of its ceiling,
 * from the caller's network past its free share, the caller's address past half its cap, sends over
 * the site in the last minute (and guesses at the identifier, GuessBudget's read). A caller past
 * its own caps, or a number at its ceiling, stops the plan (CAP) before any work is asked of it.
 */
export function sendPressure(ctx: RequestContext, counters: { session: string; sessionToIdentifier: string; identifier: string; ip: string | null; network: string | null }): PlanStep[] {
  const { limits } = ctx.options;
  const { friction } = limits;
  return [
    ...budgetStep(counters.session, limits.sendsPerSession, 0, CAP),
    ...budgetStep(counters.sessionToIdentifier, limits.sendsPerIdentifier, 0, CAP),
    ...budgetStep(counters.identifier, limits.sendsPerIdentifierAllCallers, 0, CAP, ['number', friction.freeSendsPerIdentifier, 2]),
    ...budgetStep(counters.ip, limits.sendsPerIp, 0, CAP, ['ip', friction.freeSendsPerIp, 5]),
    ...weighed(counters.network, networkWeigh(ctx)),
    ...weighed(keys.sendsOnSite(), ['site', friction.freeSendsPerMinute, friction.freeSendsPerMinute]),
  ];
}
