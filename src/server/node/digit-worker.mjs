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
const decoders = new Map();

async function decoderFor(language, sampleRate) {
  const key = `${language} ${sampleRate}`;
  if (!decoders.has(key)) {
    // Its models are found by an absolute path: beside the package's own module.
    const base = join(dirname(fileURLToPath(import.meta.resolve('soundswallower'))), 'model');
    module ??= await (await import('soundswallower')).default({ modelBase: `${base}/` });
    const decoder = new module.Decoder({ hmm: module.get_model_path(MODELS[language]), samprate: sampleRate, loglevel: 'FATAL' });
    await decoder.initialize();
    decoders.set(key, decoder);
  }
  return decoders.get(key);
}

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
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
