import { Redis } from '@upstash/redis/cloudflare';
import { createVerifyHandler, ReceiptError, UpstashStore } from 'verify-widgets/server';

let verify;

export default {
  async fetch(request, env, ctx) {
    verify ??= createVerifyHandler({
      baseUrl: env.SERVICE_BASE_URL,
      apiKey: env.SERVICE_API_KEY,
      receiptSecret: env.RECEIPT_SECRET,
      basePath: '/api/verify',
      getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
      allowedCountries: ['SA'],
      // Upstash Redis over HTTPS: UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are secrets of the Worker.
      store: new UpstashStore((options) => Redis.fromEnv(env, options)),
    });
    // Where the verification matters: the receipt is checked on the server, once (on every instance, through Upstash).
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
    // waitUntil: a right code's clean-up follows the answer, so the person waits for one store request.
    return verify(request, { clientIp: request.headers.get('cf-connecting-ip'), waitUntil: (work) => ctx.waitUntil(work) });
  },
};
