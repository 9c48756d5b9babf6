/**
 * What <face-verify> says when it stops: the same words on screen, in the live region and in the
 * event. A blocked camera gets the steps to unblock it in the browser at hand.
 */
import type { Strings } from '../internal/localize.js';
import type { FaceFailure } from './face-verify.flow.js';

function browserFamily(): 'chrome' | 'firefox' | 'safari' | null {
  const agent = navigator.userAgent;
  if (/Firefox\//.test(agent)) return 'firefox';
  if (/Chrome\/|Chromium\//.test(agent)) return 'chrome';
  if (/Safari\//.test(agent)) return 'safari';
  return null;
}

export function failureText(t: Strings, reason: FaceFailure): string {
  const strings = t as unknown as Record<string, string | undefined>;
  const browser = reason === 'denied' ? browserFamily() : null;
  return (browser && strings[`camera_denied_${browser}`]) ?? strings[`camera_${reason}`] ?? strings[`error_${reason}`] ?? t.error_upstream_unavailable;
}
