/**
 * The host handler as a service of its own (the Any back end page), for sites whose back end is not
 * JavaScript: the widget routes under the base path, identity from the site's session token,
 * references through the site's signed callbacks, `receipts/redeem` for the site's server, and the
 * operations routes (`/healthz`, `/readyz`, `/metrics`) outside the base path.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createNodeFetch, createVerifyHandler, DigitModelsMissingError, FaceModelsMissingError } from '../server/node/index.js';
import { ReceiptError, referenceCallbacks, sessionTokenAuth, type LogEntry, type VerifyHandlerOptions } from '../server/index.js';
import { json, readJsonObject, type RequestInfo } from '../core/http.js';
import type { OtpChannel } from '../core/protocol.js';
import { ConfigError, OPTION_FIELDS, type ServiceConfig } from './config.js';
import { createMetrics } from './metrics.js';
import { serviceStore, type ServiceStore } from './store.js';
import { createWebhooks } from './webhooks.js';

/** One JSON line per event, for the platform's log collector; never a secret, code, identifier or media. */
export function logLine(fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), ...fields }));
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export interface VerifyService {
  /** The whole service as one Fetch-API handler. */
  handle(request: Request, info: RequestInfo): Promise<Response>;
  /** Answers /readyz 503 from now on, so the balancer stops sending here. */
  drain(): void;
  /** The store the instances share, for the log line at start. */
  storeKind: ServiceStore['kind'];
  close(): Promise<void>;
}

export interface ServiceDeps {
  /** How the service and the site are called; a keep-alive node:http fetch by default. */
  fetch?: typeof fetch;
  /** Where the JSON log lines go; standard output by default. */
  log?: (fields: Record<string, unknown>) => void;
}

export function createVerifyService(config: ServiceConfig, { fetch: fetchImpl = createNodeFetch(), log = logLine }: ServiceDeps = {}): VerifyService {
  const { store, kind, close } = serviceStore(config);
  let handler: ReturnType<typeof createVerifyHandler>;
  const metrics = createMetrics(() => handler.balance());
  const tokens = sessionTokenAuth({ secret: config.VERIFY_TOKEN_SECRET });
  const references = config.VERIFY_REFERENCES_URL ? referenceCallbacks({ url: config.VERIFY_REFERENCES_URL, secret: config.VERIFY_SERVER_SECRET, fetch: fetchImpl }) : {};
  const fallback = config.VERIFY_FALLBACK_CHANNEL;
  const webhooks = config.VERIFY_WEBHOOK_URL
    ? createWebhooks({ url: config.VERIFY_WEBHOOK_URL, secret: config.VERIFY_SERVER_SECRET, giveUpSeconds: config.VERIFY_WEBHOOK_GIVE_UP_SECONDS, fetch: fetchImpl, log })
    : null;
  const options: VerifyHandlerOptions = {
    baseUrl: config.VERIFY_SERVICE_BASE_URL,
    apiKey: config.VERIFY_SERVICE_API_KEY,
    receiptSecret: config.VERIFY_RECEIPT_SECRET,
    basePath: config.VERIFY_BASE_PATH,
    ...tokens,
    ...references,
    store,
    storeTimeoutMs: config.VERIFY_STORE_TIMEOUT_MS,
    allowedChannels: config.VERIFY_ALLOWED_CHANNELS as OtpChannel[],
    allowedCountries: config.VERIFY_ALLOWED_COUNTRIES,
    allowedOrigins: config.VERIFY_ALLOWED_ORIGINS,
    trustProxy: config.VERIFY_TRUST_PROXY,
    templateId: config.VERIFY_TEMPLATE_ID as VerifyHandlerOptions['templateId'],
    fallbackChannel: fallback === undefined ? undefined : fallback === 'none' ? null : (fallback as OtpChannel),
    codeLength: config.VERIFY_CODE_LENGTH ?? null,
    receiptSeconds: config.VERIFY_RECEIPT_SECONDS,
    enrollProofSeconds: config.VERIFY_ENROLL_PROOF_SECONDS,
    allowReenrollment: config.VERIFY_ALLOW_REENROLLMENT,
    // Faces are checked live by the Node entry's face models, loaded on the first check, unless turned off.
    facesFromUnprovenPhotos: Boolean(config.VERIFY_REFERENCES_URL) && !config.VERIFY_FACE_LIVENESS,
    livenessLight: config.VERIFY_FACE_LIGHT,
    // Voices' digits are heard by the Node entry's recogniser, loaded on the first recording, unless turned off.
    ...(!config.VERIFY_VOICE_LIVENESS && { voiceLiveness: false }),
    limits: config.VERIFY_LIMITS as VerifyHandlerOptions['limits'],
    upstreamTimeoutMs: config.VERIFY_UPSTREAM_TIMEOUT_MS,
    lowBalanceThreshold: config.VERIFY_LOW_BALANCE_THRESHOLD,
    fetch: metrics.timed(fetchImpl),
    ...(webhooks && {
      onVerified: ({ userId, method, identifier, receiptId }) => webhooks.send('verified', { user: userId, method, ...(identifier && { identifier }), receiptId }),
      onAbuse: (event) => webhooks.send('abuse', { ...event }),
      onLowBalance: (balance) => webhooks.send('low_balance', { balance, threshold: config.VERIFY_LOW_BALANCE_THRESHOLD }),
    }),
    log(entry: LogEntry) {
      metrics.record(entry);
      log({ level: entry.status >= 500 ? 'error' : 'info', msg: 'request', ...entry, ms: Math.round(entry.ms) });
    },
  };
  try {
    handler = createVerifyHandler(options);
  } catch (error) {
    if (error instanceof FaceModelsMissingError) {
      void close();
      throw new ConfigError([
        `VERIFY_FACE_LIVENESS: faces are checked live (on by default), and the face models are not installed beside the service: ${error.missing.join(', ')}. ` +
          `Install them where the service runs (${error.install}), or set VERIFY_FACE_LIVENESS=false to accept any picture (a photo of the person then passes as the person).`,
      ]);
    }
    if (error instanceof DigitModelsMissingError) {
      void close();
      throw new ConfigError([
        `VERIFY_VOICE_LIVENESS: voices' digits are heard (on by default), and the recogniser is not installed beside the service. ` +
          `Install it where the service runs (${error.install}), or set VERIFY_VOICE_LIVENESS=false to accept any recording (a recording of the person's voice then passes as the person).`,
      ]);
    }
    // The handler names its option; the person configuring the service knows the variable.
    const message = (error as Error).message;
    const option = Object.keys(OPTION_FIELDS).find((name) => message.startsWith(name) || message.includes(` ${name} `));
    void close();
    throw new ConfigError([`${option ? OPTION_FIELDS[option] : 'configuration'}: ${message}`]);
  }

  const serverSecret = digest(config.VERIFY_SERVER_SECRET);
  const base = config.VERIFY_BASE_PATH === '/' ? '' : config.VERIFY_BASE_PATH;
  let draining = false;

  async function redeem(request: Request, info: RequestInfo): Promise<Response> {
    const presented = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(presented), serverSecret)) return json({ error: { code: 'unauthorized', message: 'The server secret is required.' } }, 401);
    let receipt: unknown;
    try {
      ({ receipt } = await readJsonObject(request, { maxBytes: 4096, timeoutMs: 10_000, source: info.body }));
    } catch {
      return json({ error: { code: 'receipt_invalid', message: 'Send {"receipt": "..."} as JSON.' } }, 400);
    }
    try {
      const claims = await handler.verifyReceipt(receipt, { anyUser: true });
      log({ level: 'info', msg: 'receipt redeemed', method: claims.mth });
      return json(claims);
    } catch (error) {
      if (!(error instanceof ReceiptError)) {
        log({ level: 'error', msg: 'receipt not redeemed', error: (error as Error)?.name ?? 'Error' });
        return json({ error: { code: 'upstream_unavailable', message: 'The store is unavailable; try again.' } }, 503);
      }
      if (error.reason === 'replayed') return json({ error: { code: 'receipt_used', message: 'This receipt was already redeemed.' } }, 409);
      return json({ error: { code: 'receipt_invalid', message: error.message, reason: error.reason } }, 400);
    }
  }

  return {
    async handle(request, info) {
      const { pathname } = new URL(request.url);
      if (pathname === '/healthz') return json({ status: 'ok' });
      if (pathname === '/readyz') {
        const problems = draining ? ['shutting down'] : await handler.readiness();
        return json({ status: problems.length ? 'unavailable' : 'ready', problems }, problems.length ? 503 : 200);
      }
      if (pathname === '/metrics') {
        return new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' } });
      }
      if (pathname === `${base}/receipts/redeem`) {
        return request.method === 'POST' ? redeem(request, info) : json({ error: { code: 'invalid_input', message: 'Use POST for receipts/redeem.' } }, 405);
      }
      if (pathname === base || pathname.startsWith(`${base}/`)) return handler(request, info);
      return json({ error: { code: 'invalid_input', message: 'Not found.' } }, 404);
    },
    drain() {
      draining = true;
    },
    storeKind: kind,
    async close() {
      await webhooks?.close(2000);
      await close();
    },
  };
}
