import { Redis } from '@upstash/redis';
import { createVerifyHandler, UpstashStore, UPSTASH_CLIENT_OPTIONS } from 'verify-widgets/server';

const verify = createVerifyHandler({
  baseUrl: Deno.env.get('SERVICE_BASE_URL')!,
  apiKey: Deno.env.get('SERVICE_API_KEY')!,
  receiptSecret: Deno.env.get('RECEIPT_SECRET')!,
  basePath: '/api/verify',
  getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
  allowedCountries: ['SA'],
  // Deno Deploy runs the app in many regions at once: UPSTASH_REDIS_REST_URL and _TOKEN are its environment.
  store: new UpstashStore(Redis.fromEnv(UPSTASH_CLIENT_OPTIONS)),
});

Deno.serve(
  { port: Number(Deno.env.get('PORT') ?? 8000), hostname: '127.0.0.1', onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`) },
  (request, info) => verify(request, { clientIp: info.remoteAddr.hostname }),
);
