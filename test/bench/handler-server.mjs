// The handler under benchmark, in a process of its own (one core). It times each request's own
// work, which is the whole time less the upstream call, and reports it at GET /__bench/stats.
// Usage: node test/bench/handler-server.mjs EMULATOR_BASE_URL API_KEY
import { createServer } from 'node:http';
import { createVerifyHandler } from '../../dist/server/index.js';
import { toNodeListener } from '../../dist/server/node.js';

const [baseUrl, apiKey] = process.argv.slice(2);
let upstreamMs = 0;
let own = [];
const handler = createVerifyHandler({
  baseUrl,
  apiKey,
  basePath: '/verify',
  receiptSecret: 'bench-secret-bench-secret-bench-secret',
  allowedCountries: ['SA'],
  // Signed in only where a bench says so (hostile-bodies.mjs posts to the face route).
  getUser: (request) => request.headers.get('x-bench-user'),
  getReference: () => null,
  saveReference: () => {},
  getSessionId: () => 'bench-session',
  // Limits out of the way: this measures the work of a request, not the refusal of one.
  limits: {
    resendCooldownSeconds: 0,
    sendsPerIdentifier: { max: 1e9, windowSeconds: 3600 },
    sendsPerIp: { max: 1e9, windowSeconds: 3600 },
    sendsPerSession: { max: 1e9, windowSeconds: 3600 },
    biometricAttempts: { max: 1e9, windowSeconds: 900 },
  },
  fetch: async (url, init) => {
    const start = performance.now();
    const response = await fetch(url, init);
    const body = await response.arrayBuffer();
    upstreamMs += performance.now() - start;
    return new Response(body, { status: response.status, headers: response.headers });
  },
});

const timed = async (request, info) => {
  const start = performance.now();
  upstreamMs = 0;
  const response = await handler(request, info);
  own.push(performance.now() - start - upstreamMs);
  return response;
};
const listener = toNodeListener(timed);
const server = createServer((req, res) => {
  if (req.url !== '/__bench/stats') return listener(req, res);
  res.end(JSON.stringify(own));
  own = [];
});
server.listen(0, '127.0.0.1', () => console.log(`handler http://127.0.0.1:${server.address().port}/verify`));
