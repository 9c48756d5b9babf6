import { Redis } from '@upstash/redis';
import { createVerifyHandler, UpstashStore, type VerifyHandlerOptions } from 'verify-widgets/server';

// Read on the first request, not at import, so that `next build` needs none of these secrets.
export const options = (basePath: string): VerifyHandlerOptions => ({
  baseUrl: process.env.SERVICE_BASE_URL!,
  apiKey: process.env.SERVICE_API_KEY!,
  receiptSecret: process.env.RECEIPT_SECRET!,
  basePath,
  getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
  // Vercel sets x-real-ip. Behind a proxy of your own, set trustProxy: 1 instead: a bare
  // `next start` passes on an X-Forwarded-For as the caller sent it.
  getClientIp: (request) => request.headers.get('x-real-ip'),
  allowedCountries: ['SA'],
  // Every instance of every route shares it: Upstash from the Vercel Marketplace sets
  // UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or KV_REST_API_URL and KV_REST_API_TOKEN).
  store: new UpstashStore((options) => Redis.fromEnv(options)),
});

export const verify = createVerifyHandler(() => options('/api/verify'));
