import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import express from 'express';
// The Node entry's handler: its calls to the service go through createNodeFetch.
import { createVerifyHandler, toNodeListener } from '../../../src/server/node/index.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { KEY, listen } from '../helpers.js';
import { SECRET } from './handler-setup.js';

describe('handler adapters', () => {
  let emu: RunningEmulator;
  const servers: Server[] = [];
  before(async () => (emu = await startEmulator({ apiKeys: [KEY] })));
  after(async () => {
    for (const server of servers) server.close();
    await emu.close();
  });

  const handler = (basePath: string) =>
    createVerifyHandler({
      baseUrl: emu.baseUrl,
      apiKey: KEY,
      basePath,
      receiptSecret: SECRET,
      allowedCountries: ['SA'],
      getUser: () => null,
      getSessionId: (request) => request.headers.get('cookie')?.match(/sid=(\w+)/)?.[1] ?? null,
      limits: { resendCooldownSeconds: 0, sendsPerIp: { max: 2, windowSeconds: 600 } },
    });

  const post = (origin: string, path: string, body: object, sid: string) =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, cookie: `sid=${sid}` }, body: JSON.stringify(body) });

  it("Node's http: serves the routes, and limits per socket address by default", async () => {
    const server = createServer(toNodeListener(handler('/api/verify')));
    servers.push(server);
    const origin = await listen(server);
    const config = await fetch(`${origin}/api/verify/config`);
    assert.equal(config.status, 200);
    assert.deepEqual((await config.json()).channels, ['sms', 'whatsapp', 'email']);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(origin, '/api/verify/send-otp', { method: 'email', email: `n${i}@example.com` }, `s${i}`)).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  });

  it('Express: mounted under a path with app.use, beside the host routes', async () => {
    const app = express();
    app.use('/auth/verify', toNodeListener(handler('/auth/verify')));
    app.get('/hello', (_req, res) => void res.send('host route'));
    const server = createServer(app);
    servers.push(server);
    const origin = await listen(server);
    const sent = await post(origin, '/auth/verify/send-otp', { method: 'email', email: 'express@example.com' }, 'abc');
    assert.equal(sent.status, 200);
    assert.equal((await sent.json()).to, 'e••••••@example.com');
    assert.equal(await (await fetch(`${origin}/hello`)).text(), 'host route');
    const code = emu.state.outbox.list('express@example.com')[0]!.code;
    const verified = await post(origin, '/auth/verify/verify-otp', { email: 'express@example.com', otp: code }, 'abc');
    assert.equal((await verified.json()).verified, true);
  });

  it('Express with express.json() mounted first: the parsed body is used, the checks still hold, never a 500', async () => {
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    app.use('/api/verify', toNodeListener(handler('/api/verify')));
    const server = createServer(app);
    servers.push(server);
    const origin = await listen(server);
    const sent = await post(origin, '/api/verify/send-otp', { method: 'email', email: 'parsed@example.com' }, 'parsed');
    assert.equal(sent.status, 200, await sent.clone().text());
    const code = emu.state.outbox.list('parsed@example.com')[0]!.code;
    const verified = await post(origin, '/api/verify/verify-otp', { email: 'parsed@example.com', otp: code }, 'parsed');
    assert.equal((await verified.json()).verified, true);
    // What the browser may not send is still refused by name, and a body past the cap still is.
    const extra = await post(origin, '/api/verify/send-otp', { method: 'email', email: 'p2@example.com', user_id: 'x' }, 'parsed2');
    assert.deepEqual([extra.status, (await extra.json()).error.field], [400, 'user_id']);
    const big = await post(origin, '/api/verify/send-otp', { method: 'email', email: 'p3@example.com', pad: 'x'.repeat(100_000) }, 'parsed3');
    assert.deepEqual([big.status, (await big.json()).error.code], [413, 'invalid_input']);
  });
});
