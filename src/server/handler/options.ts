/** What a host configures, with the defaults that keep it safe when it configures little. */
import { OTP_CHANNELS, type BiometricKind, type OtpChannel, type VerificationMethod } from '../../core/protocol.js';
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { assertSecret } from '../receipts.js';
import { webKeyedCrypto, type KeyedCrypto } from '../keyed-crypto.js';
import { withDeadline } from '../store/deadline.js';
import { MemoryStore } from '../store/memory.js';
import { memoryStoreRefusal } from '../store/platform.js';
import type { VerifyStore } from '../store/store.js';
import { DEFAULT_FRICTION, type Friction } from './friction/settings.js';
import type { FaceObserver } from '../liveness/judge.js';
import { DIGIT_WORDS, type DigitLanguage, type DigitListener } from '../liveness/digits.js';
import { Afterwards } from './afterwards.js';

/**
 * Codes to one destination in a window: past `alertAt` the host is told once a window (`onAbuse`)
 * and a line is logged; past `max` sends there are refused (no cap unless set).
 */
export interface DestinationWindow {
  alertAt: number;
  max: number;
  windowSeconds: number;
}

/** What `onAbuse` is told: codes to one country, or to one range of numbers in it, rose past their alert. */
export interface AbuseEvent {
  kind: 'country' | 'prefix';
  /** ISO 3166 alpha-2. */
  country: string;
  /** The range: the calling code and the first three national digits, such as `+966 501`. */
  prefix?: string;
  sends: number;
  windowSeconds: number;
}

/** A budget of `max` in `windowSeconds`, coming back evenly over it: a refusal waits for one to come back, not for the window's end. */
export interface Window {
  max: number;
  windowSeconds: number;
}

export interface Limits {
  /** Codes sent to one phone or email by one session. */
  sendsPerIdentifier: Window;
  /** Codes sent to one phone or email by everyone together: the ceiling against pumping and bombing. */
  sendsPerIdentifierAllCallers: Window;
  /** SMS and WhatsApp codes to one destination country, and to one range of numbers: the signs of SMS pumping. */
  sendsPerCountry: DestinationWindow;
  sendsPerPrefix: DestinationWindow;
  /** Codes sent from one client address. */
  sendsPerIp: Window;
  /** Codes sent by one session. */
  sendsPerSession: Window;
  /** Seconds between two sends to one identifier by one session; the widget shows the countdown. */
  resendCooldownSeconds: number;
  /** Wrong codes per code sent, counted per session and identifier. */
  maxWrongCodes: number;
  /**
   * Wrong codes for one phone or email over all callers and all its codes: the guess budget no
   * number of sessions multiplies. Spent, the person is offered the fallback channel.
   */
  wrongCodesPerIdentifier: Window;
  wrongCodesPerIdentifierPerDay: Window;
  /** Where friction starts. */
  friction: Friction;
  /** How long a sent code can be verified through the handler. */
  challengeSeconds: number;
  /** Face or voice comparisons and enrolments, per user and kind; a live check refused counts as one. */
  biometricAttempts: Window;
  /** How long a live challenge may be answered. */
  livenessSeconds: number;
  /** How long a phone link lives (continue on your phone); a session makes at most 10 in that time. */
  handoffSeconds: number;
  /** Body caps, checked before parsing: OTP routes, and face/voice routes. */
  maxJsonBytes: number;
  maxMediaBodyBytes: number;
  /** Seconds a body may take to arrive, so a trickle holds a connection no longer. */
  bodyReadSeconds: number;
  /** Decoded sample caps. */
  maxImageBytes: number;
  maxAudioBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  sendsPerIdentifier: { max: 3, windowSeconds: 3600 },
  sendsPerIdentifierAllCallers: { max: 10, windowSeconds: 3600 },
  sendsPerCountry: { alertAt: 100, max: Infinity, windowSeconds: 3600 },
  sendsPerPrefix: { alertAt: 20, max: Infinity, windowSeconds: 3600 },
  sendsPerIp: { max: 20, windowSeconds: 3600 },
  sendsPerSession: { max: 10, windowSeconds: 3600 },
  resendCooldownSeconds: 30,
  maxWrongCodes: 5,
  wrongCodesPerIdentifier: { max: 25, windowSeconds: 3600 },
  wrongCodesPerIdentifierPerDay: { max: 600, windowSeconds: 86_400 },
  friction: DEFAULT_FRICTION,

  challengeSeconds: 600,
  biometricAttempts: { max: 5, windowSeconds: 900 },
  livenessSeconds: 60,
  handoffSeconds: 600,
  maxJsonBytes: 8 * 1024,
  maxMediaBodyBytes: 4 * 1024 * 1024,
  bodyReadSeconds: 30,
  maxImageBytes: 2 * 1024 * 1024,
  maxAudioBytes: 2 * 1024 * 1024,
};

export interface VerifiedEvent {
  userId: string | null;
  method: VerificationMethod;
  /** The phone (E.164) or email that was verified, for OTP. */
  identifier?: string;
  receiptId: string;
  request: Request;
}

type Awaitable<T> = T | Promise<T>;

export interface LogEntry {
  route: string;
  status: number;
  code?: string;
  ms: number;
  channel?: string;
  fault?: string;
  error?: string;
}

export interface VerifyHandlerOptions {
  /** The service's base URL, ending in /api/v2, and the API key. Both stay on the server. */
  baseUrl: string;
  apiKey: string;
  /** The path the handler is mounted under, such as `/api/verify`. */
  basePath?: string;
  /** The signed-in user's id, from the host's session; null when nobody is signed in. */
  getUser(request: Request): Awaitable<string | null>;
  /** A stable id of the browser session, for OTP without a signed-in user; defaults to the user id. */
  getSessionId?(request: Request): Awaitable<string | null>;
  /**
   * The client's address, for per-IP limits, where the runtime gives the handler no socket address
   * (`handler(request, { clientIp })`) or the host knows better. Without it, and without an address,
   * the per-IP limit is skipped (with one warning).
   */
  getClientIp?(request: Request): Awaitable<string | null>;
  /**
   * The number of proxies of the host's own in front of it, whose X-Forwarded-For entries are true
   * (`true` is one). Off by default: the header is the caller's to forge.
   */
  trustProxy?: boolean | number;
  /** The user's registered sample (raw base64), for face and voice verification. */
  getReference?(userId: string, kind: BiometricKind): Awaitable<string | null>;
  /** Stores an enrolment sample (raw base64) as the user's reference. */
  saveReference?(userId: string, kind: BiometricKind, sample: string): Awaitable<void>;
  /**
   * Faces checked live (the liveness page): a face is verified or enrolled only from the frames of a
   * challenge the handler chose (`liveness-challenge`), checked for one face, the same person, the
   * movements asked for and depth before the service is paid; a picture is refused. The Node
   * entry's `createFacePool()` runs the face models in worker threads.
   */
  liveness?: FaceObserver;
  /**
   * Voices said now (the liveness page): a voice is verified or enrolled only from a recording of
   * the digits the handler chose (`voice-challenge`), heard by this listener before the service is
   * paid; a recording made earlier says other digits. On by default for a handler serving voice: the
   * Node entry runs `createDigitListener()` (PocketSphinx, the optional peer `soundswallower`, in a
   * worker thread); elsewhere a handler serving voice needs one, and refuses to start otherwise.
   * `false` turns it off: any recording of the person's voice then passes. Logs a warning at start.
   */
  voiceLiveness?: DigitListener | false;
  /**
   * With `voiceLiveness`, where the page's language is one no recogniser here hears (only English
   * and French are): ask for the digits in this language instead (the widget says which). Unset,
   * the digits are shown in the page's language and not heard: the voice verifies as before, and
   * its receipt says presence was not proven (`prs: false`).
   */
  voiceDigitsFallback?: DigitLanguage;
  /**
   * With `liveness`, a light challenge too: the handler chooses colours for the widget to show on
   * the screen in front of the face, and checks that the face reflected them, in order, before the
   * service is paid. A recording of the person made before the challenge cannot carry them (the
   * liveness page). On by default with `liveness`: `false` turns it off, and a recording of the
   * person whose frames a script chooses to answer the movements then passes.
   */
  livenessLight?: boolean;
  /**
   * Verify and register faces from whatever picture the browser sends, with no live check: a photo
   * of the person then passes as the person. Without it, a handler serving faces needs `liveness`
   * (the Node entry brings it) and refuses to start otherwise. Logs a warning at start.
   */
  facesFromUnprovenPhotos?: boolean;
  /** Which biometrics the handler serves, given `getReference` and `saveReference`: both by default. */
  biometrics?: BiometricKind[];
  /**
   * With `liveness`, still register a face from an uploaded photo: nothing then proves the photo is
   * the person's own, so whoever holds the session and a code may enrol anyone's face.
   */
  enrollFaceFromUnprovenPhoto?: boolean;
  /**
   * Whether this user may register a face or voice now: the host's own fresh proof of another
   * factor. Unset, or answering undefined, a code this user verified through the handler within
   * `enrollProofSeconds` is.
   */
  canEnroll?(userId: string, request: Request): Awaitable<boolean | undefined>;
  /** How long a verified code counts as proof for enrolling; 300 s by default. */
  enrollProofSeconds?: number;
  /** Let a user who already has a reference replace it; false by default. */
  allowReenrollment?: boolean;
  /** Channels offered; all three by default. */
  allowedChannels?: OtpChannel[];
  /**
   * ISO 3166 alpha-2 countries phones may belong to, such as `['SA']`. Required when SMS or WhatsApp
   * is allowed: an open list is how SMS pumping reaches premium ranges abroad.
   */
  allowedCountries?: string[];
  /** The service template per widget language, or one id for all; `{en: 1, ar: 2}` by default. */
  templateId?: number | Record<string, number>;
  /** A channel the widget may offer when the first fails; email when allowed, by default. */
  fallbackChannel?: OtpChannel | null;
  /** An email of the user's to pass as the service's own `fallback_email`. */
  getFallbackEmail?(userId: string | null, request: Request): Awaitable<string | null>;
  /** Digits in a code, as the service is set to send; told to the widget. Unset, the widget is told the length of the last code the service accepted. */
  codeLength?: number | null;
  limits?: Partial<Omit<Limits, 'friction'>> & { friction?: Partial<Friction> };
  /** At least 32 bytes, shared with the code that calls `verifyReceipt`. */
  receiptSecret: string;
  receiptSeconds?: number;
  store?: VerifyStore;
  /** Each store call must answer within this, or the request is answered 503 at once; 500 ms by default. */
  storeTimeoutMs?: number;
  onVerified?(event: VerifiedEvent): Awaitable<void>;
  /** Paid channels are hidden below this balance (checked at most once a minute); off when absent. */
  lowBalanceThreshold?: number;
  onLowBalance?(balance: number): Awaitable<void>;
  /** Told once a window when codes to one country or range pass their alert (limits.sendsPerCountry, sendsPerPrefix). */
  onAbuse?(event: AbuseEvent): Awaitable<void>;
  /**
   * The host's own human check (Cloudflare Turnstile, hCaptcha) in place of the proof of work:
   * whether a token the page got from it is good. The widget asks the page for one through its
   * `verify-human-check` event.
   */
  verifyHumanCheck?(token: string, request: Request): Awaitable<boolean>;
  /** Origins allowed to call; the handler's own host by default. */
  allowedOrigins?: string[];
  /** A header every call must carry, such as `x-csrf-token` checked by the host's own middleware. */
  requiredHeader?: string;
  upstreamTimeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * One entry per request; never a code, key, identifier or media. `fault` says why the service
   * was unavailable (timeout, network, server_error, not_json, redirect, unexpected_status,
   * bad_shape); `error`, the class of what failed in a hook or the store; `channel`, how an OTP
   * route's code went (`sms`, `whatsapp`, `email`) or is checked (`phone`, `email`).
   */
  log?(entry: LogEntry): void;
}

export type ResolvedOptions = Omit<VerifyHandlerOptions, 'limits' | 'store' | 'trustProxy' | 'voiceLiveness'> & {
  /** The digits' listener of a handler serving voice, unless the host turned it off. */
  voiceLiveness?: DigitListener;
  /** Proxy hops to trust; 0 trusts none. */
  trustProxy: number;
  /** The runtime's keyed crypto (Web Crypto, or node:crypto's on the Node entry). */
  crypto: KeyedCrypto;
  /** Says once that callers come with no address, so per-IP limits are off. */
  unknownClient(): void;
  basePath: string;
  limits: Limits;
  store: VerifyStore;
  allowedChannels: OtpChannel[];
  fallbackChannel: OtpChannel | null;
  receiptSeconds: number;
  enrollProofSeconds: number;
  codeLength: number | null;
  /** The biometrics served: none without `getReference` and `saveReference`. */
  biometrics: BiometricKind[];
  afterwards: Afterwards;
};

function once(run: () => void): () => void {
  let done = false;
  return () => {
    if (!done) run();
    done = true;
  };
}

/** What a runtime's entry gives the handler beneath the host's options: the Node entry's fetch and crypto. */
export interface Runtime {
  fetch?: typeof fetch;
  crypto?: KeyedCrypto;
  /** The runtime's own live face check, for a handler serving faces that was given none; throws what is missing. */
  liveness?(): FaceObserver;
  /** The runtime's own listener for spoken digits, for a handler serving voice that was given none; throws what is missing. */
  voiceLiveness?(): DigitListener;
  /** Work started before a response may finish after it (a Node process); elsewhere only through a `waitUntil` the adapter passes. */
  outlivesResponse?: boolean;
}

export function resolveOptions(options: VerifyHandlerOptions, runtime: Runtime = {}): ResolvedOptions {
  if (!options.baseUrl || !options.apiKey) throw new TypeError('baseUrl and apiKey are required');
  if (typeof options.getUser !== 'function') throw new TypeError('getUser(request) is required');
  assertSecret(options.receiptSecret);
  const allowedChannels = options.allowedChannels ?? [...OTP_CHANNELS];
  if (allowedChannels.length === 0 || allowedChannels.some((c) => !OTP_CHANNELS.includes(c))) {
    throw new TypeError(`allowedChannels takes some of ${OTP_CHANNELS.join(', ')}`);
  }
  const allowedCountries = checkCountries(options.allowedCountries, allowedChannels);
  const codeLength = options.codeLength ?? null;
  if (codeLength !== null && !(Number.isInteger(codeLength) && codeLength >= 4 && codeLength <= 8)) {
    throw new TypeError('codeLength must be 4 to 8');
  }
  if (options.limits && 'sendsPerIdentifierPerNetwork' in options.limits) {
    throw new TypeError('limits.sendsPerIdentifierPerNetwork is now limits.friction.freeSendsPerIdentifierPerNetwork: past its share a network meets a proof of work, not a refusal');
  }
  if (options.voiceDigitsFallback !== undefined && !Object.hasOwn(DIGIT_WORDS, options.voiceDigitsFallback)) {
    throw new TypeError(`voiceDigitsFallback takes one of the languages digits are heard in: ${Object.keys(DIGIT_WORDS).join(', ')}`);
  }
  const biometrics = options.getReference && options.saveReference ? (options.biometrics ?? ['face', 'voice']) : [];
  return {
    ...options,
    biometrics,
    liveness: faceCheck(options, biometrics, runtime),
    voiceLiveness: voiceCheck(options, biometrics, runtime),
    fetch: options.fetch ?? runtime.fetch,
    crypto: runtime.crypto ?? webKeyedCrypto,
    basePath: (options.basePath ?? '').replace(/\/+$/, ''),
    limits: { ...DEFAULT_LIMITS, ...options.limits, friction: { ...DEFAULT_LIMITS.friction, ...options.limits?.friction } },
    store: resolveStore(options),
    allowedChannels,
    allowedCountries,
    fallbackChannel: options.fallbackChannel !== undefined ? options.fallbackChannel : allowedChannels.includes('email') ? 'email' : null,
    receiptSeconds: options.receiptSeconds ?? 120,
    enrollProofSeconds: options.enrollProofSeconds ?? 300,
    codeLength,
    afterwards: new Afterwards(runtime.outlivesResponse === true, options.log),
    trustProxy: options.trustProxy === true ? 1 : Number(options.trustProxy) || 0,
    unknownClient: once(() =>
      console.warn('verify handler: requests come with no client address, so per-IP send limits are off. Pass { clientIp } to the handler, or set getClientIp or trustProxy.'),
    ),
  };
}

const warnPhotos = once(() => console.warn('verify handler: facesFromUnprovenPhotos is set, so a photo of a person verifies as that person. Use it for development only.'));

export const NO_LIVENESS =
  'Serving faces needs a live check, or a photo of the person passes as the person (the liveness page). ' +
  'On Node, take createVerifyHandler from verify-widgets/server/node, which runs it; on an edge runtime, send faces to the stand-alone service, which runs it (VERIFY_FACE_LIVENESS). ' +
  "To serve voice alone, set biometrics: ['voice']; to accept photos knowingly, facesFromUnprovenPhotos: true.";

const warnRecordings = once(() => console.warn("verify handler: voiceLiveness is false, so any recording of a person's voice verifies as that person."));

export const NO_VOICE_LIVENESS =
  "Serving voices needs the digits heard, or any recording of the person's voice passes as the person (the liveness page). " +
  'On Node, take createVerifyHandler from verify-widgets/server/node, which hears them; on an edge runtime, send voices to the stand-alone service, which hears them (VERIFY_VOICE_LIVENESS). ' +
  "To serve faces alone, set biometrics: ['face']; to accept any recording knowingly, voiceLiveness: false.";

/**
 * The live check of a biometric: the host's, else its runtime's; none where the handler does not
 * serve it, or where the host turned it off (said once at start).
 */
function liveCheck<Check>(served: boolean, given: Check | undefined, off: boolean, warnOff: () => void, fromRuntime: (() => Check) | undefined, missing: string): Check | undefined {
  if (off) {
    if (served) warnOff();
    return undefined;
  }
  if (given || !served) return given;
  if (!fromRuntime) throw new TypeError(missing);
  return fromRuntime();
}

function faceCheck(options: VerifyHandlerOptions, biometrics: BiometricKind[], runtime: Runtime): FaceObserver | undefined {
  if (biometrics.some((kind) => kind !== 'face' && kind !== 'voice')) throw new TypeError("biometrics takes some of 'face', 'voice'");
  if (options.facesFromUnprovenPhotos && options.liveness) throw new TypeError('Give liveness or facesFromUnprovenPhotos, not both.');
  return liveCheck(biometrics.includes('face'), options.liveness, Boolean(options.facesFromUnprovenPhotos), warnPhotos, runtime.liveness, NO_LIVENESS);
}

function voiceCheck(options: VerifyHandlerOptions, biometrics: BiometricKind[], runtime: Runtime): DigitListener | undefined {
  return liveCheck(biometrics.includes('voice'), options.voiceLiveness || undefined, options.voiceLiveness === false, warnRecordings, runtime.voiceLiveness, NO_VOICE_LIVENESS);
}

/** The store given, with a deadline; memory where one instance may be the whole site, and only there unless chosen. */
function resolveStore(options: VerifyHandlerOptions): VerifyStore {
  // Memory answers at once: only a store across a network gets a deadline (and its timers).
  if (options.store instanceof MemoryStore) return options.store;
  if (options.store) return withDeadline(options.store, options.storeTimeoutMs ?? 500);
  const refusal = memoryStoreRefusal();
  if (refusal) throw new TypeError(refusal);
  return new MemoryStore();
}

function checkCountries(countries: string[] | undefined, channels: OtpChannel[]): string[] | undefined {
  if (countries === undefined) {
    if (channels.some((c) => c !== 'email')) {
      throw new TypeError("allowedCountries is required when sms or whatsapp is allowed: list the countries you send codes to, such as ['SA'] (or allow only email)");
    }
    return undefined;
  }
  const codes = Array.isArray(countries) ? countries.map((c) => String(c).toUpperCase()) : [];
  const unknown = codes.find((c) => !isSupportedCountry(c as CountryCode));
  if (codes.length === 0 || unknown !== undefined) {
    throw new TypeError(`allowedCountries takes ISO 3166 alpha-2 codes such as 'SA'${unknown !== undefined ? `; ${JSON.stringify(unknown)} is not one` : ''}`);
  }
  return codes;
}
