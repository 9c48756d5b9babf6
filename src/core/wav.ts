/**
 * Minimal RIFF/WAVE codec for 16-bit PCM, the one audio format the service is known to accept.
 * Shared by the voice widget (encode) and the emulator (decode); small enough that a dependency
 * would cost more bytes than it saves.
 */
export interface PcmAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved samples in [-1, 1]. */
  samples: Float32Array;
}

export class WavFormatError extends Error {
  override name = 'WavFormatError';
}

const HEADER_BYTES = 44;

/**
 * 16-bit PCM written as samples arrive, so that a recording is a WAV the moment it stops: the
 * header is filled in then, over bytes already converted.
 */
export class PcmWriter {
  #bytes: Uint8Array<ArrayBuffer>;
  #length = 0;

  constructor(expectedSamples = 0) {
    this.#bytes = new Uint8Array(HEADER_BYTES + expectedSamples * 2);
  }

  /** Samples written so far. */
  get length(): number {
    return this.#length;
  }

  append(samples: Float32Array): this {
    const needed = HEADER_BYTES + (this.#length + samples.length) * 2;
    if (needed > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(needed, this.#bytes.length * 2));
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    const view = new DataView(this.#bytes.buffer);
    let offset = HEADER_BYTES + this.#length * 2;
    for (let i = 0; i < samples.length; i++, offset += 2) {
      const s = Math.max(-1, Math.min(1, samples[i]!));
      view.setInt16(offset, s < 0 ? s * 0x8000 : s * 0x7fff, true);
    }
    this.#length += samples.length;
    return this;
  }

  /** The WAV file of what was written (a view on the writer's bytes: append nothing more to keep it). */
  wav(sampleRate: number, channels = 1): Uint8Array {
    const bytes = this.#bytes.subarray(0, HEADER_BYTES + this.#length * 2);
    const view = new DataView(bytes.buffer);
    const ascii = (offset: number, text: string) => {
      for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
    };
    ascii(0, 'RIFF');
    view.setUint32(4, bytes.length - 8, true);
    ascii(8, 'WAVE');
    ascii(12, 'fmt ');
    view.setUint32(16, 16, true);
    view.setUint16(20, 1, true); // PCM
    view.setUint16(22, channels, true);
    view.setUint32(24, sampleRate, true);
    view.setUint32(28, sampleRate * channels * 2, true);
    view.setUint16(32, channels * 2, true);
    view.setUint16(34, 16, true);
    ascii(36, 'data');
    view.setUint32(40, this.#length * 2, true);
    return bytes;
  }
}

export function encodeWav(samples: Float32Array, sampleRate: number, channels = 1): Uint8Array {
  return new PcmWriter(samples.length).append(samples).wav(sampleRate, channels);
}

export interface WavHeader {
  /** 1 for integer PCM. */
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Offset of the sample data, and its length as the header declares it. */
  dataOffset: number;
  dataBytes: number;
}

/**
 * Reads the RIFF header alone, so that a caller holding only the first bytes of a large file can
 * still learn its format and duration.
 */
export function readWavHeader(bytes: Uint8Array): WavHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) =>
    offset + 4 <= bytes.length ? String.fromCharCode(...bytes.subarray(offset, offset + 4)) : '';
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new WavFormatError('not a RIFF/WAVE file');
  let format: Omit<WavHeader, 'dataOffset' | 'dataBytes'> | undefined;
  // Chunks may come in any order and carry extras (LIST, fact); walk them rather than assume 44 bytes.
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) throw new WavFormatError('truncated fmt chunk');
      format = {
        format: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format) throw new WavFormatError('data chunk before fmt chunk');
      if (format.format !== 1 || format.bitsPerSample !== 16) {
        throw new WavFormatError(`unsupported encoding (format ${format.format}, ${format.bitsPerSample}-bit); 16-bit PCM expected`);
      }
      if (format.channels < 1) throw new WavFormatError('no channels');
      if (format.sampleRate < 1) throw new WavFormatError('no sample rate');
      return { ...format, dataOffset: body, dataBytes: size };
    }
    offset = body + size + (size & 1);
  }
  throw new WavFormatError('no data chunk');
}

export function decodeWav(bytes: Uint8Array): PcmAudio {
  const header = readWavHeader(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const available = Math.min(header.dataBytes, bytes.length - header.dataOffset) & ~1;
  const samples = new Float32Array(available / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(header.dataOffset + i * 2, true) / 0x8000;
  return { sampleRate: header.sampleRate, channels: header.channels, samples };
}

/** Averages interleaved channels into one. */
export function toMono({ samples, channels }: PcmAudio): Float32Array {
  if (channels === 1) return samples;
  const mono = new Float32Array(Math.floor(samples.length / channels));
  for (let i = 0; i < mono.length; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[i * channels + c]!;
    mono[i] = sum / channels;
  }
  return mono;
}
