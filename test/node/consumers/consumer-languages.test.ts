/**
 * The Any back end page's other languages, each a file the docs show and this test runs: Ruby
 * (the jwt gem), Go and Java (their standard libraries) mint a session token, check a reference
 * call's signature and redeem a receipt once, and a Django view mints the token from Django's own
 * session and user. In front of the service's two instances (from the tarball, on Redis) is Caddy,
 * with the docs' routes, instead of nginx; a person passes a code through it in Chromium.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { cameraFrom, cspViolations, openBrowser } from '../e2e/demo-browser.js';
import { decodeJwt } from 'jose';
import { freePort, latestCode, until } from '../helpers.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import { installApp, passOtp, type App } from './consumer-apps.js';
import { start, startSite, type Process, type Site } from './any-backend.js';

const claimsOf = decodeJwt;

describe('Ruby, Go, Java and Django beside the service, Caddy in front', () => {
  let app: App;
  let emulator: RunningEmulator;
  let redis: RedisServer;
  let site: Site;
  let env: Record<string, string>;
  before(async () => {
    app = installApp('any-backend');
    emulator = await startEmulator({ port: 0, faceModel: false });
    redis = await startRedis();
    site = await startSite(app, 'php', emulator, redis.port, 'caddy');
    // The site's server reaches the service where the browser does, through Caddy.
    env = { ...process.env, ...site.secrets, VERIFY_INTERNAL_URL: site.origin } as Record<string, string>;
  });
  after(async () => {
    await site?.close();
    await redis?.stop();
    await emulator?.close();
    app?.remove();
  });

  it("Caddy with the docs' routes: the page, the widgets' files and a code passed, the receipt redeemed once, one instance after the other", async () => {
    const browser = await openBrowser(`${site.origin}/login?user=alice`, cameraFrom('obama_1'));
    try {
      await passOtp(browser.page, emulator.origin, '50 733 0001');
      const confirmed = await browser.page.waitForFunction(() => document.querySelector('#confirmed')?.textContent, { timeout: 15_000 });
      assert.equal(await confirmed.jsonValue(), 'otp:alice');
      assert.deepEqual(await cspViolations(browser.page), []);
    } finally {
      await browser.close();
    }
    const served = site.instances.map((instance) => (instance.output().match(/"msg":"request"/g) ?? []).length);
    assert.ok(
      served.every((n) => n > 0),
      `both instances served the person: ${served}`,
    );
  });

  /** Each language's way in: `token USER SID`, `signature METHOD PATH HEADER` (the body on stdin), `redeem RECEIPT`. */
  const languages: Record<string, { build?(dir: string): void; command(dir: string): [string, string[]] }> = {
    Ruby: { command: (dir) => ['ruby', [join(dir, 'ruby/cli.rb')]] },
    Go: {
      // The standard library only: no module to fetch.
      build: (dir) =>
        execFileSync('go', ['build', '-o', join(dir, 'verify-go'), '.'], {
          cwd: join(dir, 'go'),
          env: { ...process.env, GOPATH: join(dir, '.gopath'), GOCACHE: join(dir, '.gocache'), GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
        }),
      command: (dir) => [join(dir, 'verify-go'), []],
    },
    Java: {
      build: (dir) => execFileSync('javac', ['-d', join(dir, 'java-classes'), 'java/Verify.java', 'java/Cli.java'], { cwd: dir }),
      command: (dir) => ['java', ['-cp', join(dir, 'java-classes'), 'Cli']],
    },
  };

  for (const [name, language] of Object.entries(languages)) {
    it(`${name}: a token the service takes, a reference call's signature checked, a receipt redeemed once`, async () => {
      language.build?.(app.dir);
      const [command, first] = language.command(app.dir);
      const run = (args: string[], input = '') => execFileSync(command, [...first, ...args], { env, input, encoding: 'utf8' }).trim();

      // The token: a code sent and checked with it, through Caddy, and the receipt names its user.
      const user = `${name.toLowerCase()}-user`;
      const bearer = run(['token', user, `${name}-session`]);
      const call = async (route: string, body: object) => {
        const response = await fetch(`${site.origin}/api/verify/${route}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, origin: site.origin, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, json: (await response.json()) as { receipt?: string; error?: { code: string } } };
      };
      const email = `${user}@example.com`;
      assert.equal((await call('send-otp', { method: 'email', email })).status, 200);
      const verified = await call('verify-otp', { email, otp: await latestCode(emulator.origin, email) });
      assert.equal(verified.status, 200, JSON.stringify(verified.json));
      assert.equal(claimsOf(verified.json.receipt!).sub, user);
      const guest = claimsOf(run(['token', '', `${name}-guest`]));
      assert.deepEqual([guest.sub, guest.sid, guest.aud, Number(guest.exp) - Number(guest.iat)], [undefined, `${name}-guest`, 'verify-widgets', 600]);

      // The signature of a reference call (and of a webhook).
      const path = '/references/alice/face';
      const body = '{"sample":"QUJD"}';
      const now = Math.floor(Date.now() / 1000);
      const signed = (t: number, method = 'PUT', text = body) => `t=${t},v1=${createHmac('sha256', site.secrets.VERIFY_SERVER_SECRET).update(`${t}.${method}.${path}.${text}`).digest('hex')}`;
      const check = (header: string, method = 'PUT', text = body) => run(['signature', method, path, header], text);
      assert.equal(check(signed(now)), 'ok', 'signed now');
      assert.equal(check(''), 'refused', 'unsigned');
      assert.equal(check(signed(now - 301)), 'refused', 'replayed after the window');
      assert.equal(check(signed(now).replace(/.$/, (last) => (last === '0' ? '1' : '0'))), 'refused', 'altered');
      assert.equal(check(signed(now, 'GET')), 'refused', 'signed for another method');
      assert.equal(check(signed(now), 'PUT', '{"sample":"QUJE"}'), 'refused', 'another body');

      // The receipt, redeemed through the service once.
      const redeemed = JSON.parse(run(['redeem', verified.json.receipt!]));
      assert.deepEqual([redeemed.sub, redeemed.mth], [user, 'otp']);
      assert.equal(JSON.parse(run(['redeem', verified.json.receipt!])).error.code, 'receipt_used');
    });
  }

  describe('Django', () => {
    let django: Process;
    let origin: string;
    before(async () => {
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      django = start('/usr/bin/python3', ['django/site.py', 'runserver', `127.0.0.1:${port}`, '--noreload'], app.dir, {
        ...site.secrets,
        SITE_SECRET: randomBytes(16).toString('hex'),
        SITE_DB: join(app.dir, 'django.sqlite3'),
      });
      await until(
        'Django to answer',
        async () => {
          if (django.child.exitCode !== null) throw new Error(django.output());
          return fetch(`${origin}/token`).then(
            () => true,
            () => false,
          );
        },
        30_000,
        100,
      );
    });
    after(() => django?.stop());

    it("the view mints the token from Django's session and user, and the service takes it", async () => {
      const signIn = await fetch(`${origin}/login?user=alice`);
      const cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const pk = await signIn.text();
      const bearer = await (await fetch(`${origin}/token`, { headers: { cookie } })).text();
      const claims = claimsOf(bearer);
      assert.deepEqual([claims.sub, claims.sid], [pk, /sessionid=([^;]+)/.exec(cookie)![1]]);
      const config = await fetch(`${site.origin}/api/verify/config`, { headers: { authorization: `Bearer ${bearer}` } });
      assert.equal(config.status, 200);
      // A visitor not signed in gets a guest's token, for a session Django starts.
      const guest = claimsOf(await (await fetch(`${origin}/token`)).text());
      assert.deepEqual([guest.sub, typeof guest.sid], [undefined, 'string']);
    });
  });
});
