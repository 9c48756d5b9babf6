// The handler under benchmark, in a process of its own (one core), on the Node path
// (verify-widgets/server/node). It times each request's own work, which is the whole time less the
// upstream call, and reports it with its CPU time at GET /__bench/stats.
// Usage: node test/bench/handler-server.mjs EMULATOR_BASE_URL API_KEY [node|core] [STORE]
// STORE: memory (the default), redis://host:port, or upstash:URL|TOKEN.
import { createServer } from 'node:http';
import { createVerifyHandler as createCoreHandler, RedisStore, REDIS_CLIENT_OPTIONS, UpstashStore } from '../../dist/server/index.js';
import { createNodeFetch, createVerifyHandler, toNodeListener } from '../../dist/server/node.js';
import { cpuStats } from './cpu-stats.mjs';

const [baseUrl, apiKey, upstream = 'node', storeName = 'memory'] = process.argv.slice(2);

/** The store named on the command line; the handler's default (memory) for none. */
async function storeFor(name) {
  if (name.startsWith('redis://')) return new RedisStore(new (await import('ioredis')).Redis(name, REDIS_CLIENT_OPTIONS));
  if (name.startsWith('upstash:')) {
    const [url, token] = name.slice('upstash:'.length).split('|');
    const { Redis } = await import('@upstash/redis');
    return new UpstashStore((options) => new Redis({ url, token, ...options }));
  }
  return undefined;
}
const store = await storeFor(storeName);
let upstreamMs = 0;
let own = [];
// 'core': the runtime-neutral entry (Node's fetch, Web Crypto), for comparison. Node's own fetch
// reads the answer when the handler does, so only the node:http one's time is the upstream's whole.
const core = upstream === 'core';
const nodeFetch = core ? fetch : createNodeFetch();
const READ_WHOLE = Symbol.for('verify-widgets.read-whole');
const cpu = cpuStats();
const handler = (core ? createCoreHandler : createVerifyHandler)({
  baseUrl,
  apiKey,
  basePath: '/verify',
  receiptSecret: 'bench-secret-bench-secret-bench-secret',
  allowedCountries: ['SA'],
  // Signed in only where a bench says so (hostile-bodies.mjs posts to the face route).
  getUser: (request) => request.headers.get('x-bench-user'),
  getReference: () => null,
  saveReference: () => {},
  // The face route's photo path: the hostile bodies are read as a picture would be; the voice route's
  // likewise, as a recording with no digits.
  facesFromUnprovenPhotos: true,
  voiceLiveness: false,
  getSessionId: () => 'bench-session',
  store,
  // Limits out of the way: this measures the work of a request, not the refusal of one.
  limits: {
    resendCooldownSeconds: 0,
    sendsPerIdentifier: { max: 1e9, windowSeconds: 3600 },
    sendsPerIp: { max: 1e9, windowSeconds: 3600 },
    sendsPerSession: { max: 1e9, windowSeconds: 3600 },
    biometricAttempts: { max: 1e9, windowSeconds: 900 },
    // Thousands of sends from one address would be asked for proofs of work.
    friction: { freeSendsPerIp: Infinity, freeSendsPerMinute: Infinity, freeSendsPerIdentifier: Infinity, freeSendsPerIdentifierPerNetwork: Infinity },
  },
  // The upstream call, timed; the Node fetch's whole answers (what its handler reads) timed alike.
  fetch: Object.assign(timedCall(nodeFetch), nodeFetch[READ_WHOLE] ? { [READ_WHOLE]: timedCall(nodeFetch[READ_WHOLE]) } : {}),
});

function timedCall(call) {
  return async (url, init) => {
    const start = performance.now();
    const answer = await call(url, init);
    upstreamMs += performance.now() - start;
    return answer;
  };
}

const timed = async (request, info) => {
  cpu.count();
  const start = performance.now();
  upstreamMs = 0;
  const response = await handler(request, info);
  own.push(performance.now() - start - upstreamMs);
  return response;
};
// The handler's own adapter contract kept through the timing wrapper: it reads the body from `info`.
const listener = toNodeListener(Object.assign(timed, { bodyFromInfo: handler.bodyFromInfo }));
const server = createServer((req, res) => {
  if (req.url !== '/__bench/stats') return listener(req, res);
  res.end(JSON.stringify({ own, ...cpu.take() }));
  own = [];
});
server.listen(0, '127.0.0.1', () => console.log(`handler http://127.0.0.1:${server.address().port}/verify`));
