import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

// Runs the built demo as `npm start` does (after `npm run build`), then checks it as a user would.
describe('demo server (npm start)', () => {
  let child: ChildProcess;
  let output = '';
  const printed = (pattern: RegExp) => pattern.exec(output)?.[1] ?? '';

  before(async () => {
    child = spawn(process.execPath, ['demo/server.mjs'], { cwd: root, env: { ...process.env, PORT: '0', EMULATOR_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    while (!/API key: \S+/.test(output)) await once(child.stdout!, 'data');
  });
  after(() => child.kill());

  it('serves the page with a place for each widget and the outbox', async () => {
    const html = await (await fetch(printed(/demo: (\S+)/))).text();
    for (const name of ['otp-verify', 'face-verify', 'voice-verify']) assert.ok(html.includes(`data-widget="${name}"`), name);
    assert.match(html, /id="outbox"/);
  });

  it('answers the interface shapes to a plain fetch script using the printed URL and key', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      'test/smoke/emulator-contract.mjs',
      printed(/Emulator \(service base URL\): (\S+)/),
      printed(/API key: (\S+)/),
    ], { cwd: root });
    assert.match(stdout, /emulator contract: 14 passed, 0 failed/);
  });

  it('goes browser -> handler -> emulator, and the host accepts the receipt once', async () => {
    const page = printed(/demo: (\S+)/);
    const origin = new URL(page).origin;
    const jar: string[] = [];
    const remember = (response: Response) => jar.push(...response.headers.getSetCookie().map((c) => c.split(';')[0]!));
    const ask = async (path: string, body?: object) => {
      const response = await fetch(`${origin}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { cookie: jar.join('; '), origin, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      });
      remember(response);
      return response.json();
    };
    remember(await fetch(page));
    await ask('/demo/user', { user: 'sara' });
    assert.deepEqual((await ask('/api/verify/config')).enrolled, { face: false, voice: false });
    assert.equal((await ask('/api/verify/send-otp', { method: 'email', email: 'sara@example.com' })).sent, true);
    const { messages } = await ask('/__emulator/messages?to=sara%40example.com');
    const { receipt } = await ask('/api/verify/verify-otp', { email: 'sara@example.com', otp: messages[0].code });
    const accepted = await ask('/demo/receipt', { receipt, method: 'otp' });
    assert.equal(accepted.accepted, true);
    assert.equal(accepted.claims.sub, 'sara');
    assert.deepEqual(await ask('/demo/receipt', { receipt, method: 'otp' }), { accepted: false, reason: 'replayed' });
  });

  it('passes outbox messages through to the page, live', async () => {
    const page = printed(/demo: (\S+)/);
    const stream = await fetch(`${page}__emulator/messages/stream`);
    const reader = stream.body!.getReader();
    await reader.read(); // the stream's opening comment
    const base = printed(/Emulator \(service base URL\): (\S+)/);
    await fetch(`${base}/send-otp`, {
      method: 'POST',
      headers: { 'X-Authorization': printed(/API key: (\S+)/), Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'email', email: 'live@example.com' }),
    });
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /"to":"live@example.com"/);
    await reader.cancel();
  });
});

describe('package bin (verify-widgets-emulator)', () => {
  it('is the built CLI, and prints its usage', async () => {
    const pkg = JSON.parse(await (await import('node:fs/promises')).readFile(`${root}package.json`, 'utf8'));
    const { stdout } = await promisify(execFile)(process.execPath, [pkg.bin['verify-widgets-emulator'], '--help'], { cwd: root });
    assert.match(stdout, /Usage: verify-widgets-emulator/);
    assert.match(stdout, /--quirks/);
  });
});
