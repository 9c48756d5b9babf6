import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeFetch, createVerifyHandler } from '../../../src/server/node/index.js';
import { createServiceClient, ServiceError } from '../../../src/server/index.js';
import { READ_WHOLE } from '../../../src/core/http.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { KEY, until } from '../helpers.js';
import { SECRET } from './handler-setup.js';
import { keyedHash, webKeyedCrypto, type KeyedCrypto } from '../../../src/server/keyed-crypto.js';
import { nodeKeyedCrypto } from '../../../src/server/node/crypto.js';

describe('createNodeFetch: the Node path to the service', () => {
  let server: Server;
  let base: string;
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string; socket: unknown }[] = [];
  const answers: Record<string, (res: import('node:http').ServerResponse) => void> = {
    '/json': (res) => res.writeHead(201, { 'content-type': 'application/json', 'retry-after': '7' }).end('{"ok":true}'),
    '/redirect': (res) => res.writeHead(302, { location: '/elsewhere' }).end(),
    '/empty': (res) => res.writeHead(204).end(),
    '/slow': () => {},
  };
  before(async () => {
    server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push({ method: req.method, url: req.url, headers: req.headers, body, socket: req.socket });
      answers[req.url ?? '']?.(res);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('sends the method, headers and a sized JSON body, and answers with status, headers and body', async () => {
    const fetch = createNodeFetch();
    const response = await fetch(`${base}/json`, { method: 'POST', headers: { 'X-Authorization': 'k', 'Content-Type': 'application/json' }, body: '{"é":1}' });
    assert.deepEqual([response.status, response.headers.get('retry-after'), await response.json()], [201, '7', { ok: true }]);
    const request = seen.at(-1)!;
    assert.deepEqual([request.method, request.headers['x-authorization'], request.headers['content-length'], request.headers['transfer-encoding'], request.body], ['POST', 'k', '8', undefined, '{"é":1}']);
  });

  it('keeps the connection alive between calls', async () => {
    const fetch = createNodeFetch();
    await (await fetch(`${base}/json`)).text();
    await (await fetch(`${base}/json`)).text();
    assert.equal(seen.at(-1)!.socket, seen.at(-2)!.socket);
  });

  it('follows no redirect, and gives a bodiless answer no body', async () => {
    const fetch = createNodeFetch();
    const moved = await fetch(`${base}/redirect`);
    assert.deepEqual([moved.status, moved.headers.get('location')], [302, '/elsewhere']);
    assert.equal((await fetch(`${base}/empty`)).body, null);
  });

  it('rejects with the signal’s reason when aborted, already or while waiting', async () => {
    const fetch = createNodeFetch();
    const reason = new DOMException('No answer within 50 ms', 'TimeoutError');
    await assert.rejects(fetch(`${base}/slow`, { signal: AbortSignal.abort(reason) }), (error) => error === reason);
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(fetch(`${base}/slow`, { signal: controller.signal }), (error) => error === reason);
  });

  it('refuses what the service client never sends: a Request, a body that is not a string', async () => {
    const fetch = createNodeFetch();
    await assert.rejects(fetch(new Request(`${base}/json`)), TypeError);
    await assert.rejects(fetch(`${base}/json`, { method: 'POST', body: new Uint8Array(2) }), TypeError);
  });

  it('reads an answer whole for the service client, as its Response would have read', async () => {
    const fetch = createNodeFetch();
    const whole = await fetch[READ_WHOLE](`${base}/json`, { method: 'POST', headers: { 'X-Authorization': 'k' }, body: '{}' });
    assert.deepEqual([whole.status, whole.header('retry-after'), whole.header('location'), whole.text], [201, '7', null, '{"ok":true}']);
    // The service client's views of the service, with the Node fetch and through its Response alone.
    const plainFetch: typeof globalThis.fetch = (input, init) => fetch(input, init);
    const seenBy = async (fetchImpl: typeof globalThis.fetch) => {
      // The fragment drops the operation's path: each client asks the one answer named.
      const at = (path: string) => createServiceClient({ baseUrl: `${base}${path}#`, apiKey: KEY, fetch: fetchImpl }).balance();
      const outcome = (promise: Promise<unknown>) => promise.then((value) => ({ value }), (error: ServiceError) => ({ code: error.code, fault: error.fault, status: error.status }));
      return [await outcome(at('/json')), await outcome(at('/redirect'))];
    };
    assert.deepEqual(await seenBy(fetch), await seenBy(plainFetch));
    assert.deepEqual((await seenBy(fetch))[1], { code: 'upstream_unavailable', fault: 'redirect', status: 302 });
  });

  it('an unreachable service is the client’s upstream_unavailable, as with any fetch', async () => {
    const client = createServiceClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY, fetch: createNodeFetch() });
    await assert.rejects(client.balance(), (error) => error instanceof ServiceError && error.code === 'upstream_unavailable' && error.fault === 'network');
  });
});

describe('createNodeFetch: idle connections close before the service closes them', () => {
  /**
   * A service that closes idle connections after `idleMs` (announcing it, as Node does, unless 0)
   * and notes, per connection, whether the client hung up first and when.
   */
  async function service(idleMs: number) {
    // `/slow` answers after 4.5 s, longer than a connection may idle in the client's pool.
    const server = createServer((req, res) => req.resume().on('end', () => setTimeout(() => res.end('{}'), req.url === '/slow' ? 4500 : 0)));
    server.keepAliveTimeout = idleMs;
    const connections: { clientHungUpAfterMs?: number }[] = [];
    server.on('connection', (socket) => {
      const seen: { clientHungUpAfterMs?: number } = {};
      connections.push(seen);
      let last = performance.now();
      socket.on('data', () => (last = performance.now()));
      socket.on('end', () => (seen.clientHungUpAfterMs = performance.now() - last));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { url, connections, close: () => server.close() };
  }
  /** Waits for the client to hang up the first connection, and answers after how long idle. */
  async function hangUp(connections: { clientHungUpAfterMs?: number }[]): Promise<number> {
    await until('the client to hang up', () => connections[0]?.clientHungUpAfterMs !== undefined, 15_000);
    return Math.round(connections[0]!.clientHungUpAfterMs!);
  }

  // A call written on a connection the service is closing that moment fails unread: ECONNRESET,
  // "the service could not be reached", for a person who did nothing wrong.
  it('hangs up a second before the time the service announces (Keep-Alive: timeout=3)', async () => {
    const { url, connections, close } = await service(3000);
    const fetch = createNodeFetch();
    await (await fetch(url)).text();
    await (await fetch(url)).text();
    const hungUp = await hangUp(connections);
    close();
    assert.equal(connections.length, 1);
    // About 2 s; what matters is before the service's 3 s, however loaded the machine.
    assert.ok(hungUp > 1500 && hungUp < 3000, `hung up after ${hungUp} ms`);
  });

  it('keeps no connection for a service that closes within a second', async () => {
    const { url, connections, close } = await service(1000);
    const fetch = createNodeFetch();
    await (await fetch(url)).text();
    await (await fetch(url)).text();
    close();
    assert.equal(connections.length, 2);
  });

  it('hangs up after 4 s when the service announces nothing, under the 5 s of Node and Apache servers', async () => {
    const { url, connections, close } = await service(0);
    const fetch = createNodeFetch();
    await (await fetch(url)).text();
    const hungUp = await hangUp(connections);
    close();
    // About 4 s; what matters is before the 5 s such servers keep a connection, however loaded the machine.
    assert.ok(hungUp > 3500 && hungUp < 5000, `hung up after ${hungUp} ms`);
  });

  it('a call slower than the idle limit is not cut: the limit is for idle connections only', async () => {
    const { url, connections, close } = await service(10_000);
    const fetch = createNodeFetch();
    await (await fetch(url)).text();
    assert.equal(await (await fetch(`${url}slow`)).text(), '{}');
    close();
    assert.equal(connections.length, 1);
  });
});

describe('createVerifyHandler of verify-widgets/server/node', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ apiKeys: [KEY] })));
  after(() => emu.close());

  it('reaches the service through node:http unless given a fetch', async () => {
    let given = 0;
    const options = { baseUrl: emu.baseUrl, apiKey: KEY, basePath: '/api/verify', receiptSecret: SECRET, allowedCountries: ['SA'], getUser: () => null, getSessionId: () => 's1', limits: { resendCooldownSeconds: 0 } };
    const origin = 'http://shop.example';
    const send = (handler: (request: Request) => Promise<Response>) =>
      handler(new Request(`${origin}/api/verify/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ method: 'email', email: 'sara@example.com' }) }));
    const node = createVerifyHandler(options);
    assert.equal((await send(node)).status, 200);
    const own = createVerifyHandler({ ...options, fetch: (input, init) => (given++, fetch(input, init)) });
    assert.equal((await send(own)).status, 200);
    assert.equal(given, 1);
    // Lazily built options (as in Next.js) get the same default.
    assert.equal((await send(createVerifyHandler(async () => options))).status, 200);
  });
});

describe('node:crypto beside Web Crypto: one store, two runtimes', () => {
  it('makes the same keyed hashes', async () => {
    const [node, web] = await Promise.all([nodeKeyedCrypto, webKeyedCrypto].map((keyed) => keyed.hmac(SECRET, 'identifier:+966501234567')));
    assert.equal(Buffer.from(node!).toString('hex'), Buffer.from(web!).toString('hex'));
  });

  it('opens what the other sealed, and nothing altered or sealed under another secret', async () => {
    const plain = JSON.stringify({ method: 'sms', identifier: '+966501234567', sentAt: 1 });
    const pairs: [KeyedCrypto, KeyedCrypto][] = [[webKeyedCrypto, nodeKeyedCrypto], [nodeKeyedCrypto, webKeyedCrypto]];
    for (const [seal, open] of pairs) {
      const sealed = await seal.seal(SECRET, plain);
      assert.doesNotMatch(sealed, /966/);
      assert.equal(await open.open(SECRET, sealed), plain);
      assert.equal(await open.open(`${SECRET}-rotated`, sealed), null);
      const [iv, body] = sealed.split('.');
      const flipped = Buffer.from(body!, 'base64');
      flipped[0]! ^= 1;
      assert.equal(await open.open(SECRET, `${iv}.${flipped.toString('base64')}`), null);
      assert.equal(await open.open(SECRET, 'not sealed'), null);
    }
  });

  it('remembers recent hashes without mixing secrets or crypto', async () => {
    const first = await keyedHash(webKeyedCrypto, SECRET, 'session:s1');
    assert.equal(await keyedHash(nodeKeyedCrypto, SECRET, 'session:s1'), first);
    assert.notEqual(await keyedHash(webKeyedCrypto, `${SECRET}-other`, 'session:s1'), first);
  });
});
