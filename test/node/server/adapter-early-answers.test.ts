/**
 * 8. Early answers never poison the connection: when the handler (or the emulator, which shares the
 * Node adapter) answers before reading a body, the next request on the same kept-alive connection
 * still succeeds.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createVerifyHandler } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/node/index.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { cameraCapture, KEY, listen } from '../helpers.js';
import { SECRET, setup } from './handler-setup.js';

interface Answer {
  status: number;
}

/**
 * One client connection, kept alive, as a browser or a service client holds one: every request
 * goes over it, and the sockets it took are counted. The body is sent in full, as a browser would
 * (a Buffer with its length, or chunks without one), and the answer read. A request that hangs
 * (the server waiting for bytes the client already sent) fails after 5 s.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const sockets = new Set<Socket>();
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | Buffer[] } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: init.method ?? 'GET', headers: init.headers, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('socket', (socket) => sockets.add(socket));
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    const { body } = init;
    if (Array.isArray(body)) for (const chunk of body) req.write(chunk);
    req.end(Array.isArray(body) ? undefined : body);
  });
}

describe('8. early answers over one kept-alive connection', () => {
  let emu: RunningEmulator;
  let server: Server;
  let origin: string;
  before(async () => {
    emu = await startEmulator({ apiKeys: [KEY] });
    const handler = createVerifyHandler({ baseUrl: emu.baseUrl, apiKey: KEY, basePath: '/v', receiptSecret: SECRET, allowedCountries: ['SA'], getUser: (request) => (request.headers.get('cookie') ? 'u' : null), getSessionId: () => 's', getReference: () => null, saveReference: () => {}, facesFromUnprovenPhotos: true, voiceLiveness: false });
    server = createServer(toNodeListener(handler));
    origin = await listen(server);
  });
  after(async () => {
    agent.destroy();
    server.close();
    await emu.close();
  });

  const big = Buffer.from(JSON.stringify({ query_face_image: 'A'.repeat(5 * 1024 * 1024) }));
  const padding = Buffer.alloc(1024 * 1024, 0x20);
  const failures = async (label: string, early: () => Promise<Answer>, normal: () => Promise<Answer>) => {
    const failed: string[] = [];
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      for (const [step, call] of [['refused', early], ['after', normal]] as const) {
        try {
          const { status } = await call();
          if ((step === 'refused') !== status >= 400) failed.push(`${label} ${i} ${step}: ${status}`);
        } catch (error) {
          failed.push(`${label} ${i} ${step}: ${(error as Error).cause ?? (error as Error).message}`);
        }
      }
    }
    console.log(`${label}: 20 refused early, each followed by a normal request, in ${Math.round(performance.now() - started)} ms, over ${sockets.size} connection(s)`);
    return failed;
  };

  it('the handler: a large body refused before it is read (no user, too large, wrong type), then a normal request', async () => {
    sockets.clear();
    const post = (body: Buffer, headers: Record<string, string>) => () =>
      send(`${origin}/v/verify-by-face`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    const config = () => send(`${origin}/v/config`);
    // Chunked, so the cap is met while reading and the handler stops reading mid-body.
    const chunks = Array.from({ length: 96 }, (_, i) => Buffer.concat([big, padding]).subarray(i * 65536, (i + 1) * 65536));
    const streamed = () => send(`${origin}/v/verify-by-face`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: 'u=1' }, body: chunks });
    const failed = [
      ...(await failures('no user', post(big, {}), config)),
      ...(await failures('wrong type', post(big, { 'content-type': 'text/plain' }), config)),
      ...(await failures('oversized', post(Buffer.concat([big, padding]), {}), config)),
      ...(await failures('oversized, streamed with no length', streamed, config)),
    ];
    assert.deepEqual(failed, []);
    assert.equal(sockets.size, 1, 'every request over the one connection');
  });

  it('the emulator: a large body refused before it is read (bad key, an injected fault), then a normal request', async () => {
    sockets.clear();
    const early = () => send(`${emu.baseUrl}/verify-by-face`, { method: 'POST', body: big, headers: { 'content-type': 'application/json', 'x-authorization': 'wrong' } });
    const normal = () => send(`${emu.origin}/__emulator/messages`);
    const faulted = async () => {
      emu.state.faults.add({ kind: 'error', route: 'verify-by-face', status: 503, times: 1 });
      return send(`${emu.baseUrl}/verify-by-face`, { method: 'POST', body: big, headers: { 'content-type': 'application/json', 'x-authorization': KEY } });
    };
    assert.deepEqual([...(await failures('bad key', early, normal)), ...(await failures('injected fault', faulted, normal))], []);
    assert.equal(sockets.size, 1, 'every request over the one connection');
  });

  it('the handler\u2019s service client: after each injected fault, the next real comparison succeeds', async () => {
    const t = await setup();
    try {
      t.references.set('u:face', cameraCapture('obama_1', 640, 90));
      const face = { query_face_image: cameraCapture('obama_1', 640, 90) };
      const answers: string[] = [];
      for (let i = 0; i < 10; i++) {
        t.emu.state.faults.add({ kind: 'error', route: 'verify-by-face', status: 503, times: 1 });
        for (const res of [await t.call('verify-by-face', face, { user: 'u' }), await t.call('verify-by-face', face, { user: 'u' })]) {
          answers.push(res.json.receipt ? 'verified' : res.json.error.code);
        }
      }
      assert.deepEqual(answers, Array.from({ length: 10 }, () => ['upstream_unavailable', 'verified']).flat());
    } finally {
      await t.close();
    }
  });
});
