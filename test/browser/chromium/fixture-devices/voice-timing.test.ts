import { expect } from '@open-wc/testing';
import { fakeHost } from '../../support/fake-host.js';
import { untilVoiceStep, voiceButton, voiceFixture } from '../../support/voice.js';

// Figures, not limits: printed for the closing note and the benchmark table.
describe('<voice-verify> timings in Chromium, speech from the fixture', function () {
  this.timeout(60_000);

  it('stop to base64 WAV for 5 s of audio, and the longest main-thread task while recording', async () => {
    const host = fakeHost({});
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
    observer.observe({ type: 'longtask' });
    const stops: number[] = [];
    try {
      for (let run = 0; run < 3; run++) {
        const element = await voiceFixture('max-duration="5"');
        voiceButton(element, 'submit').click();
        await untilVoiceStep(element, 'ready');
        performance.clearMeasures('verify-voice-wav');
        voiceButton(element, 'record').click();
        await untilVoiceStep(element, 'review', 20_000);
        const [measure] = performance.getEntriesByName('verify-voice-wav');
        expect(measure, 'the widget measures stop to WAV').to.exist;
        stops.push(measure!.duration);
        element.remove();
      }
    } finally {
      observer.disconnect();
      host.stop();
    }
    stops.sort((a, b) => a - b);
    console.log(`stop to base64 WAV (5 s, 16 kHz): median ${stops[1]!.toFixed(1)} ms over 3 (${stops.map((s) => s.toFixed(1)).join(', ')}); longest main-thread task while recording: ${longTasks.length ? `${Math.max(...longTasks).toFixed(0)} ms (${longTasks.length} over 50 ms)` : 'none over 50 ms'}`);
  });
});
