import type { OtpChannel } from '../core/protocol.js';

/** How a code came into the field: typed, pasted, put in by autofill (iOS "From Messages", Android, a password manager), or read by WebOTP. */
export type CodeEntry = 'typed' | 'pasted' | 'autofilled' | 'webotp';

/**
 * What `verify-success`, `verify-failure` and `verify-error` tell a product team about the way to
 * that outcome: times and counts, never a number, an address, a code or media.
 */
export interface VerifyMetrics {
  /** Milliseconds from the widget's first step on screen to this outcome. */
  readonly elapsedMs: number;
  /** Codes sent to be checked, or samples sent to be compared, this one included (a retry after a fault counts). */
  readonly attempts: number;
  /** `<otp-verify>`: codes asked for after the first. */
  readonly resends?: number;
  /** `<otp-verify>`: the channel of the code this outcome is about. */
  readonly channel?: OtpChannel;
  /** `<otp-verify>`: whether that channel is another than the first code's (the fallback offered, or a change). */
  readonly fallback?: boolean;
  /** `<otp-verify>`: how the last code came into the field. */
  readonly entry?: CodeEntry;
  /** `<face-verify>` and `<voice-verify>`: photos taken or recordings made again before this outcome. */
  readonly retakes?: number;
  /** `<face-verify>`: whether the photo came from the camera or an uploaded file. */
  readonly capture?: 'camera' | 'file';
  /** On a device failure (`verify-error` with `denied`, `no-camera`, `busy`, `insecure`…): the device. */
  readonly device?: 'camera' | 'microphone';
}
