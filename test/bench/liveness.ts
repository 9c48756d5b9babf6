/**
 * The liveness check's cost, on the site's server as it runs (liveness-server.mjs: the built
 * handler and its face pool, in a process of its own): CPU per check on one core with the models
 * warm (budget: at most 0.5 s), the server's memory with them loaded (at most 400 MB), and, with 20
 * checks sent at once, how late its event loop runs and how long an OTP send through the same
 * handler takes meanwhile (budget: lag under 50 ms). Figures, not a test. After `npm run build`:
 * `node --import tsx test/bench/liveness.ts [checks]`.
 */
import { availableParallelism } from 'node:os';
// @ts-expect-error: a JavaScript module of the benchmarks, without types.
import { startEmulatorProcess, startLivenessHandler } from './processes.mjs';
import { createFacePool } from '../../src/server/node/index.js';
import type { LivenessChallenge, VoiceChallenge } from '../../src/core/protocol.js';
import { CHALLENGE_MOVES } from '../../src/server/liveness/judge.js';
import { presenter } from '../node/liveness/live-capture.js';
import { sayDigits } from '../node/voice/spoken.js';

const checks = Number(process.argv[2] ?? 20);
// The service stands in without its face model: its face-api comparisons, one at a time on its
// event loop, would make the 20 at once wait on the emulator (the handler's 10 s deadline answered
// some 504) rather than measure the site's server.
const emu = await startEmulatorProcess({ faceModel: false });
// The site's server: the built handler and its face pool, alone in its process.
const site = await startLivenessHandler(emu.url);
/** The server's own bench routes (liveness-server.mjs), beside its handler's. */
const bench = (route: 'stats' | 'lag', url = site.url) => fetch(url.replace(/\/verify$/, `/__bench/${route}`));
const stats = async (url = site.url) => (await (await bench('stats', url)).json()) as { before: number; rss: number; cpuMs: number; lagP99Ms: number; lagMaxMs: number };
const call = async (route: string, body: object | string, user: string, session: string, url = site.url) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${url}/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(url).origin, 'x-user': user, 'x-session': session }, body: text });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
// The bench's own pool places the person's landmarks on their photo, then is closed.
const drawing = createFacePool({ workers: 1 });
const person = await presenter(drawing, 'obama_1');

// The person's answers, drawn and written as JSON before anything is measured: drawing a head, and
// writing its film's frames, are the browser's work, not the server's.
const answers = new Map<string, string>();
/** The film answering `moves`, as the JSON members after the nonce. */
const answerTo = (moves: string[]) => (answers.get(moves.join()) ?? '{}').slice(1, -1);
for (const a of CHALLENGE_MOVES) for (const b of CHALLENGE_MOVES) if (a !== b) answers.set(`${a},${b}`, JSON.stringify(person.answer([a, b])));

let enrolled = false;
/** A call's status, with the refusal's reason where it gives one: "422 light_not_seen". */
const outcome = ({ status, json }: { status: number; json: Record<string, any> }) => (json.error?.reason ? `${status} ${json.error.reason}` : String(status));

/** One live verification: a challenge, then its frames; the CPU the workers spent on its frames. */
async function check(i: number): Promise<{ status: string; cpuMs: number; ms: number }> {
  const session = `s${i}`;
  const { nonce, moves } = (await call('liveness-challenge', {}, 'obama', session)).json as LivenessChallenge;
  const started = performance.now();
  const body = `{"nonce":${JSON.stringify(nonce)},${answerTo(moves)}}`;
  const status = outcome(await call(enrolled ? 'verify-by-face' : 'enroll-face', body, 'obama', session));
  enrolled ||= status === '200';
  return { status, cpuMs: (await stats()).cpuMs, ms: performance.now() - started };
}

// Warm: the models load in each worker on its first check.
for (let i = 0; i < 4; i++) await check(i);
const alone: number[] = [];
for (let i = 0; i < 9; i++) alone.push((await check(100 + i)).cpuMs);
/** How many answered each status: "19 x 200, 1 x 504". */
const answered = (statuses: string[]) => [...new Set(statuses)].map((status) => `${statuses.filter((s) => s === status).length} x ${status}`).join(', ');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await bench('lag');
const sends: number[] = [];
let running = true;
const sender = (async () => {
  for (let i = 0; running; i++) {
    const started = performance.now();
    await call('send-otp', { method: 'email', email: `bench${i}@example.test` }, '', `otp${i}`);
    sends.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
const started = performance.now();
const results = await Promise.all(Array.from({ length: checks }, (_, i) => check(1000 + i)));
const wall = performance.now() - started;
running = false;
await sender;
const server = await stats();
const film = JSON.parse(`{${answerTo(['left', 'up'])}}`) as { video: string[] };
console.log(`${checks} checks at once, each a challenge and its film, ${film.video.length} frames of 480 x 360 (${(film.video.reduce((sum, frame) => sum + frame.length, 0) / 1024).toFixed(0)} KB of base64 uploaded), on ${availableParallelism() - 1 || 1} worker thread(s)`);
console.log(`CPU per check, models warm (budget <= 500 ms on one core): median ${median(alone).toFixed(0)} ms (${alone.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`${checks} at once: answered ${answered(results.map((r) => r.status))} in ${(wall / 1000).toFixed(1)} s; slowest ${Math.max(...results.map((r) => r.ms)).toFixed(0)} ms`);
console.log(`meanwhile, the server's event loop: lag p99 ${server.lagP99Ms.toFixed(1)} ms, max ${server.lagMaxMs.toFixed(1)} ms (budget < 50 ms); ${sends.length} OTP sends, p50 ${median(sends).toFixed(1)} ms, max ${Math.max(...sends).toFixed(1)} ms`);
console.log(`the server's memory with the models loaded: RSS ${(server.rss / 2 ** 20).toFixed(0)} MB (budget <= 400 MB), of which ${(server.before / 2 ** 20).toFixed(0)} MB before its face pool started`);
// The same server serves voices, their digits heard by default (the Node entry's recogniser, loaded
// on the first recording): its memory once a voice has registered too.
const { nonce: voiceNonce, digits } = (await call('voice-challenge', { lang: 'en' }, 'obama', 'voice')).json as VoiceChallenge;
const voice = await call('enroll-voice', { audio: Buffer.from(await sayDigits(digits, 'slt')).toString('base64'), nonce: voiceNonce }, 'obama', 'voice');
console.log(`with a voice registered too (${outcome(voice)}), the digits' recogniser loaded beside the face models: RSS ${((await stats()).rss / 2 ** 20).toFixed(0)} MB`);
site.child.kill();

// The light challenge's own cost: the same person through a second server with `livenessLight`,
// answering the movements and eight frames of 320 x 240 under the colours, one check at a time.
const lit = await startLivenessHandler(emu.url, { light: true });
async function checkLit(i: number): Promise<{ status: string; cpuMs: number }> {
  const session = `l${i}`;
  const { nonce, moves, light } = (await call('liveness-challenge', {}, 'obama', session, lit.url)).json as Required<LivenessChallenge>;
  const body = `{"nonce":${JSON.stringify(nonce)},${answerTo(moves)},"lit":${JSON.stringify(person.lit(light.colours))}}`;
  const status = outcome(await call(i ? 'verify-by-face' : 'enroll-face', body, 'obama', session, lit.url));
  return { status, cpuMs: (await stats(lit.url)).cpuMs };
}
const withLight: number[] = [];
const statuses: string[] = [];
for (let i = 0; i < 13; i++) {
  const { status, cpuMs } = await checkLit(i);
  statuses.push(status);
  if (i >= 4) withLight.push(cpuMs);
}
console.log(`with the light challenge (livenessLight): CPU per check median ${median(withLight).toFixed(0)} ms (${withLight.map((v) => v.toFixed(0)).join(', ')}; answered ${answered(statuses)}), the light's own share ${(median(withLight) - median(alone)).toFixed(0)} ms`);
// Its judge reads the colour grids on the event loop: 20 checks with the light at once.
await bench('lag', lit.url);
const litAtOnce = await Promise.all(Array.from({ length: checks }, (_, i) => checkLit(1000 + i)));
const litServer = await stats(lit.url);
console.log(`${checks} with the light at once: answered ${answered(litAtOnce.map((r) => r.status))}; the event loop's lag p99 ${litServer.lagP99Ms.toFixed(1)} ms, max ${litServer.lagMaxMs.toFixed(1)} ms (budget < 50 ms); RSS ${(litServer.rss / 2 ** 20).toFixed(0)} MB`);
await drawing.close();
lit.child.kill();
emu.child.kill();
