// A handler instance as a Cloudflare Worker, on the shared DurableObjectStore; for the fleet tests,
// the outage test (the binding failing as in an outage) and the Durable Objects benchmark.
import { createVerifyHandler, DurableObjectStore } from '../../../../src/server/index.ts';

let handler;
// The namespace binding as it is in an outage, when set: every object's fetch fails, or never answers.
let outage = null;

/** env.VERIFY_STORE, or in an outage a namespace whose objects fail as `outage` says. */
function namespace(env) {
  if (!outage) return env.VERIFY_STORE;
  const fail = outage === 'hang' ? () => new Promise(() => {}) : () => Promise.reject(new Error('Durable Object storage is unavailable'));
  return { idFromName: (name) => env.VERIFY_STORE.idFromName(name), get: () => ({ fetch: fail }) };
}
// Made on the isolate's first request (Workers allow no randomness at start-up): a new one after a restart.
let boot;

export default {
  async fetch(request, env) {
    const store = new DurableObjectStore({ idFromName: (name) => namespace(env).idFromName(name), get: (id) => namespace(env).get(id) }, { prefix: env.PREFIX });
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
    if (pathname === '/outage') return Response.json((outage = new URL(request.url).searchParams.get('mode') || null));
    // `ops` increments over `keys` keys (one object each), `concurrency` at a time: the ms they took.
    if (pathname === '/hammer') {
      const { keys, ops, concurrency, prefix } = await request.json();
      const hammered = new DurableObjectStore(env.VERIFY_STORE, { prefix });
      let next = 0;
      const started = Date.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < ops) await hammered.increment(`site#${next++ % keys}`, 60);
      }));
      return Response.json(Date.now() - started);
    }
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
