/** Pending OTP challenges, one per identifier: single use, expiring, locked after N wrong tries. */
import { randomInt, timingSafeEqual } from 'node:crypto';

export type OtpCheck = 'verified' | 'wrong' | 'expired' | 'locked' | 'used' | 'unknown';

interface Challenge {
  code: string;
  expiresAt: number;
  attempts: number;
  used: boolean;
}

export class OtpBook {
  readonly #challenges = new Map<string, Challenge>();

  constructor(
    private readonly options: { length: number; ttlSeconds: number; maxAttempts: number; now: () => number },
  ) {}

  /** Issues a code, replacing any earlier one for the same identifier. */
  issue(identifier: string, chosen?: string): string {
    const code = chosen ?? Array.from({ length: this.options.length }, () => randomInt(10)).join('');
    this.#challenges.set(identifier, {
      code,
      expiresAt: this.options.now() + this.options.ttlSeconds * 1000,
      attempts: 0,
      used: false,
    });
    return code;
  }

  check(identifier: string, code: string): OtpCheck {
    const challenge = this.#challenges.get(identifier);
    if (!challenge) return 'unknown';
    if (challenge.used) return 'used';
    if (challenge.attempts >= this.options.maxAttempts) return 'locked';
    if (this.options.now() > challenge.expiresAt) return 'expired';
    const given = Buffer.from(code);
    const expected = Buffer.from(challenge.code);
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      challenge.used = true;
      return 'verified';
    }
    challenge.attempts++;
    return challenge.attempts >= this.options.maxAttempts ? 'locked' : 'wrong';
  }
}
