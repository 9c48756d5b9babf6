/**
 * The voice check's ear (digits.ts through the Node entry's `createDigitListener()`, PocketSphinx in
 * a worker thread): Flite's four voices reading the digits asked, clean, at 48 kHz with a room's
 * noise, and at 16 kHz with louder noise, against what an attacker could send instead: the same
 * voices reading other digits (another challenge's), the fixtures' LibriSpeech readers (speech that
 * is not the digits, as a recording of the registered sample is), silence and a room's noise.
 * Prints the table, the CPU a recording costs, and the chance that other digits pass.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createDigitListener } from '../../../src/server/node/index.js';
import { misheard, randomDigits, saidDigits, SPOKEN_DIGITS } from '../../../src/server/liveness/digits.js';
import { FIXTURES } from '../helpers.js';
import { seeded } from '../liveness/lit-frames.js';
import { degrade, sayDigits, VOICES } from './spoken.js';

const listener = createDigitListener();
after(() => listener.close());
const random = seeded(17);
const draw = () => randomDigits(SPOKEN_DIGITS.count, (n) => Math.floor(random() * n));
/** Prompts each voice reads. */
const PROMPTS = 4;

interface Heard {
  asked: string;
  heard: string;
}

describe('spoken digits: the digits asked pass, anything else is refused', () => {
  const kinds = new Map<string, Heard[]>();
  const cpu: number[] = [];
  const hear = async (kind: string, wav: Uint8Array, asked: string) => {
    const heard = await listener.hear(wav, 'en', SPOKEN_DIGITS.count);
    cpu.push(listener.lastCpuMs);
    kinds.set(kind, [...(kinds.get(kind) ?? []), { asked, heard }]);
  };
  before(async () => {
    for (const voice of VOICES) {
      for (let i = 0; i < PROMPTS; i++) {
        const asked = draw();
        const said = await sayDigits(asked, voice);
        await hear('person: the digits asked, clean', said, asked);
        await hear('person: at 48 kHz, a room\'s noise (SNR 20 dB)', degrade(said, { rate: 48000, snr: 20, seed: i + 1 }), asked);
        await hear('person: at 16 kHz, loud noise (SNR 10 dB)', degrade(said, { rate: 16000, snr: 10, seed: i + 1 }), asked);
        await hear('the same voice reading another challenge\'s digits', said, draw());
      }
    }
    for (const name of ['spk1688_M_1', 'spk1998_F_1', 'spk2033_M_1', 'spk3080_F_1', 'spk1688_M_2', 'spk3080_F_2']) {
      await hear('a LibriSpeech reader: speech, not the digits (as a registered sample replayed)', new Uint8Array(readFileSync(`${FIXTURES}voices/${name}_16k.wav`)), draw());
    }
    for (const name of ['silence', 'noise_ambient']) await hear('silence, or a room\'s noise', new Uint8Array(readFileSync(`${FIXTURES}voices/${name}_16k.wav`)), draw());
  });

  const passed = (results: Heard[]) => results.filter(({ heard, asked }) => saidDigits(heard, asked)).length;

  it('Flite\'s four voices pass every time, clean and with a room\'s noise; with loud noise at most half are refused (the table says how many)', () => {
    for (const [kind, most] of [['person: the digits asked, clean', 0], ['person: at 48 kHz, a room\'s noise (SNR 20 dB)', 0], ['person: at 16 kHz, loud noise (SNR 10 dB)', 0.5]] as const) {
      const results = kinds.get(kind)!;
      assert.ok(results.length - passed(results) <= most * results.length, `${kind}: ${results.map((r) => `${r.asked}/${r.heard}`).join(' ')}`);
    }
  });

  it('other digits, other speech, silence and noise: none passes', () => {
    for (const [kind, results] of kinds) if (!kind.startsWith('person')) assert.equal(passed(results), 0, `${kind}: ${results.map((r) => `${r.asked}/${r.heard}`).join(' ')}`);
  });

  it('the chance that a recording of other digits passes: under 1 in 10,000', () => {
    // Other digits are heard as other digits: as good as random against the digits asked.
    const trials = 200_000;
    let within = 0;
    for (let i = 0; i < trials; i++) if (misheard(draw(), draw()) <= SPOKEN_DIGITS.misheard) within++;
    console.log(`# ${SPOKEN_DIGITS.count} digits, at most ${SPOKEN_DIGITS.misheard} misheard: other digits pass ${within} of ${trials} times (${((100 * within) / trials).toFixed(4)} %)`);
    assert.ok(within / trials < 1e-4, `${within} of ${trials}`);
  });

  it('prints the table and the CPU a recording costs', () => {
    const rows = [...kinds].map(([kind, results]) => {
      const ok = passed(results);
      const off = results.map((r) => misheard(r.heard, r.asked));
      const rate = kind.startsWith('person') ? `refused ${((100 * (results.length - ok)) / results.length).toFixed(0)} %` : `accepted ${((100 * ok) / results.length).toFixed(0)} %`;
      return `# | ${kind} | ${results.length} | ${ok} | ${rate} | ${Math.min(...off)} to ${Math.max(...off)} |`;
    });
    const sorted = [...cpu].sort((a, b) => a - b);
    console.log(['# | presented | recordings | passed | rate | digits misheard |', '# |---|---|---|---|---|', ...rows, `# CPU a recording (the worker): median ${sorted[sorted.length >> 1]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`].join('\n'));
    assert.equal(rows.length, 6);
  });
});
