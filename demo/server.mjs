// The demo: the built emulator behind a small host server that serves this folder.
// Ports come from PORT and EMULATOR_PORT (0 picks free ones).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatOutboxMessage, startEmulator, DEVELOPMENT_KEY } from '../dist/emulator/index.js';
import { createServiceClient } from '../dist/server/index.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

const emulator = await startEmulator({
  port: Number(process.env.EMULATOR_PORT ?? 8790),
  quirks: process.env.QUIRKS === '1',
  log: (line) => console.log(`[emulator] ${line}`),
});
emulator.state.outbox.subscribe((message) => console.log(formatOutboxMessage(message)));
const service = createServiceClient({ baseUrl: emulator.baseUrl, apiKey: DEVELOPMENT_KEY });

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://demo');
  try {
    if (url.pathname.startsWith('/__emulator/')) return await proxy(req, res, url);
    if (url.pathname === '/demo/balance') {
      const { balance } = await service.balance();
      return send(res, 200, JSON.stringify({ balance }), TYPES['.json']);
    }
    const path = normalize(join(root, url.pathname === '/' ? 'index.html' : url.pathname));
    if (!path.startsWith(root)) return send(res, 403, 'Forbidden');
    send(res, 200, await readFile(path), TYPES[extname(path)] ?? 'application/octet-stream');
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'EISDIR') return send(res, 404, 'Not found');
    send(res, 502, `Demo error: ${error.message}`);
  }
});

function send(res, status, body, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

// The outbox and its live stream come from the emulator; passing them through keeps the page on one origin.
async function proxy(req, res, url) {
  const upstream = await fetch(`${emulator.origin}${url.pathname}${url.search}`, { method: req.method });
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
