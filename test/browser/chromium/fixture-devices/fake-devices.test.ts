import { expect } from '@open-wc/testing';
import { decodeWav, toMono } from '../../../../src/core/wav.js';
import { bestLoopCorrelation, captureCameraFrame, correlation, envelope, firstMjpegFrame, recordMicrophone, stopAll } from '../../support/media.js';

// Proves that Chromium's camera and microphone really come from the fixture files, so that
// widget tests fed by them mean something.
describe('Chromium fake devices fed from ../shared/fixtures', () => {
  it('the camera frame is the fixture video frame, and not another fixture', async () => {
    const { frame, stream } = await captureCameraFrame();
    stopAll(stream);
    expect([frame.width, frame.height]).to.deep.equal([640, 480]);
    const same = correlation(frame.luma, (await firstMjpegFrame(window.FEED!.video)).luma);
    const other = correlation(frame.luma, (await firstMjpegFrame('video/biden_1.mjpeg')).luma);
    expect(same, `correlation with ${window.FEED!.video}`).to.be.greaterThan(0.9);
    expect(other, 'correlation with another fixture').to.be.lessThan(0.8);
  });

  it('a second of microphone audio is the fixture speech, and not another recording', async () => {
    const { samples, sampleRate, stream } = await recordMicrophone(1);
    stopAll(stream);
    const referenceOf = async (path: string) => {
      const wav = decodeWav(new Uint8Array(await (await fetch(`/fixtures/${path}`)).arrayBuffer()));
      return envelope(toMono(wav), wav.sampleRate);
    };
    const captured = envelope(samples, sampleRate);
    const same = bestLoopCorrelation(captured, await referenceOf(window.FEED!.audio));
    const other = bestLoopCorrelation(captured, await referenceOf('audio/spk1998_F_1_48k.wav'));
    expect(same, `envelope correlation with ${window.FEED!.audio}`).to.be.greaterThan(0.9);
    expect(other, 'envelope correlation with another speaker').to.be.lessThan(same - 0.1);
  });
});
