/**
 * A budget that comes back evenly (a token bucket), kept as GCRA keeps it: one number per key, the
 * time at which the budget is whole again. The MemoryStore and the Durable Object run this; Redis
 * runs the same steps in Lua (scripts.ts, SPEND). Spent at once, `max` come back one every
 * `windowSeconds / max`: as many as a fixed window of `windowSeconds` allows over any stretch of
 * time, but a refusal waits for one to come back, not for the window to end.
 */

/** 1 takes one, -1 gives one back, 0 reads. */
export type BudgetStep = 1 | 0 | -1;

export interface BudgetAnswer {
  /** Taken (given back, read) and, for a take or a read, one was left. */
  spent: boolean;
  /** How many of the budget are in use after this step. */
  used: number;
  /** When none was left, seconds until one is back; else 0. */
  retryAfter: number;
}

/**
 * One step on a budget whose key holds `whole` (ms; undefined when absent), at `now` (ms). Answers
 * what to tell, and what the key holds after: a time, null to delete it, undefined to leave it.
 */
export function stepBudget(whole: number | undefined, now: number, max: number, windowSeconds: number, step: BudgetStep): BudgetAnswer & { next: number | null | undefined } {
  const window = windowSeconds * 1000;
  const interval = window / max;
  const from = Math.max(whole ?? 0, now);
  // How long until one more fits: a take refused, or a read told that none is left.
  const wait = from + interval - now - window;
  if (step >= 0 && wait > 0.5) return { spent: false, used: Math.ceil((from - now) / interval - 1e-6), retryAfter: Math.max(1, Math.ceil(wait / 1000)), next: undefined };
  const after = from + step * interval;
  const next = step === 0 ? undefined : after - now >= 1 ? Math.floor(after) : null;
  return { spent: true, used: Math.max(0, Math.ceil((after - now) / interval - 1e-6)), retryAfter: 0, next };
}
