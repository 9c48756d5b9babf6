/**
 * The docs' Cloudflare Worker snippets, installed from the tarball, bundled as the app's own build
 * does, and run by workerd (Miniflare) without nodejs_compat: as three instances (three isolates
 * of the same script), one person's calls going round-robin, on Durable Objects bound as the app's
 * wrangler.toml binds them, and on Upstash (a real Redis behind the Upstash REST protocol).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEVELOPMENT_KEY, startEmulator } from '../../../src/emulator/index.js';
import { installApp, loginOutcome, npm, roundRobinFlow, type App, type AppInstance } from './consumer-apps.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import { startUpstashGateway, type UpstashGateway } from '../server/upstash-gateway.js';

describe('the handler as a Cloudflare Worker on workerd (Miniflare), without nodejs_compat, installed from the tarball', () => {
  const secret = randomBytes(32).toString('hex');
  let app: App;
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let redis: RedisServer;
  let gateway: UpstashGateway;
  let origin: string;
  let mf: { ready: Promise<URL>; dispatchFetch(url: string, init?: RequestInit): Promise<Response>; dispose(): Promise<void> };

  before(async () => {
    app = installApp('worker');
    npm(app.dir, 'run', 'build');
    [emulator, redis] = await Promise.all([startEmulator({ port: 0 }), startRedis()]);
    gateway = await startUpstashGateway(redis.port);
    // The Durable Object binding, as the app's wrangler.toml declares it.
    const wrangler = readFileSync(join(app.dir, 'wrangler.toml'), 'utf8');
    const binding = /\[\[durable_objects\.bindings\]\]\s*name = "(\w+)"\s*class_name = "(\w+)"/.exec(wrangler)!;
    assert.ok(binding, 'wrangler.toml binds a Durable Object');
    const [, bindingName, className] = binding;
    const { Miniflare } = await import(pathToFileURL(join(app.dir, 'node_modules/miniflare/dist/src/index.js')).href);
    const bindings = { SERVICE_BASE_URL: emulator.baseUrl, SERVICE_API_KEY: DEVELOPMENT_KEY, RECEIPT_SECRET: secret };
    const worker = (name: string, script: string, extra: object) => ({
      name,
      // dispatchFetch routes by host: http://<name>/ reaches that instance.
      routes: [`${name}/*`],
      modules: true,
      scriptPath: join(app.dir, 'dist', script),
      modulesRoot: app.dir,
      compatibilityDate: '2025-09-01',
      bindings,
      ...extra,
    });
    mf = new Miniflare({
      workers: [0, 1, 2].flatMap((i) => [
        // The first instance holds the Durable Objects; the others reach the same ones, as every isolate of a Worker does.
        worker(`do${i}`, 'worker.js', { durableObjects: { [bindingName!]: i === 0 ? className : { className, scriptName: 'do0' } } }),
        worker(`upstash${i}`, 'worker-upstash.js', { bindings: { ...bindings, UPSTASH_REDIS_REST_URL: gateway.url, UPSTASH_REDIS_REST_TOKEN: gateway.token } }),
      ]).concat(
        worker('faces', 'worker-faces.js', { kvNamespaces: ['REFERENCES'] }),
        worker('voices', 'worker-faces.js', { kvNamespaces: ['REFERENCES'], bindings: { ...bindings, BIOMETRICS: 'voice' } }),
      ),
    });
    // Miniflare hands every instance its own address as the Host, so that is the page's origin.
    origin = (await mf.ready).origin;
  });
  after(async () => {
    await mf?.dispose();
    await gateway?.close();
    await redis?.stop();
    await emulator?.close();
    app?.remove();
  });

  /** Instance `name`, called as the site's page calls it. */
  const instance = (name: string, redeem: AppInstance['redeem']): AppInstance => ({
    call: (route, body) =>
      mf.dispatchFetch(`http://${name}/api/verify/${route}`, body ? { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    redeem,
  });

  it('bundles without a Node module', () => {
    for (const script of ['worker.js', 'worker-upstash.js', 'worker-faces.js']) {
      assert.doesNotMatch(readFileSync(join(app.dir, 'dist', script), 'utf8'), /\bfrom\s*["']node:|require\(["']node:/, script);
    }
  });

  /** Instance `name`, its receipts checked by its own /login. */
  const checkedBy = (name: string) =>
    instance(name, async (receipt) => loginOutcome(await mf.dispatchFetch(`http://${name}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })));

  it('on Durable Objects, three instances round-robin: the cooldown, the code, the receipt (checked by the app on each) and the caps hold across them', async () => {
    const fleet = [0, 1, 2].map((i) => checkedBy(`do${i}`));
    assert.equal((await fleet[0]!.call('config')).status, 200);
    await roundRobinFlow(fleet, emulator.origin, ['+966504445566', '+966504445577']);
  });

  it('on Upstash, three instances round-robin, the receipt checked by the app on each, single-use through the same Redis', async () => {
    await roundRobinFlow([0, 1, 2].map((i) => checkedBy(`upstash${i}`)), emulator.origin, ['+966504446611', '+966504446622']);
  });

  it('refuses to serve faces without a live check, naming the fix', async () => {
    const response = await mf.dispatchFetch('http://faces/api/verify/config');
    const said = await response.text();
    assert.equal(response.status, 500);
    assert.match(said, /live check/);
    assert.match(said, /stand-alone service/);
    assert.match(said, /facesFromUnprovenPhotos/);
  });

  it('refuses to serve voices without hearing their digits, naming the fix', async () => {
    const response = await mf.dispatchFetch('http://voices/api/verify/config');
    const said = await response.text();
    assert.equal(response.status, 500);
    assert.match(said, /any recording of the person's voice passes/);
    assert.match(said, /VERIFY_VOICE_LIVENESS/);
    assert.match(said, /voiceLiveness: false/);
  });

  it('refuses a POST from another origin', async () => {
    const response = await mf.dispatchFetch('http://do0/api/verify/send-otp', { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 403);
  });
});
