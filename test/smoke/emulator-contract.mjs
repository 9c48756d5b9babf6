#!/usr/bin/env node
// Checks a running emulator against the service's interface with plain fetch and exactly the
// documented headers. Usage: node test/smoke/emulator-contract.mjs BASE_URL API_KEY
// (BASE_URL ends in /api/v2, as `npm start` prints it). Exits 1 on the first shape that differs.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';

const [baseUrl, apiKey] = process.argv.slice(2);
if (!baseUrl || !apiKey) {
  console.error('Usage: node test/smoke/emulator-contract.mjs BASE_URL API_KEY');
  process.exit(2);
}
const origin = new URL(baseUrl).origin;
const fixtures = new URL('../../../shared/fixtures/', import.meta.url);
const b64 = (path) => readFileSync(new URL(path, fixtures)).toString('base64');

async function call(path, body, key = apiKey) {
  const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
  if (key) headers['X-Authorization'] = key;
  const response = await fetch(`${baseUrl}/${path}`, { method: body ? 'POST' : 'GET', headers, body: body && JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

async function codeFor(to) {
  const { messages } = await (await fetch(`${origin}/__emulator/messages?to=${encodeURIComponent(to)}`)).json();
  return messages[0].code;
}

const checks = [];
const check = (name, run) => checks.push({ name, run });
const sent = { status: 200, body: { success: true, data: null, message: 'OTP sent successfully' } };
const failed = (res) => {
  assert.equal(res.status, 422);
  assert.equal(res.body.status, false);
  assert.equal(typeof res.body.message, 'string');
};

check('balance', async () => {
  const res = await call('balance');
  assert.equal(res.status, 200);
  assert.equal(res.body.success, true);
  assert.ok(typeof res.body.data.balance === 'number' || typeof res.body.data.balance === 'string');
});
check('send-otp sms', async () => assert.deepEqual(await call('send-otp', { method: 'sms', phone: '+966500000101' }), sent));
check('send-otp whatsapp', async () => assert.deepEqual(await call('send-otp', { method: 'whatsapp', phone: '+966500000102' }), sent));
check('send-otp email', async () => assert.deepEqual(await call('send-otp', { method: 'email', email: 'contract@example.com' }), sent));
check('send-otp with method omitted', async () => assert.deepEqual(await call('send-otp', { phone: '+966500000103' }), sent));
check('verify-otp right code', async () => {
  const res = await call('verify-otp', { phone: '+966500000101', otp: await codeFor('+966500000101') });
  // The text is the service's own (this script also runs against it): any non-empty string.
  assert.deepEqual({ status: res.status, keys: Object.keys(res.body).sort(), verified: res.body.status }, { status: 200, keys: ['message', 'status'], verified: true });
  assert.match(res.body.message, /\S/);
});
check('verify-otp reused code', async () => failed(await call('verify-otp', { phone: '+966500000101', otp: await codeFor('+966500000101') })));
check('verify-otp wrong code', async () => {
  const code = await codeFor('+966500000102');
  failed(await call('verify-otp', { phone: '+966500000102', otp: code === '000000' ? '111111' : '000000' }));
});
check('verify-otp expired code', async () => {
  await fetch(`${origin}/__emulator/clock`, { method: 'POST', body: JSON.stringify({ advanceSeconds: 3600 }) });
  failed(await call('verify-otp', { email: 'contract@example.com', otp: await codeFor('contract@example.com') }));
});
const face = (registered, query) => call('verify-by-face', { user_id: 'contract-user', registered_face_image: b64(registered), query_face_image: b64(query) });
check('verify-by-face same photo', async () => assert.deepEqual(await face('faces/obama_1.jpg', 'faces/obama_1.jpg'), { status: 200, body: { success: true, data: { user_id: 'contract-user', result: true } } }));
check('verify-by-face another person', async () => {
  const res = await face('faces/obama_1.jpg', 'faces/biden_1.jpg');
  // Documented: 200 with result false. Live quirks: 422 {success: false}.
  if (res.status === 200) assert.equal(res.body.data.result, false);
  else assert.deepEqual([res.status, res.body.success], [422, false]);
});
const voice = (registered, query) => call('verify-by-voice', { user_id: 'contract-user', registered_audio: b64(registered), query_audio: b64(query) });
check('verify-by-voice same recording', async () => assert.deepEqual(await voice('voices/spk1688_M_1_16k.wav', 'voices/spk1688_M_1_16k.wav'), { status: 200, body: { success: true, data: { user_id: 'contract-user', result: true } } }));
check('verify-by-voice another speaker', async () => {
  const res = await voice('voices/spk1688_M_1_16k.wav', 'voices/spk2033_M_1_16k.wav');
  assert.equal(res.status, 200);
  assert.equal(res.body.data.result, false);
});
check('401 without a key', async () => assert.deepEqual(await call('balance', undefined, null), { status: 401, body: { errors: [{ message: 'Unauthorized' }] } }));

let failures = 0;
for (const { name, run } of checks) {
  try {
    await run();
    console.log(`ok     ${name}`);
  } catch (error) {
    failures++;
    console.log(`FAILED ${name}: ${error.message.split('\n')[0]}`);
  }
}
console.log(`emulator contract: ${checks.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
