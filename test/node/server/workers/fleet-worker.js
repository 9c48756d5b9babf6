// A handler instance as a Cloudflare Worker, on the shared DurableObjectStore; for the fleet tests.
import { createVerifyHandler, DurableObjectStore } from '../../../../src/server/index.ts';

let handler;
// Made on the isolate's first request (Workers allow no randomness at start-up): a new one after a restart.
let boot;

export default {
  async fetch(request, env) {
    const store = new DurableObjectStore(env.VERIFY_STORE, { prefix: env.PREFIX });
    handler ??= createVerifyHandler({
      baseUrl: env.SERVICE_BASE_URL,
      apiKey: env.SERVICE_API_KEY,
      receiptSecret: env.RECEIPT_SECRET,
      basePath: '/verify',
      allowedOrigins: [env.ORIGIN],
      allowedCountries: ['SA'],
      getUser: () => null,
      getSessionId: (req) => req.headers.get('x-test-session'),
      getClientIp: () => '127.0.0.1',
      store,
      limits: JSON.parse(env.LIMITS),
    });
    const { pathname } = new URL(request.url);
    boot ??= crypto.randomUUID();
    if (pathname === '/boot') return Response.json(boot);
    if (pathname === '/receipt') {
      const { receipt, session } = await request.json();
      return Response.json(await handler.verifyReceipt(receipt, { session }).then(() => 'accepted', (error) => error.reason ?? String(error)));
    }
    // The store itself, for the store contract: one operation per request.
    if (pathname === '/store') {
      const { method, args, prefix } = await request.json();
      try {
        return Response.json({ value: (await new DurableObjectStore(env.VERIFY_STORE, { prefix })[method](...args)) ?? null });
      } catch (error) {
        return Response.json({ error: String(error) }, { status: 500 });
      }
    }
    return handler(request);
  },
};
