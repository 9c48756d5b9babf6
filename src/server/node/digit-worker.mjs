// A worker thread that hears digits: PocketSphinx built to WebAssembly (`soundswallower`, MIT; its
// US English and French models, CMU's, BSD-style, inside the package), loaded once per language and
// sample rate on the first message that needs it. Each message is a recording (mono samples in
// [-1, 1] and their rate), a language and a count; the decoder is given a grammar of exactly that
// many digit words (the handler's, digits.ts) and answers the words it heard, and the CPU time.
//
// Plain JavaScript, so that Node runs it as it is in a worker thread, from the source as from the
// build. Its messages are typed in digit-listener.ts.
import { parentPort } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MODELS = { en: 'en-us', fr: 'fr-fr' };
let module;
/** One decoder a language, its acoustic model loaded once (about 25 MB of the worker's memory each). */
const decoders = new Map();

/**
 * The language's decoder, its audio front end set for `sampleRate`. A recording at another rate
 * than the last rebuilds the front end alone, not the model: a decoder a rate grew the worker by
 * 25 MB for every new rate a caller chose.
 */
async function decoderFor(language, sampleRate) {
  let decoder = decoders.get(language);
  const fresh = !decoder;
  if (fresh) {
    // Its models are found by an absolute path: beside the package's own module.
    const base = join(dirname(fileURLToPath(import.meta.resolve('soundswallower'))), 'model');
    module ??= await (await import('soundswallower')).default({ modelBase: `${base}/` });
    decoder = new module.Decoder({ hmm: module.get_model_path(MODELS[language]), samprate: sampleRate, loglevel: 'FATAL' });
  } else if (decoder.get_config('samprate') === sampleRate) {
    return decoder;
  } else {
    decoder.set_config('samprate', sampleRate);
  }
  try {
    await (fresh ? decoder.initialize() : decoder.reinitialize_audio());
  } catch (error) {
    // A decoder whose front end could not be built is unusable: the next recording makes another.
    decoders.delete(language);
    decoder.delete();
    throw unframed(error);
  }
  decoders.set(language, decoder);
  return decoder;
}

/** PocketSphinx builds no front end at some rates (20 kHz): the recording's, marked so, not the server's. */
const unframed = (error) => (String(error?.message).includes('frontend') ? Object.assign(error, { unreadable: true }) : error);

parentPort.on('message', async ({ id, samples, sampleRate, language, grammar }) => {
  const started = process.cpuUsage();
  try {
    const decoder = await decoderFor(language, sampleRate);
    decoder.set_grammar(grammar);
    decoder.start();
    decoder.process_audio(samples, false, true);
    decoder.stop();
    const { user, system } = process.cpuUsage(started);
    parentPort.postMessage({ id, text: decoder.get_text(), cpuMs: (user + system) / 1000 });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error), unreadable: error?.unreadable === true });
  }
});
