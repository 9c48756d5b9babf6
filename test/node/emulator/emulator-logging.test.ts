import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callService, cameraCapture, latestCode, microphoneCapture } from '../helpers.js';

const CLI = fileURLToPath(new URL('../../../src/emulator/cli.ts', import.meta.url));
const SECRET = 'sk-live-4f9a8c2e7b1d';

describe('emulator CLI: what it prints', () => {
  let child: ChildProcess;
  let output = '';
  let baseUrl = '';
  let origin = '';

  before(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--key', SECRET], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    while (!/Service base URL: (\S+)/.test(output)) await once(child.stdout!, 'data');
    baseUrl = /Service base URL: (\S+)/.exec(output)![1]!;
    origin = new URL(baseUrl).origin;
  });
  after(() => child.kill());

  it('logs requests without the key, any code, or base64 media', async () => {
    const codes: string[] = [];
    for (const phone of ['+966501000001', '+966501000002']) {
      await callService(baseUrl, 'send-otp', { method: 'sms', phone }, SECRET);
      codes.push(await latestCode(origin, phone));
    }
    await callService(baseUrl, 'verify-otp', { phone: '+966501000001', otp: codes[0] }, SECRET);
    await callService(baseUrl, 'verify-otp', { phone: '+966501000002', otp: '000000' }, SECRET);
    await callService(baseUrl, 'send-otp', { method: 'sms', phone: '+966501000003', otp: '918273' }, SECRET);
    codes.push('918273');
    const image = cameraCapture('obama_1');
    const audio = microphoneCapture('spk1688_M_1');
    await callService(baseUrl, 'verify-by-face', { user_id: 'u', registered_face_image: image, query_face_image: image }, SECRET);
    await callService(baseUrl, 'verify-by-voice', { user_id: 'u', registered_audio: audio, query_audio: audio }, SECRET);
    // Which comparison ran is in the log line: the face model's distance and the faces found.
    while (!/verify-by-voice 200/.test(output)) await once(child.stdout!, 'data');
    assert.match(output, /POST \/api\/v2\/verify-by-face 200 [\d.]+ms face embedding distance 0\.\d+, faces 1\/1 -> match/);
    assert.match(output, /POST \/api\/v2\/verify-by-voice 200 [\d.]+ms voice distance 0\.\d+ -> match/);
    // Failures must not quote what they refuse either.
    await callService(baseUrl, 'verify-by-face', { user_id: 'u', registered_face_image: image, query_face_image: `data:${image}` }, SECRET);
    await callService(baseUrl, 'balance', undefined, `${SECRET}-wrong`);

    // Wait for the last request's log line.
    while (!/GET \/api\/v2\/balance 401/.test(output)) await once(child.stdout!, 'data');

    const lines = output.split('\n');
    const log = lines.filter((l) => l.startsWith('[emulator]'));
    assert.ok(log.length >= 9, `expected a log line per request, got ${log.length}`);
    const outboxLines = lines.filter((l) => l.startsWith('[outbox]'));
    assert.equal(outboxLines.length, 3);

    const media = [image, audio].map((b64) => b64.slice(1000, 1040));
    for (const line of lines) {
      assert.ok(!line.includes(SECRET), `the key leaked: ${line}`);
      for (const fragment of media) assert.ok(!line.includes(fragment), `media leaked: ${line.slice(0, 80)}`);
    }
    // The outbox is the simulated phone screen, so only it shows codes; the request log never does.
    for (const line of log) for (const code of codes) assert.ok(!line.includes(code), `a code leaked: ${line}`);
    assert.ok(outboxLines.every((line, i) => line.includes(codes[i]!)));
  });

  it('prints only the count of keys it was given, and the development key only when it is the default', () => {
    assert.match(output, /API keys: 1 configured/);
    assert.doesNotMatch(output, /dev-key-verify-widgets/);
  });
});

describe('emulator CLI: quirks one by one, and an account\u2019s templates from the settings file', () => {
  it('starts with the quirks named and the catalogue given, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-settings-'));
    const config = join(dir, 'settings.json');
    const templates = [
      { id: 31, language: 'en', text: 'Acme: {code} is your code.' },
      { id: '7', language: 'ar', text: 'أكمي: رمزك {code}' },
    ];
    writeFileSync(config, JSON.stringify({ templates }));
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--config', config, '--quirk', 'string-balance,face-422', '--quirk', 'terse-otp-failure'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    try {
      while (!/Service base URL: (\S+)/.test(output)) await once(child.stdout!, 'data');
      const baseUrl = /Service base URL: (\S+)/.exec(output)![1]!;
      assert.match(output, /Live quirks: string-balance, face-422, terse-otp-failure\n/);
      // No key given: the development key is the default, and printed for the developer to use.
      assert.match(output, /API key: dev-key-verify-widgets\n/);
      assert.equal((await callService(baseUrl, 'balance', undefined, 'dev-key-verify-widgets')).json.data.balance, '100.00');
      for (const [templateId, text] of [[31, /^Acme: \d{6} is your code\.$/], ['7', /^أكمي: رمزك \d{6}$/]] as const) {
        const sent = await callService(baseUrl, 'send-otp', { method: 'email', email: `t${templateId}@example.com`, template_id: templateId }, 'dev-key-verify-widgets');
        assert.equal(sent.status, 200);
        const { messages } = await (await fetch(`${new URL(baseUrl).origin}/__emulator/messages?to=t${templateId}@example.com`)).json();
        assert.match(messages[0].text, text);
      }
      const unknown = await callService(baseUrl, 'send-otp', { method: 'email', email: 'a@example.com', template_id: 1 }, 'dev-key-verify-widgets');
      assert.equal(unknown.json.errors[0].field, 'template_id');
    } finally {
      child.kill();
    }
  });

  it('refuses an unknown quirk by name, listing the known ones', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--quirk', 'string-balance,fast'], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown quirk "fast"; known: redirect-without-accept, string-balance, face-422, terse-otp-failure, string-result/);
  });
});
