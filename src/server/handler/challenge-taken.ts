/** A live challenge's answer takes its challenge from the shared store: a face's movements, a voice's digits. */
import type { RequestContext } from './context.js';
import { fail } from './errors.js';

/**
 * The session's challenge under `key` that `nonce` answers, taken once and for `user`; refused as
 * expired otherwise. An answer to an earlier challenge (a second tab's, which a newer one replaced)
 * is refused without taking the newer one, so that the tab that asked last can still answer; the
 * challenge is taken before anything is decoded, so that an answer replayed, raced or late finds
 * nothing.
 */
export async function takeChallenge<T extends { nonce: string; user: string }>(ctx: RequestContext, key: (session: string) => string, nonce: string, user: string): Promise<T> {
  const { store } = ctx.options;
  const at = key(await ctx.session());
  const expired = () => fail('liveness_required', 'This check has expired. Please start it again.');
  const current = await store.get(at);
  if (current === null || (JSON.parse(current) as T).nonce !== nonce) return expired();
  const taken = await store.take(at);
  const challenge = taken === null ? null : (JSON.parse(taken) as T);
  if (!challenge || challenge.nonce !== nonce || challenge.user !== (await ctx.userHash(user))) return expired();
  return challenge;
}
