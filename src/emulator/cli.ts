#!/usr/bin/env node
/** `verify-widgets-emulator`: runs the emulator on loopback with settings from flags or a JSON file. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEVELOPMENT_KEY, formatOutboxMessage, startEmulator, type SettingsInput } from './index.js';
import { OTP_CHANNELS, type OtpChannel } from '../core/protocol.js';
import type { CostedOperation } from './settings.js';
import { QUIRKS } from './quirks.js';

const HELP = `Usage: verify-widgets-emulator [options]

A local, development-only implementation of the authentication service's interface.

  --port N                 port (default 8790; 0 picks a free one)
  --host ADDR              address to listen on (default 127.0.0.1)
  --config FILE            JSON file with settings (flags override it)
  --key KEY                an accepted API key (repeatable; default ${DEVELOPMENT_KEY})
  --default-channel C      sms, whatsapp, email or none (default sms)
  --fallback-channel C     email or none (default email)
  --otp-length N           4 to 8 (default 6)
  --otp-ttl SECONDS        code lifetime (default 300)
  --max-attempts N         wrong codes before a code locks (default 5)
  --balance N              starting credits (default 100)
  --cost OP=N              credits per operation: sms, whatsapp, email, face, voice (repeatable)
  --undeliverable PHONE    a number whose SMS/WhatsApp fails, to show the fallback (repeatable)
  --quirk LIST             reproduce some of the live service's observed behaviours, by name
                           (comma-separated or repeated): ${QUIRKS.join(', ')};
                           "live" for the most recently observed mix (all but string-result)
  --quirks                 every quirk at once
  --no-face-model          compare pictures instead of faces (starts faster; matches only the
                           same picture or camera feed)
  --quiet                  no request log
  --no-outbox              do not print sent messages
  -h, --help               this text`;

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    config: { type: 'string' },
    key: { type: 'string', multiple: true },
    'default-channel': { type: 'string' },
    'fallback-channel': { type: 'string' },
    'otp-length': { type: 'string' },
    'otp-ttl': { type: 'string' },
    'max-attempts': { type: 'string' },
    balance: { type: 'string' },
    cost: { type: 'string', multiple: true },
    undeliverable: { type: 'string', multiple: true },
    quirk: { type: 'string', multiple: true },
    quirks: { type: 'boolean' },
    'no-face-model': { type: 'boolean' },
    quiet: { type: 'boolean' },
    'no-outbox': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

function fail(message: string): never {
  console.error(`verify-widgets-emulator: ${message}\n\n${HELP}`);
  process.exit(2);
}

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) fail(`--${flag} takes a number, not "${value}"`);
  return n;
}

function channel<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  if (!allowed.includes(value as T)) fail(`--${flag} takes ${allowed.join(', ')} or none`);
  return value as T;
}

if (values.help) {
  console.log(HELP);
  process.exit(0);
}

let fromFile: SettingsInput = {};
if (values.config) {
  try {
    fromFile = JSON.parse(readFileSync(values.config, 'utf8'));
  } catch (error) {
    fail(`cannot read ${values.config}: ${(error as Error).message}`);
  }
}

const costs: Partial<Record<CostedOperation, number>> = { ...fromFile.costs };
for (const entry of values.cost ?? []) {
  const [op, amount] = entry.split('=');
  if (!op || !['sms', 'whatsapp', 'email', 'face', 'voice'].includes(op)) fail(`--cost takes OP=N, not "${entry}"`);
  costs[op as CostedOperation] = number('cost', amount);
}

const flags: SettingsInput = {
  apiKeys: values.key,
  defaultChannel: channel<OtpChannel>('default-channel', values['default-channel'], OTP_CHANNELS),
  fallbackChannel: channel('fallback-channel', values['fallback-channel'], ['email'] as const),
  otpLength: number('otp-length', values['otp-length']),
  otpTtlSeconds: number('otp-ttl', values['otp-ttl']),
  maxAttempts: number('max-attempts', values['max-attempts']),
  startingBalance: number('balance', values.balance),
  undeliverable: values.undeliverable,
  quirks: values.quirks || values.quirk,
  faceModel: values['no-face-model'] ? false : undefined,
};
const settings = { ...fromFile, ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)), costs };

try {
  const emulator = await startEmulator({
    ...settings,
    port: number('port', values.port) ?? 8790,
    host: values.host,
    log: values.quiet ? undefined : (line) => console.log(`[emulator] ${line}`),
  });
  if (!values['no-outbox']) emulator.state.outbox.subscribe((m) => console.log(formatOutboxMessage(m)));
  const { apiKeys: keys, quirks } = emulator.state.settings;
  // Print the development key so it can be pasted; a key the user chose is theirs to keep private.
  const keyLine = keys.length === 1 && keys[0] === DEVELOPMENT_KEY ? `API key: ${DEVELOPMENT_KEY}` : `API keys: ${keys.length} configured`;
  console.log(`verify-widgets emulator (development only; comparisons are not biometric)
Service base URL: ${emulator.baseUrl}
${keyLine}
Outbox: ${emulator.origin}/__emulator/messages${quirks.length ? `\nLive quirks: ${quirks.join(', ')}` : ''}`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  fail((error as Error).message);
}
