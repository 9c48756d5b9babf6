/** The host's own human check (a CAPTCHA), in the proof of work's place when `verifyHumanCheck` is given. */
import { keys } from '../../store/keys.js';
import type { RequestContext } from '../context.js';

/**
 * When the host says `token` is a person's: any level, and the key that claims it once (in the
 * request's plan: one token, one request); else nothing proved.
 */
export async function humanChecked(ctx: RequestContext, token: unknown): Promise<{ over: number; proof?: string }> {
  if (typeof token !== 'string' || !token || token.length > 4096) return { over: 0 };
  if (!(await ctx.options.verifyHumanCheck!(token, ctx.request))) return { over: 0 };
  return { over: Number.MAX_SAFE_INTEGER, proof: keys.humanCheck(await ctx.hash(token)) };
}
