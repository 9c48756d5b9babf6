import { expect } from '@open-wc/testing';
import { decodeWav, encodeWav } from '../../../src/core/wav.js';

describe('WAV codec in the browser', () => {
  it('encodes 16-bit PCM that the browser itself can decode', async () => {
    const rate = 16000;
    const tone = Float32Array.from({ length: rate }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate));
    const bytes = encodeWav(tone, rate);
    const back = decodeWav(bytes);
    expect(back.sampleRate).to.equal(rate);
    expect(back.samples.length).to.equal(rate);
    const context = new OfflineAudioContext(1, rate, rate);
    const buffer = await context.decodeAudioData(bytes.slice().buffer);
    expect(buffer.duration).to.be.closeTo(1, 0.01);
    expect(buffer.getChannelData(0)[100]).to.be.closeTo(tone[100]!, 0.001);
  });
});
