import { expect } from '@open-wc/testing';
import { captureCameraFrame, recordMicrophone, rms, stopAll, zeroCrossingRate } from '../support/media.js';

// Firefox's fake devices: a solid green 640x480 picture and a steady 1 kHz tone.
describe('Firefox ESR synthetic devices', () => {
  it('gives a green 640x480 camera frame', async () => {
    const { frame, stream } = await captureCameraFrame();
    stopAll(stream);
    expect([frame.width, frame.height]).to.deep.equal([640, 480]);
    expect(frame.mean.g).to.be.greaterThan(frame.mean.r + 50);
    expect(frame.mean.g).to.be.greaterThan(frame.mean.b + 50);
  });

  it('gives a second of a 1 kHz tone from the microphone', async () => {
    const { samples, sampleRate, stream } = await recordMicrophone(1);
    stopAll(stream);
    expect(rms(samples)).to.be.greaterThan(0.01);
    expect(zeroCrossingRate(samples, sampleRate) / 2).to.be.within(900, 1100);
  });
});
