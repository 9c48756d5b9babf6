import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { installApp, passOtp, startAppServer, visit, type App, type AppServer } from './consumer-apps.js';
import { cspViolations } from '../e2e/demo-browser.js';

describe('an Express 5 server with express.json() mounted first, and the quick start page, installed from the tarball', () => {
  let app: App;
  let server: AppServer;
  let url: string;

  before(async () => {
    app = installApp('express-app');
    server = await startAppServer(app, ['server.mjs'], /listening on (\S+)/, { PORT: '0' });
    url = /listening on (\S+)/.exec(server.output())![1]!;
  });
  after(async () => {
    await server?.close();
    app?.remove();
  });

  it('signs in with a code: the page posts the receipt as JSON and the server checks it', async () => {
    const { page, errors, close } = await visit(url);
    try {
      await passOtp(page, server.emulatorOrigin, '50 333 4455');
      await page.waitForFunction(() => document.getElementById('signed-in')?.textContent, { timeout: 15_000 });
      assert.equal(await page.$eval('#signed-in', (p) => p.textContent), 'signed in as demo-user');
      assert.deepEqual(errors, []);
      assert.deepEqual(await cspViolations(page), []);
    } finally {
      await close();
    }
  });

  it('answers bad bodies with a 4xx and a reason, never a 500, with the parser in front', async () => {
    const post = (body: string) => fetch(`${url}api/verify/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url.slice(0, -1) }, body });
    // Over the handler's 8 KB cap but under express.json()'s 100 KB: the handler's cap still holds.
    const large = await post(JSON.stringify({ channel: 'sms', to: '+966500000000', padding: 'x'.repeat(20_000) }));
    assert.equal(large.status, 413);
    assert.match(((await large.json()) as { error: { message: string } }).error.message, /8192 bytes/);
    const missing = await post(JSON.stringify({ channel: 'sms' }));
    assert.equal(missing.status, 400);
    // Malformed JSON is refused by express.json() itself, before the handler sees it.
    assert.equal((await post('{"channel":')).status, 400);
    assert.doesNotMatch(server.output(), /TypeError|disturbed|locked/);
  });
});
