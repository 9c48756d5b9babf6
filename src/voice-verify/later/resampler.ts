/**
 * A streaming band-limited resampler: windowed-sinc interpolation (Kaiser window), so that going
 * down from 48 kHz to 16 kHz removes what 16 kHz cannot carry instead of folding it back as
 * aliasing. It runs in the voice recorder's AudioWorklet, one render quantum at a time, so the
 * 16 kHz samples are ready when the person presses stop.
 *
 * Output sample n sits at input time n·from/to; it is the sum of the input samples within the
 * kernel's reach, weighted by a low-pass kernel whose cutoff is a little under the output's Nyquist
 * frequency. The kernel is tabulated once and read with linear interpolation.
 */
const ZERO_CROSSINGS = 16;
const PHASES = 256;
const KAISER_BETA = 8.6;
/** The cutoff as a share of the output's Nyquist frequency: 7.2 kHz for a 16 kHz output. */
const ROLLOFF = 0.9;

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50 && term > 1e-12 * sum; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

export class Resampler {
  readonly ratio: number;
  readonly #halfWidth: number;
  readonly #table: Float32Array;
  /** Input not yet consumed; index 0 is input sample `#start` (negative before the first: zeros). */
  #pending = new Float32Array(0);
  #start: number;
  #received = 0;
  #produced = 0;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    this.ratio = fromRate / toRate;
    // Cutoff in cycles per input sample; when going up, the input's own Nyquist frequency bounds it.
    const cutoff = 0.5 * Math.min(1, toRate / fromRate) * ROLLOFF;
    this.#halfWidth = ZERO_CROSSINGS / (2 * cutoff);
    this.#table = new Float32Array(Math.ceil(this.#halfWidth * PHASES) + 2);
    const norm = besselI0(KAISER_BETA);
    for (let i = 0; i < this.#table.length; i++) {
      const x = i / PHASES;
      if (x >= this.#halfWidth) continue;
      const arg = 2 * Math.PI * cutoff * x;
      const sinc = x === 0 ? 1 : Math.sin(arg) / arg;
      const window = besselI0(KAISER_BETA * Math.sqrt(1 - (x / this.#halfWidth) ** 2)) / norm;
      this.#table[i] = 2 * cutoff * sinc * window;
    }
    const reach = Math.ceil(this.#halfWidth);
    this.#start = -reach;
    this.#pending = new Float32Array(reach);
  }

  /** Takes the next input samples; gives the output samples they complete. */
  push(input: Float32Array): Float32Array {
    this.#received += input.length;
    const joined = new Float32Array(this.#pending.length + input.length);
    joined.set(this.#pending);
    joined.set(input, this.#pending.length);
    this.#pending = joined;
    return this.#produce(this.#start + joined.length - Math.ceil(this.#halfWidth));
  }

  /** Ends the stream: the last output samples, as if silence followed. Length is then ⌈in·to/from⌉. */
  flush(): Float32Array {
    const reach = Math.ceil(this.#halfWidth);
    const padded = new Float32Array(this.#pending.length + reach + 1);
    padded.set(this.#pending);
    this.#pending = padded;
    return this.#produce(this.#received, true);
  }

  /** Produces every output sample whose time is before `limit` (input samples). */
  #produce(limit: number, final = false): Float32Array {
    const wanted = final ? Math.ceil(this.#received / this.ratio) : Infinity;
    const out: number[] = [];
    const reach = Math.ceil(this.#halfWidth);
    for (;;) {
      const time = this.#produced * this.ratio;
      if (this.#produced >= wanted || time >= limit) break;
      const centre = Math.floor(time);
      let sum = 0;
      for (let k = centre - reach + 1; k <= centre + reach; k++) {
        const position = Math.abs(time - k) * PHASES;
        const index = Math.floor(position);
        if (index >= this.#table.length - 1) continue;
        const weight = this.#table[index]! + (position - index) * (this.#table[index + 1]! - this.#table[index]!);
        sum += (this.#pending[k - this.#start] ?? 0) * weight;
      }
      out.push(sum);
      this.#produced++;
    }
    // Keep only what later outputs can still reach.
    const keepFrom = Math.floor(this.#produced * this.ratio) - reach + 1;
    if (keepFrom > this.#start) {
      this.#pending = this.#pending.slice(keepFrom - this.#start);
      this.#start = keepFrom;
    }
    return Float32Array.from(out);
  }
}
