/**
 * 8. Early answers never poison the connection: when the handler (or the emulator, which shares the
 * Node adapter) answers before reading a body, the next request on the same kept-alive connection
 * still succeeds.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVerifyHandler, toNodeListener } from '../../src/server/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { KEY } from './helpers.js';
import { SECRET } from './handler-setup.js';

interface Answer {
  status: number;
}

/**
 * A request by Node's fetch, whose pool keeps connections alive and hands the next request the one
 * just used; the body is sent in full, as a browser would, and the answer read.
 */
async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  await response.arrayBuffer();
  return { status: response.status };
}

describe('8. early answers over one kept-alive connection', () => {
  let emu: RunningEmulator;
  let server: Server;
  let origin: string;
  before(async () => {
    emu = await startEmulator({ apiKeys: [KEY] });
    const handler = createVerifyHandler({ baseUrl: emu.baseUrl, apiKey: KEY, basePath: '/v', receiptSecret: SECRET, allowedCountries: ['SA'], getUser: (request) => (request.headers.get('cookie') ? 'u' : null), getSessionId: () => 's', getReference: () => null, saveReference: () => {} });
    server = createServer(toNodeListener(handler));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await emu.close();
  });

  const big = JSON.stringify({ query_face_image: 'A'.repeat(5 * 1024 * 1024) });
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
    console.log(`${label}: 20 refused early, each followed by a normal request, in ${Math.round(performance.now() - started)} ms`);
    return failed;
  };

  it('the handler: a large body refused before it is read (no user, too large, wrong type), then a normal request', async () => {
    const post = (body: string, headers: Record<string, string>) => () =>
      send(`${origin}/v/verify-by-face`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    const config = () => send(`${origin}/v/config`);
    // Chunked, so the cap is met while reading and the handler stops reading mid-body.
    const streamed = () =>
      send(`${origin}/v/verify-by-face`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'u=1' },
        body: new Blob([big, ' '.repeat(1024 * 1024)]).stream(),
        duplex: 'half',
      } as RequestInit);
    const failed = [
      ...(await failures('no user', post(big, {}), config)),
      ...(await failures('wrong type', post(big, { 'content-type': 'text/plain' }), config)),
      ...(await failures('oversized', post(big + ' '.repeat(1024 * 1024), {}), config)),
      ...(await failures('oversized, streamed with no length', streamed, config)),
    ];
    assert.deepEqual(failed, []);
  });

  it('the emulator: a large body refused before it is read (bad key, an injected fault), then a normal request', async () => {
    const early = () => send(`${emu.baseUrl}/verify-by-face`, { method: 'POST', body: big, headers: { 'content-type': 'application/json', 'x-authorization': 'wrong' } });
    const normal = () => send(`${emu.origin}/__emulator/messages`);
    const faulted = async () => {
      emu.state.faults.add({ kind: 'error', route: 'verify-by-face', status: 503, times: 1 });
      return send(`${emu.baseUrl}/verify-by-face`, { method: 'POST', body: big, headers: { 'content-type': 'application/json', 'x-authorization': KEY } });
    };
    assert.deepEqual([...(await failures('bad key', early, normal)), ...(await failures('injected fault', faulted, normal))], []);
  });
});
