// Loads one of `@vladmandic/face-api`'s networks from the weights its package ships, read from disk
// (the library's own loader fetches them by URL). Plain JavaScript with untyped arguments, so that
// the worker, and the tests that run a detector as the page does, share it without the optional
// package's types reaching the published declarations.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package's model folder, found through `require`. */
export const modelDirOf = (require) => join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');

/** Loads `net` from `<name>-weights_manifest.json` and its shards in `modelDir`. */
export function loadWeights(faceapi, net, modelDir, name) {
  const manifest = JSON.parse(readFileSync(join(modelDir, `${name}-weights_manifest.json`), 'utf8'));
  const bytes = Buffer.concat(manifest.flatMap((group) => group.paths.map((path) => readFileSync(join(modelDir, path)))));
  net.loadFromWeightMap(faceapi.tf.io.decodeWeights(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), manifest.flatMap((group) => group.weights)));
}
