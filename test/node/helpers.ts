/** Fixtures and HTTP helpers for the Node tests. Media comes from ../shared/fixtures, never copied. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import { decodeWav, encodeWav, toMono } from '../../src/core/wav.js';
import { solveChallenge, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { SignJWT } from 'jose';

export const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
export const KEY = 'test-key';

/**
 * A session token as a site mints it (demo/pages/any-backend.md), living 10 minutes: a guest's
 * unless `claims` has a `sub`; a claim given as undefined is left out.
 */
export async function sessionToken(secret: string, claims: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const all: Record<string, unknown> = { aud: 'verify-widgets', iat: now, exp: now + 600, ...claims };
  for (const name of Object.keys(all)) if (all[name] === undefined) delete all[name];
  return new SignJWT(all).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/** The JPEG frames of an MJPEG fixture (concatenated JPEGs). */
export function mjpegFrames(name: string): Buffer[] {
  const bytes = readFileSync(`${FIXTURES}video/${name}.mjpeg`);
  const frames: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length - 1; i++) {
    if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) {
      frames.push(bytes.subarray(start, i + 2));
      start = i + 2;
    }
  }
  return frames;
}

/** What a widget would upload from a camera fed by this fixture: a frame, rescaled and re-encoded. */
export function cameraCapture(name: string, width = 480, quality = 70): string {
  const frames = mjpegFrames(name);
  const source = jpeg.decode(frames[frames.length - 1]!, { useTArray: true });
  const height = Math.round((source.height * width) / source.width);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (Math.floor((y * source.height) / height) * source.width + Math.floor((x * source.width) / width)) * 4;
      data.set(source.data.subarray(from, from + 4), (y * width + x) * 4);
    }
  }
  return Buffer.from(jpeg.encode({ data, width, height }, quality).data).toString('base64');
}

export function stillImage(name: string): string {
  return readFileSync(`${FIXTURES}faces/${name}.jpg`).toString('base64');
}

/**
 * What a widget would upload from a microphone fed by a looping 48 kHz fixture: `seconds` of audio
 * starting `offset` of the way in, reduced to 16 kHz mono (3-sample average as a crude low-pass).
 */
export function microphoneCapture(name: string, seconds = 6, offset = 0.37): string {
  const mono = toMono(decodeWav(readFileSync(`${FIXTURES}audio/${name}_48k.wav`)));
  const start = Math.floor(mono.length * offset);
  const out = new Float32Array(seconds * 16000);
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let k = 0; k < 3; k++) sum += mono[(start + i * 3 + k) % mono.length]!;
    out[i] = sum / 3;
  }
  return Buffer.from(encodeWav(out, 16000)).toString('base64');
}

export function voiceFile(name: string): string {
  return readFileSync(`${FIXTURES}voices/${name}_16k.wav`).toString('base64');
}

/** A plain fetch with exactly the interface's headers. */
export async function callService(baseUrl: string, path: string, body?: object, key: string | null = KEY, accept = true) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (accept) headers.Accept = 'application/json';
  if (key !== null) headers['X-Authorization'] = key;
  const response = await fetch(`${baseUrl}/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** A port nobody listens on at this moment, for a server that cannot be told port 0. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

export async function latestCode(origin: string, to: string): Promise<string> {
  const response = await fetch(`${origin}/__emulator/messages?to=${encodeURIComponent(to)}`);
  const { messages } = (await response.json()) as { messages: { code: string }[] };
  if (!messages[0]) throw new Error(`no message to ${to}`);
  return messages[0].code;
}

export async function control(origin: string, method: string, path: string, body?: object) {
  const response = await fetch(`${origin}/__emulator/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  return response.status === 204 ? undefined : response.json();
}

/**
 * Polls `check` until it answers true, failing after `timeoutMs` with what it was waiting for: a
 * test waits for the state, not for the clock. Answers the milliseconds it took.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000, everyMs = 25): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((done) => setTimeout(done, everyMs));
  }
  return performance.now() - start;
}

/** The `altcha` field of a request, as the widget sends it: base64 JSON of the challenge and a solution. */
export const altchaPayload = (challenge: unknown, solution: unknown) => btoa(JSON.stringify({ challenge, solution }));

/** A challenge the handler asked for, solved natively (altcha-lib), as a crowd's scripts would: the solution and the field. */
export async function solveNatively(challenge: Challenge): Promise<{ solution: Solution; altcha: string }> {
  const solution = (await solveChallenge({ challenge, deriveKey }))!;
  return { solution, altcha: altchaPayload(challenge, solution) };
}

/** Listens on a free loopback port; answers the server's origin. */
export async function listen(server: import('node:http').Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
}
