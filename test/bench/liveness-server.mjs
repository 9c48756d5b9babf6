// The host handler with its live check, as a site runs it: built (verify-widgets/server/node), in a
// process of its own, with a face pool of one worker a core but one. The liveness bench drives it
// over HTTP, so that what it measures (memory, CPU, event-loop lag) is the server's alone, not the
// bench's drawing of heads or its TypeScript loader.
// Usage: node test/bench/liveness-server.mjs EMULATOR_BASE_URL API_KEY [light]  (light: with `livenessLight`)
// GET /__bench/stats: {rss, cpuMs (the workers' CPU on the last check), lagP99Ms, lagMaxMs}; GET /__bench/lag resets the lag's count.
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createFacePool, createVerifyHandler, toNodeListener } from '../../dist/server/node.js';

const [baseUrl, apiKey, light] = process.argv.slice(2);
const before = process.memoryUsage().rss;
const pool = createFacePool();
const references = new Map();
const handler = createVerifyHandler({
  baseUrl,
  apiKey,
  basePath: '/verify',
  receiptSecret: 'bench-receipt-secret-0123456789abcdef',
  allowedChannels: ['email'],
  getUser: (request) => request.headers.get('x-user'),
  getSessionId: (request) => request.headers.get('x-session'),
  getClientIp: () => '127.0.0.1',
  getReference: (user, kind) => references.get(`${user}:${kind}`) ?? null,
  saveReference: (user, kind, sample) => void references.set(`${user}:${kind}`, sample),
  canEnroll: () => true,
  liveness: pool,
  livenessLight: light === 'light',
  limits: {
    biometricAttempts: { max: 1e6, windowSeconds: 60 },
    sendsPerSession: { max: 1e6, windowSeconds: 60 },
    sendsPerIp: { max: 1e6, windowSeconds: 60 },
    resendCooldownSeconds: 0,
    friction: { freeSendsPerIp: Infinity, freeSendsPerMinute: Infinity, freeSendsPerIdentifier: Infinity, freeSendsPerIdentifierPerNetwork: Infinity },
  },
});
const lag = monitorEventLoopDelay({ resolution: 5 });
lag.enable();
const listener = toNodeListener(handler);
const ms = (ns) => ns / 1e6;
const server = createServer((req, res) => {
  if (req.url === '/__bench/lag') return void (lag.reset(), res.end('{}'));
  if (req.url !== '/__bench/stats') return listener(req, res);
  res.end(JSON.stringify({ before, rss: process.memoryUsage().rss, cpuMs: pool.lastCpuMs, lagP99Ms: ms(lag.percentile(99)), lagMaxMs: ms(lag.max) }));
});
server.listen(0, '127.0.0.1', () => console.log(`handler http://127.0.0.1:${server.address().port}/verify`));
