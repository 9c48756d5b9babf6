/**
 * Issue 31, item 4: on a platform that runs many instances, a handler given no store refuses to
 * start, naming the store to use there and how to choose memory anyway; elsewhere memory stays the
 * default. Each platform is recognised by the marker it documents.
 */
import { afterEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createVerifyHandler, MemoryStore, type VerifyHandlerOptions } from '../../../src/server/index.js';
import { KEY } from '../helpers.js';
import { ORIGIN, SECRET } from './handler-setup.js';

const OPTIONS: VerifyHandlerOptions = { baseUrl: 'http://127.0.0.1:9', apiKey: KEY, receiptSecret: SECRET, getUser: () => null, allowedChannels: ['email'] };

/** Sets a global for one test; `undefined` removes it. */
const globals: [string, PropertyDescriptor | undefined][] = [];
function setGlobal(name: string, value: unknown) {
  globals.push([name, Object.getOwnPropertyDescriptor(globalThis, name)]);
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}
const envs: [string, string | undefined][] = [];
function setEnv(name: string, value: string) {
  envs.push([name, process.env[name]]);
  process.env[name] = value;
}
afterEach(() => {
  for (const [name, descriptor] of globals.splice(0).reverse()) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete (globalThis as Record<string, unknown>)[name];
  }
  for (const [name, value] of envs.splice(0).reverse()) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const MARKERS: { marker: string; platform: RegExp; store: RegExp; set(): void }[] = [
  { marker: 'VERCEL=1', platform: /on Vercel/, store: /UpstashStore/, set: () => setEnv('VERCEL', '1') },
  { marker: 'globalThis.EdgeRuntime', platform: /on an Edge runtime/, store: /UpstashStore/, set: () => setGlobal('EdgeRuntime', 'edge-runtime') },
  { marker: 'navigator.userAgent Cloudflare-Workers', platform: /on Cloudflare Workers/, store: /DurableObjectStore \(new DurableObjectStore\(env\.VERIFY_STORE\)/, set: () => setGlobal('navigator', { userAgent: 'Cloudflare-Workers' }) },
  { marker: 'NETLIFY=true', platform: /on Netlify/, store: /UpstashStore/, set: () => setEnv('NETLIFY', 'true') },
  { marker: 'globalThis.Netlify', platform: /on Netlify/, store: /UpstashStore/, set: () => setGlobal('Netlify', { env: {} }) },
  { marker: 'AWS_LAMBDA_FUNCTION_NAME', platform: /on AWS Lambda/, store: /RedisStore .* or UpstashStore/, set: () => setEnv('AWS_LAMBDA_FUNCTION_NAME', 'verify') },
  { marker: 'Deno.env DENO_DEPLOYMENT_ID', platform: /on Deno Deploy/, store: /UpstashStore/, set: () => setGlobal('Deno', { env: { get: (name: string) => (name === 'DENO_DEPLOYMENT_ID' ? 'abc123' : undefined) } }) },
  { marker: 'K_SERVICE', platform: /on Google Cloud Run/, store: /RedisStore .* or UpstashStore/, set: () => setEnv('K_SERVICE', 'verify') },
];

describe('a handler with no store, on a platform of many instances', () => {
  for (const marker of MARKERS) {
    it(`${marker.marker}: refuses to start, naming the store and the opt-in`, () => {
      marker.set();
      assert.throws(() => createVerifyHandler(OPTIONS), (error: Error) => {
        assert.equal(error.name, 'TypeError');
        assert.match(error.message, /no store given/);
        assert.match(error.message, marker.platform);
        assert.match(error.message, marker.store);
        assert.match(error.message, /one instance only\), say so: store: new MemoryStore\(\)/);
        return true;
      });
      // Chosen in so many words, memory is allowed.
      assert.equal(typeof createVerifyHandler({ ...OPTIONS, store: new MemoryStore() }), 'function');
    });
  }

  it('given its options lazily (as in Next.js), answers 503 and says why in the log', async () => {
    setEnv('VERCEL', '1');
    const error = mock.method(console, 'error', () => {});
    try {
      const handler = createVerifyHandler(() => OPTIONS);
      const res = await handler(new Request(`${ORIGIN}/config`, { headers: { origin: ORIGIN } }));
      assert.equal(res.status, 503);
      assert.match(String(error.mock.calls[0]?.arguments[0]), /its options were refused: verify handler: no store given, on Vercel/);
    } finally {
      error.mock.restore();
    }
  });

  it('elsewhere (no marker), memory stays the default', async () => {
    for (const name of ['VERCEL', 'NETLIFY', 'AWS_LAMBDA_FUNCTION_NAME', 'DENO_DEPLOYMENT_ID', 'K_SERVICE']) assert.equal(process.env[name], undefined, name);
    const handler = createVerifyHandler(OPTIONS);
    const res = await handler(new Request(`${ORIGIN}/config`, { headers: { origin: ORIGIN } }));
    assert.equal(res.status, 200);
  });
});
