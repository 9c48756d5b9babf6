/**
 * A user's install of the package with the face models beside it, as the Liveness page says
 * (`ONNXRUNTIME_NODE_INSTALL=skip npm install …`), with npm 11 (this machine's) and npm 10: the
 * install reaches nothing but the registry (onnxruntime-node's own script would fetch GPU files from
 * elsewhere and fail here), and the installed Node entry's face pool finds a face and judges its
 * pixels live, with the passive model's files and the JPEG decoder's from the package; and, as a
 * frame under the light challenge's colours, gives the colour grid the light's judge reads.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES } from '../helpers.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'face-models-'));
after(() => rmSync(work, { recursive: true, force: true }));
const tarball = join(work, execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').at(-1)!);
const PEERS = ['@vladmandic/face-api@^1.7.15', '@tensorflow/tfjs@^4.22.0', '@tensorflow/tfjs-backend-wasm@^4.22.0', 'onnxruntime-node@^1.30.0'];

// The user's own script: the Node entry's pool on a fixture's photo, then on the same as a frame under the light.
const CHECK = `import { readFileSync } from 'node:fs';
import { createFacePool } from 'verify-widgets/server/node';
const pool = createFacePool({ workers: 1 });
const photo = readFileSync(process.argv[2]);
const { moves: [faces], light: [lit] } = await pool.observe({ moves: [photo], light: [photo] });
console.log(JSON.stringify({ faces: faces.map((face) => ({ landmarks: face.landmarks.length, live: face.live })), grid: lit.map((face) => face.colours?.size) }));
await pool.close();
`;

describe('the face models installed beside the package, as a user does', { timeout: 600_000 }, () => {
  for (const [name, npm] of [
    ['npm 11', ['npm']],
    ['npm 10', ['npx', '--yes', 'npm@10']],
  ] as const) {
    it(`with ${name}: installs from the registry alone, and the pool judges a live face, and one under the light`, () => {
      const app = join(work, name.replace(' ', ''));
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
      writeFileSync(join(app, 'check.mjs'), CHECK);
      const [command, ...first] = npm;
      const version = execFileSync(command, [...first, '--version'], { cwd: app, encoding: 'utf8' }).trim();
      assert.equal(version.split('.')[0], name.split(' ')[1], `${name} runs (${version})`);
      execFileSync(command, [...first, 'install', tarball, ...PEERS, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
      const { faces, grid } = JSON.parse(execFileSync(process.execPath, ['check.mjs', `${FIXTURES}faces/obama_1.jpg`], { cwd: app, encoding: 'utf8' })) as { faces: { landmarks: number; live: number }[]; grid: number[] };
      assert.deepEqual(grid, [64], 'the colour grid of one face under the light');
      assert.equal(faces.length, 1);
      assert.equal(faces[0]!.landmarks, 68);
      assert.ok(faces[0]!.live > 0.9, `live ${faces[0]!.live}`);
    });
  }
});
