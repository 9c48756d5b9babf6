// The demo host, which is also the documentation site: the pages of demo/pages/ (three of them
// with live widgets), the host handler mounted at /api/verify, and the emulator behind it.
// Ports come from PORT and EMULATOR_PORT (0 picks free ones); QUIRKS=1 turns every live quirk on in
// the emulator, QUIRKS=live the latest observed mix, QUIRKS=face-422,string-balance the ones named.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { formatOutboxMessage, startEmulator, DEVELOPMENT_KEY, TEMPLATE_IDS } from '../dist/emulator/index.js';
import { createServiceClient } from '../dist/server/index.js';
// A Node server, so the Node entry's handler: keep-alive node:http to the service, node:crypto.
import { createVerifyHandler, toNodeListener } from '../dist/server/node.js';
import { pageAt, renderPage } from './site.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
// The face detector's weights, served from the package that brings them: never from a CDN.
const models = join(dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'model');
const TYPES = { '.bin': 'application/octet-stream', '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp' };
/** The demo's "accounts": a real host takes the user from its own sign-in. */
export const DEMO_USERS = ['amina', 'omar', 'sara'];

const emulator = await startEmulator({
  port: Number(process.env.EMULATOR_PORT ?? 8790),
  quirks: process.env.QUIRKS === '1' || process.env.QUIRKS || undefined,
  log: (line) => console.log(`[emulator] ${line}`),
});
emulator.state.outbox.subscribe((message) => console.log(formatOutboxMessage(message)));
const service = createServiceClient({ baseUrl: emulator.baseUrl, apiKey: DEVELOPMENT_KEY });

/** A cookie's value from a Cookie header (Node's or the Fetch API's), or null. */
const cookieOf = (header, name) => (header ?? '').match(new RegExp(`(?:^|;\\s*)${name}=([\\w-]+)`))?.[1] ?? null;

// References live in memory here; a host keeps them in its own storage.
const references = new Map();
const handler = createVerifyHandler({
  baseUrl: emulator.baseUrl,
  apiKey: DEVELOPMENT_KEY,
  basePath: '/api/verify',
  receiptSecret: randomBytes(32).toString('hex'),
  // Where the demo sends codes; a host lists the countries its customers' phones belong to.
  allowedCountries: ['SA', 'AE', 'KW', 'BH', 'QA', 'OM', 'EG', 'JO', 'GB', 'US'],
  getUser: (request) => {
    const user = cookieOf(request.headers.get('cookie'), 'demo_user');
    return DEMO_USERS.includes(user) ? user : null;
  },
  getSessionId: (request) => cookieOf(request.headers.get('cookie'), 'demo_sid'),
  getReference: (user, kind) => references.get(`${user}:${kind}`) ?? null,
  saveReference: (user, kind, sample) => void references.set(`${user}:${kind}`, sample),
  // The demo lets people enrol again to try other faces and voices; a real site should not.
  allowReenrollment: true,
  // Faces are checked live (the Node entry's face models): the person follows the movements the
  // handler chooses. LIVENESS=0 takes a photo instead, which lets a photo of a person pass.
  facesFromUnprovenPhotos: process.env.LIVENESS === '0',
  // The light challenge, on by default: colours on the screen that the face must reflect.
  // LIVENESS_LIGHT=0 turns it off, and a recording of the person then passes.
  livenessLight: process.env.LIVENESS_LIGHT !== '0',
  // Voices say digits the handler chose, heard before the service is paid (the Node entry's
  // recogniser, soundswallower, a devDependency here). VOICE_LIVENESS=0 turns it off: any recording
  // of the voice then passes.
  ...(process.env.VOICE_LIVENESS === '0' && { voiceLiveness: false }),
  // The emulator's codes have 6 digits (its --otp-length); a host sets what its service sends.
  codeLength: 6,
  // The emulator's template in each of the ten languages, so an Urdu page is sent the Urdu message.
  templateId: TEMPLATE_IDS,
  // Everyone is 127.0.0.1 here, so the per-address cap is roomier than a site's would be.
  limits: { resendCooldownSeconds: Number(process.env.RESEND_COOLDOWN ?? 30), sendsPerIp: { max: 200, windowSeconds: 3600 } },
  onVerified: ({ userId, method }) => console.log(`[host] verified ${userId ?? 'a guest'} by ${method}`),
  log: (entry) => console.log(`[handler] ${entry.route} ${entry.status}${entry.code ? ` ${entry.code}` : ''}${entry.fault ? ` (${entry.fault})` : ''} ${entry.ms.toFixed(1)}ms`),
});
const verifyListener = toNodeListener(handler);

// The strictest policy a host might send: the widgets (worklet included) must run under it.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'";

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://demo');
  res.setHeader('content-security-policy', CSP);
  try {
    if (!cookieOf(req.headers.cookie, 'demo_sid')) res.setHeader('set-cookie', `demo_sid=${randomBytes(12).toString('hex')}; Path=/; HttpOnly; SameSite=Lax`);
    if (url.pathname.startsWith('/api/verify/')) return verifyListener(req, res);
    if (url.pathname.startsWith('/__emulator/')) return await proxy(req, res, url);
    if (url.pathname.startsWith('/demo/')) return await demoRoute(req, res, url.pathname);
    if (url.pathname.startsWith('/models/tiny_face_detector_model')) return await sendFile(res, join(models, url.pathname.slice('/models/'.length)), models);
    if (url.pathname.startsWith('/dist/')) return await sendFile(res, join(root, '..', url.pathname), join(root, '..', 'dist'));
    const page = pageAt(url.pathname);
    if (page) return send(res, 200, await renderPage(page), TYPES['.html']);
    if (url.pathname.endsWith('.md') || url.pathname.endsWith('.mjs')) return send(res, 404, 'Not found');
    await sendFile(res, join(root, url.pathname), root);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'EISDIR') return send(res, 404, 'Not found');
    // The service's own words (or an internal error's) stay in the server's log, never in the page.
    console.error('demo:', error);
    send(res, 502, 'The demo could not do that. See the server log.');
  }
});

async function sendFile(res, path, under) {
  const file = normalize(path);
  if (!file.startsWith(under)) return send(res, 403, 'Forbidden');
  send(res, 200, await readFile(file), TYPES[extname(file)] ?? 'application/octet-stream');
}

async function readText(req) {
  let text = '';
  for await (const chunk of req) if ((text += chunk).length > 16384) throw new Error('body too large');
  return text;
}

async function readJson(req) {
  return JSON.parse((await readText(req)) || '{}');
}

async function demoRoute(req, res, path) {
  if (path === '/demo/balance') {
    const { balance } = await service.balance();
    return send(res, 200, JSON.stringify({ balance }), TYPES['.json']);
  }
  if (path === '/demo/user' && req.method === 'POST') {
    const { user } = await readJson(req);
    if (user !== null && !DEMO_USERS.includes(user)) return send(res, 400, 'Unknown demo user');
    res.setHeader('set-cookie', user ? `demo_user=${user}; Path=/; HttpOnly; SameSite=Lax` : 'demo_user=; Path=/; Max-Age=0');
    return send(res, 200, JSON.stringify({ user }), TYPES['.json']);
  }
  if (path === '/demo/receipt' && req.method === 'POST') {
    // What a host's server does with the receipt a widget hands over, in a form post for example:
    // it must be for this person (or, for a guest, this browser session) and for the method asked.
    const { receipt, method } = await readJson(req);
    if (!['otp', 'face', 'voice'].includes(method)) return send(res, 400, 'Say which method the receipt is for');
    const user = cookieOf(req.headers.cookie, 'demo_user');
    try {
      const claims = await handler.verifyReceipt(receipt, {
        ...(DEMO_USERS.includes(user) ? { user } : {}),
        session: cookieOf(req.headers.cookie, 'demo_sid') ?? undefined,
        method,
      });
      return send(res, 200, JSON.stringify({ accepted: true, claims }), TYPES['.json']);
    } catch (error) {
      return send(res, 400, JSON.stringify({ accepted: false, reason: error.reason ?? 'error' }), TYPES['.json']);
    }
  }
  send(res, 404, 'Not found');
}

function send(res, status, body, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

// The outbox and its live stream come from the emulator; passing them through keeps the page on one origin.
async function proxy(req, res, url) {
  // The controls' bodies (a fault to inject, a balance to set) go through as they came.
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readText(req);
  const upstream = await fetch(`${emulator.origin}${url.pathname}${url.search}`, { method: req.method, body, headers: { 'content-type': 'application/json' } });
  res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
  if (!upstream.body) return res.end();
  const reader = upstream.body.getReader();
  res.on('close', () => reader.cancel().catch(() => {}));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  res.end();
}

await new Promise((resolve) => server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', resolve));
const { port } = server.address();
console.log(`
verify-widgets demo: http://127.0.0.1:${port}/
Host handler: http://127.0.0.1:${port}/api/verify
Emulator (service base URL): ${emulator.baseUrl}
API key: ${DEVELOPMENT_KEY}
Outbox: http://127.0.0.1:${port}/__emulator/messages
`);

const stop = () => {
  server.closeAllConnections();
  server.close();
  emulator.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
