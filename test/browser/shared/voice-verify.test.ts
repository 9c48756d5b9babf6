import { expect, waitUntil } from '@open-wc/testing';
import { CONFIG, fakeHost, type Answer } from '../support/fake-host.js';
import { readWav, untilVoiceStep, voiceButton, voiceFixture, voiceText } from '../support/voice.js';
import type { VoiceVerify } from '../../../src/voice-verify/voice-verify.js';
import { restoreGetUserMedia } from '../support/media.js';

/** What the element holds, for tests: its microphone and recording controllers. */
const toolsOf = (element: VoiceVerify) => (element as unknown as { tools: { microphone: { stream: MediaStream | null; context: AudioContext | null }; recorder: { elapsed: number; samples: Float32Array | null } } }).tools;
const microphoneOf = (element: VoiceVerify) => toolsOf(element).microphone;

describe('<voice-verify>', function () {
  this.timeout(40_000);
  let host: ReturnType<typeof fakeHost>;
  const originalGetUserMedia = restoreGetUserMedia();
  afterEach(() => host?.stop());

  it('primes, shows fresh digits to read, records with a meter and a countdown, and stops at the maximum', async () => {
    host = fakeHost({});
    const element = await voiceFixture('max-duration="3"');
    expect(element.step).to.equal('priming');
    expect(navigator.mediaDevices.getUserMedia).to.equal(originalGetUserMedia);
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'ready');
    const prompt = voiceText(element, 'prompt');
    expect(prompt).to.match(/^\d{4} \d{4}$/);
    voiceButton(element, 'record').click();
    await untilVoiceStep(element, 'recording');
    await waitUntil(() => element.shadowRoot!.querySelectorAll('[part~="bar"]').length > 10, 'the meter draws', { timeout: 4000 });
    const meter = element.shadowRoot!.querySelector('[role="meter"]')!;
    expect(Number(meter.getAttribute('aria-valuenow'))).to.be.within(-60, 0);
    expect(voiceText(element, 'countdown')).to.match(/left/);
    await untilVoiceStep(element, 'review', 20_000);
    const problem = voiceText(element, 'error');
    if (window.FEED) {
      expect(problem, 'speech from the fixture passes the gate').to.equal('');
    } else {
      // A synthetic microphone (a steady tone) is not speech: the gate says why, and offers another try.
      expect(problem).to.match(/No speech|quiet|loud|short/);
      expect(voiceButton(element, 'submit').textContent).to.contain('Record again');
    }
  });

  it('keeps what was said while the page was busy at the press: every frame made before stop is in the recording', async () => {
    host = fakeHost({});
    const element = await voiceFixture('max-duration="10"');
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'ready');
    voiceButton(element, 'record').click();
    await untilVoiceStep(element, 'recording');
    const recorder = toolsOf(element).recorder;
    await waitUntil(() => recorder.elapsed > 0.5, 'frames arrive', { timeout: 5000 });
    // A long task up to the press (a busy page, a slow phone): 0.6 s of frames wait in the port.
    const before = recorder.elapsed;
    const end = performance.now() + 600;
    while (performance.now() < end);
    voiceButton(element, 'stop').click();
    await untilVoiceStep(element, 'review');
    const seconds = recorder.samples!.length / 16_000;
    // Dropped, they add nothing (0.00 measured in each engine); kept, about 0.6 s. Half of it at
    // least: a busy test machine's audio thread may lose a moment of its own.
    expect(seconds - before, `${before.toFixed(2)} s before the long task, ${seconds.toFixed(2)} s recorded`).to.be.above(0.3);
  });

  it('uploads the speech it recorded as a 16 kHz mono WAV of that length, and gives the receipt', async function () {
    // Only Chromium's microphone plays speech (a fixture); elsewhere the gate refuses a tone, so
    // there is nothing to upload: reported as skipped, not as passed.
    if (!window.FEED) this.skip();
    host = fakeHost({ 'verify-by-voice': () => ({ body: { verified: true, method: 'voice', receipt: 'voice.receipt', expiresAt: null } }) });
    const element = await voiceFixture('max-duration="5"');
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'ready');
    voiceButton(element, 'record').click();
    await untilVoiceStep(element, 'review', 20_000);
    expect(voiceText(element, 'error')).to.equal('');
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'success');
    const sent = host.calls.find((c) => c.route === 'verify-by-voice')!.body;
    expect(Object.keys(sent)).to.deep.equal(['query_audio']);
    const wav = readWav(sent.query_audio as string);
    expect([wav.riff, wav.wave, wav.format, wav.channels, wav.sampleRate, wav.bits]).to.deep.equal(['RIFF', 'WAVE', 1, 1, 16_000, 16]);
    expect(Math.abs(wav.seconds - 5), `${wav.seconds} s`).to.be.below(0.05);
    expect(element.value).to.equal('voice.receipt');
  });

  describe('where the host hears the digits (its voiceLiveness)', () => {
    before(() => Promise.all([import('../../../src/locales/fr.js'), import('../../../src/locales/ar.js')]));
    const challenges = ['48207391', '15550926'];
    const hearing = (verify: () => Answer) => fakeHost({
      config: () => ({ body: { ...CONFIG, voiceDigits: true } }),
      'voice-challenge': (_, calls) => ({ body: { nonce: `n${calls.filter((c) => c.route === 'voice-challenge').length}`, digits: challenges[calls.filter((c) => c.route === 'voice-challenge').length - 1] ?? '00000000', lang: 'en', expiresIn: 60 } }),
      'verify-by-voice': verify,
    });

    it('shows the host\'s digits, not the page\'s prompt, asked in the page\'s language, and says them one by one to a screen reader', async () => {
      host = hearing(() => ({ body: { verified: true, method: 'voice', receipt: 'voice.receipt', expiresAt: null } }));
      const element = await voiceFixture('prompt="Read this sentence"', 'fr');
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, 'ready');
      await waitUntil(() => voiceText(element, 'prompt') !== '', 'the host\'s digits arrive');
      expect(voiceText(element, 'prompt')).to.equal('4820 7391');
      expect(element.shadowRoot!.querySelector('.prompt + .visually-hidden')!.textContent).to.equal('4 8 2 0 7 3 9 1');
      expect(host.calls.find((c) => c.route === 'voice-challenge')!.body).to.deep.equal({ lang: 'fr' });
      // The host hears them in English: the page says to read them in English, in its own words.
      expect(voiceText(element, 'message')).to.contain('lisez ces chiffres en anglais');
    });

    it('on an Arabic page whose digits the host hears in English: says so in Arabic, the digits in Latin figures', async () => {
      host = hearing(() => ({ body: {} }));
      const element = await voiceFixture('', 'ar');
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, 'ready');
      await waitUntil(() => voiceText(element, 'prompt') !== '', 'the host\'s digits arrive');
      expect(voiceText(element, 'prompt')).to.equal('4820 7391');
      expect(voiceText(element, 'message')).to.contain('اقرأ هذه الأرقام باللغة الإنجليزية');
    });

    it('sends the challenge\'s nonce with the recording; refused as digits not heard, says so with the tries left, and a new try gets new digits', async function () {
      if (!window.FEED) this.skip();
      host = hearing(() => ({ status: 422, body: { error: { code: 'liveness_failed', reason: 'digits_not_heard', message: 'We didn\'t hear the digits.', attemptsLeft: 2 } } }));
      const element = await voiceFixture('max-duration="5"');
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, 'ready');
      await waitUntil(() => voiceText(element, 'prompt') !== '', 'the host\'s digits arrive');
      voiceButton(element, 'record').click();
      await untilVoiceStep(element, 'review', 20_000);
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, 'failure');
      expect(host.calls.find((c) => c.route === 'verify-by-voice')!.body.nonce).to.equal('n1');
      expect(voiceText(element, 'error')).to.match(/didn’t hear the digits.*2 tries left/);
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, 'ready');
      await waitUntil(() => voiceText(element, 'prompt') === '1555 0926', 'new digits from the host');
    });
  });

  it('a new recording gets new digits', async () => {
    host = fakeHost({});
    const element = await voiceFixture('max-duration="1"');
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'ready');
    const first = voiceText(element, 'prompt');
    voiceButton(element, 'record').click();
    await untilVoiceStep(element, 'review', 20_000);
    [...element.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.includes('Record again'))!.click();
    await untilVoiceStep(element, 'ready');
    expect(voiceText(element, 'prompt')).to.match(/^\d{4} \d{4}$/).and.not.equal(first);
  });

  it('after removal mid-recording, every track has ended and the AudioContext is closed', async () => {
    host = fakeHost({});
    const element = await voiceFixture();
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'ready');
    voiceButton(element, 'record').click();
    await waitUntil(() => microphoneOf(element).context?.state === 'running', 'recording', { timeout: 5000 });
    const { stream, context } = microphoneOf(element);
    element.remove();
    expect(stream!.getTracks().every((t) => t.readyState === 'ended')).to.be.true;
    await waitUntil(() => context!.state === 'closed', 'the AudioContext closes', { timeout: 5000 });
  });

  it('when the page is hidden, the microphone is released and the widget starts over', async () => {
    host = fakeHost({});
    const element = await voiceFixture();
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'ready');
    const stream = microphoneOf(element).stream!;
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    expect(stream.getTracks().every((t) => t.readyState === 'ended')).to.be.true;
    await untilVoiceStep(element, 'priming');
  });

  const failures: [string, string, RegExp, boolean][] = [
    ['NotAllowedError', 'denied', /blocked/, true],
    ['NotFoundError', 'no-microphone', /No microphone/, true],
    ['NotReadableError', 'busy', /Another app/, true],
    ['TypeError', 'unsupported', /can’t record/, false],
  ];
  for (const [name, code, text, canRetry] of failures) {
    it(`${name}: says so${canRetry ? ', and offers another try' : ''}`, async () => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('stubbed'), { name }));
      host = fakeHost({});
      const element = await voiceFixture();
      const error = new Promise<CustomEvent>((resolve) => element.addEventListener('verify-error', (e) => resolve(e as CustomEvent), { once: true }));
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, 'failure');
      expect(voiceText(element, 'error')).to.match(text);
      expect((await error).detail.code).to.equal(code);
      expect(Boolean(element.shadowRoot!.querySelector('button[part~="submit"]'))).to.equal(canRetry);
    });
  }
});
