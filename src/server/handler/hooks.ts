/** The host's hooks a face or voice route stands on, or a 404 when the site does not check that kind. */
import type { BiometricKind } from '../../core/protocol.js';
import type { RequestContext } from './context.js';
import { fail } from './errors.js';

export function requireHooks(ctx: RequestContext, kind: BiometricKind) {
  const { getReference, saveReference, biometrics } = ctx.options;
  if (!getReference || !saveReference || !biometrics.includes(kind)) {
    fail('invalid_input', kind === 'face' ? 'Face verification is not enabled on this site.' : 'Voice verification is not enabled on this site.', { status: 404 });
  }
  return { getReference, saveReference };
}
