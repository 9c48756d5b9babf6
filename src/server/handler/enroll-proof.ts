/**
 * Enrolling a face or a voice makes it the account's, so it needs fresh proof of another factor: a
 * code this user verified through this handler within `enrollProofSeconds`, recorded here where
 * nothing the browser carries can forge it, or the host's own `canEnroll(user, request)`: true
 * allows, false refuses, and undefined (a session token without `enroll`) leaves it to the code.
 */
import { keys } from '../store/keys.js';
import type { Operation } from '../store/plan.js';
import type { RequestContext } from './context.js';

const proofKey = async (ctx: RequestContext, user: string) => keys.enrollProof(await ctx.userHash(user));

/** After a code verified by a signed-in user: the proof, fresh for the next minutes (a step of the verify's clean-up). */
export async function proofStep(ctx: RequestContext, user: string): Promise<Operation> {
  return { op: 'set', key: await proofKey(ctx, user), seconds: ctx.options.enrollProofSeconds, value: '1' };
}

export async function hasProof(ctx: RequestContext, user: string): Promise<boolean> {
  // A phone's link carries what the desktop had when it made it.
  if (ctx.handoff) return ctx.handoff.proof;
  const { canEnroll, store } = ctx.options;
  const vouched = await canEnroll?.(user, ctx.request);
  if (vouched !== undefined) return vouched === true;
  return (await store.get(await proofKey(ctx, user))) !== null;
}
