// The passive check on each face: MiniFASNet (Silent-Face-Anti-Spoofing, minivision-ai,
// Apache-2.0), two small networks trained to tell a live face from a print or a screen by its
// pixels (moiré, a screen's edge and glare, paper's colour), run with onnxruntime-node. Their ONNX
// files are made from the published weights by models/minifasnet/export.py and ship in the package.
//
// Each network looks at the face with its surroundings: one at 2.7 times the face's box, one at 4
// times, cropped as the models were trained (the box scaled about its centre, slid back inside the
// picture, resized to 80 x 80 without smoothing, BGR, 0-255). The answer is the mean of the two
// networks' "real" probability. Plain JavaScript, for the face worker.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SIZE = 80;
/** Each network, with how far around the face's box it looks. */
const NETWORKS = [
  { file: 'minifasnet-v2-2.7.onnx', scale: 2.7 },
  { file: 'minifasnet-v1se-4.0.onnx', scale: 4 },
];
/** Where the files are: beside the built worker (dist/models), or in the repository, from the source. */
const FOLDERS = ['../models/', '../../../models/minifasnet/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

export async function loadPrintScreenModel() {
  const ort = createRequire(import.meta.url)('onnxruntime-node');
  const folder = FOLDERS.find((path) => existsSync(`${path}${NETWORKS[0].file}`));
  if (!folder) throw new Error(`the print and screen model's files are missing (looked in ${FOLDERS.join(', ')})`);
  // One thread each: the pool runs one worker per core, and each check is one face at a time.
  const options = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' };
  const sessions = await Promise.all(NETWORKS.map(({ file }) => ort.InferenceSession.create(`${folder}${file}`, options)));
  /**
   * How likely each face is live, 0 to 1, from its detector box ({x, y, width, height}).
   * @param {{data: Uint8Array, width: number, height: number}} image RGBA
   * @param {{x: number, y: number, width: number, height: number}[]} boxes
   */
  return async (image, boxes) => {
    if (!boxes.length) return [];
    const scores = new Float64Array(boxes.length);
    for (const [n, { scale }] of NETWORKS.entries()) {
      const input = new Float32Array(boxes.length * 3 * SIZE * SIZE);
      boxes.forEach((box, i) => crop(image, box, scale, input.subarray(i * 3 * SIZE * SIZE)));
      const { logits } = await sessions[n].run({ input: new ort.Tensor('float32', input, [boxes.length, 3, SIZE, SIZE]) });
      for (let i = 0; i < boxes.length; i++) scores[i] += softmax(logits.data.subarray(i * 3, i * 3 + 3))[1] / NETWORKS.length;
    }
    return Array.from(scores);
  };
}

function softmax(logits) {
  const top = Math.max(...logits);
  const exps = Array.from(logits, (value) => Math.exp(value - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}

/** The region the network was trained on, as its training code cut it: whole pixels, the box slid inside the picture. */
function cropRegion(width, height, box, scale) {
  const fit = Math.min((height - 1) / box.height, (width - 1) / box.width, scale);
  const [w, h] = [box.width * fit, box.height * fit];
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  let [x0, y0, x1, y1] = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
  if (x0 < 0) [x1, x0] = [x1 - x0, 0];
  if (y0 < 0) [y1, y0] = [y1 - y0, 0];
  if (x1 > width - 1) [x0, x1] = [x0 - (x1 - width + 1), width - 1];
  if (y1 > height - 1) [y0, y1] = [y0 - (y1 - height + 1), height - 1];
  return { x: Math.trunc(x0), y: Math.trunc(y0), width: Math.trunc(x1) - Math.trunc(x0) + 1, height: Math.trunc(y1) - Math.trunc(y0) + 1 };
}

/** The crop resized to 80 x 80 by bilinear sampling at pixel centres (no smoothing), into `out` as B, G, R planes. */
function crop(image, box, scale, out) {
  const region = cropRegion(image.width, image.height, box, scale);
  const [sx, sy] = [region.width / SIZE, region.height / SIZE];
  const plane = SIZE * SIZE;
  for (let v = 0; v < SIZE; v++) {
    const fy = Math.min(Math.max((v + 0.5) * sy - 0.5, 0), region.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, region.height - 1);
    const wy = fy - y0;
    for (let u = 0; u < SIZE; u++) {
      const fx = Math.min(Math.max((u + 0.5) * sx - 0.5, 0), region.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, region.width - 1);
      const wx = fx - x0;
      const at = (x, y) => ((region.y + y) * image.width + region.x + x) * 4;
      const [a, b, c, d] = [at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1)];
      for (let channel = 0; channel < 3; channel++) {
        const top = image.data[a + channel] * (1 - wx) + image.data[b + channel] * wx;
        const bottom = image.data[c + channel] * (1 - wx) + image.data[d + channel] * wx;
        // RGB in, BGR out: channel 0 (red) goes to the third plane.
        out[(2 - channel) * plane + v * SIZE + u] = top * (1 - wy) + bottom * wy;
      }
    }
  }
}
