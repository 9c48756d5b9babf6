import type { VerifyStore } from './store.js';

interface Entry {
  value: string;
  expiresAt: number;
}

/** The default store: one process's memory. Use the Redis store when the host runs several instances. */
export class MemoryStore implements VerifyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly now: () => number = Date.now) {
    this.#sweeper = setInterval(() => this.#sweep(), 60_000);
    // The sweeper must never keep a process alive on its own.
    (this.#sweeper as { unref?: () => void }).unref?.();
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
    const entry = this.#live(key) ?? { value: '0', expiresAt: this.now() + windowSeconds * 1000 };
    entry.value = String(Number(entry.value) + 1);
    this.#entries.set(key, entry);
    return { count: Number(entry.value), ttl: this.#ttl(entry) };
  }

  async claim(key: string, seconds: number, value = '1') {
    const existing = this.#live(key);
    if (existing) return { claimed: false, ttl: this.#ttl(existing) };
    this.#entries.set(key, { value, expiresAt: this.now() + seconds * 1000 });
    return { claimed: true, ttl: seconds };
  }

  async set(key: string, seconds: number, value: string) {
    this.#entries.set(key, { value, expiresAt: this.now() + seconds * 1000 });
  }

  async decrement(key: string) {
    const entry = this.#live(key);
    if (entry && Number(entry.value) > 0) entry.value = String(Number(entry.value) - 1);
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

  /** Stops the background sweep (tests, shutdown). */
  close(): void {
    clearInterval(this.#sweeper);
  }

  #sweep(): void {
    for (const key of this.#entries.keys()) this.#live(key);
  }
}
