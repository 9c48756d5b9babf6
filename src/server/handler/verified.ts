/** The end of every successful verification: a signed receipt, the host's hook, the answer. */
import type { VerificationMethod, VerifiedResponse } from '../../core/protocol.js';
import { json } from '../../core/http.js';
import { signReceipt } from '../receipts.js';
import type { RequestContext } from './context.js';

export async function verified(
  ctx: RequestContext,
  method: VerificationMethod,
  subject: { user: string | null; session?: string; identifier?: string; identifierHash?: string },
): Promise<Response> {
  const { options } = ctx;
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + options.receiptSeconds;
  const jti = crypto.randomUUID();
  const sub = subject.user ?? `session:${subject.session}`;
  const receipt = await signReceipt({ jti, sub, mth: method, idh: subject.identifierHash, iat, exp }, options.receiptSecret);
  try {
    await options.onVerified?.({ userId: subject.user, method, identifier: subject.identifier, receiptId: jti, request: ctx.request });
  } catch (error) {
    // The person did verify; a failing hook is the host's to fix, and must not undo that.
    options.log?.({ route: 'onVerified', status: 0, ms: 0, error: (error as Error)?.name ?? 'Error' });
  }
  const body: VerifiedResponse = { verified: true, method, receipt, expiresAt: new Date(exp * 1000).toISOString() };
  return json(body);
}
