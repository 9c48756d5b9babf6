/**
 * A plan (plan.ts) as one Lua script, so that a route's store steps are one round trip on Redis
 * and on Upstash: the same groups, needs, gates and undo as `interpret`, run inside Redis. The keys
 * go in KEYS (a step names its key by index), the steps as JSON in ARGV[1]; the answer is JSON.
 */
import type { Operation, PlanAnswer, PlanStep } from './plan.js';
import { StoreUnavailableError } from './deadline.js';
import { SPEND_FUNCTION, spendAnswer, wholeSeconds } from './scripts.js';

// The operations an undo applies, each on its key by name: a claim deleted, a budget's one given
// back, a count taken back, a value put back (or deleted).
const APPLY = `
local function apply(ops)
  for _, o in ipairs(ops) do
    if o.op == 'delete' then redis.call('DEL', o.key)
    elseif o.op == 'giveBack' then spend(o.key, o.max, o.window, -1, now)
    elseif o.op == 'decrement' then
      local count = tonumber(redis.call('GET', o.key))
      if count and count > 0 then redis.call('DECR', o.key) end
    elseif o.op == 'set' then redis.call('SET', o.key, o.value, 'EX', o.seconds) end
  end
end`;

/**
 * The plan. Its last key is the plan's log: a plan whose request gave up on it (a Redis frozen,
 * then back with the script still queued) must not count for nobody, so the store sends CANCEL
 * after a failed run. Run first, CANCEL finds the plan's undo in the log (kept 10 s) and applies it;
 * run first, CANCEL leaves a mark, and the plan does nothing.
 */
export const PLAN = `${SPEND_FUNCTION}${APPLY}
local log = KEYS[#KEYS]
if redis.call('EXISTS', log) == 1 then return cjson.encode({cancelled = true}) end
local plan = cjson.decode(ARGV[1])
local results, slots, proven, start = {}, {}, false, 1

local function operate(s)
  local key, op = KEYS[s.key], s.op
  if op == 'get' then return redis.call('GET', key) end
  if op == 'claim' then
    if redis.call('SET', key, s.value or '1', 'NX', 'EX', s.seconds) then return {1, s.seconds} end
    return {0, redis.call('TTL', key)}
  end
  if op == 'spend' then return spend(key, s.max, s.window, s.step, now) end
  if op == 'giveBack' then return spend(key, s.max, s.window, -1, now) end
  if op == 'increment' then
    local count = redis.call('INCR', key)
    if count == 1 then redis.call('EXPIRE', key, s.seconds) end
    local ttl = redis.call('TTL', key)
    if ttl < 0 then redis.call('EXPIRE', key, s.seconds); ttl = s.seconds end
    return {count, ttl}
  end
  if op == 'set' then redis.call('SET', key, s.value, 'EX', s.seconds)
  elseif op == 'delete' then redis.call('DEL', key)
  else apply({{op = op, key = key}}) end
  return 0
end

-- Whether a step passed, the wait it told when not, and the value it weighs.
local function verdict(s, r)
  if s.op == 'get' then
    local count = tonumber(r) or 0
    if s.max then return count < s.max, 0, count end
    return r ~= false, 0, count
  end
  if s.op == 'claim' then return r[1] == 1, math.max(1, r[2]), 0 end
  if s.op == 'spend' then return r[1] == 1, r[1] == 1 and 0 or math.max(1, math.ceil(r[3] / 1000)), r[2] end
  if s.op == 'increment' then return (not s.max) or r[1] <= s.max, math.max(1, r[2]), r[1] end
  return true, 0, 0
end

local function excess(count, free, step)
  if count < free then return 0 end
  return 1 + math.floor((count - free) / step)
end

-- What puts back the steps up to upto that changed something, in reverse order (plan.ts, inverse).
local function inverse(upto)
  local ops = {}
  for i = upto, 1, -1 do
    local s, r = plan[i], results[i]
    local key = s.key and KEYS[s.key]
    if r == nil or not key then
    elseif s.op == 'claim' then if r[1] == 1 then table.insert(ops, {op = 'delete', key = key}) end
    elseif s.op == 'spend' then if s.step == 1 and r[1] == 1 then table.insert(ops, {op = 'giveBack', key = key, max = s.max, window = s.window}) end
    elseif s.op == 'increment' then table.insert(ops, {op = 'decrement', key = key})
    elseif s.op == 'set' or s.op == 'delete' then
      local was = s.was and results[s.was + 1]
      if was then table.insert(ops, {op = 'set', key = key, value = was, seconds = s.seconds}) else table.insert(ops, {op = 'delete', key = key}) end
    end
  end
  return ops
end

for at = 1, #plan + 1 do
  local s = plan[at]
  if s == nil or s.op == 'gate' or s.op == 'check' then
    local stop
    for i = start, at - 1 do results[i] = operate(plan[i]) end
    for i = start, at - 1 do
      local step = plan[i]
      local passed, wait, value = verdict(step, results[i])
      local weigh = step.weigh
      if weigh then slots[weigh[1]] = excess(value + (weigh[4] or 0), weigh[2], weigh[3]) end
      if not passed and step.need then
        if not stop then stop = {reason = step.need, retryAfter = wait, at = i - 1}
        elseif stop.reason == step.need then stop.retryAfter = math.max(stop.retryAfter, wait) end
      end
    end
    if s then results[at] = 0 end
    if not stop and s and s.op == 'gate' then
      local level = 0
      for name, slot in pairs(slots) do if name ~= s.plus then level = level + slot end end
      if level > 0 and s.plus then level = level + (slots[s.plus] or 0) end
      results[at] = level
      if level > 0 and (level > s.over or not s.proof) then stop = {reason = 'proof', retryAfter = 0, level = level, at = at - 1}
      elseif level > 0 and not proven then
        proven = redis.call('SET', KEYS[s.proof], '1', 'NX', 'EX', s.seconds) and true or false
        if not proven then stop = {reason = 'proof', retryAfter = 0, level = level, at = at - 1} end
      end
    end
    if stop then
      apply(inverse(at - 1))
      return cjson.encode({results = results, stop = stop})
    end
    start = at + 1
  end
end
redis.call('SET', log, cjson.encode(inverse(#plan)), 'EX', 10)
return cjson.encode({results = results})`;

/** KEYS[1]: a plan's log. Undoes the plan if it ran, else marks it so that it never does. */
export const CANCEL = `${SPEND_FUNCTION}${APPLY}
local logged = redis.call('GET', KEYS[1])
if logged and logged ~= 'cancelled' then apply(cjson.decode(logged)) end
redis.call('SET', KEYS[1], 'cancelled', 'EX', 60)
return 0`;

/** A plan's log key: the id is random, so that no two runs share one. */
export const planLog = (prefix: string): string => `${prefix}plan:${crypto.randomUUID()}`;

/** The script's KEYS and ARGV for a plan: each key once, prefixed; seconds whole, a budget's window in ms. */
export function planArguments(plan: PlanStep[], prefix: string, log: string): { keys: string[]; args: string[] } {
  // Each key once, in a list built up front: a step names its key by its place in it (1-based, as Lua counts).
  const keys = [...new Set(plan.flatMap((step) => ['key' in step ? step.key : null, step.op === 'gate' ? step.proof : null]).filter((key): key is string => !!key))].map((key) => prefix + key);
  const index = (key: string): number => keys.indexOf(prefix + key) + 1;
  const steps = plan.map((step) => {
    const lua: Record<string, unknown> = { ...step };
    if ('key' in step) lua.key = index(step.key);
    if ('weigh' in step && step.weigh) lua.weigh = [...step.weigh.slice(0, 3), step.weigh[3] ?? 0];
    if (step.op === 'gate' && step.proof) lua.proof = index(step.proof);
    if ('seconds' in step) lua.seconds = wholeSeconds(step.seconds);
    if (step.op === 'spend' || step.op === 'giveBack') lua.window = step.seconds * 1000;
    return lua;
  });
  // JSON has no Infinity (a cap or a free allowance of none): the largest number stands for it.
  return { keys: [...keys, log], args: [JSON.stringify(steps, (_, value) => (value === Infinity ? Number.MAX_VALUE : value))] };
}

/** The script's answer, each step's result as the store's single operation answers it. */
export function planAnswer(plan: PlanStep[], reply: unknown): PlanAnswer {
  const { results, stop, cancelled } = JSON.parse(String(reply)) as { results: unknown[] | Record<string, never>; stop?: PlanAnswer['stop']; cancelled?: true };
  if (cancelled) throw new StoreUnavailableError('The plan was cancelled before it ran');
  const raw = Array.isArray(results) ? results : [];
  const shaped = raw.map((result, i) => {
    const step = plan[i] as Operation | { op: 'gate' | 'check' };
    if (step.op === 'get') return result === false ? null : String(result);
    if (step.op === 'claim') return { claimed: (result as number[])[0] === 1, ttl: Math.max(1, (result as number[])[1]!) };
    if (step.op === 'spend' || step.op === 'giveBack') return spendAnswer(result);
    if (step.op === 'increment') return { count: (result as number[])[0], ttl: Math.max(1, (result as number[])[1]!) };
    return step.op === 'gate' ? result : null;
  });
  return stop ? { results: shaped, stop } : { results: shaped };
}
