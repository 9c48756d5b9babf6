/**
 * A route's store steps as one plan, run in one round trip where the store can (`VerifyStore.run`:
 * one Lua script on Redis and Upstash, one synchronous pass on the MemoryStore), so that the
 * decisions between them (a cooldown held, a cap full, a proof too easy) are taken in the store,
 * not after a round trip each. A plan is groups of steps; at the end of a group, a step that
 * `need`s to pass and did not stops the plan, and everything the plan changed is undone. A `gate`
 * weighs the pressure the steps read (their `weigh`) against the proof the request carries.
 * A store without `run` (a Redis Cluster, whose keys live on several nodes; Durable Objects; a
 * host's own) runs the same plan with its single operations, one round trip per group.
 */
import type { BudgetAnswer } from './budget.js';
import type { Needs, Operation, PlanAnswer, PlanStep, PlanStop, VerifyStore } from './store.js';

export type { Operation, PlanAnswer, PlanStep, PlanStop, Weigh } from './store.js';

/** The operation's answer, as the store's single method gives it. */
export async function operate(store: VerifyStore, step: Operation): Promise<unknown> {
  switch (step.op) {
    case 'get':
      return store.get(step.key);
    case 'claim':
      return store.claim(step.key, step.seconds, step.value ?? '1');
    case 'spend':
      return store.spend(step.key, step.max, step.seconds, step.step);
    case 'giveBack':
      return store.spend(step.key, step.max, step.seconds, -1);
    case 'increment':
      return store.increment(step.key, step.seconds, step.max);
    case 'set':
      return store.set(step.key, step.seconds, step.value);
    case 'delete':
      return store.delete(step.key);
    case 'decrement':
      return store.decrement(step.key);
  }
}

/** Whether a step passed, and the wait it told when not. */
function verdict(step: Operation, result: unknown): { passed: boolean; wait: number; value: number } {
  switch (step.op) {
    case 'get': {
      const count = Number(result) || 0;
      return { passed: step.max === undefined ? result !== null : count < step.max, wait: 0, value: count };
    }
    case 'claim': {
      const { claimed, ttl } = result as { claimed: boolean; ttl: number };
      return { passed: claimed, wait: ttl, value: 0 };
    }
    case 'spend': {
      const { spent, used, retryAfter } = result as BudgetAnswer;
      return { passed: spent, wait: retryAfter, value: used };
    }
    case 'increment': {
      const { count, ttl } = result as { count: number; ttl: number };
      return { passed: step.max === undefined || count <= step.max, wait: ttl, value: count };
    }
    default:
      return { passed: true, wait: 0, value: 0 };
  }
}

/** Levels above free, beyond `free`: one more for each `step` counted past it. */
export function excess(count: number, free: number, step: number): number {
  return count < free ? 0 : 1 + Math.floor((count - free) / step);
}

/**
 * What puts back the steps of a plan that changed something (in reverse order): a claim deleted,
 * a budget's one given back, a count taken back, a value put back as it was. `upTo` excludes later steps.
 */
export function inverse(plan: PlanStep[], results: unknown[], upTo = plan.length): Operation[] {
  const undo: Operation[] = [];
  for (let i = upTo - 1; i >= 0; i--) {
    const step = plan[i]!;
    const result = results[i];
    if (result === undefined) continue;
    if (step.op === 'claim' && (result as { claimed: boolean }).claimed) undo.push({ op: 'delete', key: step.key, seconds: 0 });
    else if (step.op === 'spend' && step.step === 1 && (result as BudgetAnswer).spent) undo.push({ op: 'giveBack', key: step.key, max: step.max, seconds: step.seconds });
    else if (step.op === 'increment') undo.push({ op: 'decrement', key: step.key });
    else if (step.op === 'set' || step.op === 'delete') {
      // What it replaced is unknown (its read failed beside it): left as it is.
      if (step.was !== undefined && results[step.was] === undefined) continue;
      const was = step.was === undefined ? null : (results[step.was] as string | null);
      undo.push(was === null ? { op: 'delete', key: step.key, seconds: 0 } : { op: 'set', key: step.key, seconds: step.seconds, value: was });
    }
  }
  return undo;
}

/**
 * The plan's logic, apart from how operations reach the store: yields each group's operations (a
 * gate's proof claim, the undo) and is given their answers. Drivers: `runWith` (a store's single
 * methods, async) and MemoryStore's synchronous one. Redis runs the same logic in Lua (scripts.ts, PLAN).
 */
export function* interpret(plan: PlanStep[]): Generator<Operation[], PlanAnswer, unknown[]> {
  const results: unknown[] = new Array(plan.length);
  const slots = new Map<string, number>();
  let proven = false;
  let start = 0;
  for (let end = 0; end <= plan.length; end++) {
    const step = plan[end];
    if (step && step.op !== 'gate' && step.op !== 'check') continue;
    const group = plan.slice(start, end) as Operation[];
    const answers = group.length ? yield group : [];
    let stop: PlanStop | undefined;
    group.forEach((op, i) => {
      results[start + i] = answers[i] ?? null;
      const { passed, wait, value } = verdict(op, answers[i]);
      const { need, weigh } = op as Needs;
      if (weigh) slots.set(weigh[0], excess(value + (weigh[3] ?? 0), weigh[1], weigh[2]));
      if (passed || !need) return;
      if (!stop) stop = { reason: need, retryAfter: wait, at: start + i };
      else if (stop.reason === need) stop.retryAfter = Math.max(stop.retryAfter, wait);
    });
    if (!stop && step?.op === 'gate') {
      let level = [...slots].reduce((sum, [slot, slotLevel]) => (slot === step.plus ? sum : sum + slotLevel), 0);
      if (level > 0 && step.plus) level += slots.get(step.plus) ?? 0;
      results[end] = level;
      if (level > 0 && (level > step.over || !step.proof)) stop = { reason: 'proof', retryAfter: 0, level, at: end };
      else if (level > 0 && !proven) {
        const [claim] = yield [{ op: 'claim', key: step.proof!, seconds: step.seconds }];
        proven = (claim as { claimed: boolean }).claimed;
        if (!proven) stop = { reason: 'proof', retryAfter: 0, level, at: end };
      }
    }
    if (stop) {
      const undo = inverse(plan, results, end);
      if (undo.length) yield undo;
      return { results, stop };
    }
    start = end + 1;
  }
  return { results };
}

/**
 * Runs a plan with a store's single operations: each group's at once (one round trip on a
 * pipelining client). Where one fails (a cluster's master dying between two of them), what the
 * others changed is put back as far as the store still answers, then the failure is thrown: a
 * fault costs the person a retry, never an attempt or a budget's share.
 */
export async function runWith(store: VerifyStore, plan: PlanStep[]): Promise<PlanAnswer> {
  const steps = interpret(plan);
  const results: unknown[] = new Array(plan.length);
  let next = steps.next();
  while (!next.done) {
    const group = next.value;
    const settled = await Promise.allSettled(group.map((step) => operate(store, step)));
    settled.forEach((answer, i) => {
      const at = plan.indexOf(group[i]!);
      if (answer.status === 'fulfilled' && at >= 0) results[at] = answer.value ?? null;
    });
    const failed = settled.find((answer) => answer.status === 'rejected');
    if (failed) {
      // Not when the group was the plan's own undo (after a stop): what it put back is not known.
      const undoing = !group.some((step) => plan.includes(step)) && group[0]?.op !== 'claim';
      if (!undoing) await Promise.allSettled(inverse(plan, results).map((step) => operate(store, step)));
      throw failed.reason;
    }
    next = steps.next(settled.map((answer) => (answer as PromiseFulfilledResult<unknown>).value));
  }
  return next.value;
}

/** Runs a plan on the store: in one round trip where it has `run`, else a round trip per group. */
export function runPlan(store: VerifyStore, plan: PlanStep[]): Promise<PlanAnswer> {
  return store.run ? store.run(plan) : runWith(store, plan);
}
