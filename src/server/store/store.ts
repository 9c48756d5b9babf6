/**
 * Where the host handler keeps its state: rate-limit counters, cooldowns, pending challenges and
 * used receipts. Every operation is atomic, so several handler instances can share one store.
 */
import type { BudgetAnswer, BudgetStep } from './budget.js';

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
   * Runs a route's plan (below; plan.ts) atomically, in one round trip. Optional: without it, the handler
   * runs the plan with the operations above, one round trip per group.
   */
  run?(plan: PlanStep[]): Promise<PlanAnswer>;
}

/** Levels of pressure a step's value adds: [slot, free, step, offset]; one slot's later value replaces its earlier one. */
export type Weigh = [slot: string, free: number, step: number, offset?: number];

export interface Needs {
  /** Why the plan stops when this step does not pass (a refusal the caller maps to its answer). */
  need?: string;
  weigh?: Weigh;
}

export type PlanStep =
  /** A value; with `need`, refused when absent or, with `max`, when its count is at `max` or more. */
  | ({ op: 'get'; key: string; max?: number } & Needs)
  | ({ op: 'claim'; key: string; seconds: number; value?: string } & Needs)
  /** Refused (with `need`) when none is left; `step` 0 reads. */
  | ({ op: 'spend'; key: string; max: number; seconds: number; step: 0 | 1 } & Needs)
  /** Refused (with `need`) past `max`; counted all the same (undone if the plan stops). */
  | ({ op: 'increment'; key: string; seconds: number; max?: number } & Needs)
  /** `was`: the index of a `get` of the same key, whose value an undo puts back (else an undo deletes). */
  | { op: 'set'; key: string; seconds: number; value: string; was?: number }
  | { op: 'delete'; key: string; seconds: number; was?: number }
  /**
   * Ends a group, then weighs the level: the sum of the slots' levels but `plus`'s, and `plus`'s
   * when that is above 0. Above 0, it needs the request's proof: of level `over` or more, and `proof` claimed
   * once (for `seconds`) by the first gate that needs it.
   */
  | { op: 'gate'; over: number; proof?: string; seconds: number; plus?: string }
  /** Ends a group. */
  | { op: 'check' }
  /** Undo steps only: a budget's one given back, a count taken back. */
  | { op: 'giveBack'; key: string; max: number; seconds: number }
  | { op: 'decrement'; key: string };

export interface PlanStop {
  /** The `need` of the first step that did not pass, or 'proof'. */
  reason: string;
  /** The longest wait told by the steps refused for that reason. */
  retryAfter: number;
  /** The level the gate asked, for a stop at a gate. */
  level?: number;
  /** The index of the step that stopped the plan. */
  at: number;
}

/** Each step's answer, by index (a gate's is its level), and why it stopped, if it did. */
export interface PlanAnswer {
  results: unknown[];
  stop?: PlanStop;
}

/** One operation on a key, as a store's single methods take it. */
export type Operation = Exclude<PlanStep, { op: 'gate' | 'check' }>;
