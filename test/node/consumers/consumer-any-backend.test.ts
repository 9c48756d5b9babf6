/**
 * A PHP site and a Python (Flask) site, each behind nginx with two instances of
 * `npx verify-widgets serve` from the tarball on one redis-server, run in Chromium as a person runs
 * them: an OTP flow whose receipt the site redeems once (PHP through receipts/redeem, Python with
 * PyJWT and its own table), a face registered and verified with the references in the site's
 * files, an expired token replaced mid-flow, tokens and reference calls refused; and on the PHP
 * site, one instance killed and both told to stop in the middle of a verification.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import type { Page } from 'puppeteer-core';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { cameraFrom, cspViolations, openBrowser, untilStep } from '../e2e/demo-browser.js';
import { control, freePort, latestCode, sessionToken, until } from '../helpers.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import { faceFromCamera, installApp, passOtp, sendCodeTo, typeCodeFor, type App } from './consumer-apps.js';
import { startInstance, startSite, type Site } from './any-backend.js';

const confirmed = (page: Page) => page.waitForFunction(() => document.querySelector('#confirmed')?.textContent, { timeout: 15_000 }).then((h) => h.jsonValue() as Promise<string>);

/** Registers (mode enroll) or verifies the camera's face in the page's <face-verify>, once the widget knows who is asking. */
async function faceStep(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector<any>('face-verify')?.config !== undefined, { timeout: 15_000 });
  await faceFromCamera(page, 30_000);
}

/** What the site's /confirm answers for a receipt posted from the page, as the page's own script posts it. */
const confirm = (page: Page, receipt: string) =>
  page.evaluate((r) => fetch('/confirm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: r }) }).then((a) => a.json()), receipt);

/** The events the site kept, one file per event id (the receivers of test/consumers/any-backend). */
const eventsKept = (site: Site) =>
  readdirSync(site.eventsDir)
    .map((file) => readFileSync(join(site.eventsDir, file), 'utf8'))
    // A file the site has created and not yet written is not kept yet.
    .filter(Boolean)
    .map((text) => JSON.parse(text) as { id: string; type: string; data: Record<string, unknown> });

/** A session token as a site would mint it, with `claims` over the usual ones. */
const token = (secret: string, claims: Record<string, unknown> = {}) => sessionToken(secret, { sub: 'mallory', sid: 's', ...claims });

describe('a PHP and a Python site behind nginx, the service from the tarball beside them', () => {
  let app: App;
  let emulator: RunningEmulator;
  let redis: RedisServer;
  before(async () => {
    app = installApp('any-backend');
    emulator = await startEmulator({ port: 0, faceModel: false });
    redis = await startRedis();
  });
  after(async () => {
    await emulator?.close();
    await redis?.stop();
    app?.remove();
  });

  /** Starts the first instance again on its port, and waits until nginx sends to it again (it rests a failed server a second). */
  async function restartFirst(site: Site): Promise<void> {
    site.instances[0] = await startInstance(app, site.env, site.instances[0]!.port);
    await until('nginx to reach an instance again', () => fetch(`${site.origin}/verify-widgets/verify-widgets.js`).then((r) => r.ok), 5000, 100);
  }

  for (const [kind, phones] of [['php', ['50 711 0001', '50 711 0002', '50 711 0003', '50 711 0004']], ['python', ['50 722 0001', '50 722 0002']]] as const) {
    describe(`the ${kind === 'php' ? 'PHP' : 'Flask'} site`, () => {
      let site: Site;
      let browser: { page: Page; close(): Promise<void> };
      before(async () => {
        site = await startSite(app, kind, emulator, redis.port);
        browser = await openBrowser(`${site.origin}/login?user=alice`, cameraFrom('obama_1'));
      });
      after(async () => {
        if (process.env.DEBUG_SITE) for (const i of site.instances) console.log(i.output());
        await browser?.close();
        await site?.close();
      });

      it('an OTP flow: the receipt redeemed once by the site, a second redemption refused', async () => {
        const { page } = browser;
        await passOtp(page, emulator.origin, phones[0]);
        assert.equal(await confirmed(page), 'otp:alice');
        const receipt = await page.evaluate(() => document.querySelector<any>('otp-verify').value as string);
        const again = await confirm(page, receipt);
        assert.deepEqual(again, { refused: 'receipt_used' });
        assert.deepEqual(await cspViolations(page), []);
        // The site was told too, signed, by its webhook.
        await until('the site to keep the verification', async () => eventsKept(site).some((e) => e.type === 'verified'), 5000, 50);
        const [told] = eventsKept(site).filter((e) => e.type === 'verified');
        assert.deepEqual([told!.data.user, told!.data.method], ['alice', 'otp']);
      });

      it('a face registered and verified, its reference kept by the site', async () => {
        const { page } = browser;
        // The code just verified is the proof that lets alice register.
        await page.goto(`${site.origin}/`);
        await faceStep(page);
        assert.equal(readdirSync(site.referencesDir).length, 1, 'one reference, in the site\'s own files');
        await page.goto(`${site.origin}/?mode=verify`);
        await faceStep(page);
        assert.equal(await confirmed(page), 'face:alice');
      });

      it('an expired token mid-flow: the page gives a fresh one, and the person retypes nothing', async () => {
        const { page } = browser;
        await page.goto(`${site.origin}/?ttl=1`);
        const minted = Date.now();
        await page.evaluate(() => {
          (window as any).renewals = 0;
          document.addEventListener('verify-session-token', () => (window as any).renewals++);
        });
        const phone = await sendCodeTo(page, phones[1]);
        // The token lives 1 s, and the service allows 5 s of clock difference.
        await until('the token to expire', () => Date.now() - minted > 7500, 10_000, 100);
        await typeCodeFor(page, emulator.origin, phone);
        await untilStep(page, 'otp-verify', 'success');
        assert.equal(await page.evaluate(() => (window as any).renewals), 1);
        assert.equal(await confirmed(page), 'otp:alice');
      });

      it('forged, expired and foreign tokens refused; unsigned and replayed reference calls refused by the site', async () => {
        const config = (bearer: string) => fetch(`${site.origin}/api/verify/config`, { headers: { authorization: `Bearer ${bearer}` } }).then(async (r) => [r.status, ((await r.json()) as any).error?.code]);
        const now = Math.floor(Date.now() / 1000);
        assert.deepEqual(await config(await token(randomBytes(32).toString('hex'))), [401, 'token_invalid']);
        assert.deepEqual(await config(await token(site.secrets.VERIFY_TOKEN_SECRET, { iat: now - 900, exp: now - 60 })), [401, 'token_expired']);
        assert.deepEqual(await config(await token(site.secrets.VERIFY_TOKEN_SECRET, { aud: 'another-app' })), [401, 'token_invalid']);
        assert.deepEqual(await config(await token(site.secrets.VERIFY_TOKEN_SECRET)), [200, undefined]);

        // Nobody registered as this user: a request the site trusts finds nothing.
        const path = '/references/nobody/face';
        const signed = (t: number, method = 'GET', body = '') => `t=${t},v1=${createHmac('sha256', site.secrets.VERIFY_SERVER_SECRET).update(`${t}.${method}.${path}.${body}`).digest('hex')}`;
        const reference = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${site.sitePort}${path}`, { headers }).then((r) => r.status);
        assert.equal(await reference({}), 401, 'unsigned');
        assert.equal(await reference({ 'verify-signature': signed(now - 301) }), 401, 'replayed after the window');
        assert.equal(await reference({ 'verify-signature': signed(now).replace(/.$/, (last) => (last === '0' ? '1' : '0')) }), 401, 'altered');
        assert.equal(await reference({ 'verify-signature': signed(now, 'PUT') }), 401, 'signed for another method');
        assert.equal(await reference({ 'verify-signature': signed(now) }), 404, 'signed now');
      });

      if (kind !== 'php') return;

      it('the site down for a minute: the person is verified all the same, and the event reaches the site, once, after it is back', async () => {
        await site.stopSite();
        const bearer = await token(site.secrets.VERIFY_TOKEN_SECRET, { sub: 'alice', sid: 'site-down' });
        const call = (route: string, body: object) =>
          fetch(`${site.origin}/api/verify/${route}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, origin: site.origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const email = 'site-down@example.com';
        assert.equal((await call('send-otp', { method: 'email', email })).status, 200);
        const verified = await call('verify-otp', { email, otp: await latestCode(emulator.origin, email) });
        assert.equal(verified.status, 200, 'answered with the site down');
        const { jti } = decodeJwt(((await verified.json()) as { receipt: string }).receipt);
        await new Promise((done) => setTimeout(done, 60_000));
        assert.ok(!eventsKept(site).some((e) => e.data.receiptId === jti));
        await site.startSiteAgain();
        // The tries are at most 30 s apart.
        await until('the event to reach the site', async () => eventsKept(site).some((e) => e.data.receiptId === jti), 40_000, 200);
        assert.equal(eventsKept(site).filter((e) => e.data.receiptId === jti).length, 1);
        // The site keeps the event before it answers; the service logs the delivery once the answer is in.
        await until('the service to say it delivered it late', async () => site.instances.some((i) => /"msg":"webhook delivered","type":"verified"/.test(i.output())), 10_000, 100);
      });

      it('one instance killed mid-flow: the other serves the person', async () => {
        const { page } = browser;
        await page.goto(`${site.origin}/`);
        const phone = await sendCodeTo(page, phones[2]);
        await site.instances[0]!.stop('SIGKILL');
        await typeCodeFor(page, emulator.origin, phone);
        await untilStep(page, 'otp-verify', 'success');
        assert.equal(await confirmed(page), 'otp:alice');
        await restartFirst(site);
      });

      it('SIGTERM to each instance\'s npx alone, as a process manager sends it, during a verification: it completes, and they take no new connection', async () => {
        const { page } = browser;
        await page.goto(`${site.origin}/`);
        const phone = await sendCodeTo(page, phones[3]);
        // The service answers the check after 3 s: the instance is told to stop while it waits.
        await control(emulator.origin, 'POST', 'faults', { kind: 'latency', route: 'verify-otp', ms: 3000, times: 1 });
        await typeCodeFor(page, emulator.origin, phone);
        await until('the check to reach the service', async () => ((await control(emulator.origin, 'GET', 'faults')) as { faults: unknown[] }).faults.length === 0);
        // npm passes no signal on: each service sees npm gone and stops as on SIGTERM.
        for (const instance of site.instances) instance.signal('SIGTERM');
        for (const { port } of site.instances) {
          await until('the instances to stop listening', () => fetch(`http://127.0.0.1:${port}/healthz`).then(() => false, () => true), 2000, 20);
        }
        await untilStep(page, 'otp-verify', 'success');
        for (const instance of site.instances) await until('each instance to exit cleanly', () => instance.output().includes('"msg":"stopped"'), 5000);
        const finished = site.instances.filter((i) => /"msg":"shutting down","reason":"npm[^"]*"[\s\S]*"route":"verify-otp","status":200[\s\S]*"msg":"stopped"/.test(i.output()));
        assert.equal(finished.length, 1, 'the instance checking the code finished it before it stopped');
        // Nobody was left to redeem the receipt: the page's try is refused and uses nothing up.
        assert.equal(await confirmed(page), 'refused:upstream_unavailable');
        await restartFirst(site);
        const receipt = await page.evaluate(() => document.querySelector<any>('otp-verify').value as string);
        const redeemed = await confirm(page, receipt);
        assert.deepEqual(redeemed, { user: 'alice', method: 'otp' });
      });

      it('the container form (exec node_modules/.bin/verify-widgets serve): SIGTERM to it mid-request lets the request finish', async () => {
        const port = await freePort();
        const instance = await startInstance(app, site.env, port, 'bin');
        const origin = `http://127.0.0.1:${port}`;
        await control(emulator.origin, 'POST', 'faults', { kind: 'latency', route: 'send-otp', ms: 2000, times: 1 });
        const sending = fetch(`${origin}/api/verify/send-otp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${await token(site.secrets.VERIFY_TOKEN_SECRET, { sid: 'container' })}`, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ method: 'email', email: 'container@example.com' }),
        });
        await until('the send to reach the service', async () => ((await control(emulator.origin, 'GET', 'faults')) as { faults: unknown[] }).faults.length === 0);
        const exited = once(instance.child, 'exit');
        instance.signal('SIGTERM');
        assert.equal((await sending).status, 200, 'the send in flight is answered');
        assert.deepEqual(await exited, [0, null]);
        assert.match(instance.output(), /"msg":"shutting down","signal":"SIGTERM"[\s\S]*"route":"send-otp","status":200[\s\S]*"msg":"stopped"/);
      });
    });
  }
});
