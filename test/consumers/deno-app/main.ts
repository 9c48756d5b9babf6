import { Redis } from '@upstash/redis';
import { createVerifyHandler, ReceiptError, UpstashStore } from 'verify-widgets/server';

const verify = createVerifyHandler({
  baseUrl: Deno.env.get('SERVICE_BASE_URL')!,
  apiKey: Deno.env.get('SERVICE_API_KEY')!,
  receiptSecret: Deno.env.get('RECEIPT_SECRET')!,
  basePath: '/api/verify',
  getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
  allowedCountries: ['SA'],
  // Deno Deploy runs the app in many regions at once: UPSTASH_REDIS_REST_URL and _TOKEN are its environment.
  store: new UpstashStore((options) => Redis.fromEnv(options)),
});

Deno.serve(
  { port: Number(Deno.env.get('PORT') ?? 8000), hostname: '127.0.0.1', onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`) },
  async (request, info) => {
    // Where the verification matters: the receipt is checked on the server, once, in every region.
    if (new URL(request.url).pathname === '/login' && request.method === 'POST') {
      const { receipt } = await request.json().catch(() => ({}));
      try {
        const claims = await verify.verifyReceipt(receipt, { user: 'demo-user', method: 'otp' });
        return Response.json({ user: claims.sub });
      } catch (error) {
        if (!(error instanceof ReceiptError)) throw error;
        return Response.json({ refused: error.reason }, { status: 403 });
      }
    }
    return verify(request, { clientIp: info.remoteAddr.hostname });
  },
);
