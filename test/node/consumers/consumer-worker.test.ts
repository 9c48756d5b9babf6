import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEVELOPMENT_KEY, startEmulator } from '../../../src/emulator/index.js';
import { MemoryStore, verifyReceipt } from '../../../src/server/index.js';
import { installApp, npm, type App } from './consumer-apps.js';
import { latestCode } from '../helpers.js';

describe('the handler as a Cloudflare Worker on workerd (Miniflare), without nodejs_compat, installed from the tarball', () => {
  const secret = randomBytes(32).toString('hex');
  let app: App;
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let worker: { ready: Promise<URL>; dispose(): Promise<void> };
  let url: URL;

  before(async () => {
    app = installApp('worker');
    npm(app.dir, 'run', 'build');
    emulator = await startEmulator({ port: 0 });
    const { Miniflare } = await import(pathToFileURL(join(app.dir, 'node_modules/miniflare/dist/src/index.js')).href);
    worker = new Miniflare({
      modules: true,
      scriptPath: join(app.dir, 'dist/worker.js'),
      modulesRoot: app.dir,
      compatibilityDate: '2025-09-01',
      bindings: { SERVICE_BASE_URL: emulator.baseUrl, SERVICE_API_KEY: DEVELOPMENT_KEY, RECEIPT_SECRET: secret },
    });
    url = await worker.ready;
  });
  after(async () => {
    await worker?.dispose();
    await emulator?.close();
    app?.remove();
  });

  const call = (route: string, body?: object) =>
    fetch(new URL(`/api/verify/${route}`, url), body ? { method: 'POST', headers: { origin: url.origin, 'content-type': 'application/json' }, body: JSON.stringify(body) } : {});

  it('bundles without a Node module', () => {
    assert.doesNotMatch(readFileSync(join(app.dir, 'dist/worker.js'), 'utf8'), /\bfrom\s*["']node:|require\(["']node:/);
  });

  it('sends a code, refuses a wrong one, accepts the right one, and signs a receipt Node checks', async () => {
    assert.equal((await call('config')).status, 200);
    const sent = await call('send-otp', { method: 'sms', phone: '+966 50 444 5566', lang: 'en' });
    assert.equal(sent.status, 200, await sent.clone().text());
    const code = await latestCode(emulator.origin, '+966504445566');
    const wrong = await call('verify-otp', { otp: code === '000000' ? '111111' : '000000' });
    assert.equal(wrong.status, 422);
    const right = await call('verify-otp', { otp: code });
    assert.equal(right.status, 200);
    const { receipt } = (await right.json()) as { receipt: string };
    const claims = await verifyReceipt(receipt, { secret, store: new MemoryStore(), user: 'demo-user', method: 'otp' });
    assert.equal(claims.sub, 'demo-user');
  });

  it('refuses a POST from another origin', async () => {
    const response = await fetch(new URL('/api/verify/send-otp', url), { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 403);
  });
});
