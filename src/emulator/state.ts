/** Everything the emulator remembers between requests. */
import { OtpBook } from './otp-book.js';
import { Outbox } from './outbox.js';
import { FaultList } from './faults.js';
import type { CostedOperation, EmulatorSettings } from './settings.js';
import type { Quirk } from './quirks.js';
import { faceEmbedder } from './face-model.js';

export type ForcedOutcome = { face?: boolean; voice?: boolean };

export class EmulatorState {
  readonly outbox = new Outbox();
  readonly faults = new FaultList();
  readonly otp: OtpBook;
  balance: number;
  /** Added to the wall clock, so tests can make codes expire without waiting. */
  clockOffsetMs = 0;
  forced: ForcedOutcome = {};
  /** The face model, loaded once for the process; a test may put a failing one in its place. */
  faceEmbedder = faceEmbedder;

  constructor(readonly settings: EmulatorSettings) {
    this.balance = settings.startingBalance;
    this.otp = new OtpBook({
      length: settings.otpLength,
      ttlSeconds: settings.otpTtlSeconds,
      maxAttempts: settings.maxAttempts,
      now: () => this.now(),
    });
  }

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  quirk(name: Quirk): boolean {
    return this.settings.quirks.includes(name);
  }

  canAfford(operation: CostedOperation): boolean {
    return this.balance >= this.settings.costs[operation];
  }

  /** `times` -1 gives a charge back. */
  charge(operation: CostedOperation, times = 1): void {
    // Round to cents so that the balance never shows floating-point dust such as 99.74999999.
    this.balance = Math.round((this.balance - times * this.settings.costs[operation]) * 100) / 100;
  }
}
