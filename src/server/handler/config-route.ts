/** GET config, and the balance watch that hides paid channels when credits run low. */
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/max';
import type { ConfigResponse, OtpChannel } from '../../core/protocol.js';
import { json } from '../../core/http.js';
import type { ServiceClient } from '../upstream/types.js';
import type { RequestContext } from './context.js';
import type { OtpDeps } from './otp-routes.js';
import { hasProof } from './enroll-proof.js';
import { describePending, readPending } from './pending.js';
import type { ResolvedOptions } from './options.js';

const PAID: readonly OtpChannel[] = ['sms', 'whatsapp'];
const BALANCE_MAX_AGE_MS = 60_000;

/** Reads /balance at most once a minute per handler instance, and tells the host when it runs low. */
export function balanceWatch(options: ResolvedOptions, upstream: ServiceClient) {
  let cached: { low: boolean; at: number } | undefined;
  let pending: Promise<boolean> | undefined;

  async function refresh(): Promise<boolean> {
    try {
      const { balance } = await upstream.balance();
      const low = balance < options.lowBalanceThreshold!;
      if (low && !cached?.low) await options.onLowBalance?.(balance);
      cached = { low, at: Date.now() };
    } catch (error) {
      // Unknown balance: keep the last answer (or offer everything) rather than fail closed.
      options.log?.({ route: 'balance', status: 0, ms: 0, error: (error as Error)?.name ?? 'Error' });
      cached = { low: cached?.low ?? false, at: Date.now() };
    }
    return cached.low;
  }

  return async function channels(): Promise<OtpChannel[]> {
    if (options.lowBalanceThreshold === undefined) return options.allowedChannels;
    const fresh = cached && Date.now() - cached.at < BALANCE_MAX_AGE_MS;
    const low = fresh ? cached!.low : await (pending ??= refresh().finally(() => (pending = undefined)));
    return low ? options.allowedChannels.filter((c) => !PAID.includes(c)) : options.allowedChannels;
  };
}

/** Each allowed country with its calling code, as the widget builds numbers from them. */
function callingCodes(countries: string[] | undefined): Record<string, string> | null {
  return countries ? Object.fromEntries(countries.map((c) => [c, getCountryCallingCode(c as CountryCode)])) : null;
}

export async function config(ctx: RequestContext, otp: Pick<OtpDeps, 'channels' | 'codeLength'>): Promise<Response> {
  const { options } = ctx;
  const user = await ctx.user();
  const available = await otp.channels();
  const session = await ctx.sessionOrNull();
  const pending = session ? await readPending(ctx, session) : null;
  const has = async (kind: 'face' | 'voice') => Boolean(user && (await options.getReference?.(user, kind)));
  const body: ConfigResponse = {
    channels: available,
    countries: callingCodes(options.allowedCountries),
    codeLength: otp.codeLength(),
    resendCooldown: options.limits.resendCooldownSeconds,
    maxWrongCodes: options.limits.maxWrongCodes,
    fallbackChannel: options.fallbackChannel && available.includes(options.fallbackChannel) ? options.fallbackChannel : null,
    enrolled: user ? { face: await has('face'), voice: await has('voice') } : null,
    canEnroll: typeof options.saveReference === 'function',
    needsProof: Boolean(user && options.saveReference && !(await hasProof(ctx, user))),
    pending: pending ? describePending(ctx, pending) : null,
    ...(options.getReference && options.saveReference ? { handoff: true as const } : {}),
    ...(options.liveness ? { liveness: { photoEnrolment: options.enrollFaceFromUnprovenPhoto === true } } : {}),
    ...(options.voiceLiveness ? { voiceDigits: true as const } : {}),
  };
  return json(body);
}
