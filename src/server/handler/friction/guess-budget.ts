/**
 * A number's guess budget: wrong codes for one phone or email over all callers and all its codes, a
 * hard cap per hour and per day that no number of sessions multiplies. A spent budget sends the
 * person to another channel, not to an hour's wait.
 */
import type { OtpChannel } from '../../../core/protocol.js';
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';
import { HandlerError } from '../errors.js';

/** A counter's count; 0 for a key that is absent, or none (no network known). */
export async function countOf(ctx: RequestContext, key: string | null): Promise<number> {
  return key ? Number(await ctx.options.store.get(key)) || 0 : 0;
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
  #refusal(): HandlerError {
    const { fallbackChannel } = this.ctx.options;
    const fallback: OtpChannel | undefined = fallbackChannel && (fallbackChannel === 'email') !== this.identifier.includes('@') ? fallbackChannel : undefined;
    return new HandlerError('try_another_channel', 'Too many wrong codes were tried for this number or email. Please receive a code another way.', fallback ? { fallback } : {});
  }

  /** Wrong codes checked for this identifier in the hour; throws when its hour or day is spent. */
  async guessesThisHour(): Promise<number> {
    const { limits } = this.ctx.options;
    const [hour, day] = await Promise.all([countOf(this.ctx, keys.guesses(this.id)), countOf(this.ctx, keys.guessesToday(this.id))]);
    if (hour >= limits.wrongCodesPerIdentifier.max || day >= limits.wrongCodesPerIdentifierPerDay.max) throw this.#refusal();
    return hour;
  }

  /** Counts one check against the hour and the day before the service is asked; refused past either. */
  async spend(): Promise<void> {
    const { store, limits } = this.ctx.options;
    const [hour, day] = await Promise.all([
      store.increment(keys.guesses(this.id), limits.wrongCodesPerIdentifier.windowSeconds),
      store.increment(keys.guessesToday(this.id), limits.wrongCodesPerIdentifierPerDay.windowSeconds),
    ]);
    if (hour.count > limits.wrongCodesPerIdentifier.max || day.count > limits.wrongCodesPerIdentifierPerDay.max) {
      await this.giveBack();
      throw this.#refusal();
    }
  }

  /** The check was not a wrong code (right, or a fault): it costs the budget nothing. */
  async giveBack(): Promise<void> {
    const { store } = this.ctx.options;
    await Promise.all([store.decrement(keys.guesses(this.id)), store.decrement(keys.guessesToday(this.id))]);
  }

  /** A wrong code: the network's and the site's pressure grow (signals only, never a cap). */
  async wrong(): Promise<void> {
    const { store } = this.ctx.options;
    await Promise.all([this.network ? store.increment(keys.guessesByNetwork(this.network), 3600) : null, store.increment(keys.guessesOnSite(), 60)]);
  }
}
