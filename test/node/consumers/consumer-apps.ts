/** The consumer tests' common ground: a fresh app from test/consumers with the packed tarball installed, and the OTP flow as a person runs it. */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { DEVELOPMENT_KEY, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { openBrowser, press, untilStep } from '../e2e/demo-browser.js';
import { latestCode, solveNatively } from '../helpers.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

export const npm = (cwd: string, ...args: string[]) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });

export interface App {
  dir: string;
  remove(): void;
}

/** Copies test/consumers/`name` to a temporary folder and installs the package there from its tarball (built by `npm test` before these tests), as a user would. */
export function installApp(name: string): App {
  const work = mkdtempSync(join(tmpdir(), `${name}-`));
  const tarball = npm(repo, 'pack', '--ignore-scripts', '--pack-destination', work).trim().split('\n').at(-1)!;
  const dir = join(work, 'app');
  // Links are followed: the Hono app shares the Express app's page.
  cpSync(join(repo, 'test/consumers', name), dir, { recursive: true, dereference: true });
  npm(dir, 'install', join(work, tarball));
  return { dir, remove: () => rmSync(work, { recursive: true, force: true }) };
}

/** In the page's <otp-verify>: types the phone (Saudi, local digits), sends, and waits for the code step; answers the number in E.164. */
export async function sendCodeTo(page: Page, localPhone: string): Promise<string> {
  await page.waitForFunction(() => document.querySelector<any>('otp-verify')?.shadowRoot?.querySelector('#phone'), { timeout: 15_000 });
  const phone = await page.evaluateHandle(() => document.querySelector<any>('otp-verify').shadowRoot.querySelector('#phone'));
  await (phone as any).type(localPhone);
  await page.keyboard.press('Enter');
  await untilStep(page, 'otp-verify', 'code');
  return `+966${localPhone.replace(/\D/g, '').replace(/^0/, '')}`;
}

/** Types the code the emulator "sent" to `phone` into the page's <otp-verify>. */
export async function typeCodeFor(page: Page, emulatorOrigin: string, phone: string): Promise<void> {
  await page.keyboard.type(await latestCode(emulatorOrigin, phone), { delay: 20 });
}

/** In the page's <otp-verify>: sends a code to the phone, reads it from the emulator's outbox, types it, and waits for success. */
export async function passOtp(page: Page, emulatorOrigin: string, localPhone: string): Promise<void> {
  await typeCodeFor(page, emulatorOrigin, await sendCodeTo(page, localPhone));
  // A full code is sent at once when the handler knows the code length; otherwise the person presses Enter.
  if (await page.evaluate(() => document.querySelector<any>('otp-verify').step === 'code')) await page.keyboard.press('Enter');
  await untilStep(page, 'otp-verify', 'success');
}

/** In the page's <face-verify> (with `manual`): starts the camera, takes the photo, sends it, and waits for success. */
export async function faceFromCamera(page: Page, timeout?: number): Promise<void> {
  await press(page, 'face-verify', 'submit');
  await untilStep(page, 'face-verify', 'preview');
  await page.waitForFunction(() => document.querySelector<any>('face-verify').shadowRoot.querySelector('video')?.videoWidth > 0);
  await press(page, 'face-verify', 'shutter');
  await untilStep(page, 'face-verify', 'review');
  await press(page, 'face-verify', 'submit');
  await untilStep(page, 'face-verify', 'success', timeout);
}

/** A fresh Chromium on `url`, keeping every error the page logs from before it loads (React's hydration errors among them). */
export async function visit(url: string, chromiumArgs: string[] = []): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const browser = await openBrowser('about:blank', chromiumArgs);
  const errors: string[] = [];
  browser.page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  browser.page.on('pageerror', (error) => errors.push(String(error)));
  await browser.page.goto(url, { waitUntil: 'load' });
  return { ...browser, errors };
}

export interface AppServer {
  /** What the server printed so far, both streams. */
  output(): string;
  /** The emulator's origin, for its outbox. */
  emulatorOrigin: string;
  close(): Promise<void>;
}

/** What the instances of a fleet share: one service and one receipt secret. */
export interface FleetShare {
  emulator: RunningEmulator;
  secret: string;
}

/**
 * Starts the emulator (or takes a fleet's), then `node args` in the app's folder with the service's
 * address, key and a receipt secret in its environment (as a host passes its secrets), and waits
 * until it prints `ready`.
 */
export async function startAppServer(app: App, args: string[], ready: RegExp, env: Record<string, string> = {}, fleet?: FleetShare, command = process.execPath): Promise<AppServer> {
  const emulator = fleet?.emulator ?? (await startEmulator({ port: 0 }));
  const server = spawn(command, args, {
    cwd: app.dir,
    env: { ...process.env, ...env, SERVICE_BASE_URL: emulator.baseUrl, SERVICE_API_KEY: DEVELOPMENT_KEY, RECEIPT_SECRET: fleet?.secret ?? randomBytes(32).toString('hex') },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own, so that close ends what it started too (Deno's npm launcher runs the binary as a child).
    detached: true,
  });
  let output = '';
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  while (!ready.test(output)) await once(server.stdout!, 'data');
  return {
    output: () => output,
    emulatorOrigin: emulator.origin,
    close: async () => {
      const exited = server.exitCode === null && server.signalCode === null ? once(server, 'exit') : undefined;
      process.kill(-server.pid!, 'SIGTERM');
      await exited;
      if (!fleet) await emulator.close();
    },
  };
}

/** One instance of an app run as a fleet: the widget's calls, and the app's own check of a receipt. */
export interface AppInstance {
  call(route: string, body?: object): Promise<Response>;
  /** 'accepted', or why the app's server refused the receipt. */
  redeem(receipt: string): Promise<string>;
}

/** What an app's own receipt check answered (`{user}` or `{refused}`), as `redeem` reports it. */
export async function loginOutcome(response: Response): Promise<string> {
  const answer = (await response.json()) as { user?: string; refused?: string };
  return answer.user === 'demo-user' ? 'accepted' : answer.refused!;
}

/**
 * An app served at `origin`, as its page calls it: the widget's routes under `verifyPath`, and the
 * receipt checked by the app's own route at `login`, or by `redeem`.
 */
export function httpInstance(origin: string, verifyPath: string, login: string | AppInstance['redeem']): AppInstance {
  const post = (path: string, body: object) => fetch(`${origin}${path}`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return {
    call: (route, body) => (body ? post(`${verifyPath}/${route}`, body) : fetch(`${origin}${verifyPath}/${route}`)),
    redeem: typeof login === 'string' ? async (receipt) => loginOutcome(await post(login, { receipt })) : login,
  };
}

/** The origin a server printed as `listening on http://…/`. */
export const listeningOrigin = (server: AppServer) => /listening on (http:\/\/[^/\s]+)/.exec(server.output())![1]!;

/**
 * One person's OTP flow on a fleet of three, each call landing on the next instance: the cooldown,
 * the code, the receipt's single use, the wrong-code cap and the session's send cap each hold
 * across them as on one. Phones are Saudi mobiles in E.164, one per flow; the cap is reached with
 * numbers made from the second (its last two digits 40-61). The session can send no more for an hour.
 */
export async function roundRobinFlow(fleet: AppInstance[], emulatorOrigin: string, [phone, capped]: [string, string]): Promise<void> {
  let turn = 0;
  const next = () => fleet[turn++ % fleet.length]!;
  // A proof of work asked for (these sends come from one address) is solved, and the request sent
  // again to the next instance: a challenge from one is claimed on another.
  const call = async (route: string, body: object): Promise<{ status: number; json: any }> => {
    const response = await next().call(route, body);
    const json = await response.json();
    if (response.status !== 428) return { status: response.status, json };
    return call(route, { ...body, altcha: (await solveNatively(json.error.challenge)).altcha });
  };
  const sent = await call('send-otp', { method: 'sms', phone, lang: 'en' });
  assert.equal(sent.status, 200, JSON.stringify(sent.json));
  const again = await call('send-otp', { method: 'sms', phone, lang: 'en' });
  assert.equal(again.json.alreadySent, true, 'the cooldown started on one instance holds on the next');
  const otp = await latestCode(emulatorOrigin, phone);
  const wrong = otp.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));
  assert.equal((await call('verify-otp', { otp: wrong })).json.error?.code, 'wrong_code');
  const verified = await call('verify-otp', { otp });
  assert.equal(verified.status, 200, JSON.stringify(verified.json));
  const outcomes = [];
  for (const instance of fleet) outcomes.push(await instance.redeem(verified.json.receipt));
  assert.deepEqual(outcomes, ['accepted', 'replayed', 'replayed']);

  assert.equal((await call('send-otp', { method: 'sms', phone: capped, lang: 'en' })).status, 200);
  const cappedCode = await latestCode(emulatorOrigin, capped);
  // Five different wrong codes: the same one typed again is answered without being counted.
  const cappedWrong = (shift: number) => cappedCode.replace(/\d/g, (digit) => String((Number(digit) + shift) % 10));
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push((await call('verify-otp', { otp: cappedWrong(i + 1) })).json.error?.code);
  assert.deepEqual(answers, ['wrong_code', 'wrong_code', 'wrong_code', 'wrong_code', 'too_many_attempts']);

  // The session's cap on sends (10 an hour, to any numbers): reached on one instance, held on the others.
  const statuses: number[] = [];
  for (let i = 0; i < 12 && !statuses.includes(429); i++) statuses.push((await call('send-otp', { method: 'sms', phone: `${capped.slice(0, -2)}${40 + i}`, lang: 'en' })).status);
  assert.equal(statuses.at(-1), 429, `sends until the cap: ${statuses}`);
  assert.ok(statuses.slice(0, -1).every((status) => status === 200), `sends until the cap: ${statuses}`);
  for (let i = 0; i < fleet.length - 1; i++) assert.equal((await call('send-otp', { method: 'sms', phone: `${capped.slice(0, -2)}${60 + i}`, lang: 'en' })).status, 429);
}
