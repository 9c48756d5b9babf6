/**
 * The widget ↔ host protocol (demo/pages/protocol.md), shared by the host handler and the widgets: the stable
 * error vocabulary and the JSON each route answers. A host in another language implements these.
 */
import type { AltchaChallenge } from './proof-of-work.js';

export const ERROR_CODES = [
  'invalid_input',
  'wrong_code',
  'code_expired',
  'too_many_attempts',
  'rate_limited',
  'insufficient_credits',
  'no_match',
  'bad_sample',
  'not_enrolled',
  'proof_required',
  'unauthorized',
  'forbidden',
  'upstream_unavailable',
  'challenge_required',
  'try_another_channel',
  // The session token of the stand-alone service (demo/pages/any-backend.md): absent, past its expiry, or not one the site signed.
  'token_missing',
  'token_expired',
  'token_invalid',
  // A face checked live: no answer to a live challenge was sent, or its frames did not show a live person.
  'liveness_required',
  'liveness_failed',
  // A phone link (continue on your phone) past its ten minutes, used by another phone, cancelled or finished.
  'handoff_ended',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type OtpChannel = 'sms' | 'whatsapp' | 'email';

/** Why a camera or microphone could not be used; each has its own way out. */
export type DeviceFailure = 'denied' | 'no-camera' | 'no-microphone' | 'busy' | 'constraints' | 'insecure' | 'unsupported';
export type CameraFailure = Exclude<DeviceFailure, 'no-microphone'>;
export type MicrophoneFailure = Exclude<DeviceFailure, 'no-camera'>;
export const OTP_CHANNELS: readonly OtpChannel[] = ['sms', 'whatsapp', 'email'];

export type BiometricKind = 'face' | 'voice';

/** Each widget's steps: its `step` property, its custom state `:state(<step>)` and its `verify-step-change` event. */
export type OtpStep = 'contact' | 'sending' | 'code' | 'verifying' | 'success' | 'failure';
export type FaceStep = 'priming' | 'permission' | 'preview' | 'challenge' | 'review' | 'uploading' | 'success' | 'failure' | 'handoff';
export type VoiceStep = 'priming' | 'permission' | 'ready' | 'recording' | 'review' | 'uploading' | 'success' | 'failure' | 'handoff';
export type VerifyStep = OtpStep | FaceStep | VoiceStep;

/** A flow's state union whose steps are exactly `Step`: a step in one and not the other makes it `never`. */
export type StepsOf<Step extends string, State extends { step: Step }> = [Step] extends [State['step']] ? State : never;

/**
 * Why a face or voice check cannot start: nobody signed in, nothing registered to compare with, or
 * (to register) no fresh proof of another factor yet.
 */
export type AccountProblem = 'signed_out' | 'not_enrolled' | 'proof_required';

/** What a face or voice flow takes from the sample's upload and the account, beside its own events. */
export type SampleEvent =
  | { type: 'done' }
  | { type: 'failed'; code: ErrorCode; attemptsLeft?: number; retryAfter?: number; move?: LivenessMove; livenessReason?: string }
  /** Nobody is signed in, or nothing is registered: the element offers the way on. On a phone, its link ended. */
  | { type: 'blocked'; reason: AccountProblem | 'handoff_ended' }
  | { type: 'restart' }
  /** The capture goes to a phone (handoff.md); it ended there, or the person came back: the first step again. */
  | { type: 'handoff' }
  | { type: 'handoff-ended' };

/** The field a sample travels in from widget to handler, per route: the service's own names for verification. */
export const SAMPLE_FIELDS = {
  verify: { face: 'query_face_image', voice: 'query_audio' },
  enroll: { face: 'face_image', voice: 'audio' },
} as const;
export type VerificationMethod = 'otp' | BiometricKind;
export const VERIFICATION_METHODS: readonly VerificationMethod[] = ['otp', 'face', 'voice'];

/**
 * The codes that mean the person did not pass (a `verify-failure`); every other code is an error
 * the widget shows and the person may get past (a `verify-error`).
 */
export const FAILURE_CODES = ['wrong_code', 'code_expired', 'too_many_attempts', 'no_match', 'liveness_failed'] as const satisfies readonly ErrorCode[];
export type FailureCode = (typeof FAILURE_CODES)[number];

export function isFailureCode(code: ErrorCode): code is FailureCode {
  return (FAILURE_CODES as readonly string[]).includes(code);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Every failure, whatever the route: `{error: {...}}` with an HTTP status of 400 or more. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Seconds before trying again (`rate_limited`, `too_many_attempts`); also in Retry-After. */
    retryAfter?: number;
    /** Wrong codes or comparisons left before the challenge locks. */
    attemptsLeft?: number;
    /** The request field at fault (`invalid_input`, `bad_sample`). */
    field?: string;
    /**
     * send-otp's `upstream_unavailable` after a timeout or a 5xx: the code may have gone out, and
     * if it arrives it can be verified. `retryAfter` is then the cooldown's true time left.
     */
    maybeSent?: true;
    /**
     * `challenge_required`: the proof of work to solve (an ALTCHA v2 challenge) before the same
     * request is sent again with the solution in `altcha`; or, instead, `humanCheck` when the host
     * asks for its own check (Turnstile, hCaptcha), whose token goes in `humanCheck`.
     */
    challenge?: AltchaChallenge;
    humanCheck?: true;
    /** `try_another_channel`: the channel that reaches the person by another phone or email, if any. */
    fallback?: OtpChannel;
    /** `liveness_failed`: which rule the frames broke, and the movement it concerns, for the widget to explain. */
    reason?: LivenessReason;
    move?: LivenessMove;
  };
}

/** The movements a live challenge asks for, said from the person's side: `left` is their own left. */
export const LIVENESS_MOVES = ['left', 'right', 'up', 'down', 'closer'] as const;
export type LivenessMove = (typeof LIVENESS_MOVES)[number];
/** Why a live challenge's frames were refused. */
export type LivenessReason =
  | 'no_face'
  | 'several_faces'
  | 'not_same_person'
  | 'not_frontal'
  | 'move_not_seen'
  | 'screen_or_print'
  | 'flat'
  | 'frames_missing'
  /** The light challenge's colours were not seen on the face (too far from the screen, too dim, too much daylight, or no light at all). */
  | 'light_not_seen'
  /** The face moved while the colours showed. */
  | 'light_moved'
  /** A voice's recording did not say the digits the server asked for (voice-challenge). */
  | 'digits_not_heard';

/** POST {endpoint}/voice-challenge's body: the page's language, for the digits to be read in where it can be heard. */
export interface VoiceChallengeBody {
  lang?: string;
}

/**
 * POST {endpoint}/voice-challenge: the digits to read aloud, in `lang`, and the nonce to send back
 * with the recording within `expiresIn` seconds. The server hears the digits before the service is
 * paid: a recording made earlier says other digits.
 */
export interface VoiceChallenge {
  nonce: string;
  digits: string;
  /**
   * The language to read the digits in, and they are heard in (`en` or `fr`): the page's where it
   * can be, else the host's `voiceDigitsFallback`; null where neither: the digits are then read in
   * the page's language and not heard, and the receipt says presence was not proven.
   */
  lang: string | null;
  expiresIn: number;
}

/** POST {endpoint}/liveness-challenge: the movements to make, in order, and the nonce to send back within `expiresIn` seconds. */
export interface LivenessChallenge {
  nonce: string;
  moves: LivenessMove[];
  expiresIn: number;
  /**
   * With the host's `livenessLight`: colours (`#rrggbb`) to fill the screen with, one after the other,
   * each for `holdMs`, with the face close to the screen, and a frame taken under each.
   */
  light?: { colours: string[]; holdMs: number };
}

/**
 * A live answer's frames: JPEGs at most `maxSide` pixels a side, all of them together (the film's
 * and the light's) at most `maxTotalBytes`, which the handler refuses past and the widget keeps
 * under (`liveFrameBase64`). The film: between `minFilm` and `maxFilm` frames, each at most
 * `filmSide` pixels a side (enough for the models to follow a face at a webcam's distance; the
 * service compares the film's frontal frame).
 */
export const LIVE_FRAMES = { maxSide: 640, maxTotalBytes: 1024 * 1024, filmSide: 480, minFilm: 6, maxFilm: 24 };

/**
 * How long a live challenge's film opens on the frontal look, before the first movement is asked:
 * the frames taken in it are where the host learns how the face sits when it looks ahead.
 */
export const LIVE_FRONTAL_MS = 800;

/** The longest base64 each of `count` frames may be for all of them to fit the handler's bytes, and at most 40 KB (a phone's upload). */
export function liveFrameBase64(count: number): number {
  return Math.min(40 * 1024, Math.floor(LIVE_FRAMES.maxTotalBytes / count / 3) * 4);
}

/**
 * A face checked live: the challenge filmed from its frontal look through every movement (JPEG,
 * base64, in order), when each frame was taken (ms from the first), and the challenge's nonce.
 */
export interface LiveFaceBody {
  nonce: string;
  video: string[];
  times: number[];
  /** With a light challenge: one frame under each colour, in order (JPEG, base64). */
  lit?: string[];
}

/** What a request answered `challenge_required` carries when sent again. */
export interface FrictionFields {
  /** The solved proof of work: base64 JSON of the challenge and its solution. */
  altcha?: string;
  /** The token of the host's own human check. */
  humanCheck?: string;
}

/** GET {endpoint}/config: what the widget may know. Nothing in it is secret. */
export interface ConfigResponse {
  channels: OtpChannel[];
  /**
   * The countries phones may belong to, each with its calling code, in the host's order:
   * `{ "SA": "966", "AE": "971" }`. The widget keeps no table of its own. null when the handler
   * sends codes to email alone.
   */
  countries: Record<string, string> | null;
  /** Digits in a code when the host knows it; null means 4 to 8. */
  codeLength: number | null;
  /** Seconds between two sends to one identifier. */
  resendCooldown: number;
  /** Wrong codes allowed per code sent. */
  maxWrongCodes: number;
  /** A channel the widget may offer when the first one fails to arrive. */
  fallbackChannel: OtpChannel | null;
  /** Whether the signed-in user has a reference sample of each kind; null when nobody is signed in. */
  enrolled: Record<BiometricKind, boolean> | null;
  /** Whether this handler registers faces and voices (the host gave it `saveReference`). */
  canEnroll: boolean;
  /** Whether registering now would be refused for want of fresh proof (a code verified first). */
  needsProof: boolean;
  /** A code this session asked for and can still enter (after a reload or in a new tab); else null. */
  pending: PendingCode | null;
  /** Whether the handler makes phone links (continue on your phone). */
  handoff?: true;
  /**
   * Present when the host checks faces live: a face is sent as a live challenge's frames, and a
   * photo file only to register, when `photoEnrolment` says the host takes one.
   */
  liveness?: { photoEnrolment: boolean };
  /** Present when the host hears voices say digits it chose: the widget asks `voice-challenge` for them and sends its nonce back. */
  voiceDigits?: true;
}

/**
 * A code a session is waiting for. The widget verifies it with `{otp}` alone and asks again with
 * `{resend: true}`: the handler knows the contact, the page never has to.
 */
export interface PendingCode {
  method: OtpChannel;
  /** The destination, partly masked. */
  to: string;
  /** Seconds before a new code may be asked for: the true time left. */
  resendAfter: number;
}

/** POST {endpoint}/send-otp answers 200 with this. */
export interface SendOtpResponse {
  sent: true;
  method: OtpChannel;
  /** The destination, partly masked, to show the person. */
  to: string;
  /** Seconds before a resend is allowed. */
  resendAfter: number;
  codeLength: number | null;
  /** No new code went out: this session already has a live one for this contact (a reload, a second tab). */
  alreadySent?: true;
}

/** verify-otp, verify-by-face and verify-by-voice answer 200 with this on success. */
export interface VerifiedResponse {
  verified: true;
  method: VerificationMethod;
  /** Signed, short-lived, single-use proof for the host's server (`verifyReceipt`). */
  receipt: string;
  expiresAt: string;
  /** A face or a voice: whether its live check proved the person there, as the receipt's `prs` says. */
  presence?: boolean;
}

/** enroll-face and enroll-voice answer 200 with this. */
export interface EnrolledResponse {
  enrolled: true;
  kind: BiometricKind;
}

/** POST {endpoint}/send-otp: a contact, or `resend` for the code this session is waiting for. */
export interface SendOtpBody extends FrictionFields {
  method?: OtpChannel;
  phone?: string;
  email?: string;
  /** The widget's language, which picks the message template. */
  lang?: string;
  resend?: true;
}

/** POST {endpoint}/verify-otp: the code, with the contact it went to unless the session knows it. */
export interface VerifyOtpBody extends FrictionFields {
  phone?: string;
  email?: string;
  otp: string;
}

/**
 * Continue on your phone (demo/pages/handoff.md). The desktop asks for a link (`handoff-start`) and
 * polls it (`handoff-status`); the phone that opens it claims it once (`handoff-claim`) and from then
 * on sends `Verify-Handoff: <token>.<device>` on the few routes of that one capture.
 */
export const HANDOFF_HEADER = 'verify-handoff';
/** Where the link carries its token: the URL's fragment, which no server, log or Referer sees. */
export const HANDOFF_FRAGMENT = 'verify-handoff';
export type HandoffState = 'waiting' | 'connected' | 'capturing' | 'done' | 'cancelled';

/** POST {endpoint}/handoff-start: a phone link for this session's user, for one capture of `kind`. */
export interface HandoffStartBody {
  kind: BiometricKind;
  mode?: 'verify' | 'enroll';
}
export interface HandoffStarted {
  /** At least 128 random bits, single use: the phone's link is the page's URL with `#verify-handoff=<token>`. */
  token: string;
  /** Six characters both screens show, so the person sees the phone opened this computer's link. */
  code: string;
  expiresIn: number;
}
/** POST {endpoint}/handoff-status: how the phone is getting on; `cancel` ends the link on both sides. */
export interface HandoffStatusBody {
  token: string;
  cancel?: true;
}
export interface HandoffStatus {
  state: HandoffState;
  expiresIn: number;
  /** Once, to the session that made the link, when the phone's capture verified: the receipt, as if captured here. */
  verified?: VerifiedResponse;
  /** When the phone's capture registered the sample. */
  enrolled?: true;
}
/** POST {endpoint}/handoff-claim, by the phone with `Verify-Handoff: <token>`: the first phone gets the link's device key. */
export interface HandoffClaimed {
  kind: BiometricKind;
  mode: 'verify' | 'enroll';
  code: string;
  /** Sent after the token on every later call (`<token>.<device>`): another phone that scans the same code gets nothing. */
  device: string;
  expiresIn: number;
}
/** POST {endpoint}/handoff-phone: the phone says it is capturing or cancels, or (with no state) reads the link's state. */
export interface HandoffPhoneBody {
  state?: 'capturing' | 'cancelled';
}
/** A verification made on the phone: the receipt goes to the desktop that made the link, never to the phone. */
export interface HandedOffResponse {
  verified: true;
  method: BiometricKind;
  handedOff: true;
}

type Sample<Field extends string> = { [F in Field]: string };

/** Each route of the widget protocol: its method, what the widget sends and what it gets on success. */
export interface Routes {
  config: { method: 'GET'; request: undefined; response: ConfigResponse };
  'send-otp': { method: 'POST'; request: SendOtpBody; response: SendOtpResponse };
  'verify-otp': { method: 'POST'; request: VerifyOtpBody; response: VerifiedResponse };
  'liveness-challenge': { method: 'POST'; request: Record<never, never>; response: LivenessChallenge };
  'verify-by-face': { method: 'POST'; request: Sample<typeof SAMPLE_FIELDS.verify.face> | LiveFaceBody; response: VerifiedResponse | HandedOffResponse };
  'voice-challenge': { method: 'POST'; request: VoiceChallengeBody; response: VoiceChallenge };
  'verify-by-voice': { method: 'POST'; request: Sample<typeof SAMPLE_FIELDS.verify.voice> & { nonce?: string }; response: VerifiedResponse | HandedOffResponse };
  'enroll-face': { method: 'POST'; request: Sample<typeof SAMPLE_FIELDS.enroll.face> | LiveFaceBody; response: EnrolledResponse };
  'enroll-voice': { method: 'POST'; request: Sample<typeof SAMPLE_FIELDS.enroll.voice> & { nonce?: string }; response: EnrolledResponse };
  'handoff-start': { method: 'POST'; request: HandoffStartBody; response: HandoffStarted };
  'handoff-status': { method: 'POST'; request: HandoffStatusBody; response: HandoffStatus };
  'handoff-claim': { method: 'POST'; request: Record<never, never>; response: HandoffClaimed };
  'handoff-phone': { method: 'POST'; request: HandoffPhoneBody; response: { state: HandoffState } };
}
export type Route = keyof Routes;

export interface RouteInfo {
  method: 'GET' | 'POST';
  /** The only fields a request may carry; the handler refuses any other. */
  fields: readonly string[];
  /** Whether the request carries a face or voice sample (a larger body cap). */
  media: boolean;
}

/** Every key of any member of a union (`keyof` alone gives only the keys all members share). */
type KeysOf<T> = T extends unknown ? keyof T : never;

/** A route's entry, its fields checked against its request type. */
export interface RouteSpec<R extends Route> extends RouteInfo {
  method: Routes[R]['method'];
  fields: readonly Extract<KeysOf<NonNullable<Routes[R]['request']>>, string>[];
}

/** The route table the handler serves and validates with, and the widgets call through. */
export const ROUTES: { readonly [R in Route]: RouteSpec<R> } = {
  config: { method: 'GET', fields: [], media: false },
  'send-otp': { method: 'POST', fields: ['method', 'phone', 'email', 'lang', 'resend', 'altcha', 'humanCheck'], media: false },
  'verify-otp': { method: 'POST', fields: ['phone', 'email', 'otp', 'altcha', 'humanCheck'], media: false },
  'liveness-challenge': { method: 'POST', fields: [], media: false },
  'verify-by-face': { method: 'POST', fields: [SAMPLE_FIELDS.verify.face, 'nonce', 'video', 'times', 'lit'], media: true },
  'voice-challenge': { method: 'POST', fields: ['lang'], media: false },
  'verify-by-voice': { method: 'POST', fields: [SAMPLE_FIELDS.verify.voice, 'nonce'], media: true },
  'enroll-face': { method: 'POST', fields: [SAMPLE_FIELDS.enroll.face, 'nonce', 'video', 'times', 'lit'], media: true },
  'enroll-voice': { method: 'POST', fields: [SAMPLE_FIELDS.enroll.voice, 'nonce'], media: true },
  'handoff-start': { method: 'POST', fields: ['kind', 'mode'], media: false },
  'handoff-status': { method: 'POST', fields: ['token', 'cancel'], media: false },
  'handoff-claim': { method: 'POST', fields: [], media: false },
  'handoff-phone': { method: 'POST', fields: ['state'], media: false },
};

export function isRoute(name: string): name is Route {
  return Object.hasOwn(ROUTES, name);
}
