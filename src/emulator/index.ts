/**
 * A local implementation of the service's interface for development, demos and tests. Its face
 * and voice comparisons are development-grade and claim no biometric accuracy.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../server/node/index.js';
import type { FetchHandler } from '../core/http.js';
import { createEmulatorHandler } from './app.js';
import { resolveSettings, type SettingsInput } from './settings.js';
import { EmulatorState } from './state.js';
import type { OutboxMessage } from './outbox.js';

export { DEFAULT_SETTINGS, DEVELOPMENT_KEY, type EmulatorSettings, type SettingsInput, type CostedOperation } from './settings.js';
export type { OutboxMessage } from './outbox.js';
export type { Fault, FaultKind } from './faults.js';
export { TEMPLATES, TEMPLATE_IDS, type Template } from './templates.js';
export { EmulatorState } from './state.js';

export interface EmulatorOptions extends SettingsInput {
  /** Receives one line per request; never a body, key, code or media. Silent by default. */
  log?: (line: string) => void;
}

export interface Emulator {
  handler: FetchHandler;
  state: EmulatorState;
  /** Ends hung requests; the emulator answers nothing after it. */
  close(): void;
}

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const { log = () => {}, ...overrides } = options;
  const state = new EmulatorState(resolveSettings(overrides));
  const closing = new AbortController();
  return { handler: createEmulatorHandler(state, log, closing.signal), state, close: () => closing.abort() };
}

export interface RunningEmulator extends Emulator {
  /** Origin, such as http://127.0.0.1:8790. */
  origin: string;
  /** The service base URL, ending in /api/v2. */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions & { port?: number; host?: string } = {}): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const emulator = createEmulator(rest);
  const server = createServer(toNodeListener(emulator.handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    ...emulator,
    origin,
    baseUrl: `${origin}/api/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        emulator.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One line for a console outbox: the simulated phone or mailbox screen, so it shows the code. */
export function formatOutboxMessage(m: OutboxMessage): string {
  return `[outbox] ${m.channel}${m.fallback ? ' (fallback)' : ''} to ${m.to}, template ${m.templateId} (${m.language}): ${m.text}`;
}
