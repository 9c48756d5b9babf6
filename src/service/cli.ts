#!/usr/bin/env node
/**
 * `verify-widgets serve`: the stand-alone service on Node's http server, configured by the
 * environment (and `VERIFY_CONFIG`). On SIGTERM (or when npm, which started it, is gone) it stops
 * taking connections, lets the requests in flight finish within VERIFY_SHUTDOWN_SECONDS, and exits.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { RequestInfo } from '../core/http.js';
import { readFileSync } from 'node:fs';
import { toNodeListener } from '../server/node/index.js';
import { ConfigError, FIELDS, loadConfig, type ServiceConfig } from './config.js';
import { createVerifyService, logLine, type VerifyService } from './service.js';
import { cdnFiles } from './static.js';

const HELP = `Usage: verify-widgets serve

Runs the verification handler as an HTTP service for a back end in any language, configured by
environment variables (or a JSON file named by VERIFY_CONFIG holding the same keys):

${FIELDS.map((f) => `  ${f.name.padEnd(30)}${'required' in f ? 'required' : 'default' in f ? `default ${f.default}` : 'optional'}`).join('\n')}

The reference of each is on the docs' "Any back end" page.`;

const [command, ...rest] = process.argv.slice(2);
if (command !== 'serve' || rest.includes('--help') || rest.includes('-h')) {
  console.log(HELP);
  process.exit(command === 'serve' || command === '--help' || command === '-h' ? 0 : 2);
}

let config: ServiceConfig;
let service: VerifyService;
try {
  config = loadConfig(process.env, (path) => readFileSync(path, 'utf8'));
  service = createVerifyService(config);
} catch (error) {
  console.error(error instanceof ConfigError ? `verify-widgets serve: ${error.message}` : error);
  process.exit(2);
}

const cdn = config.VERIFY_CDN_PATH ? cdnFiles(config.VERIFY_CDN_PATH) : null;
// The service reads bodies from Node's stream (RequestInfo.body), as the handler does.
const api = toNodeListener(Object.assign((request: Request, info?: RequestInfo) => service.handle(request, { clientIp: null, ...info }), { bodyFromInfo: true }));
let stopping = false;
/** Answers being made: told at SIGTERM to close their connection, so a proxy does not reuse it. */
const inFlight = new Set<ServerResponse>();
const server = createServer((req, res) => {
  // A request on a kept-alive connection after SIGTERM: refused, and the connection closed.
  if (stopping) {
    res.writeHead(503, { connection: 'close', 'content-type': 'application/json' }).end('{"error":{"code":"upstream_unavailable","message":"Shutting down."}}');
    return;
  }
  inFlight.add(res);
  res.on('close', () => inFlight.delete(res));
  if (cdn && (req.method === 'GET' || req.method === 'HEAD') && cdn.serves(req.url ?? '')) return cdn.serve(req, res);
  api(req, res);
});
server.on('error', (error: NodeJS.ErrnoException) => {
  logLine({ level: 'error', msg: `cannot listen on ${config.VERIFY_LISTEN_HOST}:${config.PORT}: ${error.code ?? error.message}` });
  process.exit(1);
});
server.listen(config.PORT, config.VERIFY_LISTEN_HOST, () => {
  logLine({ level: 'info', msg: 'listening', port: config.PORT, basePath: config.VERIFY_BASE_PATH, store: service.storeKind });
  if (service.storeKind === 'memory') logLine({ level: 'warn', msg: 'no shared store is set (VERIFY_REDIS_URL, VERIFY_REDIS_CLUSTER or VERIFY_UPSTASH_URL): state is in memory, so run one instance only' });
});

function shutdown(cause: { signal: string } | { reason: string }) {
  if (stopping) return;
  stopping = true;
  service.drain();
  logLine({ level: 'info', msg: 'shutting down', ...cause });
  const force = setTimeout(() => {
    logLine({ level: 'warn', msg: 'requests still in flight at the shutdown deadline' });
    process.exit(1);
  }, config.VERIFY_SHUTDOWN_SECONDS * 1000);
  force.unref();
  server.close(async () => {
    await service.close();
    logLine({ level: 'info', msg: 'stopped' });
    process.exit(0);
  });
  server.closeIdleConnections();
  for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
}
process.once('SIGTERM', () => shutdown({ signal: 'SIGTERM' }));
process.once('SIGINT', () => shutdown({ signal: 'SIGINT' }));
watchNpm();

/**
 * Started by npm (`npx verify-widgets serve`, an npm script), the service is the grandchild of the
 * process a process manager signals: npm's shell dies of the SIGTERM and passes nothing on. So
 * the service stops as on SIGTERM when npm's process is gone (the service is then another's child).
 */
function watchNpm(): void {
  if (!process.env.npm_command) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    shutdown({ reason: 'npm, which started the service, has exited' });
  }, 250);
  watch.unref();
}
