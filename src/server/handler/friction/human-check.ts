/** The host's own human check (a CAPTCHA), in the proof of work's place when `verifyHumanCheck` is given. */
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';
import { PROOF_SECONDS } from './proof-of-work.js';

/** Whether the host says `token` is a person's, claimed now: one token, one request. */
export async function humanChecked(ctx: RequestContext, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !token || token.length > 4096) return false;
  if (!(await ctx.options.verifyHumanCheck!(token, ctx.request))) return false;
  return (await ctx.options.store.claim(keys.humanCheck(await ctx.hash(token)), PROOF_SECONDS)).claimed;
}
