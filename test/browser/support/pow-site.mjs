/**
 * A page under the docs' strict CSP with a real host handler (from dist/, built first) in front of
 * a real emulator, whose every send and verify first asks for a proof of work: what the widget
 * solves in each engine. Mounted at `/pow-site/<work>[-<name>]/` (one site, with its own handler and log, per name): `page.html` (with a session cookie of its
 * own), `api/<route>` (the handler, its challenges at most `<work>` hashes), `code?to=` (the last
 * code sent there) and `log` (what the handler answered). Served by the browser tests' dev server,
 * and by a plain Node server for the throttled Chromium test.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVerifyHandler, toNodeListener } from '../../../dist/server/node.js';
import { MemoryStore } from '../../../dist/server/index.js';
import { startEmulator } from '../../../dist/emulator/index.js';

export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'";

const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Proof of work</title></head>
<body><otp-verify endpoint="api" channels="email"></otp-verify><script type="module" src="page.js"></script></body></html>`;

// Violations are kept for the test to read; the widgets come from the CDN build, as a page loads them.
const SCRIPT = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
await import('/dist/cdn/verify-widgets.js');`;

let emulator;
const sites = new Map();

async function site(name, work) {
  emulator ??= startEmulator({ apiKeys: ['pow-key'] });
  const emu = await emulator;
  if (!sites.has(name)) {
    const log = [];
    const handler = createVerifyHandler({
      baseUrl: emu.baseUrl,
      apiKey: 'pow-key',
      basePath: `/pow-site/${name}/api`,
      receiptSecret: 'pow-site-receipt-secret-0123456789abcdef',
      allowedChannels: ['email'],
      store: new MemoryStore(),
      getUser: () => null,
      getSessionId: (request) => /(?:^|;\s*)pow=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? null,
      // Pressure from the first request: every send and every verify asks for a proof at this work.
      limits: { friction: { freeSendsPerIdentifier: 0, freeWrongCodesPerIdentifier: 0, minWork: work, maxWork: work } },
      log: (entry) => log.push(entry),
    });
    sites.set(name, { listener: toNodeListener(handler), log });
  }
  return { emu, ...sites.get(name) };
}

/** Answers `/pow-site/...` on a Node request, or calls `next`. */
export async function powSite(req, res, next) {
  const url = new URL(req.url, 'http://localhost');
  const match = /^\/pow-site\/((\d+)(?:-\w+)?)\/(.*)$/.exec(url.pathname);
  if (!match) return next();
  const [, name, work, rest] = match;
  const { emu, listener, log } = await site(name, Number(work));
  const send = (type, body, headers = {}) => {
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    res.end(body);
  };
  if (rest === 'page.html') return send('text/html', PAGE, { 'content-security-policy': CSP, 'set-cookie': `pow=${randomUUID()}; Path=/pow-site; SameSite=Strict` });
  if (rest === 'page.js') return send('text/javascript', SCRIPT);
  if (rest === 'code') return send('application/json', JSON.stringify(emu.state.outbox.list(url.searchParams.get('to'))[0]?.code ?? null));
  if (rest === 'log') return send('application/json', JSON.stringify(log));
  if (rest.startsWith('api/')) return listener(req, res);
  next();
}

/** The same, as dev-server (Koa) middleware. */
export function powSiteMiddleware(context, next) {
  if (!context.path.startsWith('/pow-site/')) return next();
  context.respond = false;
  return new Promise((done) => {
    context.res.on('finish', done);
    powSite(context.req, context.res, () => {
      context.respond = true;
      done(next());
    });
  });
}

/** The pow site on a plain Node server, with the built files it loads from /dist/: `{ origin, close }` (close ends its emulator). */
export function servePowSite() {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const server = createServer((req, res) => {
    powSite(req, res, () => {
      const file = resolve(root, `.${new URL(req.url, 'http://x').pathname}`);
      if (!file.startsWith(resolve(root, 'dist')) || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream' });
      createReadStream(file).pipe(res);
    });
  });
  // Closing it closes the emulator too, so that the process that served it can end.
  const close = async () => {
    server.close();
    await (await emulator)?.close();
    emulator = undefined;
    sites.clear();
  };
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ origin: `http://127.0.0.1:${server.address().port}`, close })));
}
