/**
 * A VerifyStore on Redis through an ioredis client that the host creates and owns. Counters are
 * one Lua script each, so increment-and-expire is atomic across handler instances.
 */
import type { Redis } from 'ioredis';
import type { VerifyStore } from './store.js';

// INCR, then start the window on the first increment; answers the count and the seconds left.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

// SET NX EX, answering whether it was set and the seconds the key still lives.
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[2], 'NX', 'EX', ARGV[1]) then return {1, tonumber(ARGV[1])} end
return {0, redis.call('TTL', KEYS[1])}`;

// DECR only a live counter above zero, so the window and its expiry stay as they were.
const DECREMENT = `
local count = tonumber(redis.call('GET', KEYS[1]))
if count and count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

// GETDEL, as a script so that Redis before 6.2 runs it too.
const TAKE = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value`;

export interface RedisStoreOptions {
  /** Prefix of every key, so one Redis can serve several applications. */
  prefix?: string;
}

/** Redis expiries are whole seconds of at least one, so shorter windows are rounded up. */
export class RedisStore implements VerifyStore {
  readonly #prefix: string;

  constructor(
    private readonly redis: Redis,
    options: RedisStoreOptions = {},
  ) {
    this.#prefix = options.prefix ?? 'verify:';
  }

  async increment(key: string, windowSeconds: number) {
    const [count, ttl] = (await this.redis.eval(INCREMENT, 1, this.#prefix + key, Math.max(1, Math.ceil(windowSeconds)))) as [number, number];
    return { count, ttl: Math.max(1, ttl) };
  }

  async claim(key: string, seconds: number, value = '1') {
    const [claimed, ttl] = (await this.redis.eval(CLAIM, 1, this.#prefix + key, Math.max(1, Math.ceil(seconds)), value)) as [number, number];
    return { claimed: claimed === 1, ttl: Math.max(1, ttl) };
  }

  async set(key: string, seconds: number, value: string) {
    await this.redis.set(this.#prefix + key, value, 'EX', Math.max(1, Math.ceil(seconds)));
  }

  async decrement(key: string) {
    await this.redis.eval(DECREMENT, 1, this.#prefix + key);
  }

  async get(key: string) {
    return this.redis.get(this.#prefix + key);
  }

  async take(key: string) {
    return (await this.redis.eval(TAKE, 1, this.#prefix + key)) as string | null;
  }

  async delete(key: string) {
    await this.redis.del(this.#prefix + key);
  }
}
