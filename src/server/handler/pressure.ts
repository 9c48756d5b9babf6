/**
 * How hard a number, a network and the whole site are being pushed, read before a send or a verify
 * so that friction (friction.ts) is asked for before anything is spent; and the number's guess
 * budget: wrong codes over all callers and all codes, a hard cap per hour and per day that no number
 * of sessions multiplies. A spent budget sends the person to another channel, not to an hour's wait.
 */
import type { OtpChannel } from '../../core/protocol.js';
import type { RequestContext } from './context.js';
import { HandlerError } from './errors.js';
import { excess, type Pressure } from './friction.js';

/** The store keys of one identifier's guesses, its network's and the site's. */
function guessKeys(id: string, network: string | null) {
  return { hour: `guesses:${id}`, day: `guesses:day:${id}`, network: network && `guesses:net:${network}`, site: 'guesses:site' };
}

export class GuessBudget {
  readonly #keys: ReturnType<typeof guessKeys>;

  constructor(
    private readonly ctx: RequestContext,
    private readonly identifier: string,
    id: string,
    network: string | null,
  ) {
    this.#keys = guessKeys(id, network);
  }

  /**
   * The answer when the budget is spent: the fallback channel at once, when it reaches the person
   * by another identifier (email for a phone, a phone for an email), and no wait to sit out.
   */
  #refusal(): HandlerError {
    const { fallbackChannel } = this.ctx.options;
    const fallback: OtpChannel | undefined = fallbackChannel && (fallbackChannel === 'email') !== this.identifier.includes('@') ? fallbackChannel : undefined;
    return new HandlerError('try_another_channel', 'Too many wrong codes were tried for this number or email. Please receive a code another way.', fallback ? { fallback } : {});
  }

  /** A counter's count; 0 for a key that is absent, or none (no network known). */
  async #count(key: string | null): Promise<number> {
    return key ? Number(await this.ctx.options.store.get(key)) || 0 : 0;
  }

  /** Wrong codes checked for this identifier in the hour; throws when its hour or day is spent. */
  async #guessesThisHour(): Promise<number> {
    const { limits } = this.ctx.options;
    const [hour, day] = await Promise.all([this.#count(this.#keys.hour), this.#count(this.#keys.day)]);
    if (hour >= limits.wrongCodesPerIdentifier.max || day >= limits.wrongCodesPerIdentifierPerDay.max) throw this.#refusal();
    return hour;
  }

  /**
   * The pressure on a verify: the identifier past its free allowance, this session's own wrong
   * codes on top once there is any, the network's and the site's. Throws when the budget is spent.
   */
  async verifyPressure(scope: string, sessionAttempts: string): Promise<Pressure> {
    const { friction } = this.ctx.options.limits;
    const { network, site } = this.#keys;
    const [hour, fromNetwork, onSite, own] = await Promise.all([this.#guessesThisHour(), this.#count(network), this.#count(site), this.#count(sessionAttempts)]);
    const level =
      excess(hour, friction.freeWrongCodesPerIdentifier, 3) + excess(fromNetwork, friction.freeWrongCodesPerNetwork, 10) + excess(onSite, friction.freeWrongCodesPerMinute, friction.freeWrongCodesPerMinute);
    // Whoever is guessing pays more with each wrong code of theirs.
    return { level: level > 0 ? level + own : 0, scope };
  }

  /** Counts one check against the hour and the day before the service is asked; refused past either. */
  async spend(): Promise<void> {
    const { store, limits } = this.ctx.options;
    const [hour, day] = await Promise.all([
      store.increment(this.#keys.hour, limits.wrongCodesPerIdentifier.windowSeconds),
      store.increment(this.#keys.day, limits.wrongCodesPerIdentifierPerDay.windowSeconds),
    ]);
    if (hour.count > limits.wrongCodesPerIdentifier.max || day.count > limits.wrongCodesPerIdentifierPerDay.max) {
      await this.giveBack();
      throw this.#refusal();
    }
  }

  /** The check was not a wrong code (right, or a fault): it costs the budget nothing. */
  async giveBack(): Promise<void> {
    const { store } = this.ctx.options;
    await Promise.all([store.decrement(this.#keys.hour), store.decrement(this.#keys.day)]);
  }

  /**
   * The pressure on a send: codes to this identifier over all callers past a share of its ceiling,
   * the caller's address past half its cap, sends over the site in the last minute, and guesses at
   * the identifier. Throws when its guess budget is spent: a code nobody may check is not worth paying for.
   */
  async sendPressure(keys: { session: string; identifier: string; ip: string | null }, scope: string): Promise<Pressure> {
    const { limits } = this.ctx.options;
    const { friction } = limits;
    const [guesses, fromSession, toNumber, fromIp, onSite] = await Promise.all([
      this.#guessesThisHour(),
      this.#count(keys.session),
      this.#count(keys.identifier),
      this.#count(keys.ip),
      this.#count(SITE_SENDS),
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

  /** A wrong code: the network's and the site's pressure grow (signals only, never a cap). */
  async wrong(): Promise<void> {
    const { store } = this.ctx.options;
    const { network, site } = this.#keys;
    await Promise.all([network ? store.increment(network, 3600) : null, store.increment(site, 60)]);
  }
}

/** Sends over the whole site in the current minute. */
export const SITE_SENDS = 'sends:site';
