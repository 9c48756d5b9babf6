/**
 * A VerifyStore on Redis over HTTP, through an `@upstash/redis` client that the host creates: for
 * runtimes without TCP sockets (Vercel Edge, Cloudflare Workers, Deno Deploy) and for serverless
 * functions that should not hold a connection. The same Lua scripts as RedisStore make each
 * operation one atomic request (EVALSHA, or EVAL the first time Redis lacks the script); nothing
 * here needs Node, so it runs wherever `fetch` does.
 */
// Types only, and none in the declarations this file emits: a host without @upstash/redis still compiles.
import type { RedisConfigNodejs } from '@upstash/redis';
import type { BudgetStep } from './budget.js';
import { CLAIM, DECREMENT, INCREMENT, READ, SPEND, spendAnswer, TAKE, wholeSeconds } from './scripts.js';
import type { PlanAnswer, PlanStep } from './plan.js';
import { CANCEL, PLAN, planAnswer, planArguments, planLog } from './plan-script.js';
import type { VerifyStore } from './store.js';

/**
 * The `@upstash/redis` options an UpstashStore builds its client with: it calls the function it is
 * given with them, `new UpstashStore((options) => Redis.fromEnv(options))`, so that no client it
 * uses can lack them.
 */
export const UPSTASH_CLIENT_OPTIONS = {
  // A request lost on the way is not sent again behind the handler's back: a retry after the
  // request was answered 503 would spend a count or use up a code for nobody.
  retry: { retries: 0 },
  // Values come back as stored: JSON parsing would turn '1' into 1 and '"sms"' into 'sms'.
  automaticDeserialization: false,
  // Each request is abandoned before the handler's store deadline (500 ms) answers for it.
  signal: () => AbortSignal.timeout(400),
} satisfies Partial<RedisConfigNodejs>;

/** How long a failed plan's answer waits for its CANCEL to be on its way; a store that fails fast answers the CANCEL sooner. */
const CANCEL_HEAD_START_MS = 50;

/** A running script: `exec` sends EVALSHA, and EVAL when Redis answers NOSCRIPT. */
interface UpstashScript {
  exec(keys: string[], args: string[]): Promise<unknown>;
}

/**
 * The part of an `@upstash/redis` client an UpstashStore uses; declared here so that the package's
 * types do not name @upstash/redis, which only a host on it installs.
 */
export interface UpstashClient {
  createScript(script: string): UpstashScript;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  set(key: string, value: string, options: { ex: number }): Promise<unknown>;
  del(...keys: string[]): Promise<unknown>;
}

export interface UpstashStoreOptions {
  /** Prefix of every key, so one Redis can serve several applications. */
  prefix?: string;
  /** Keys remembered as refused until their window ends (see `increment`'s `max`) or a budget's next comes back; 10,000 by default. */
  blockedKeys?: number;
}

/** Builds the client from the options it is given (`UPSTASH_CLIENT_OPTIONS`), adding its URL and token. */
export type UpstashClientFactory = (options: typeof UPSTASH_CLIENT_OPTIONS) => UpstashClient;

export class UpstashStore implements VerifyStore {
  readonly #prefix: string;
  readonly #scripts: Record<'increment' | 'spend' | 'claim' | 'decrement' | 'take' | 'read' | 'plan', UpstashScript>;
  /** Keys seen past their caller's max, with when their window ends (ms): answered here, not by Redis. */
  readonly #blocked = new Map<string, number>();
  readonly #blockedKeys: number;

  private readonly redis: UpstashClient;

  constructor(client: UpstashClientFactory, options: UpstashStoreOptions = {}) {
    // A client built elsewhere could read values as JSON or send a request twice, and nothing it
    // exposes tells; built here, it has the options that keep it from either.
    if (typeof client !== 'function') {
      throw new TypeError('UpstashStore builds its client from the options it gives: new UpstashStore((options) => Redis.fromEnv(options)), or new UpstashStore((options) => new Redis({ url, token, ...options }))');
    }
    const redis = (this.redis = client({ ...UPSTASH_CLIENT_OPTIONS }));
    this.#prefix = options.prefix ?? 'verify:';
    this.#blockedKeys = options.blockedKeys ?? 10_000;
    this.#scripts = { increment: redis.createScript(INCREMENT), spend: redis.createScript(SPEND), claim: redis.createScript(CLAIM), decrement: redis.createScript(DECREMENT), take: redis.createScript(TAKE), read: redis.createScript(READ), plan: redis.createScript(PLAN) };
  }

  async increment(key: string, windowSeconds: number, max?: number) {
    const blockedUntil = this.#blocked.get(key);
    if (blockedUntil !== undefined && max !== undefined) {
      const ttl = Math.ceil((blockedUntil - Date.now()) / 1000);
      if (ttl > 0) return { count: max + 1, ttl };
      this.#blocked.delete(key);
    }
    const sent = Date.now();
    const [count, ttl] = (await this.#scripts.increment.exec([this.#prefix + key], [String(wholeSeconds(windowSeconds))])) as [number, number];
    if (max !== undefined && count > max) this.#block(key, sent + ttl * 1000);
    return { count, ttl: Math.max(1, ttl) };
  }

  async spend(key: string, max: number, windowSeconds: number, step: BudgetStep = 1) {
    if (step > 0) {
      const wait = Math.ceil(((this.#blocked.get(key) ?? 0) - Date.now()) / 1000);
      if (wait > 0) return { spent: false, used: max, retryAfter: wait };
    }
    if (step < 0) this.#blocked.delete(key);
    // Counted from when the request left, not when its answer came: Redis judged it in between, so
    // the key is never held here past the moment Redis would spend it (a slow answer once did).
    const sent = Date.now();
    const reply = await this.#scripts.spend.exec([this.#prefix + key], [String(max), String(windowSeconds * 1000), String(step)]);
    const answer = spendAnswer(reply);
    // Until the very millisecond one is back, not the whole second told.
    if (!answer.spent) this.#block(key, sent + (reply as number[])[2]!);
    return answer;
  }

  async claim(key: string, seconds: number, value = '1') {
    const [claimed, ttl] = (await this.#scripts.claim.exec([this.#prefix + key], [String(wholeSeconds(seconds)), value])) as [number, number];
    return { claimed: claimed === 1, ttl: Math.max(1, ttl) };
  }

  async set(key: string, seconds: number, value: string) {
    await this.redis.set(this.#prefix + key, value, { ex: wholeSeconds(seconds) });
  }

  async decrement(key: string) {
    // A count given back may bring the key under its max again.
    this.#blocked.delete(key);
    await this.#scripts.decrement.exec([this.#prefix + key], []);
  }

  async get(key: string) {
    // By script: the client sends the reads and the writes a request issues together as two HTTP
    // requests, and a script goes with the writes, so the request's reads and steps make one.
    return (await this.#scripts.read.exec([this.#prefix + key], [])) as string | null;
  }

  async take(key: string) {
    return (await this.#scripts.take.exec([this.#prefix + key], [])) as string | null;
  }

  async delete(key: string) {
    this.#blocked.delete(key);
    await this.redis.del(this.#prefix + key);
  }

  /** A plan in one script: one HTTP request. */
  async run(plan: PlanStep[]): Promise<PlanAnswer> {
    const log = planLog(this.#prefix);
    const { keys, args } = planArguments(plan, this.#prefix, log);
    try {
      return planAnswer(plan, await this.#scripts.plan.exec(keys, args));
    } catch (error) {
      // Abandoned, it may still run (a gateway that waits on a frozen Redis): never for nobody. By
      // EVAL, not EVALSHA: a Redis that never ran it would refuse it when it wakes (NOSCRIPT).
      const cancel = this.redis.eval(CANCEL, [log], []).catch(() => {});
      // The answer waits a moment for it to reach the gateway: the person's next request, through
      // any instance, must not find this plan's claims in Redis before it (a code "tried already").
      await Promise.race([cancel, new Promise((done) => setTimeout(done, CANCEL_HEAD_START_MS))]);
      throw error;
    }
  }

  /** Remembers a refused key; a flood of distinct keys drops the expired, then the oldest. */
  #block(key: string, until: number): void {
    if (this.#blocked.size >= this.#blockedKeys) {
      const now = Date.now();
      for (const [blockedKey, end] of this.#blocked) if (end <= now) this.#blocked.delete(blockedKey);
      for (const oldest of this.#blocked.keys()) {
        if (this.#blocked.size < this.#blockedKeys) break;
        this.#blocked.delete(oldest);
      }
    }
    this.#blocked.set(key, until);
  }
}
