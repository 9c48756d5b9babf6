/**
 * A host handler on the test server whose sample uploads are cut mid-request — the socket closes
 * at the first chunk of the body, as on a train entering a tunnel — until the test heals it. Then
 * uploads are read whole, their sample hashed, and answered as verified. One host per key:
 * `/cut-host/<key>/<route>`; `GET .../log` tells what arrived, `POST .../heal` ends the outage.
 * The browser's own fetch does the upload, so what is cut is a real request on a real socket.
 */
import { createHash } from 'node:crypto';

const CONFIG = {
  channels: ['email'],
  countries: null,
  codeLength: 6,
  resendCooldown: 30,
  maxWrongCodes: 5,
  fallbackChannel: null,
  enrolled: { face: true, voice: true },
  canEnroll: false,
  needsProof: false,
  pending: null,
};

const SAMPLE = { 'verify-by-face': 'query_face_image', 'verify-by-voice': 'query_audio' };

/** Per key: `{ healed, log: [{route, cut, bytes?, sha256?}] }`. */
const hosts = new Map();

export async function cutHost(context, next) {
  const match = /^\/cut-host\/([\w-]+)\/([\w-]+)$/.exec(context.path);
  if (!match) return next();
  const [, key, route] = match;
  if (!hosts.has(key)) hosts.set(key, { healed: false, log: [] });
  const host = hosts.get(key);
  if (route === 'log') return void (context.body = host.log);
  if (route === 'heal') return void ((host.healed = true), (context.body = { healed: true }));
  if (route === 'config') return void (context.body = CONFIG);
  const field = SAMPLE[route];
  if (!field) return void ((context.status = 404), (context.body = { error: { code: 'invalid_input', message: 'no route' } }));
  if (!host.healed) {
    const bytes = await new Promise((done) => context.req.once('data', (chunk) => done(chunk.length)));
    host.log.push({ route, cut: true, bytes });
    // Nothing is sent; the status only keeps the runner from reporting the cut as a missing file.
    context.status = 502;
    context.respond = false;
    context.req.socket.destroy();
    return;
  }
  const chunks = [];
  for await (const chunk of context.req) chunks.push(chunk);
  const sample = JSON.parse(Buffer.concat(chunks).toString())[field];
  host.log.push({ route, cut: false, sha256: createHash('sha256').update(String(sample)).digest('hex') });
  const method = route === 'verify-by-face' ? 'face' : 'voice';
  context.body = { verified: true, method, receipt: `${method}.receipt`, expiresAt: null };
}
