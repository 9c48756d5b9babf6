// Two copies TensorFlow.js's WASM backend makes in JavaScript, a typed-array view per pixel, and
// which face-api asks of it on every frame: the mean subtraction's concatenation of three
// one-channel planes (24 ms a frame at the tiny detector's 320 px, 9 at the descriptor's 150) and
// the face's crop out of the picture (11 ms). These kernels copy the same values a run at a time,
// and hand every other case to the backend's own.
//
// Plain JavaScript, imported by face-worker.mjs.

/** @param {typeof import('@tensorflow/tfjs')} tf */
export function registerFasterCopies(tf) {
  override(tf, 'Concat', (args, own) => {
    const { inputs, backend, attrs } = args;
    const rank = inputs[0].shape.length;
    const axis = attrs.axis < 0 ? attrs.axis + rank : attrs.axis;
    // Only planes of one channel, side by side in the last axis: the case the backend copies a value at a time.
    if (inputs.length < 2 || axis !== rank - 1 || inputs.some((t) => t.dtype !== 'float32' || t.shape[axis] !== 1 || !sameOuter(t.shape, inputs[0].shape))) return own(args);
    const out = backend.makeOutput([...inputs[0].shape.slice(0, -1), inputs.length], 'float32');
    // After makeOutput, which may grow the WASM memory and detach views taken before it.
    const to = backend.typedArrayFromHeap(out);
    const from = inputs.map((t) => backend.typedArrayFromHeap(t));
    const n = from.length;
    for (let i = 0; i < n; i++) {
      const plane = from[i];
      for (let p = 0, o = i; p < plane.length; p++, o += n) to[o] = plane[p];
    }
    return out;
  });
  override(tf, 'Slice', (args, own) => {
    const { inputs: { x }, backend, attrs } = args;
    const [begin, size] = tf.slice_util.parseSliceParams(x, attrs.begin, attrs.size);
    // A box out of a picture, every channel: each of its rows is one run.
    if (x.shape.length !== 3 || x.dtype === 'string' || begin[2] !== 0 || size[2] !== x.shape[2]) return own(args);
    const out = backend.makeOutput(size, x.dtype);
    const to = backend.typedArrayFromHeap(out);
    const from = backend.typedArrayFromHeap(x);
    const [rowStride, pixel] = [x.shape[1] * x.shape[2], x.shape[2]];
    const run = size[1] * pixel;
    for (let row = 0; row < size[0]; row++) {
      const start = (begin[0] + row) * rowStride + begin[1] * pixel;
      to.set(from.subarray(start, start + run), row * run);
    }
    return out;
  });
}

function sameOuter(a, b) {
  return a.length === b.length && a.every((d, i) => i === a.length - 1 || d === b[i]);
}

function override(tf, kernelName, kernelFunc) {
  const own = tf.getKernel(kernelName, 'wasm');
  if (!own || own.faster) return;
  tf.unregisterKernel(kernelName, 'wasm');
  tf.registerKernel({ ...own, faster: true, kernelFunc: (args) => kernelFunc(args, own.kernelFunc) });
}
