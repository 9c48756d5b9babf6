/**
 * The host handler: the one endpoint the widgets call. It checks the caller, applies the policy the
 * host handler page lists ("What it enforces"), adds the API key, calls the service, and answers in
 * the stable shape of the widget protocol page.
 */
import { HttpError, refuseDeclaredOver, type FetchHandler, type RequestInfo } from '../../core/http.js';
import { createServiceClient } from '../upstream/client.js';
import { verifyReceipt, type ReceiptClaims, type VerifyReceiptOptions } from '../receipts.js';
import { enroll, verifyBiometric } from './biometric-routes.js';
import { livenessChallenge } from './liveness-routes.js';
import { voiceChallenge } from './voice-challenge.js';
import { balanceWatch, config } from './config-route.js';
import { RequestContext } from './context.js';
import { errorResponse, HandlerError, unavailable } from './errors.js';
import { resolveOptions, type Runtime, type VerifyHandlerOptions } from './options.js';
import { sendOtp, verifyOtp, type OtpDeps } from './otp-routes.js';
import { HANDOFF_HEADER, isRoute, ROUTES, type Route } from '../../core/protocol.js';
import { handoffClaim, handoffPhone, handoffStart, handoffStatus, phoneHandoff } from './handoff.js';
import type { VerifyStore } from '../store/store.js';
import { keys } from '../store/keys.js';

export interface VerifyHandler extends FetchHandler {
  /** Checks a receipt with this handler's secret and store, and uses it up. */
  verifyReceipt(token: unknown, expect?: Omit<VerifyReceiptOptions, 'secret' | 'store'>): Promise<ReceiptClaims>;
  /**
   * What keeps this handler from serving now, for a readiness probe: `store` when its store does
   * not answer within the store deadline, `service` when the service does not (asked at most every
   * 5 s while it answers). Empty when ready.
   */
  readiness(): Promise<Array<'store' | 'service'>>;
  /** The account's balance, from the service (for a gauge). */
  balance(): Promise<number>;
}

/**
 * The handler. Given its options, it checks them at once and throws when they are wrong; given a
 * function that returns them, it reads them on the first request instead, so that a build that
 * imports the handler (`next build`) needs no secrets. Options refused then are said in the
 * server's log and answered 503 to the widget, and read again on the next request.
 */
export function createVerifyHandler(input: HandlerInput): VerifyHandler {
  return createHandlerOn({}, input);
}

export type HandlerInput = VerifyHandlerOptions | (() => VerifyHandlerOptions | Promise<VerifyHandlerOptions>);

/** `createVerifyHandler` on a runtime's own fetch and crypto (the Node entry's). */
export function createHandlerOn(runtime: Runtime, input: HandlerInput): VerifyHandler {
  if (typeof input !== 'function') return handlerFor(input, runtime);
  let built: Promise<VerifyHandler> | undefined;
  const ready = () =>
    (built ??= (async () => handlerFor(await input(), runtime))().catch((error: unknown) => {
      built = undefined;
      console.error(`verify handler: its options were refused: ${(error as Error)?.message ?? error}`);
      throw error;
    }));
  const handle = async (request: Request, info?: RequestInfo) => {
    let handler: VerifyHandler;
    try {
      handler = await ready();
    } catch {
      return errorResponse(unavailable(503));
    }
    return handler(request, info);
  };
  return Object.assign(handle, {
    bodyFromInfo: true,
    verifyReceipt: async (token: unknown, expect?: Omit<VerifyReceiptOptions, 'secret' | 'store'>) => (await ready()).verifyReceipt(token, expect),
    readiness: async () => (await ready()).readiness(),
    balance: async () => (await ready()).balance(),
  });
}

function handlerFor(input: VerifyHandlerOptions, runtime: Runtime): VerifyHandler {
  const options = resolveOptions(input, runtime);
  const upstream = createServiceClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: options.upstreamTimeoutMs, fetch: options.fetch });
  const channels = balanceWatch(options, upstream);
  // Unset, the code length is learnt from the codes the service accepts: it sends one length.
  let learnt: number | null = null;
  const otp: OtpDeps = {
    upstream,
    channels,
    codeLength: () => options.codeLength ?? learnt,
    learnCodeLength: (length) => void (learnt = length),
  };

  const routes: { [R in Route]: (ctx: RequestContext) => Promise<Response> } = {
    config: (ctx) => config(ctx, otp),
    'send-otp': (ctx) => sendOtp(ctx, otp),
    'verify-otp': (ctx) => verifyOtp(ctx, otp),
    'liveness-challenge': livenessChallenge,
    'voice-challenge': voiceChallenge,
    'verify-by-face': (ctx) => verifyBiometric(ctx, upstream, 'face'),
    'verify-by-voice': (ctx) => verifyBiometric(ctx, upstream, 'voice'),
    'enroll-face': (ctx) => enroll(ctx, 'face'),
    'enroll-voice': (ctx) => enroll(ctx, 'voice'),
    'handoff-start': handoffStart,
    'handoff-status': handoffStatus,
    'handoff-claim': handoffClaim,
    'handoff-phone': handoffPhone,
  };

  async function handle(request: Request, info?: RequestInfo): Promise<Response> {
    const started = performance.now();
    const path = new URL(request.url).pathname;
    const name = path.startsWith(options.basePath) ? path.slice(options.basePath.length).replace(/^\/+|\/+$/g, '') : '';
    let response: Response;
    let failure: string | undefined;
    let code: string | undefined;
    let fault: string | undefined;
    let ctx: RequestContext | undefined;
    try {
      if (!isRoute(name)) fail404();
      const route = ROUTES[name];
      if (request.method !== route.method) throw new HandlerError('invalid_input', `Use ${route.method} for ${name}.`, { status: 405 });
      ctx = new RequestContext(request, options, info ?? {}, route);
      if (route.method === 'POST') {
        // A declared length over the route's cap is refused before anything else is done.
        refuseDeclaredOver(request, ctx.maxBodyBytes);
        ctx.checkOrigin();
      }
      // A phone's call through a link stands on the link, whatever cookie it carries.
      const pass = request.headers.get(HANDOFF_HEADER);
      if (pass !== null) ctx.handoff = await phoneHandoff(ctx, pass, name);
      response = await routes[name](ctx);
    } catch (thrown) {
      // The body readers' refusals (size, deadline, JSON) are the caller's input at fault.
      const error = thrown instanceof HttpError ? new HandlerError('invalid_input', thrown.message, { status: thrown.status }) : thrown;
      if (error instanceof HandlerError) {
        code = error.code;
        fault = error.fault;
        response = errorResponse(error);
      } else {
        // A hook or the store failed: no detail leaves the server, and never a 500 to the widget.
        failure = (error as Error)?.name ?? 'Error';
        code = 'upstream_unavailable';
        response = errorResponse(unavailable(503));
      }
    }
    ctx?.answer();
    if (request.method === 'POST' && response.status !== 405) response.headers.set('cache-control', 'no-store');
    options.log?.({
      route: name || path,
      status: response.status,
      code,
      ms: performance.now() - started,
      ...(ctx?.channel ? { channel: ctx.channel } : {}),
      ...(fault ? { fault } : {}),
      ...(failure ? { error: failure } : {}),
    });
    return response;
  }

  return Object.assign(handle, {
    bodyFromInfo: true,
    verifyReceipt: (token: unknown, expect: Omit<VerifyReceiptOptions, 'secret' | 'store'> = {}) =>
      verifyReceipt(token, { ...expect, secret: options.receiptSecret, store: options.store }),
    readiness: readinessCheck(options.store, () => upstream.balance()),
    balance: async () => (await upstream.balance()).balance,
  });
}

/** The store asked on each call (an outage shows within its deadline), the service at most every 5 s while it answers. */
function readinessCheck(store: VerifyStore, balance: () => Promise<unknown>): VerifyHandler['readiness'] {
  let serviceCheckedAt = 0;
  return async () => {
    const fresh = Date.now() - serviceCheckedAt < 5000;
    const [storeOk, serviceOk] = await Promise.all([
      store.get(keys.readiness()).then(() => true, () => false),
      fresh || balance().then(() => ((serviceCheckedAt = Date.now()), true), () => false),
    ]);
    return [...(storeOk ? [] : ['store' as const]), ...(serviceOk ? [] : ['service' as const])];
  };
}

function fail404(): never {
  throw new HandlerError('invalid_input', 'No such verification route.', { status: 404 });
}

export type { VerifyHandlerOptions, VerifiedEvent, Limits, Window, DestinationWindow, AbuseEvent, LogEntry } from './options.js';
export { DEFAULT_LIMITS } from './options.js';
export { SAMPLE_FIELDS } from '../../core/protocol.js';
