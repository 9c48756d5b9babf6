import { createVerifyHandler, DurableObjectStore, ReceiptError } from 'verify-widgets/server';

// The Durable Object that keeps the handler's state, one object per key: bound in wrangler.toml.
export { VerifyStoreObject } from 'verify-widgets/server';

let verify;

export default {
  async fetch(request, env) {
    // Secrets are bindings, known only inside a request; the handler is made on the first one.
    verify ??= createVerifyHandler({
      baseUrl: env.SERVICE_BASE_URL,
      apiKey: env.SERVICE_API_KEY,
      receiptSecret: env.RECEIPT_SECRET,
      basePath: '/api/verify',
      getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
      allowedCountries: ['SA'],
      // One store for every instance of the Worker, wherever a request lands.
      store: new DurableObjectStore(env.VERIFY_STORE),
    });
    // Where the verification matters: the receipt is checked on the server, once.
    if (new URL(request.url).pathname === '/login' && request.method === 'POST') {
      const { receipt } = await request.json();
      try {
        const claims = await verify.verifyReceipt(receipt, { user: 'demo-user', method: 'otp' });
        return Response.json({ user: claims.sub });
      } catch (error) {
        if (!(error instanceof ReceiptError)) throw error;
        return Response.json({ refused: error.reason }, { status: 403 });
      }
    }
    return verify(request, { clientIp: request.headers.get('cf-connecting-ip') });
  },
};
