/**
 * The widget ↔ host protocol (DESIGN §3), shared by the host handler and the widgets: the stable
 * error vocabulary and the JSON each route answers. A host in another language implements these.
 */
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
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type OtpChannel = 'sms' | 'whatsapp' | 'email';

/** Why a camera or microphone could not be used; each has its own way out. */
export type DeviceFailure = 'denied' | 'no-camera' | 'no-microphone' | 'busy' | 'constraints' | 'insecure' | 'unsupported';
export type CameraFailure = Exclude<DeviceFailure, 'no-microphone'>;
export type MicrophoneFailure = Exclude<DeviceFailure, 'no-camera'>;
export const OTP_CHANNELS: readonly OtpChannel[] = ['sms', 'whatsapp', 'email'];

export type BiometricKind = 'face' | 'voice';

/**
 * Why a face or voice check cannot start: nobody signed in, nothing registered to compare with, or
 * (to register) no fresh proof of another factor yet.
 */
export type AccountProblem = 'signed_out' | 'not_enrolled' | 'proof_required';

/** The field a sample travels in from widget to handler, per route: the service's own names for verification. */
export const SAMPLE_FIELDS = {
  verify: { face: 'query_face_image', voice: 'query_audio' },
  enroll: { face: 'face_image', voice: 'audio' },
} as const;
export type VerificationMethod = 'otp' | BiometricKind;
export const VERIFICATION_METHODS: readonly VerificationMethod[] = ['otp', 'face', 'voice'];

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
  };
}

/** GET {endpoint}/config: what the widget may know. Nothing in it is secret. */
export interface ConfigResponse {
  channels: OtpChannel[];
  /** ISO 3166 alpha-2 codes phones may belong to; null means any. */
  countries: string[] | null;
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
}

/** enroll-face and enroll-voice answer 200 with this. */
export interface EnrolledResponse {
  enrolled: true;
  kind: BiometricKind;
}
