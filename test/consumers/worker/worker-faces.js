import { createVerifyHandler } from 'verify-widgets/server';

// Faces and voices on a Worker: no face models nor digits' recogniser run here, so a handler serving
// either without its live check refuses to start, saying how to get one (the stand-alone service
// runs both). BIOMETRICS, where bound, names those served.
let verify;

export default {
  async fetch(request, env) {
    verify ??= createVerifyHandler({
      baseUrl: env.SERVICE_BASE_URL,
      apiKey: env.SERVICE_API_KEY,
      receiptSecret: env.RECEIPT_SECRET,
      basePath: '/api/verify',
      getUser: () => 'demo-user',
      allowedCountries: ['SA'],
      getReference: (user, kind) => env.REFERENCES.get(`${user}:${kind}`),
      saveReference: (user, kind, sample) => env.REFERENCES.put(`${user}:${kind}`, sample),
      ...(env.BIOMETRICS && { biometrics: env.BIOMETRICS.split(',') }),
    });
    return verify(request, { clientIp: request.headers.get('cf-connecting-ip') });
  },
};
