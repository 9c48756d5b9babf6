/**
 * The handler is runtime-neutral: its bundled import graph (the package's `server` entry, as a
 * bundler for an edge runtime resolves it) holds no Node module, and it runs a whole OTP flow in
 * Vercel's Edge VM (@edge-runtime/vm: Web APIs only, no `require`, no `process`), in front of a real
 * emulator, issuing a receipt that the VM and Node both check.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EdgeVM } from '@edge-runtime/vm';
import { jwtVerify } from 'jose';
import { startEmulator } from '../../../src/emulator/index.js';
import { KEY } from '../helpers.js';
import { bundleForEdge } from './edge-bundle.js';

const SECRET = 'edge-receipt-secret-0123456789abcdef';

describe('the handler on an edge runtime', () => {
  it('bundles with no Node built-in in its import graph', async () => {
    const { inputs } = await bundleForEdge();
    assert.ok(inputs.some((i) => i.includes('dist/server/index.js')));
    assert.deepEqual(inputs.filter((i) => /^node:|node-adapter|\/node\.js$/.test(i)), []);
  });

  it('runs an OTP flow in the Edge VM: send, the code from the outbox, verify, a receipt checked there and in Node', async () => {
    const emu = await startEmulator({ apiKeys: [KEY] });
    try {
      const { code } = await bundleForEdge();
      const vm = new EdgeVM();
      vm.evaluate(code);
      vm.evaluate(`
        const { createVerifyHandler, MemoryStore, verifyReceipt } = VerifyServer;
        const store = new MemoryStore();
        const handler = createVerifyHandler({
          baseUrl: ${JSON.stringify(emu.baseUrl)},
          apiKey: ${JSON.stringify(KEY)},
          basePath: '/api/verify',
          receiptSecret: ${JSON.stringify(SECRET)},
          allowedChannels: ['email'],
          store,
          getUser: () => 'sara',
          getClientIp: () => '203.0.113.7',
        });
        globalThis.call = async (route, body) => {
          const response = await handler(new Request('https://shop.example/api/verify/' + route, {
            method: body ? 'POST' : 'GET',
            headers: { origin: 'https://shop.example', 'content-type': 'application/json' },
            body: body ? JSON.stringify(body) : undefined,
          }));
          return { status: response.status, json: await response.json() };
        };
        globalThis.check = (receipt) => verifyReceipt(receipt, { secret: ${JSON.stringify(SECRET)}, store, user: 'sara', method: 'otp' });
      `);
      const call = vm.evaluate('call') as (route: string, body?: unknown) => Promise<{ status: number; json: any }>;
      // Nothing of Node is reachable from in there.
      assert.equal(vm.evaluate('typeof require + typeof process + typeof Buffer'), 'undefinedundefinedundefined');
      const sent = await call('send-otp', { method: 'email', email: 'sara@example.com' });
      assert.equal(sent.status, 200, JSON.stringify(sent.json));
      const [message] = emu.state.outbox.list('sara@example.com') as { code: string }[];
      const verified = await call('verify-otp', { email: 'sara@example.com', otp: message!.code });
      assert.equal(verified.status, 200, JSON.stringify(verified.json));
      const { receipt } = verified.json as { receipt: string };
      const { payload } = await jwtVerify(receipt, new TextEncoder().encode(SECRET), { algorithms: ['HS256'] });
      assert.deepEqual([payload.sub, payload.mth], ['sara', 'otp']);
      const claims = (await (vm.evaluate('check') as (r: string) => Promise<{ sub: string }>)(receipt)) as { sub: string };
      assert.equal(claims.sub, 'sara');
      await assert.rejects((vm.evaluate('check') as (r: string) => Promise<unknown>)(receipt), (error: { reason?: string }) => error.reason === 'replayed');
    } finally {
      await emu.close();
    }
  });
});
