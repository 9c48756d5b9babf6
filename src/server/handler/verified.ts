/** The end of every successful verification: a signed receipt, the host's hook, the answer. */
import type { HandedOffResponse, VerificationMethod, VerifiedResponse } from '../../core/protocol.js';
import { json } from '../../core/http.js';
import { signReceipt } from '../receipts.js';
import type { RequestContext } from './context.js';
import { handedOff } from './handoff.js';

export async function verified(
  ctx: RequestContext,
  method: VerificationMethod,
  subject: { user: string | null; session?: string; identifier?: string; identifierHash?: string },
  /** A face or a voice: whether the live check proved the person there (ReceiptClaims.prs). */
  presence?: boolean,
): Promise<Response> {
  const { options } = ctx;
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + options.receiptSeconds;
  const jti = crypto.randomUUID();
  const sub = subject.user ?? `session:${subject.session}`;
  const receipt = await signReceipt({ jti, sub, mth: method, idh: subject.identifierHash, ...(presence === undefined ? {} : { prs: presence }), iat, exp }, options.receiptSecret);
  try {
    await options.onVerified?.({ userId: subject.user, method, identifier: subject.identifier, receiptId: jti, request: ctx.request });
  } catch (error) {
    // The person did verify; a failing hook is the host's to fix, and must not undo that.
    options.log?.({ route: 'onVerified', status: 0, ms: 0, error: (error as Error)?.name ?? 'Error' });
  }
  const body: VerifiedResponse = { verified: true, method, receipt, expiresAt: new Date(exp * 1000).toISOString(), ...(presence === undefined ? {} : { presence }) };
  if (!ctx.handoff) return json(body);
  // Captured on a phone: the receipt waits for the desktop that made the link; the phone hears only that it is done.
  await handedOff(ctx, ctx.handoff, { verified: body });
  return json({ verified: true, method: ctx.handoff.kind, handedOff: true } satisfies HandedOffResponse);
}
