import { ReceiptError } from 'verify-widgets/server';
import { verify } from '../../../lib/verify';

// Where the verification matters: the receipt is checked on the server, once.
export async function POST(request: Request) {
  const { receipt } = (await request.json()) as { receipt?: unknown };
  try {
    const claims = await verify.verifyReceipt(receipt, { user: 'demo-user', method: 'otp' });
    return Response.json({ user: claims.sub });
  } catch (error) {
    if (error instanceof ReceiptError) return Response.json({ refused: error.reason }, { status: 403 });
    throw error;
  }
}
