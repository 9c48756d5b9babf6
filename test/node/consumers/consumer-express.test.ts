import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { installApp, passOtp, startAppServer, visit, type App, type AppServer } from './consumer-apps.js';
import { cspViolations } from '../e2e/demo-browser.js';

// The quick start's page on two servers, each the file its docs show: Express, and Hono on Node.
const servers = [
  { name: 'express-app', title: 'an Express 5 server with express.json() mounted first', phone: '50 333 4455' },
  { name: 'hono-app', title: 'Hono on Node, the caller\u2019s address from getConnInfo', phone: '50 333 6677' },
];

for (const { name, title, phone } of servers) {
  describe(`${title}, and the quick start page, installed from the tarball`, () => {
    let app: App;
    let server: AppServer;
    let url: string;

    before(async () => {
      app = installApp(name);
      server = await startAppServer(app, ['server.mjs'], /listening on (\S+)/, { PORT: '0' });
      url = /listening on (\S+)/.exec(server.output())![1]!;
    });
    after(async () => {
      await server?.close();
      app?.remove();
    });

    it('signs in with a code: the page posts the receipt as JSON and the server checks it, once', async () => {
      const { page, errors, close } = await visit(url);
      try {
        const receipt = page.waitForResponse((r) => r.url().endsWith('/verify-otp')).then(async (r) => ((await r.json()) as { receipt: string }).receipt);
        await passOtp(page, server.emulatorOrigin, phone);
        await page.waitForFunction(() => document.getElementById('signed-in')?.textContent, { timeout: 15_000 });
        assert.equal(await page.$eval('#signed-in', (p) => p.textContent), 'signed in as demo-user');
        // The same receipt a second time, as a replaying attacker sends it: refused.
        const again = await fetch(`${url}login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: await receipt }) });
        assert.equal(again.status, 403);
        assert.deepEqual(errors, []);
        assert.deepEqual(await cspViolations(page), []);
      } finally {
        await close();
      }
    });

    it('answers a malformed body with a 400 and a reason, never a 500', async () => {
      const post = (body: string) => fetch(`${url}api/verify/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url.slice(0, -1) }, body });
      const missing = await post(JSON.stringify({ channel: 'sms' }));
      assert.equal(missing.status, 400);
      assert.ok(((await missing.json()) as { error: { message: string } }).error.message);
      // Malformed JSON: Express's parser refuses it before the handler sees it; under Hono the handler does.
      assert.equal((await post('{"channel":')).status, 400);
      const login = await fetch(`${url}login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"receipt":' });
      assert.ok(login.status >= 400 && login.status < 500, `login answered ${login.status}`);
    });

    if (name === 'express-app') {
      it('holds the handler\u2019s body cap with the parser in front', async () => {
        // Over the handler's 8 KB cap but under express.json()'s 100 KB: the handler's cap still holds.
        const large = await fetch(`${url}api/verify/send-otp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url.slice(0, -1) },
          body: JSON.stringify({ channel: 'sms', to: '+966500000000', padding: 'x'.repeat(20_000) }),
        });
        assert.equal(large.status, 413);
        assert.match(((await large.json()) as { error: { message: string } }).error.message, /8192 bytes/);
        assert.doesNotMatch(server.output(), /TypeError|disturbed|locked/);
      });
    }
  });
}
