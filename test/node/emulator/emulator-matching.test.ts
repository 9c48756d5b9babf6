/**
 * The emulator's comparisons on the shared fixtures: people, not files. Every same-person pair
 * matches, every cross-person pair does not, and the margin between the worst same-person score and
 * the best cross-person score is printed for the closing note.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compareFaces, decodeImage, FACE_MAX_DISTANCE } from '../../../src/emulator/face-compare.js';
import { faceEmbedder, loadFaceEmbedder, type FaceEmbedder } from '../../../src/emulator/face-model.js';
import { VOICE_MAX_DISTANCE, voiceDescriptor, voiceDistance, type VoiceDescriptor } from '../../../src/emulator/voice-compare.js';
import { decodeWav, toMono } from '../../../src/core/wav.js';
import { FIXTURES } from '../helpers.js';

const PEOPLE = ['obama', 'biden', 'rose_leslie', 'alex_lacamoire'];
const SPEAKERS = ['spk1688_M', 'spk1998_F', 'spk2033_M', 'spk3080_F'];

/** Every unordered pair of `names`, split by whether both belong to one person. */
function pairs(names: string[], person: (name: string) => string) {
  const all = names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as const));
  return { same: all.filter(([a, b]) => person(a) === person(b)), cross: all.filter(([a, b]) => person(a) !== person(b)) };
}
const person = (name: string) => name.replace(/_\d$/, '');
const image = (name: string) => decodeImage(readFileSync(`${FIXTURES}faces/${name}.jpg`), 'jpeg');

describe('emulator face comparison by embeddings, on the fixtures', () => {
  const samples = PEOPLE.flatMap((p) => [`${p}_1`, `${p}_2`]);
  const distances = new Map<string, number>();
  let embed: FaceEmbedder;

  before(async () => {
    const loaded = await faceEmbedder();
    assert.ok(loaded, 'the face recognition model loads from the installed packages');
    embed = loaded;
    const embeddings = new Map<string, Float32Array>();
    for (const name of samples) {
      const faces = await embed(image(name));
      assert.equal(faces.length, 1, `${name} holds one face`);
      embeddings.set(name, faces[0]!);
    }
    const { same, cross } = pairs(samples, person);
    for (const [a, b] of [...same, ...cross]) distances.set(`${a}|${b}`, Math.hypot(...embeddings.get(a)!.map((v, i) => v - embeddings.get(b)![i]!)));
  });

  const { same, cross } = pairs(samples, person);
  for (const [a, b] of same) it(`${a} and ${b}: a match`, () => assert.ok(distances.get(`${a}|${b}`)! <= FACE_MAX_DISTANCE, `distance ${distances.get(`${a}|${b}`)}`));
  it(`every cross-person pair (${cross.length}): no match, with a margin`, (t) => {
    for (const [a, b] of cross) assert.ok(distances.get(`${a}|${b}`)! > FACE_MAX_DISTANCE, `${a}/${b} distance ${distances.get(`${a}|${b}`)}`);
    const worstSame = Math.max(...same.map(([a, b]) => distances.get(`${a}|${b}`)!));
    const bestCross = Math.min(...cross.map(([a, b]) => distances.get(`${a}|${b}`)!));
    t.diagnostic(`face: worst same-person distance ${worstSame.toFixed(3)}, best cross-person ${bestCross.toFixed(3)}, threshold ${FACE_MAX_DISTANCE}, margin ${(bestCross - worstSame).toFixed(3)}`);
  });

  it('two_faces_obama_biden: two faces found, so no match, even with obama in it', async () => {
    assert.equal((await embed(image('two_faces_obama_biden'))).length, 2);
    assert.deepEqual(await compareFaces(image('obama_1'), image('two_faces_obama_biden'), embed), {
      match: false,
      problem: 'several-faces',
      detail: 'face embeddings, faces 1/2',
    });
  });

  for (const name of ['noface_coffee', 'noface_rocket']) {
    it(`${name}: no face found, so no match`, async () => {
      const compared = await compareFaces(image('obama_1'), image(name), embed);
      assert.equal(compared.match, false);
      assert.equal(compared.problem, 'no-face');
    });
  }
});

describe('emulator face comparison without the model', () => {
  it('says once why, and compares pictures: the same feed matches, another person does not', async (t) => {
    const warnings = t.mock.method(console, 'warn', () => {});
    const missing = ((id: string) => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    }) as unknown as NodeJS.Require;
    assert.equal(await loadFaceEmbedder(missing), null);
    assert.match(String(warnings.mock.calls[0]?.arguments[0]), /^Face recognition model unavailable \(Cannot find module '@vladmandic\/face-api\/dist\/face-api.node-wasm.js'\); comparing pictures instead\.$/);
    const same = await compareFaces(image('obama_1'), image('obama_1'), null);
    assert.equal(same.match, true);
    assert.match(same.detail, /^picture similarity 1\.000 \(no face model\)$/);
    assert.equal((await compareFaces(image('obama_1'), image('biden_1'), null)).match, false);
  });
});

describe('emulator voice comparison by speaker, across utterances, on the fixtures', () => {
  const recordings = SPEAKERS.flatMap((s) => [`${s}_1`, `${s}_2`]);
  const descriptor = (file: string) => {
    const audio = decodeWav(readFileSync(`${FIXTURES}${file}`));
    return voiceDescriptor(toMono(audio), audio.sampleRate);
  };
  // The 48 kHz recordings the fake microphone plays, and the 16 kHz ones a widget uploads.
  for (const [folder, suffix] of [['audio', '48k'], ['voices', '16k']] as const) {
    const descriptors = new Map<string, VoiceDescriptor>(recordings.map((name) => [name, descriptor(`${folder}/${name}_${suffix}.wav`)]));
    const distance = (a: string, b: string) => voiceDistance(descriptors.get(a)!, descriptors.get(b)!);
    const { same, cross } = pairs(recordings, person);

    for (const [a, b] of same) it(`${a} and ${b} (${suffix}): a match`, () => assert.ok(distance(a, b) <= VOICE_MAX_DISTANCE, `distance ${distance(a, b)}`));
    it(`every cross-speaker pair (${cross.length}, ${suffix}): no match, with a margin`, (t) => {
      for (const [a, b] of cross) assert.ok(distance(a, b) > VOICE_MAX_DISTANCE, `${a}/${b} distance ${distance(a, b)}`);
      const worstSame = Math.max(...same.map(([a, b]) => distance(a, b)));
      const bestCross = Math.min(...cross.map(([a, b]) => distance(a, b)));
      t.diagnostic(`voice ${suffix}: worst same-speaker distance ${worstSame.toFixed(3)}, best cross-speaker ${bestCross.toFixed(3)}, threshold ${VOICE_MAX_DISTANCE}, margin ${(bestCross - worstSame).toFixed(3)}`);
    });

    it(`noise and silence (${suffix}) match nobody, nor each other`, () => {
      const noise = descriptor(`${folder}/noise_ambient_${suffix}.wav`);
      const silence = descriptor(`${folder}/silence_${suffix}.wav`);
      for (const name of recordings) {
        assert.ok(voiceDistance(noise, descriptors.get(name)!) > VOICE_MAX_DISTANCE, `noise vs ${name}`);
        assert.equal(voiceDistance(silence, descriptors.get(name)!), Infinity);
      }
      assert.equal(voiceDistance(silence, silence), Infinity);
      assert.equal(voiceDistance(noise, silence), Infinity);
    });
  }
});
