/**
 * A user's install of the package with the face models beside it, as the Liveness page says
 * (`ONNXRUNTIME_NODE_INSTALL=skip npm install …`), with npm 11 (this machine's) and npm 10: the
 * install reaches nothing but the registry (onnxruntime-node's own script would fetch GPU files from
 * elsewhere and fail here), and the installed Node entry's face pool finds a face and judges its
 * pixels live, with the passive model's files and the JPEG decoder's from the package; and, as a
 * frame under the light challenge's colours, gives the colour grid the light's judge reads; and with
 * soundswallower beside it, a handler serving voice hears digits by default, and the recogniser
 * finds its model inside the installed package and hears them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES } from '../helpers.js';
import { sayDigits } from '../voice/spoken.js';
import { misheard } from '../../../src/server/liveness/digits.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'face-models-'));
after(() => rmSync(work, { recursive: true, force: true }));
const tarball = join(work, execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').at(-1)!);
const PEERS = ['@vladmandic/face-api@^1.7.15', '@tensorflow/tfjs@^4.22.0', '@tensorflow/tfjs-backend-wasm@^4.22.0', 'onnxruntime-node@^1.30.0', 'soundswallower@^0.6.3'];

// The user's own script: the Node entry's pool on a fixture's photo, then on the same as a frame
// under the light; a handler serving voice, which hears digits by default; and the Node entry's
// recogniser on a recording of eight digits, its model found inside the installed package.
const CHECK = `import { readFileSync } from 'node:fs';
import { createDigitListener, createFacePool, createVerifyHandler } from 'verify-widgets/server/node';
const pool = createFacePool({ workers: 1 });
const photo = readFileSync(process.argv[2]);
const { moves: [faces], light: [lit] } = await pool.observe({ moves: [photo], light: [photo] });
const handler = createVerifyHandler({ baseUrl: 'http://service.test', apiKey: 'k', receiptSecret: 'x'.repeat(32), getUser: () => 'u', allowedChannels: ['email'], getReference: () => null, saveReference: () => {}, liveness: pool });
const { voiceDigits } = await (await handler(new Request('http://app.test/config'))).json();
const listener = createDigitListener();
const heard = await listener.hear(readFileSync(process.argv[3]), 'en', 8);
console.log(JSON.stringify({ faces: faces.map((face) => ({ landmarks: face.landmarks.length, live: face.live })), grid: lit.map((face) => face.colours?.size), voiceDigits, heard }));
await Promise.all([pool.close(), listener.close()]);
`;
const DIGITS = '40718253';

describe('the face models and the digits\' recogniser installed beside the package, as a user does', { timeout: 600_000 }, () => {
  let spoken: Uint8Array;
  before(async () => (spoken = await sayDigits(DIGITS, 'slt')));
  for (const [name, npm] of [
    ['npm 11', ['npm']],
    ['npm 10', ['npx', '--yes', 'npm@10']],
  ] as const) {
    it(`with ${name}: installs from the registry alone, the pool judges a live face and one under the light, and the recogniser hears digits`, () => {
      const app = join(work, name.replace(' ', ''));
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
      writeFileSync(join(app, 'check.mjs'), CHECK);
      const [command, ...first] = npm;
      const version = execFileSync(command, [...first, '--version'], { cwd: app, encoding: 'utf8' }).trim();
      assert.equal(version.split('.')[0], name.split(' ')[1], `${name} runs (${version})`);
      execFileSync(command, [...first, 'install', tarball, ...PEERS, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
      writeFileSync(join(app, 'digits.wav'), spoken);
      const said = execFileSync(process.execPath, ['check.mjs', `${FIXTURES}faces/obama_1.jpg`, 'digits.wav'], { cwd: app, encoding: 'utf8' });
      const { faces, grid, voiceDigits, heard } = JSON.parse(said) as { faces: { landmarks: number; live: number }[]; grid: number[]; voiceDigits: boolean; heard: string };
      assert.equal(voiceDigits, true, 'a handler serving voice hears its digits by default');
      // Within the handler's tolerance (two), by the handler's own count: Flite's "four" is heard as "five" here.
      assert.ok(misheard(heard, DIGITS) <= 1, `heard ${heard} for ${DIGITS}`);
      assert.deepEqual(grid, [64], 'the colour grid of one face under the light');
      assert.equal(faces.length, 1);
      assert.equal(faces[0]!.landmarks, 68);
      assert.ok(faces[0]!.live > 0.9, `live ${faces[0]!.live}`);
    });
  }
});
