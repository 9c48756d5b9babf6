/**
 * What happened, told to the site (`VERIFY_WEBHOOK_URL`): each of the handler's hooks (a
 * verification, an abuse alert, a low balance) as a POST of `{id, type, created, data}`, signed as
 * the reference callbacks are (`Verify-Signature` over "t.POST.path.body" under the server secret),
 * with the event's id in `Verify-Event-Id` for the site to keep each once. Nobody waits for it: the
 * hook queues the event and returns. A delivery the site does not answer 2xx within 5 s is tried
 * again after 1, 2, 4… s (at most 30 s apart) until the event is `giveUpSeconds` old, then
 * dropped with a log line. At least once while the instance runs: an instance killed loses what it
 * had not delivered, and says at SIGTERM what it could not deliver in time.
 */
import { randomUUID } from 'node:crypto';
import { signatureFor } from '../server/index.js';

export type WebhookType = 'verified' | 'abuse' | 'low_balance';

export interface WebhookOptions {
  url: string;
  secret: string;
  /** How long an event is tried before it is dropped. */
  giveUpSeconds: number;
  fetch: typeof fetch;
  log(fields: Record<string, unknown>): void;
}

interface Pending {
  id: string;
  type: WebhookType;
  body: string;
  created: number;
  attempts: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** Deliveries at once, so that a slow site holds a few sockets, not one per event. */
const IN_FLIGHT = 4;
/** Events kept for retry; past this the oldest is dropped (a site down under a flood of alerts). */
const MAX_PENDING = 10_000;
const ATTEMPT_MS = 5000;
/** The first retry's delay, doubling up to the last. */
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

export function createWebhooks(options: WebhookOptions) {
  const target = new URL(options.url);
  const pending = new Map<string, Pending>();
  const ready: Pending[] = [];
  let inFlight = 0;
  let closing = false;

  function pump(): void {
    while (inFlight < IN_FLIGHT && ready.length) {
      inFlight++;
      void attempt(ready.shift()!).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  async function attempt(event: Pending): Promise<void> {
    event.attempts++;
    let failure: string;
    try {
      const headers = {
        'content-type': 'application/json',
        'verify-signature': await signatureFor(options.secret, 'POST', target.pathname, event.body),
        'verify-event-id': event.id,
      };
      const response = await options.fetch(target, { method: 'POST', headers, body: event.body, redirect: 'manual', signal: AbortSignal.timeout(ATTEMPT_MS) });
      await response.body?.cancel();
      if (response.ok) {
        pending.delete(event.id);
        if (event.attempts > 1) options.log({ level: 'info', msg: 'webhook delivered', type: event.type, id: event.id, attempts: event.attempts });
        return;
      }
      failure = `status ${response.status}`;
    } catch (error) {
      failure = (error as Error)?.name ?? 'Error';
    }
    // At shutdown it stays pending, for close() to count.
    if (closing) return;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (event.attempts - 1));
    if (Date.now() + delay - event.created > options.giveUpSeconds * 1000) {
      pending.delete(event.id);
      options.log({ level: 'error', msg: 'webhook given up', type: event.type, id: event.id, attempts: event.attempts, failure });
      return;
    }
    event.timer = setTimeout(() => {
      event.timer = undefined;
      ready.push(event);
      pump();
    }, delay);
    event.timer.unref();
  }

  return {
    /** Queues the event and returns at once. */
    send(type: WebhookType, data: Record<string, unknown>): void {
      if (closing) return;
      if (pending.size >= MAX_PENDING) {
        const oldest = pending.values().next().value!;
        clearTimeout(oldest.timer);
        pending.delete(oldest.id);
        options.log({ level: 'error', msg: 'webhook dropped: too many undelivered', type: oldest.type, id: oldest.id });
      }
      const created = Date.now();
      const id = `evt_${randomUUID()}`;
      const event: Pending = { id, type, created, attempts: 0, body: JSON.stringify({ id, type, created: new Date(created).toISOString(), data }) };
      pending.set(id, event);
      ready.push(event);
      pump();
    },
    /**
     * At shutdown: each waiting event tried once more, for at most `withinMs`; what is left is
     * said in one log line, with the ids, for the site to look up.
     */
    async close(withinMs: number): Promise<void> {
      closing = true;
      for (const event of pending.values()) {
        if (!event.timer) continue;
        clearTimeout(event.timer);
        event.timer = undefined;
        ready.push(event);
      }
      pump();
      const end = Date.now() + withinMs;
      while (inFlight + ready.length > 0 && Date.now() < end) await new Promise((done) => setTimeout(done, 20));
      if (pending.size) options.log({ level: 'error', msg: 'webhooks not delivered at shutdown', count: pending.size, ids: [...pending.keys()].slice(0, 100) });
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
