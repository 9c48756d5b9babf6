import { stepBudget, type BudgetStep } from './budget.js';
import { interpret, type Operation, type PlanAnswer, type PlanStep } from './plan.js';
import type { VerifyStore } from './store.js';

interface Entry {
  value: string;
  expiresAt: number;
}

export interface MemoryStoreOptions {
  /**
   * Entries kept at most (about 280 bytes each with the handler's keys, so 100,000 is some 28 MB). Past it, expired entries
   * are swept, then the least recently written go: a flood cannot grow the process without limit,
   * at the price of forgetting the oldest counts first.
   */
  maxEntries?: number;
  now?: () => number;
}

/** The default store: one process's memory. Use the Redis store when the host runs several instances. */
export class MemoryStore implements VerifyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  private readonly now: () => number;
  #warned = false;
  #sweptAt = -Infinity;

  constructor({ maxEntries = 100_000, now = Date.now }: MemoryStoreOptions = {}) {
    this.#maxEntries = maxEntries;
    this.now = now;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #ttl(entry: Entry): number {
    return Math.max(1, Math.ceil((entry.expiresAt - this.now()) / 1000));
  }

  async increment(key: string, windowSeconds: number) {
    return this.#increment(key, windowSeconds);
  }

  async spend(key: string, max: number, windowSeconds: number, step: BudgetStep = 1) {
    return this.#spend(key, max, windowSeconds, step);
  }

  async claim(key: string, seconds: number, value = '1') {
    return this.#claim(key, seconds, value);
  }

  async set(key: string, seconds: number, value: string) {
    this.#write(key, { value, expiresAt: this.now() + seconds * 1000 });
  }

  async decrement(key: string) {
    this.#decrement(key);
  }

  async get(key: string) {
    return this.#live(key)?.value ?? null;
  }

  async take(key: string) {
    const value = this.#live(key)?.value ?? null;
    this.#entries.delete(key);
    return value;
  }

  async delete(key: string) {
    this.#entries.delete(key);
  }

  /** The whole plan at once: nothing else runs in this process meanwhile, so it is atomic. */
  async run(plan: PlanStep[]): Promise<PlanAnswer> {
    const steps = interpret(plan);
    let next = steps.next();
    while (!next.done) next = steps.next(next.value.map((step) => this.#operate(step)));
    return next.value;
  }

  #operate(step: Operation): unknown {
    switch (step.op) {
      case 'get':
        return this.#live(step.key)?.value ?? null;
      case 'claim':
        return this.#claim(step.key, step.seconds, step.value ?? '1');
      case 'spend':
        return this.#spend(step.key, step.max, step.seconds, step.step);
      case 'giveBack':
        return this.#spend(step.key, step.max, step.seconds, -1);
      case 'increment':
        return this.#increment(step.key, step.seconds);
      case 'set':
        return this.#write(step.key, { value: step.value, expiresAt: this.now() + step.seconds * 1000 });
      case 'delete':
        return void this.#entries.delete(step.key);
      case 'decrement':
        return this.#decrement(step.key);
    }
  }

  #increment(key: string, windowSeconds: number) {
    const entry = this.#live(key) ?? { value: '0', expiresAt: this.now() + windowSeconds * 1000 };
    entry.value = String(Number(entry.value) + 1);
    this.#write(key, entry);
    return { count: Number(entry.value), ttl: this.#ttl(entry) };
  }

  #spend(key: string, max: number, windowSeconds: number, step: BudgetStep) {
    const now = this.now();
    const { next, ...answer } = stepBudget(Number(this.#live(key)?.value ?? 0), now, max, windowSeconds, step);
    if (next === null) this.#entries.delete(key);
    else if (next !== undefined) this.#write(key, { value: String(next), expiresAt: next });
    return answer;
  }

  #claim(key: string, seconds: number, value: string) {
    const existing = this.#live(key);
    if (existing) return { claimed: false, ttl: this.#ttl(existing) };
    this.#write(key, { value, expiresAt: this.now() + seconds * 1000 });
    return { claimed: true, ttl: seconds };
  }

  #decrement(key: string): void {
    const entry = this.#live(key);
    if (entry && Number(entry.value) > 0) entry.value = String(Number(entry.value) - 1);
  }

  /** Entries held now, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  /** Writes `key` as the most recent entry, making room first when the store is full. */
  #write(key: string, entry: Entry): void {
    this.#entries.delete(key);
    // Swept on writes rather than by a timer: edge runtimes allow no timer outside a request, and a
    // timer would keep a process alive.
    if (this.now() - this.#sweptAt > 60_000) this.#sweep();
    if (this.#entries.size >= this.#maxEntries) {
      // A sweep reads every entry: at most once a second, not on every write of a flood.
      if (this.now() - this.#sweptAt > 1000) this.#sweep();
      if (!this.#warned && this.#entries.size >= this.#maxEntries) {
        this.#warned = true;
        console.warn(`MemoryStore: ${this.#maxEntries} entries, so the least recently written are being dropped (limits they held are forgotten). Raise maxEntries or use RedisStore.`);
      }
      // A Map iterates in insertion order, and every write re-inserts: the first key is the least recently written.
      for (const oldest of this.#entries.keys()) {
        if (this.#entries.size < this.#maxEntries) break;
        this.#entries.delete(oldest);
      }
    }
    this.#entries.set(key, entry);
  }

  #sweep(): void {
    this.#sweptAt = this.now();
    for (const key of this.#entries.keys()) this.#live(key);
  }
}
