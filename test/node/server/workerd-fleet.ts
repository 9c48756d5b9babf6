/**
 * Handler Workers on DurableObjectStore in workerd (Miniflare): a store Worker exporting the
 * Durable Objects, and `count` handler Workers binding them, each its own isolate. For the Durable
 * Objects tests and benchmark.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { KEY } from '../helpers.js';
import { ORIGIN, SECRET } from './handler-setup.js';
import { FLEET_LIMITS } from './store-suites.js';

const COMPATIBILITY_DATE = '2025-09-01';

/** A Worker's script as Wrangler would bundle it: one ES module, no Node built-in to lean on. */
async function bundle(name: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./workers/${name}.js`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser', 'import', 'default'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export interface WorkerFleet {
  fetch(instance: number, path: string, init?: RequestInit): Promise<Response>;
  /** workerd started again on the same options, as a deploy restarts every isolate and object; the objects' storage stays. */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

/** The store Worker and `count` handler Workers, each binding the store's Durable Objects. */
export async function startWorkers(count: number, serviceBaseUrl: string, prefix: string): Promise<WorkerFleet> {
  const [store, handler] = await Promise.all([bundle('store-worker'), bundle('fleet-worker')]);
  const names = Array.from({ length: count }, (_, i) => `instance${i}`);
  const options = {
    workers: [
      { name: 'store', modules: true, script: store, compatibilityDate: COMPATIBILITY_DATE, durableObjects: { VERIFY_STORE: 'VerifyStoreObject' } },
      ...names.map((name) => ({
        name,
        // dispatchFetch routes by host: http://instance<i>/ reaches that Worker.
        routes: [`${name}/*`],
        modules: true,
        script: handler,
        compatibilityDate: COMPATIBILITY_DATE,
        bindings: { SERVICE_BASE_URL: serviceBaseUrl, SERVICE_API_KEY: KEY, RECEIPT_SECRET: SECRET, PREFIX: prefix, ORIGIN, LIMITS: JSON.stringify(FLEET_LIMITS) },
        durableObjects: { VERIFY_STORE: { className: 'VerifyStoreObject', scriptName: 'store' } },
      })),
    ],
  };
  const mf = new Miniflare(options);
  await mf.ready;
  return {
    fetch: async (instance, path, init) => (await mf.dispatchFetch(`http://instance${instance}${path}`, init as never)) as unknown as Response,
    restart: () => mf.setOptions(options),
    dispose: () => mf.dispose(),
  };
}

