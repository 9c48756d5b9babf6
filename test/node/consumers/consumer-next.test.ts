import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { httpInstance, installApp, npm, passOtp, roundRobinFlow, startAppServer, visit, type App, type AppServer, type FleetShare } from './consumer-apps.js';
import { freePort } from '../helpers.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import { startUpstashGateway, type UpstashGateway } from '../server/upstash-gateway.js';

describe('a Next.js App Router app, with the package installed from its tarball, on Upstash', () => {
  let app: App;
  let server: AppServer;
  let port: number;
  let redis: RedisServer;
  let gateway: UpstashGateway;
  let share: FleetShare;
  /** `next start` on a free port, with the service, the secret and Upstash of the whole fleet. */
  const nextStart = async (on: number) =>
    startAppServer(app, ['node_modules/next/dist/bin/next', 'start', '--port', String(on)], /Ready in/, { NEXT_TELEMETRY_DISABLED: '1', UPSTASH_REDIS_REST_URL: gateway.url, UPSTASH_REDIS_REST_TOKEN: gateway.token }, share);

  before(async () => {
    app = installApp('next-app');
    // What a CI build has: no secrets. The handler reads its options on the first request.
    for (const name of ['SERVICE_BASE_URL', 'SERVICE_API_KEY', 'RECEIPT_SECRET']) delete process.env[name];
    npm(app.dir, 'run', 'build');
    redis = await startRedis();
    gateway = await startUpstashGateway(redis.port);
    share = { emulator: await startEmulator({ port: 0 }), secret: randomBytes(32).toString('hex') };
    port = await freePort();
    server = await nextStart(port);
  });
  after(async () => {
    await server?.close();
    await share?.emulator.close();
    await gateway?.close();
    await redis?.stop();
    app?.remove();
  });

  /** Opens `path` on `host`, mapped to this machine. */
  const open = (host: string, path: string) => visit(`http://${host}:${port}${path}`, [`--host-resolver-rules=MAP ${host} 127.0.0.1`]);

  async function verifyOn(host: string, localPhone: string, path = '/') {
    const { page, errors, close } = await open(host, path);
    try {
      await passOtp(page, server.emulatorOrigin, localPhone);
      // The page posts the receipt to its own route, which checks it on the server.
      await page.waitForFunction(() => document.getElementById('confirmed')?.textContent, { timeout: 15_000 });
      assert.equal(await page.$eval('#confirmed', (p: Element) => p.textContent), 'demo-user');
      assert.deepEqual(errors, [], 'no hydration or other error in the console');
      const configCalls = await page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/api/verify/config')).length);
      assert.equal(configCalls, 1, 'the page is hydrated once, so the config is read once');
    } finally {
      await close();
    }
  }

  it('verifies a phone on 127.0.0.1, the receipt checked by a route of the app', () => verifyOn('127.0.0.1', '50 111 2233'));

  it('verifies a phone on a host name other than localhost (the origin check reads the Host header)', () => verifyOn('shop.test', '50 111 4455'));

  it('verifies a phone through the handler on the edge runtime', () => verifyOn('127.0.0.1', '50 111 6677', '/edge'));

  it('hydrates the component rendered straight from a Server Component, without an error', async () => {
    const { page, errors, close } = await open('127.0.0.1', '/server-rendered');
    try {
      await page.waitForFunction(() => document.querySelector<any>('otp-verify')?.shadowRoot?.querySelector('#phone'), { timeout: 15_000 });
      // Hydrated: React has adopted the server's element (it keeps its props on the node at the
      // commit, where a mismatch would have been reported), so the console has had its say.
      await page.waitForFunction(() => Object.keys(document.querySelector('otp-verify')!).some((key) => key.startsWith('__reactProps$')), { timeout: 15_000 });
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  it('as three `next start` instances, the Node and the Edge route, one person round-robin: every rule holds across them', async () => {
    const others = await Promise.all([freePort(), freePort()].map(async (p) => ({ port: await p, server: await nextStart(await p) })));
    try {
      const ports = [port, ...others.map((o) => o.port)];
      // The first and last instances answer on the Node route, the middle one on the Edge route.
      const fleet = ports.map((on, i) => httpInstance(`http://127.0.0.1:${on}`, `/api/${i === 1 ? 'edge/' : ''}verify`, '/api/confirm'));
      await roundRobinFlow(fleet, share.emulator.origin, ['+966501118811', '+966501118822']);
      for (const other of others) assert.doesNotMatch(other.server.output(), /error|refused|\b503\b/i);
    } finally {
      await Promise.all(others.map((o) => o.server.close()));
    }
  });

  it('logged nothing on the server', () => {
    assert.doesNotMatch(server.output(), /error|refused|\b503\b/i);
  });
});
