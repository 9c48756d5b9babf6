// JPEG decoding for the face worker: mozjpeg compiled to WebAssembly (@jsquash/jpeg, Apache-2.0;
// libjpeg-turbo's and mozjpeg's code under their BSD-style licences), a quarter of the pure
// JavaScript decoder's time (5.7 ms against 21.9 for a 640 x 480 frame, 1.4 against 6.3 for the
// light's 320 x 240): about 70 ms of a check's CPU. Its binary ships beside the ONNX files in
// dist/models (rollup.config.mjs copies it); from the source it is read from node_modules.
//
// The handler has read every picture's size from its header before it reaches the pool
// (media-sniff.ts), so nothing larger than its limits is decoded here. A picture the library
// cannot read throws and leaves the decoder as it was. One it reads with a warning ("Premature end
// of JPEG file", "Corrupt JPEG data") is refused too: libjpeg fills what it could not read with
// grey, and those are not the pixels the camera sent. Plain JavaScript, for the face worker.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import decode, { init } from '@jsquash/jpeg/decode.js';

const FILE = 'mozjpeg_dec.wasm';

/** The decoder's binary: beside the built worker, else in the library's own folder. */
function wasmPath() {
  const built = fileURLToPath(new URL(`../models/${FILE}`, import.meta.url));
  return existsSync(built) ? built : createRequire(import.meta.url).resolve(`@jsquash/jpeg/codec/dec/${FILE}`);
}

/** Loads the decoder once; then each call gives a JPEG's pixels as RGBA. */
export async function loadJpegDecoder() {
  /** libjpeg's first warning during the current picture, written synchronously as it decodes. */
  let warning = null;
  await init(await WebAssembly.compile(readFileSync(wasmPath())), { print: () => {}, printErr: (text) => (warning ??= text) });
  /**
   * @param {Uint8Array} bytes
   * @returns {Promise<{ data: Uint8ClampedArray, width: number, height: number }>}
   */
  return async (bytes) => {
    warning = null;
    let image;
    try {
      image = await decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    } catch (error) {
      // Emscripten throws what libjpeg's error handler gave it, which is not always an Error.
      throw new Error(warning ?? (error instanceof Error ? error.message : 'not a JPEG the decoder can read'));
    }
    if (warning) throw new Error(warning);
    return image;
  };
}
