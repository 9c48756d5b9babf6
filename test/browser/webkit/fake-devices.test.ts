import { expect } from '@open-wc/testing';
import { captureCameraFrame, recordMicrophone, rms, stopAll } from '../support/media.js';

// WebKit's mock devices: a moving test pattern and periodic beeps.
describe('WebKitGTK mock devices', () => {
  it('gives a camera frame with a picture in it', async () => {
    const { frame, stream } = await captureCameraFrame();
    stopAll(stream);
    expect(frame.width).to.be.greaterThan(0);
    const values = Array.from(frame.luma);
    expect(Math.max(...values) - Math.min(...values), 'luma range').to.be.greaterThan(50);
  });

  it('gives a second of sound from the microphone', async () => {
    const { samples, stream } = await recordMicrophone(1);
    stopAll(stream);
    expect(samples.length).to.be.greaterThan(0);
    expect(rms(samples)).to.be.greaterThan(0.001);
  });
});
