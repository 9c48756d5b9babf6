// The emulator and the bench's host handler (handler-server.mjs), each in a process of its own,
// so that the client measuring them shares no event loop with them.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const KEY = 'dev-key-verify-widgets';
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

async function start(args, pattern) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  while (!pattern.test(output)) await once(child.stdout, 'data');
  return { child, url: pattern.exec(output)[1] };
}

/**
 * Both started (after `npm run build`), the handler on `store` (see handler-server.mjs); with `baselines`, beside them the bare proxies (fetch, http.request) and the
 * handler of the runtime-neutral entry (Node's fetch, Web Crypto). `stop()` ends them all.
 */
/** The emulator, built, in a process of its own: its face model does not share the measured event loop. */
export function startEmulatorProcess({ faceModel = true } = {}) {
  return start([here('../../dist/emulator/cli.js'), '--port', '0', '--quiet', '--no-outbox', ...(faceModel ? [] : ['--no-face-model'])], /Service base URL: (\S+)/);
}

/** The handler with its live check (liveness-server.mjs), built, in a process of its own, calling `emulatorUrl`. */
export function startLivenessHandler(emulatorUrl, { light = false } = {}) {
  return start([here('./liveness-server.mjs'), emulatorUrl, KEY, ...(light ? ['light'] : [])], /handler (\S+)/);
}

export async function startEmulatorAndHandler({ baselines = false, store = 'memory' } = {}) {
  const emulator = await startEmulatorProcess();
  const handler = await start([here('./handler-server.mjs'), emulator.url, KEY, 'node', store], /handler (\S+)/);
  const others = baselines
    ? {
        bare: await start([here('./bare-proxy.mjs'), emulator.url, KEY, 'fetch'], /bare proxy (\S+)/),
        bareHttp: await start([here('./bare-proxy.mjs'), emulator.url, KEY, 'http'], /bare proxy (\S+)/),
        core: await start([here('./handler-server.mjs'), emulator.url, KEY, 'core'], /handler (\S+)/),
      }
    : {};
  return {
    emulatorUrl: emulator.url,
    handlerUrl: handler.url,
    bareProxyUrl: others.bare?.url,
    bareHttpProxyUrl: others.bareHttp?.url,
    coreHandlerUrl: others.core?.url,
    stop() {
      for (const started of [emulator, handler, ...Object.values(others)]) started.child.kill();
    },
  };
}
