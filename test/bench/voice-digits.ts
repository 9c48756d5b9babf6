// The voice's digits heard on the site's server (the Node entry's createDigitListener(): PocketSphinx
// in a worker thread): CPU per recording with the recogniser warm, the wait with 20 at once, the
// event loop meanwhile, and the process's memory with it loaded. Flite's voice reads eight digits
// (test/node/voice/spoken.ts), resampled to 16 kHz as the widget sends.
// Usage: node --import tsx test/bench/voice-digits.ts [recordings]
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDigitListener } from '../../src/server/node/index.js';
import { randomDigits, saidDigits } from '../../src/server/liveness/digits.js';
import { degrade, sayDigits } from '../node/voice/spoken.js';

const count = Number(process.argv[2] ?? 20);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const recordings = await Promise.all(Array.from({ length: count }, async () => {
  const digits = randomDigits();
  return { digits, wav: degrade(await sayDigits(digits, 'slt'), { rate: 16000 }) };
}));
const seconds = recordings.map(({ wav }) => (wav.length - 44) / 32000);
const before = process.memoryUsage().rss;
const listener = createDigitListener();
await listener.hear(recordings[0]!.wav, 'en', 8);

const cpu: number[] = [];
let [exact, passed] = [0, 0];
for (const { wav, digits } of recordings) {
  const heard = await listener.hear(wav, 'en', 8);
  [exact, passed] = [exact + Number(heard === digits), passed + Number(saidDigits(heard, digits))];
  cpu.push(listener.lastCpuMs);
}
console.log(`one at a time: CPU per recording median ${median(cpu).toFixed(0)} ms, max ${Math.max(...cpu).toFixed(0)} ms (recordings of ${Math.min(...seconds).toFixed(1)} to ${Math.max(...seconds).toFixed(1)} s; every digit heard in ${exact} of ${count}, within the tolerance in ${passed})`);

const lag = monitorEventLoopDelay({ resolution: 5 });
lag.enable();
const started = performance.now();
await Promise.all(recordings.map(({ wav }) => listener.hear(wav, 'en', 8)));
lag.disable();
console.log(`${count} at once: all heard in ${((performance.now() - started) / 1000).toFixed(2)} s (one worker); the event loop meanwhile p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms late (budget < 50 ms)`);
console.log(`memory with the recogniser warm: RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB, ${((process.memoryUsage().rss - before) / 2 ** 20).toFixed(0)} MB of it since the listener started`);
await listener.close();
