/** Where friction starts and how hard it gets: the host's `limits.friction`, and its defaults. */

/**
 * Pressure a send or a verify meets free; past any of these it first needs proof (a proof of work,
 * or the host's human check), harder the further past. Counts are per hour unless named per minute.
 */
export interface Friction {
  /** Wrong codes for one phone or email, over all callers. */
  freeWrongCodesPerIdentifier: number;
  /** Wrong codes from one network (an IPv4 /24, an IPv6 /48), over all identifiers. */
  freeWrongCodesPerNetwork: number;
  /** Wrong codes over the whole site in a minute. */
  freeWrongCodesPerMinute: number;
  /** Codes sent to one phone or email, over all callers. */
  freeSendsPerIdentifier: number;
  /**
   * Codes sent to one phone or email from one network (an IPv4 /24, an IPv6 /48), over all its
   * sessions, in the window of `limits.sendsPerIdentifierAllCallers`: past this share, each more
   * from that network needs a proof one level harder. Friction, not a refusal: a crowd on a
   * carrier's network shares it with the number's owner.
   */
  freeSendsPerIdentifierPerNetwork: number;
  /** Codes sent from one client address. */
  freeSendsPerIp: number;
  /** Codes sent over the whole site in a minute. */
  freeSendsPerMinute: number;
  /** Hashes the easiest proof of work takes at most; each level doubles it, up to `maxWork`. */
  minWork: number;
  maxWork: number;
}

export const DEFAULT_FRICTION: Friction = {
  freeWrongCodesPerIdentifier: 10,
  freeWrongCodesPerNetwork: 30,
  freeWrongCodesPerMinute: 200,
  freeSendsPerIdentifier: 5,
  freeSendsPerIdentifierPerNetwork: 3,
  freeSendsPerIp: 10,
  freeSendsPerMinute: 200,
  // About 0.8 s and 12 s of a phone-class CPU (Chromium at 4x throttling) at worst.
  minWork: 20_000,
  maxWork: 300_000,
};
