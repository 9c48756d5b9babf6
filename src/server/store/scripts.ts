/**
 * The Lua scripts that make each store operation one atomic step on Redis, on one key, whatever
 * the client: ioredis over TCP (RedisStore) or the Upstash REST protocol (UpstashStore).
 */
import type { BudgetAnswer } from './budget.js';

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

// GET, as a script: @upstash/redis pipelines reads apart from writes, and a script goes with the writes.
export const READ = `return redis.call('GET', KEYS[1])`;

// GETDEL, as a script so that Redis before 6.2 runs it too.
export const TAKE = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value`;

// A budget of `max` coming back evenly over `window` ms, kept as GCRA keeps it: the key holds when
// it is whole again (ms, by Redis's clock). `amount` is 1 to take one, -1 to give one back, 0 to read.
// Answers {one was left, used after, ms until one is back when none was}.
export const SPEND_FUNCTION = `
local function spend(key, max, window, amount, now)
  local interval = window / max
  local whole = math.max(tonumber(redis.call('GET', key) or 0), now)
  local wait = whole + interval - now - window
  if amount >= 0 and wait > 0.5 then return {0, math.ceil((whole - now) / interval - 1e-6), math.ceil(wait)} end
  local after = whole + amount * interval
  if amount ~= 0 then
    if after - now >= 1 then redis.call('SET', key, math.floor(after), 'PX', math.ceil(after - now)) else redis.call('DEL', key) end
  end
  return {1, math.max(0, math.ceil((after - now) / interval - 1e-6)), 0}
end
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)`;

// ARGV: max, window (ms), amount.
export const SPEND = `${SPEND_FUNCTION}
return spend(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), now)`;

/** SPEND's reply as a store answers it. */
export function spendAnswer(reply: unknown): BudgetAnswer {
  const [spent, used, waitMs] = reply as [number, number, number];
  return { spent: spent === 1, used, retryAfter: spent === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** Redis expiries are whole seconds of at least one, so shorter windows are rounded up. */
export const wholeSeconds = (seconds: number): number => Math.max(1, Math.ceil(seconds));
