import { Redis } from '@upstash/redis/cloudflare';
import { createVerifyHandler, UpstashStore, UPSTASH_CLIENT_OPTIONS } from 'verify-widgets/server';

let verify;

export default {
  fetch(request, env) {
    verify ??= createVerifyHandler({
      baseUrl: env.SERVICE_BASE_URL,
      apiKey: env.SERVICE_API_KEY,
      receiptSecret: env.RECEIPT_SECRET,
      basePath: '/api/verify',
      getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
      allowedCountries: ['SA'],
      // Upstash Redis over HTTPS: UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are secrets of the Worker.
      store: new UpstashStore(Redis.fromEnv(env, UPSTASH_CLIENT_OPTIONS)),
    });
    return verify(request, { clientIp: request.headers.get('cf-connecting-ip') });
  },
};
