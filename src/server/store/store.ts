/**
 * Where the host handler keeps its state: rate-limit counters, cooldowns, pending challenges and
 * used receipts. Every operation is atomic, so several handler instances can share one store.
 */
import type { BudgetAnswer, BudgetStep } from './budget.js';
import type { PlanAnswer, PlanStep } from './plan.js';

export interface VerifyStore {
  /**
   * Adds 1 to a counter that lives `windowSeconds` from its first increment. Returns the new
   * count and the seconds until the counter resets. `max`, when given, is the count past which the
   * caller refuses: a store may answer a key it has seen past it, until its window ends, without
   * asking its engine (UpstashStore does, so that a flood of refused requests costs no round trip).
   */
  increment(key: string, windowSeconds: number, max?: number): Promise<{ count: number; ttl: number }>;
  /**
   * One step on a budget of `max` that comes back evenly over `windowSeconds` (budget.ts): `1` takes
   * one (refused when none is left, with the seconds until one is back), `-1` gives one back, `0`
   * reads how many are in use. By the store's own clock, so that every instance reads it alike.
   */
  spend(key: string, max: number, windowSeconds: number, step?: BudgetStep): Promise<BudgetAnswer>;
  /**
   * Sets `key` for `seconds` only if it is absent. Returns whether this call set it, and the
   * seconds the key still lives.
   */
  claim(key: string, seconds: number, value?: string): Promise<{ claimed: boolean; ttl: number }>;
  /** Sets `key` to `value` for `seconds`, whatever it held before. */
  set(key: string, seconds: number, value: string): Promise<void>;
  /** Subtracts 1 from a live counter, keeping its window: a request that turned out to cost nothing. */
  decrement(key: string): Promise<void>;
  /** A value set or claimed, or a counter's count as a decimal string; null when absent. */
  get(key: string): Promise<string | null>;
  /** Reads and deletes `key` in one step: of several concurrent calls, one gets the value. */
  take(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  /**
   * Runs a route's plan (plan.ts) atomically, in one round trip. Optional: without it, the handler
   * runs the plan with the operations above, one round trip per group.
   */
  run?(plan: PlanStep[]): Promise<PlanAnswer>;
}
