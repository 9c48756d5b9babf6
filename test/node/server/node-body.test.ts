/**
 * Issue 45, item 2: under toNodeListener the handler reads the body from Node's own stream
 * (`info.body`), not through a web stream. The caps hold there too: a body that trickles past its
 * deadline is refused (408) and one over the cap as it arrives (413), and the next request on the
 * same kept-alive connection is answered; a plain Fetch handler still gets its body in the Request.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, createServer, request, type Server } from 'node:http';
import { createVerifyHandler } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/node/index.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { KEY, listen } from '../helpers.js';
import { SECRET } from './handler-setup.js';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** POSTs `chunks`, `gapMs` apart, over the one kept-alive connection; answers the status and body. */
function post(url: string, chunks: string[], gapMs = 0): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(url).origin }, timeout: 5000 }, async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, text });
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    void (async () => {
      for (const chunk of chunks) {
        req.write(chunk);
        if (gapMs) await sleep(gapMs);
      }
      req.end();
    })();
  });
}

describe('the handler reads its body from Node\u2019s stream', () => {
  let emu: RunningEmulator;
  let server: Server;
  let origin: string;
  before(async () => {
    emu = await startEmulator({ apiKeys: [KEY] });
    const handler = createVerifyHandler({ baseUrl: emu.baseUrl, apiKey: KEY, basePath: '/v', receiptSecret: SECRET, allowedChannels: ['email'], getUser: () => null, getSessionId: () => 's', limits: { bodyReadSeconds: 1 } });
    assert.equal(handler.bodyFromInfo, true);
    server = createServer(toNodeListener(handler));
    origin = await listen(server);
  });
  after(async () => {
    agent.destroy();
    server.close();
    await emu.close();
  });

  it('a trickle past its deadline is 408, a body over the cap 413, and each next request on the connection is answered', async () => {
    const trickle = await post(`${origin}/v/send-otp`, Array.from({ length: 12 }, () => ' '), 200);
    assert.equal(trickle.status, 408, trickle.text);
    const sent = await post(`${origin}/v/send-otp`, [JSON.stringify({ method: 'email', email: 'body@example.com' })]);
    assert.equal(sent.status, 200, sent.text);
    const huge = await post(`${origin}/v/send-otp`, Array.from({ length: 64 }, () => ' '.repeat(65536)));
    assert.equal(huge.status, 413, huge.text);
    const again = await post(`${origin}/v/verify-otp`, [JSON.stringify({ email: 'body@example.com', otp: '000000' })]);
    // Read and checked: the code is wrong, and says so.
    assert.equal(JSON.parse(again.text).error.code, 'wrong_code', again.text);
  });

  it('a Fetch handler that does not read info.body gets the body in its Request', async () => {
    const plain = createServer(toNodeListener(async (request, info) => Response.json({ body: await request.text(), inInfo: info?.body !== undefined })));
    const plainOrigin = await listen(plain);
    try {
      const answer = await post(`${plainOrigin}/`, ['{"a":', '1}'], 10);
      assert.deepEqual(JSON.parse(answer.text), { body: '{"a":1}', inInfo: false });
    } finally {
      plain.close();
    }
  });
});
