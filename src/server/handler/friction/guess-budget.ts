/**
 * A number's guess budget: wrong codes for one phone or email over all callers and all its codes, a
 * hard cap per hour and per day that no number of sessions multiplies. A spent budget sends the
 * person to another channel, or where there is none, to a wait of minutes: the hour's budget comes
 * back a guess at a time (store/budget.ts), not at the hour's end.
 */
import type { OtpChannel } from '../../../core/protocol.js';
import type { BudgetAnswer, BudgetStep } from '../../store/budget.js';
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';
import type { Window } from '../options.js';
import { HandlerError } from '../errors.js';

/** A counter's count; 0 for a key that is absent, or none (no network known). */
export async function countOf(ctx: RequestContext, key: string | null): Promise<number> {
  return key ? Number(await ctx.options.store.get(key)) || 0 : 0;
}

/**
 * One step on a budget of the host's limits (store.spend); a budget of `max: Infinity` is never
 * spent and costs no store call (a store's scripts take finite numbers).
 */
export function stepOn(ctx: RequestContext, key: string, { max, windowSeconds }: Window, step: BudgetStep = 1): Promise<BudgetAnswer> {
  if (max === Infinity) return Promise.resolve({ spent: true, used: 0, retryAfter: 0 });
  return ctx.options.store.spend(key, max, windowSeconds, step);
}

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
  #refusal(retryAfter: number): HandlerError {
    const { fallbackChannel } = this.ctx.options;
    const fallback: OtpChannel | undefined = fallbackChannel && (fallbackChannel === 'email') !== this.identifier.includes('@') ? fallbackChannel : undefined;
    if (fallback) return new HandlerError('try_another_channel', 'Too many wrong codes were tried for this number or email. Please receive a code another way.', { fallback });
    return new HandlerError('rate_limited', 'Too many wrong codes were tried for this number or email. Please wait before trying again.', { retryAfter });
  }

  /** The hour's and the day's budgets, by key. */
  #budgets(): [string, Window][] {
    const { limits } = this.ctx.options;
    return [
      [keys.guesses(this.id), limits.wrongCodesPerIdentifier],
      [keys.guessesToday(this.id), limits.wrongCodesPerIdentifierPerDay],
    ];
  }

  /** One step on both budgets. */
  #step(step: BudgetStep): Promise<BudgetAnswer[]> {
    return Promise.all(this.#budgets().map(([key, window]) => stepOn(this.ctx, key, window, step)));
  }

  /** Wrong codes of this identifier's hour still in use; throws when its hour or day is spent. */
  async guessesThisHour(): Promise<number> {
    const answers = await this.#step(0);
    if (!answers.every((answer) => answer.spent)) throw this.#refusal(Math.max(...answers.map((answer) => answer.retryAfter)));
    return answers[0]!.used;
  }

  /** Counts one check against the hour and the day before the service is asked; refused past either. */
  async spend(): Promise<void> {
    const answers = await this.#step(1);
    if (answers.every((answer) => answer.spent)) return;
    // Refused by one: the other's step is given back.
    await Promise.all(this.#budgets().map(([key, window], i) => (answers[i]!.spent ? stepOn(this.ctx, key, window, -1) : null)));
    throw this.#refusal(Math.max(...answers.map((answer) => answer.retryAfter)));
  }

  /** The check was not a wrong code (right, or a fault): it costs the budget nothing. */
  async giveBack(): Promise<void> {
    await this.#step(-1);
  }

  /** A wrong code: the network's and the site's pressure grow (signals only, never a cap). */
  async wrong(): Promise<void> {
    const { store } = this.ctx.options;
    await Promise.all([this.network ? store.increment(keys.guessesByNetwork(this.network), 3600) : null, store.increment(keys.guessesOnSite(), 60)]);
  }
}
