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

/** Both started (after `npm run build`); `stop()` ends both. */
export async function startEmulatorAndHandler() {
  const emulator = await start([here('../../dist/emulator/cli.js'), '--port', '0', '--quiet', '--no-outbox'], /Service base URL: (\S+)/);
  const handler = await start([here('./handler-server.mjs'), emulator.url, KEY], /handler (\S+)/);
  return {
    emulatorUrl: emulator.url,
    handlerUrl: handler.url,
    stop() {
      emulator.child.kill();
      handler.child.kill();
    },
  };
}
