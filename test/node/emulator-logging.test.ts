import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { callService, cameraCapture, latestCode, microphoneCapture } from './helpers.js';

const CLI = fileURLToPath(new URL('../../src/emulator/cli.ts', import.meta.url));
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
  });
});
