/**
 * A VerifyStore on Cloudflare Durable Objects. Each key lives in a Durable Object of its own (named
 * by the key), so every operation on it is atomic (a Durable Object runs one request at a time)
 * and one hot number never waits on the rest of the site. The Worker exports `VerifyStoreObject`
 * and binds it; the store reaches it with one request per operation. No import: the Durable Object
 * is reached through its stub's `fetch`, which any bundler and any compatibility date allow.
 */
import { stepBudget, type BudgetAnswer, type BudgetStep } from './budget.js';
import type { VerifyStore } from './store.js';

interface Entry {
  value: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

type Operation =
  | { op: 'increment'; seconds: number }
  | { op: 'spend'; max: number; seconds: number; step: BudgetStep }
  | { op: 'claim'; seconds: number; value: string }
  | { op: 'set'; seconds: number; value: string }
  | { op: 'decrement' | 'get' | 'take' | 'delete' };

/** The part of a Durable Object's state the store's object uses (`DurableObjectState` in Workers). */
export interface DurableObjectStateLike {
  storage: {
    get<T>(key: string): Promise<T | undefined>;
    put(key: string, value: unknown): Promise<void>;
    deleteAll(): Promise<void>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
}

const ttlOf = (entry: Entry, now: number) => Math.max(1, Math.ceil((entry.expiresAt - now) / 1000));

/**
 * The Durable Object that holds one key of a DurableObjectStore. Export it from the Worker and bind
 * it (wrangler: a `durable_objects` binding and a migration with `new_sqlite_classes`). An alarm at
 * the key's expiry empties it, so expired keys cost no storage.
 */
export class VerifyStoreObject {
  constructor(private readonly state: DurableObjectStateLike) {}

  async fetch(request: Request): Promise<Response> {
    let operation: Operation;
    try {
      operation = (await request.json()) as Operation;
    } catch {
      return Response.json({ error: 'The body must be a JSON operation' }, { status: 400 });
    }
    const now = Date.now();
    const entry = await this.#live(now);
    switch (operation.op) {
      case 'increment': {
        const next = { value: String(Number(entry?.value ?? 0) + 1), expiresAt: entry?.expiresAt ?? now + operation.seconds * 1000 };
        await this.#save(next, entry);
        return Response.json({ count: Number(next.value), ttl: ttlOf(next, now) });
      }
      case 'spend': {
        const { next, ...answer } = stepBudget(Number(entry?.value ?? 0), now, operation.max, operation.seconds, operation.step);
        if (next === null) await this.state.storage.deleteAll();
        else if (next !== undefined) await this.#save({ value: String(next), expiresAt: next }, entry);
        return Response.json(answer);
      }
      case 'claim':
        if (entry) return Response.json({ claimed: false, ttl: ttlOf(entry, now) });
        await this.#save({ value: operation.value, expiresAt: now + operation.seconds * 1000 }, entry);
        return Response.json({ claimed: true, ttl: operation.seconds });
      case 'set':
        await this.#save({ value: operation.value, expiresAt: now + operation.seconds * 1000 }, entry);
        return Response.json(null);
      case 'decrement':
        // Only a live count above zero, keeping its window.
        if (entry && Number(entry.value) > 0) await this.#save({ ...entry, value: String(Number(entry.value) - 1) }, entry);
        return Response.json(null);
      case 'get':
        return Response.json(entry?.value ?? null);
      case 'take':
      case 'delete':
        if (entry) await this.state.storage.deleteAll();
        return Response.json(operation.op === 'take' ? (entry?.value ?? null) : null);
      default:
        return Response.json({ error: `Unknown operation ${(operation as { op: unknown }).op}` }, { status: 400 });
    }
  }

  /** At the key's expiry: emptied, unless it was written again with a later one. */
  async alarm(): Promise<void> {
    await this.#live(Date.now());
  }

  async #live(now: number): Promise<Entry | undefined> {
    const entry = await this.state.storage.get<Entry>('entry');
    if (entry && entry.expiresAt > now) return entry;
    if (entry) await this.state.storage.deleteAll();
    return undefined;
  }

  async #save(entry: Entry, previous: Entry | undefined): Promise<void> {
    await this.state.storage.put('entry', entry);
    if (entry.expiresAt !== previous?.expiresAt) await this.state.storage.setAlarm(entry.expiresAt);
  }
}

/** The part of a Durable Object namespace binding the store uses (`DurableObjectNamespace` in Workers). */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(url: string, init: RequestInit): Promise<Response> };
}

export interface DurableObjectStoreOptions {
  /** Prefix of every key's object name, so one namespace can serve several applications. */
  prefix?: string;
}

/** A VerifyStore over a namespace of `VerifyStoreObject`: `new DurableObjectStore(env.VERIFY_STORE)`. */
export class DurableObjectStore implements VerifyStore {
  readonly #prefix: string;

  constructor(
    private readonly namespace: DurableObjectNamespaceLike,
    options: DurableObjectStoreOptions = {},
  ) {
    if (typeof namespace?.idFromName !== 'function') throw new TypeError('DurableObjectStore needs a Durable Object namespace binding of VerifyStoreObject, such as env.VERIFY_STORE');
    this.#prefix = options.prefix ?? 'verify:';
  }

  async #run<T>(key: string, operation: Operation): Promise<T> {
    const stub = this.namespace.get(this.namespace.idFromName(this.#prefix + key) as never);
    const response = await stub.fetch('https://verify-store/', { method: 'POST', body: JSON.stringify(operation) });
    if (!response.ok) throw new Error(`VerifyStoreObject answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  increment(key: string, windowSeconds: number) {
    return this.#run<{ count: number; ttl: number }>(key, { op: 'increment', seconds: windowSeconds });
  }

  spend(key: string, max: number, windowSeconds: number, step: BudgetStep = 1) {
    return this.#run<BudgetAnswer>(key, { op: 'spend', max, seconds: windowSeconds, step });
  }

  claim(key: string, seconds: number, value = '1') {
    return this.#run<{ claimed: boolean; ttl: number }>(key, { op: 'claim', seconds, value });
  }

  async set(key: string, seconds: number, value: string) {
    await this.#run(key, { op: 'set', seconds, value });
  }

  async decrement(key: string) {
    await this.#run(key, { op: 'decrement' });
  }

  get(key: string) {
    return this.#run<string | null>(key, { op: 'get' });
  }

  take(key: string) {
    return this.#run<string | null>(key, { op: 'take' });
  }

  async delete(key: string) {
    await this.#run(key, { op: 'delete' });
  }
}
