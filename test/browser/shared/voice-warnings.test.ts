import { expect, waitUntil } from '@open-wc/testing';
import { fakeHost } from '../support/fake-host.js';
import { untilVoiceStep, voiceButton, voiceFixture, voiceText } from '../support/voice.js';
import { restoreGetUserMedia } from '../support/media.js';

describe('<voice-verify> warnings while recording', function () {
  this.timeout(30_000);
  restoreGetUserMedia();

  it('a microphone without speech: "no speech" is shown and said in the live region, then the gate refuses the recording', async () => {
    // A live stream that carries nothing, as a muted microphone gives. Firefox plays no such stream
    // into another AudioContext; its own synthetic microphone, a steady tone, is no speech either.
    if (!/Firefox\//.test(navigator.userAgent)) {
      navigator.mediaDevices.getUserMedia = async () => {
        const silent = new AudioContext();
        await silent.resume();
        return silent.createMediaStreamDestination().stream;
      };
    }
    const host = fakeHost({});
    try {
      const element = await voiceFixture('max-duration="4"');
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, 'ready');
      voiceButton(element, 'record').click();
      await untilVoiceStep(element, 'recording');
      await waitUntil(() => /No speech/.test(voiceText(element, 'feedback')), 'the warning shows', { timeout: 10_000 });
      await waitUntil(() => /No speech/.test(voiceText(element, 'live')), 'the warning is said', { timeout: 5000 });
      await untilVoiceStep(element, 'review');
      expect(voiceText(element, 'error')).to.match(/No speech/);
      expect(host.calls.filter((c) => c.route !== 'config')).to.have.length(0);
    } finally {
      host.stop();
    }
  });
});
