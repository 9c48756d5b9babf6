/**
 * Development controls under /__emulator: the outbox, fault injection, forced outcomes, the clock
 * and the balance. They exist only in the emulator, which listens on loopback.
 */
import { HttpError, json, readJsonObject } from '../core/http.js';
import { parseFault } from './faults.js';
import type { RouteResult } from './service-routes.js';
import type { EmulatorState } from './state.js';

const CONTROL_BODY_BYTES = 16 * 1024;

export async function handleControl(state: EmulatorState, request: Request, pathname: string): Promise<RouteResult> {
  const route = `${request.method} ${pathname.slice('/__emulator'.length)}`;
  try {
    return { response: await control(state, request, route) };
  } catch (error) {
    if (error instanceof HttpError || error instanceof TypeError) {
      const status = error instanceof HttpError ? error.status : 400;
      return { response: json({ errors: [{ message: error.message }] }, status) };
    }
    throw error;
  }
}

async function control(state: EmulatorState, request: Request, route: string): Promise<Response> {
  const body = () => readJsonObject(request, { maxBytes: CONTROL_BODY_BYTES });
  switch (route) {
    case 'GET /messages':
      return json({ messages: state.outbox.list(new URL(request.url).searchParams.get('to') ?? undefined) });
    case 'DELETE /messages':
      state.outbox.clear();
      return new Response(null, { status: 204 });
    case 'GET /messages/stream':
      return messageStream(state, request.signal);
    case 'GET /faults':
      return json({ faults: state.faults.list() });
    case 'POST /faults':
      state.faults.add(parseFault(await body()));
      return json({ faults: state.faults.list() }, 201);
    case 'DELETE /faults':
      state.faults.clear();
      return new Response(null, { status: 204 });
    case 'PUT /force': {
      const { face, voice } = await body();
      state.forced = { face: outcome(face, 'face'), voice: outcome(voice, 'voice') };
      return json({ force: state.forced });
    }
    case 'POST /clock': {
      const { advanceSeconds } = await body();
      if (typeof advanceSeconds !== 'number' || !(advanceSeconds >= 0)) throw new TypeError('advanceSeconds must be a number >= 0');
      state.clockOffsetMs += advanceSeconds * 1000;
      return json({ now: new Date(state.now()).toISOString() });
    }
    case 'PUT /balance': {
      const { balance } = await body();
      if (typeof balance !== 'number' || !Number.isFinite(balance)) throw new TypeError('balance must be a number');
      state.balance = balance;
      return json({ balance });
    }
    case 'GET /status': {
      const { apiKeys: _secret, ...settings } = state.settings;
      return json({ balance: state.balance, settings, faults: state.faults.list(), force: state.forced });
    }
    default:
      throw new HttpError(404, `No control ${route}`);
  }
}

function outcome(value: unknown, name: string): boolean | undefined {
  if (value === 'match') return true;
  if (value === 'no-match') return false;
  if (value === undefined || value === null) return undefined;
  throw new TypeError(`${name} must be "match", "no-match" or null`);
}

/** Server-sent events: one `message` event per outbox entry, for the demo's live outbox. */
function messageStream(state: EmulatorState, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(': outbox\n\n'));
      unsubscribe = state.outbox.subscribe((message) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(message)}\n\n`)));
      signal.addEventListener('abort', () => {
        unsubscribe();
        controller.close();
      });
    },
    cancel: () => unsubscribe(),
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' } });
}
