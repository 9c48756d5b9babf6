// A minimal host for the consumer tests: static files from one folder, the package's CDN folder at
// /cdn/, the host handler at /api/verify, the emulator behind it, and /api/confirm, where the app's
// page posts its receipt for the server to check; every answer carries the strictest CSP a site
// might send.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createVerifyHandler, ReceiptError } from '../../dist/server/index.js';
import { toNodeListener } from '../../dist/server/node.js';
import { DEVELOPMENT_KEY, startEmulator } from '../../dist/emulator/index.js';

export const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'";
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves `root` (and `cdn` at /cdn/ when given); returns its URL, the emulator's, and close(). */
export async function startHost({ root, cdn }) {
  const emulator = await startEmulator({ port: 0 });
  const references = new Map();
  const verify = createVerifyHandler({
    baseUrl: emulator.baseUrl,
    apiKey: DEVELOPMENT_KEY,
    basePath: '/api/verify',
    receiptSecret: randomBytes(32).toString('hex'),
    allowedCountries: ['SA'],
    getUser: () => 'consumer',
    getReference: (user, kind) => references.get(`${user}:${kind}`) ?? null,
    saveReference: (user, kind, sample) => void references.set(`${user}:${kind}`, sample),
    // The apps register a face from a still camera: the photo path (the liveness page); and a voice
    // from whatever the microphone hears, with no digits to read.
    facesFromUnprovenPhotos: true,
    voiceLiveness: false,
    codeLength: 6,
  });
  const handler = toNodeListener(verify);
  const server = createServer(async (req, res) => {
    res.setHeader('content-security-policy', STRICT_CSP);
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    if (path.startsWith('/api/verify/')) return handler(req, res);
    if (path === '/api/confirm' && req.method === 'POST') return confirm(verify, req, res);
    // The apps have no icon; the browser's request for one is not an error of theirs.
    if (path === '/favicon.ico') return res.writeHead(204).end();
    const [base, rest] = cdn && path.startsWith('/cdn/') ? [cdn, path.slice('/cdn'.length)] : [root, path === '/' ? '/index.html' : path];
    const file = normalize(join(base, rest));
    try {
      if (!file.startsWith(normalize(base))) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('Not found');
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    emulatorOrigin: emulator.origin,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await emulator.close();
    },
  };
}

/** POST /api/confirm: the receipt checked on the server, once, as the framework pages' routes do. */
async function confirm(verify, req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const answer = (status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  try {
    const { receipt } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    const claims = await verify.verifyReceipt(receipt, { user: 'consumer', method: 'otp' });
    answer(200, { user: claims.sub });
  } catch (error) {
    if (error instanceof ReceiptError) answer(403, { refused: error.reason });
    else answer(400, { refused: String(error.message) });
  }
}
