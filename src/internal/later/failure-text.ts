/**
 * The one place a code becomes words: what a widget says when a step fails, the same on screen, in
 * the live region and in the event. A blocked device gets the steps to unblock it in the browser at
 * hand.
 */
import { format, formatSeconds } from '../../core/format.js';
import type { CommonStrings } from '../../translations/en/common.js';
import type { BiometricStrings } from '../../translations/en/biometric.js';
import { plural, type Plural } from '../../core/plural.js';
import type { AccountProblem, ErrorCode } from '../../core/protocol.js';
import type { DeviceFailure } from '../../core/protocol.js';

function browserFamily(): 'chrome' | 'firefox' | 'safari' | null {
  const agent = navigator.userAgent;
  if (/Firefox\//.test(agent)) return 'firefox';
  if (/Chrome\/|Chromium\//.test(agent)) return 'chrome';
  if (/Safari\//.test(agent)) return 'safari';
  return null;
}

export interface FailureFacts {
  reason: DeviceFailure | ErrorCode | AccountProblem | 'bad_file';
  attemptsLeft?: number;
  retryAfter?: number;
  /** A live face check refused: the rule the frames broke, and the movement it concerns. */
  livenessReason?: string;
  move?: string;
}

/** A widget's strings: the common ones, and a face or voice widget's own (which <otp-verify> does not carry). */
type FailureStrings = CommonStrings & Partial<BiometricStrings>;

/** `device` is the camera or microphone the widget uses, or null for `<otp-verify>`. */
export function failureText(t: FailureStrings, language: string, device: 'camera' | 'microphone' | null, { reason, attemptsLeft, retryAfter, livenessReason, move }: FailureFacts): string {
  if (reason === 'wrong_code' && attemptsLeft !== undefined) return plural(t.error_wrong_code_left, attemptsLeft, language);
  if (reason === 'rate_limited') return format(t.error_rate_limited, { time: formatSeconds(retryAfter ?? 0, language) });
  const strings: Record<string, string | Plural | undefined> = t;
  const text = (key: string) => (typeof strings[key] === 'string' ? strings[key] : undefined);
  // Not a match, with a try left: what to change before it (the light, the face seen whole; a quiet place).
  if (reason === 'no_match' && attemptsLeft && t.error_no_match_left) {
    return [plural(t.error_no_match_left, attemptsLeft, language), text(`${device === 'camera' ? 'face' : 'voice'}_no_match_hint`)].filter(Boolean).join(' ');
  }
  // A live check refused: what was seen, the movement to make, and the tries left.
  if (reason === 'liveness_failed') {
    const tries = attemptsLeft && strings.triesLeft ? plural(strings.triesLeft as Plural, attemptsLeft, language) : undefined;
    return [text(`live_${livenessReason}`) ?? text('error_liveness_failed'), move && text(`move_${move}`), tries].filter(Boolean).join(' ');
  }
  const browser = reason === 'denied' ? browserFamily() : null;
  return (browser && text(`${device}_denied_${browser}`)) ?? text(`${device}_${reason}`) ?? text(`error_${reason}`) ?? t.error_upstream_unavailable;
}

/**
 * The heading over a failure: "Verification stopped" only when it did stop; a wait is a wait, and
 * a failure with a way on says so.
 */
export function failureHeading(t: FailureStrings, reason: FailureFacts['reason'], wayOn: boolean): string {
  if (reason === 'rate_limited') return t.waitHeading;
  if ((reason === 'signed_out' || reason === 'not_enrolled' || reason === 'proof_required') && t.accountHeading) return t.accountHeading;
  return wayOn ? t.retryHeading : t.failureHeading;
}
