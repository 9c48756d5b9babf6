/** A host handler in front of a real emulator, with a recording fetch between them. */
import { startEmulator, type EmulatorOptions } from '../../../src/emulator/index.js';
import { createVerifyHandler, type VerifyHandlerOptions } from '../../../src/server/index.js';
import { KEY, until } from '../helpers.js';

export const SECRET = 'test-receipt-secret-0123456789abcdef';
export const ORIGIN = 'http://app.test';

/**
 * Limits for a test that sends many codes from one address to find a key on a given node: how
 * many it takes is chance, and the per-address cap or proof of work would meet the unlucky run.
 */
export const MANY_FROM_ONE_ADDRESS = { sendsPerIp: { max: 1e9, windowSeconds: 3600 }, friction: { freeSendsPerIp: Infinity } } satisfies VerifyHandlerOptions['limits'];

export interface Upstream {
  path: string;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

export interface CallOptions {
  session?: string | null;
  user?: string;
  origin?: string | null;
  headers?: Record<string, string>;
  /** The address the runtime adapter saw, passed beside the request. */
  clientIp?: string;
}

/** `instances` handlers share the options (and so the store); `call` takes turns between them. */
export async function setup(overrides: Partial<VerifyHandlerOptions> = {}, emulator: EmulatorOptions = {}, instances = 1) {
  const emu = await startEmulator({ apiKeys: [KEY], maxAttempts: 10, ...emulator });
  const upstream: Upstream[] = [];
  const references = new Map<string, string>();
  const logs: Record<string, unknown>[] = [];
  const make = () => createVerifyHandler({
    baseUrl: emu.baseUrl,
    apiKey: KEY,
    basePath: '/verify',
    receiptSecret: SECRET,
    allowedCountries: ['SA', 'AE'],
    getUser: (request) => request.headers.get('x-test-user'),
    getSessionId: (request) => request.headers.get('x-test-session'),
    getClientIp: (request) => request.headers.get('x-test-ip') ?? '127.0.0.1',
    getReference: (user, kind) => references.get(`${user}:${kind}`) ?? null,
    saveReference: (user, kind, sample) => void references.set(`${user}:${kind}`, sample),
    fetch: (async (url: string, init: RequestInit) => {
      upstream.push({ path: new URL(url).pathname, headers: new Headers(init.headers), body: init.body ? JSON.parse(init.body as string) : undefined });
      return fetch(url, init);
    }) as typeof fetch,
    log: (entry) => logs.push({ ...entry }),
    // The photo path, and any recording of a voice, unless a test brings a live check.
    ...(overrides.liveness ? {} : { facesFromUnprovenPhotos: true }),
    ...(overrides.voiceLiveness ? {} : { voiceLiveness: false }),
    ...overrides,
  });
  let handlers: ReturnType<typeof make>[];
  try {
    handlers = Array.from({ length: instances }, make);
  } catch (error) {
    // Options refused at start-up: nothing is left running.
    await emu.close();
    throw error;
  }
  const handler = handlers[0]!;
  let turn = 0;

  function request(route: string, body?: unknown, options: CallOptions = {}): Request {
    const { session = 's1', user, origin = ORIGIN, headers = {} } = options;
    const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
    if (origin) all.origin = origin;
    if (session) all['x-test-session'] = session;
    if (user) all['x-test-user'] = user;
    return new Request(`${ORIGIN}/verify/${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: all,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async function call(route: string, body?: unknown, options?: CallOptions) {
    const response = await handlers[turn++ % handlers.length]!(request(route, body, options), { clientIp: options?.clientIp });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
  }

  /** What registering needs first: a code this user verified (by email, from a session of their own). */
  async function prove(user: string): Promise<void> {
    const email = `${user.toLowerCase().replace(/[^a-z0-9]/g, '')}@proof.test`;
    const options = { user, session: `proof-${user}` };
    await call('send-otp', { method: 'email', email }, options);
    const res = await call('verify-otp', { email, otp: await codeSentTo(emu, email) }, options);
    if (res.status !== 200) throw new Error(`proof for ${user}: ${res.status}`);
  }

  const calls = (path: string) => upstream.filter((u) => u.path === `/api/v2/${path}`).length;
  return { emu, handler, handlers, upstream, references, logs, request, call, calls, prove, close: () => emu.close() };
}

/** The code of the first message to `to`, waiting up to `waitMs` for it (a send the service finished late). */
export async function codeSentTo(emu: { state: { outbox: { list(to: string): { code: string }[] } } }, to: string, waitMs = 3000): Promise<string> {
  await until(`a message to ${to}`, () => emu.state.outbox.list(to).length > 0, waitMs, 50);
  return emu.state.outbox.list(to)[0]!.code;
}
