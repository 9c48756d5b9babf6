/**
 * The face worker's own Concat and Slice kernels for TensorFlow.js's WASM backend must give the
 * backend's values exactly, in the cases they take and in those they hand back.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
// @ts-expect-error: a JavaScript module of the Node entry, without types.
import { registerFasterCopies } from '../../../src/server/node/tfjs-wasm-copies.mjs';

const require = createRequire(import.meta.url);
const tf = require('@tensorflow/tfjs') as typeof import('@tensorflow/tfjs');
require('@tensorflow/tfjs-backend-wasm');

/** Distinct values, so that a value copied to the wrong place shows. */
const counting = (shape: number[]) => tf.tensor(Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i * 0.5 - 7), shape);

const cases: Array<[string, () => import('@tensorflow/tfjs').Tensor]> = [
  // face-api's mean subtraction: three planes of one channel.
  ['three planes of one channel', () => tf.concat([tf.fill([1, 17, 23, 1], 117), counting([1, 17, 23, 1]), tf.fill([1, 17, 23, 1], 97.4)], 3)],
  ['planes of two channels (handed back)', () => tf.concat([counting([1, 5, 7, 2]), counting([1, 5, 7, 2])], 3)],
  ['along another axis (handed back)', () => tf.concat([counting([4, 3]), counting([2, 3])], 0)],
  // extractFaceTensors: a face's box out of the picture, every channel.
  ['a box, every channel', () => tf.slice(counting([31, 29, 3]), [4, 6, 0], [20, 11, 3])],
  ['a box reaching the edges', () => tf.slice(counting([31, 29, 3]), [0, 0, 0], [31, 29, 3])],
  ['one channel of a box (handed back)', () => tf.slice(counting([31, 29, 3]), [4, 6, 1], [20, 11, 1])],
  ['rank 2 (handed back)', () => tf.slice(counting([9, 8]), [2, 1], [3, 4])],
];

describe('the face worker\'s copies on the WASM backend', () => {
  const expected = new Map<string, { shape: number[]; values: Float32Array }>();
  before(async () => {
    await tf.setBackend('wasm');
    await tf.ready();
    for (const [name, make] of cases) {
      const t = make();
      expected.set(name, { shape: t.shape, values: t.dataSync() as Float32Array });
    }
    registerFasterCopies(tf);
  });

  for (const [name, make] of cases) {
    it(`${name}: the backend's own values`, () => {
      const t = make();
      assert.deepEqual(t.shape, expected.get(name)!.shape);
      assert.deepEqual(Array.from(t.dataSync()), Array.from(expected.get(name)!.values));
    });
  }

  it('registered once, however often it is asked', () => {
    registerFasterCopies(tf);
    assert.equal((tf.getKernel('Concat', 'wasm') as unknown as { faster?: boolean }).faster, true);
    assert.deepEqual(Array.from(tf.concat([tf.ones([1, 2, 1]), tf.zeros([1, 2, 1])], 2).dataSync()), [1, 0, 1, 0]);
  });
});
