import { Redis } from '@upstash/redis';
import { createVerifyHandler, ReceiptError, UpstashStore } from 'verify-widgets/server';

const verify = createVerifyHandler({
  baseUrl: Bun.env.SERVICE_BASE_URL!,
  apiKey: Bun.env.SERVICE_API_KEY!,
  receiptSecret: Bun.env.RECEIPT_SECRET!,
  basePath: '/api/verify',
  getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
  allowedCountries: ['SA'],
  // Several processes share the state: UPSTASH_REDIS_REST_URL and _TOKEN are their environment.
  store: new UpstashStore((options) => Redis.fromEnv(options)),
});

const server = Bun.serve({
  port: Number(Bun.env.PORT ?? 3000),
  hostname: '127.0.0.1',
  async fetch(request, server) {
    // Where the verification matters: the receipt is checked on the server, once, by any process.
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
    // The caller's address, for the per-address limits.
    return verify(request, { clientIp: server.requestIP(request)?.address });
  },
});
console.log(`listening on http://127.0.0.1:${server.port}/`);
