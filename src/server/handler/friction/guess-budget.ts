/**
 * A number's guess budget: wrong codes for one phone or email over all callers and all its codes, a
 * hard cap per hour and per day that no number of sessions multiplies. A spent budget sends the
 * person to another channel, or where there is none, to a wait of minutes: the hour's budget comes
 * back a guess at a time (store/budget.ts), not at the hour's end.
 */
import type { OtpChannel } from '../../../core/protocol.js';
import type { Operation, PlanStep } from '../../store/plan.js';
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';
import { HandlerError } from '../errors.js';
import { budgetStep } from './pressure.js';

/** Why a plan stops when the budget is spent. */
export const GUESSES = 'guesses';

export class GuessBudget {
  constructor(
    private readonly ctx: RequestContext,
    private readonly identifier: string,
    private readonly id: string,
    /** The caller's /24 (/48), hashed; null when unknown. */
    readonly network: string | null,
  ) {}

  /**
   * The answer when the budget is spent: the fallback channel at once, when it reaches the person
   * by another identifier (email for a phone, a phone for an email), and no wait to sit out.
   */
  refusal(retryAfter: number): HandlerError {
    const { fallbackChannel } = this.ctx.options;
    const fallback: OtpChannel | undefined = fallbackChannel && (fallbackChannel === 'email') !== this.identifier.includes('@') ? fallbackChannel : undefined;
    if (fallback) return new HandlerError('try_another_channel', 'Too many wrong codes were tried for this number or email. Please receive a code another way.', { fallback });
    return new HandlerError('rate_limited', 'Too many wrong codes were tried for this number or email. Please wait before trying again.', { retryAfter });
  }

  /**
   * The hour's and the day's budgets: read (0), stopping the plan when either is spent, the hour's
   * guesses past its free allowance weighing on the pressure; or one check counted (1) before the
   * service is asked, refused past either.
   */
  steps(step: 0 | 1): PlanStep[] {
    const { limits } = this.ctx.options;
    return [
      ...budgetStep(keys.guesses(this.id), limits.wrongCodesPerIdentifier, step, GUESSES, step ? undefined : ['guesses', limits.friction.freeWrongCodesPerIdentifier, 3]),
      ...budgetStep(keys.guessesToday(this.id), limits.wrongCodesPerIdentifierPerDay, step, GUESSES),
    ];
  }

  /** A wrong code: the network's and the site's pressure grow (signals only, never a cap). */
  wrong(): Operation[] {
    return [...(this.network ? [{ op: 'increment', key: keys.guessesByNetwork(this.network), seconds: 3600 } as const] : []), { op: 'increment', key: keys.guessesOnSite(), seconds: 60 }];
  }
}
