/**
 * The Lua scripts that make each store operation one atomic step on Redis, on one key, whatever
 * the client: ioredis over TCP (RedisStore) or the Upstash REST protocol (UpstashStore).
 */

// INCR, then start the window on the first increment; answers the count and the seconds left.
export const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

// SET NX EX, answering whether it was set and the seconds the key still lives.
export const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[2], 'NX', 'EX', ARGV[1]) then return {1, tonumber(ARGV[1])} end
return {0, redis.call('TTL', KEYS[1])}`;

// DECR only a live counter above zero, so the window and its expiry stay as they were.
export const DECREMENT = `
local count = tonumber(redis.call('GET', KEYS[1]))
if count and count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

// GETDEL, as a script so that Redis before 6.2 runs it too.
export const TAKE = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value`;

/** Redis expiries are whole seconds of at least one, so shorter windows are rounded up. */
export const wholeSeconds = (seconds: number): number => Math.max(1, Math.ceil(seconds));
