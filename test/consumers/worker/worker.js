import { createVerifyHandler } from 'verify-widgets/server';

let verify;

export default {
  fetch(request, env) {
    // Secrets are bindings, known only inside a request; the handler is made on the first one.
    verify ??= createVerifyHandler({
      baseUrl: env.SERVICE_BASE_URL,
      apiKey: env.SERVICE_API_KEY,
      receiptSecret: env.RECEIPT_SECRET,
      basePath: '/api/verify',
      getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
      allowedCountries: ['SA'],
    });
    return verify(request, { clientIp: request.headers.get('cf-connecting-ip') });
  },
};
