/**
 * SMS pumping shows as codes piling up towards one country or one range of numbers: each send by
 * SMS or WhatsApp is counted there (in the send's plan), the host is told once a window when a
 * count passes its alert (one instance of a fleet sees the crossing), and past a cap, when the host
 * sets one, sends there are refused: the people of that range pay for it, so it is off by default.
 */
import { destinationOf } from './contacts.js';
import { keys } from '../store/keys.js';
import type { PlanStep } from '../store/plan.js';
import type { RequestContext } from './context.js';
import type { AbuseEvent, DestinationWindow } from './options.js';

/** Why a plan stops when a destination's cap is reached. */
export const DESTINATION = 'destination';

interface Destination {
  key: string;
  window: DestinationWindow;
  event: Omit<AbuseEvent, 'sends' | 'windowSeconds'>;
}

/** `phone`'s country and range, with their counts' keys and windows. */
export function destinationsOf(ctx: RequestContext, phone: string): Destination[] {
  const { country, prefix } = destinationOf(phone);
  const { sendsPerCountry, sendsPerPrefix } = ctx.options.limits;
  return [
    { key: keys.sendsToCountry(country), window: sendsPerCountry, event: { kind: 'country', country } },
    { key: keys.sendsToPrefix(prefix), window: sendsPerPrefix, event: { kind: 'prefix', country, prefix } },
  ];
}

/** A send counted towards each destination, refused past its cap. */
export const destinationSteps = (destinations: Destination[]): PlanStep[] =>
  destinations.map(({ key, window }) => ({ op: 'increment', key, seconds: window.windowSeconds, max: window.max, need: DESTINATION }));

/** Tells the host of each count (the plan's answers to destinationSteps) that just passed its alert. */
export async function alertDestinations(ctx: RequestContext, destinations: Destination[], counts: unknown[]): Promise<void> {
  for (const [i, { window, event }] of destinations.entries()) {
    const count = (counts[i] as { count: number } | null | undefined)?.count;
    if (count !== window.alertAt + 1) continue;
    const where = event.prefix ?? event.country;
    console.warn(
      `verify handler: ${count} codes to ${where} within ${window.windowSeconds} s (alert at ${window.alertAt}): a sign of SMS pumping. Check the traffic; limits.${event.kind === 'country' ? 'sendsPerCountry' : 'sendsPerPrefix'}.max refuses past a cap.`,
    );
    try {
      await ctx.options.onAbuse?.({ ...event, sends: count, windowSeconds: window.windowSeconds });
    } catch (error) {
      console.error(`verify handler: onAbuse failed: ${(error as Error)?.message ?? error}`);
    }
  }
}
