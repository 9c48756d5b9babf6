#!/usr/bin/env node
// What one face or voice comparison costs the emulator, through its HTTP interface (decoding
// included): the largest fixtures, a 2 MB image (the size cap), and a 30 s recording (the length
// cap). Run after `npm run build`; prints a table, fails nothing.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import { startEmulator, DEVELOPMENT_KEY } from '../../dist/emulator/index.js';

const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const still = (name) => readFileSync(`${FIXTURES}faces/${name}.jpg`);
const recording = (name) => readFileSync(`${FIXTURES}audio/${name}_48k.wav`);

/** A 4096 x 4096 JPEG (the side cap) of the best quality under `maxBytes` (the size cap), made from a fixture. */
function largeJpeg(name, maxBytes, side = 4096) {
  const source = jpeg.decode(still(name), { useTArray: true });
  const data = new Uint8Array(side * side * 4);
  for (let y = 0; y < side; y++) {
    const row = Math.floor((y * source.height) / side) * source.width;
    for (let x = 0; x < side; x++) {
      const from = (row + Math.floor((x * source.width) / side)) * 4;
      data.set(source.data.subarray(from, from + 4), (y * side + x) * 4);
    }
  }
  for (let quality = 95; quality > 50; quality -= 1) {
    const bytes = Buffer.from(jpeg.encode({ data, width: side, height: side }, quality).data);
    if (bytes.length <= maxBytes) return { bytes, width: side, height: side, quality };
  }
  throw new Error('no quality fits');
}

/** A 30 s recording: a fixture repeated, as a long reading would be. */
function longWav(name, seconds) {
  const wav = recording(name);
  const pcm = wav.subarray(44);
  const bytesPerSecond = wav.readUInt32LE(28);
  const body = Buffer.alloc(seconds * bytesPerSecond);
  for (let at = 0; at < body.length; at += pcm.length) pcm.copy(body, at, 0, Math.min(pcm.length, body.length - at));
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + body.length, 4);
  header.writeUInt32LE(body.length, 40);
  return Buffer.concat([header, body]);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function time(emulator, route, body) {
  const started = performance.now();
  const response = await fetch(`${emulator.baseUrl}/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-authorization': DEVELOPMENT_KEY },
    body: JSON.stringify({ user_id: 'bench', ...body }),
  });
  const answer = await response.json();
  if (response.status !== 200) throw new Error(`${route} answered ${response.status}: ${JSON.stringify(answer)}`);
  return performance.now() - started;
}

const large = largeJpeg('rose_leslie_1', 2 * 1024 * 1024);
const face = (a, b) => ({ registered_face_image: a.toString('base64'), query_face_image: b.toString('base64') });
const voice = (a, b) => ({ registered_audio: a.toString('base64'), query_audio: b.toString('base64') });
const cases = [
  ['face, biden_1 (1000x1000) vs alex_lacamoire_1 (728x1000)', 'verify-by-face', face(still('biden_1'), still('alex_lacamoire_1'))],
  [`face, a ${(large.bytes.length / 2 ** 20).toFixed(2)} MB ${large.width}x${large.height} JPEG (quality ${large.quality}) vs rose_leslie_2`, 'verify-by-face', face(large.bytes, still('rose_leslie_2'))],
  ['voice, spk1998_F_2 (6.4 s) vs spk1998_F_1 (6.0 s), 48 kHz', 'verify-by-voice', voice(recording('spk1998_F_2'), recording('spk1998_F_1'))],
  ['voice, 30 s vs 30 s at 48 kHz (the length cap)', 'verify-by-voice', voice(longWav('spk2033_M_1', 30), longWav('spk2033_M_2', 30))],
];

const rows = [];
for (const faceModel of [true, false]) {
  const emulator = await startEmulator({ port: 0, faceModel, startingBalance: 1e6 });
  try {
    const label = faceModel ? 'face model' : 'pictures only';
    // The first face comparison loads the model: its own row.
    if (faceModel) rows.push([`face, first comparison (loads the model)`, await time(emulator, 'verify-by-face', face(still('obama_1'), still('obama_2'))), 1]);
    for (const [name, route, body] of cases) {
      if (!faceModel && route !== 'verify-by-face') continue;
      const times = [];
      for (let i = 0; i < runs; i++) times.push(await time(emulator, route, body));
      rows.push([route === 'verify-by-face' ? `${name} [${label}]` : name, median(times), runs]);
    }
  } finally {
    await emulator.close();
  }
}
const width = Math.max(...rows.map(([name]) => name.length));
console.log(`${'comparison'.padEnd(width)}  median ms  runs`);
for (const [name, ms, n] of rows) console.log(`${name.padEnd(width)}  ${ms.toFixed(0).padStart(9)}  ${String(n).padStart(4)}`);
