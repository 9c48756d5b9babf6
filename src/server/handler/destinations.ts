/**
 * SMS pumping shows as codes piling up towards one country or one range of numbers: each send by
 * SMS or WhatsApp is counted there, the host is told once a window when a count passes its alert
 * (one instance of a fleet sees the crossing), and past a cap, when the host sets one, sends there
 * are refused: the people of that range pay for it, so it is off by default.
 */
import { destinationOf } from './contacts.js';
import { keys } from '../store/keys.js';
import type { RequestContext } from './context.js';
import { fail } from './errors.js';
import type { AbuseEvent, DestinationWindow } from './options.js';

/** Counts a send to `phone`'s country and range; answers the keys counted, to give back if nothing was sent. */
export async function countDestination(ctx: RequestContext, phone: string): Promise<string[]> {
  const { country, prefix } = destinationOf(phone);
  const { sendsPerCountry, sendsPerPrefix } = ctx.options.limits;
  return [
    await countTowards(ctx, keys.sendsToCountry(country), sendsPerCountry, { kind: 'country', country }),
    await countTowards(ctx, keys.sendsToPrefix(prefix), sendsPerPrefix, { kind: 'prefix', country, prefix }),
  ];
}

async function countTowards(ctx: RequestContext, key: string, window: DestinationWindow, event: Omit<AbuseEvent, 'sends' | 'windowSeconds'>): Promise<string> {
  const { count, ttl } = await ctx.options.store.increment(key, window.windowSeconds, window.max);
  if (count === window.alertAt + 1) {
    const where = event.prefix ?? event.country;
    console.warn(`verify handler: ${count} codes to ${where} within ${window.windowSeconds} s (alert at ${window.alertAt}): a sign of SMS pumping. Check the traffic; limits.${event.kind === 'country' ? 'sendsPerCountry' : 'sendsPerPrefix'}.max refuses past a cap.`);
    try {
      await ctx.options.onAbuse?.({ ...event, sends: count, windowSeconds: window.windowSeconds });
    } catch (error) {
      console.error(`verify handler: onAbuse failed: ${(error as Error)?.message ?? error}`);
    }
  }
  if (count > window.max) fail('rate_limited', 'Codes to this destination are paused for a while. Please try again later, or choose another way.', { retryAfter: ttl });
  return key;
}
