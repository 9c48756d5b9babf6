// Saves a screenshot of every <voice-verify> step (see shoot.ts). Chromium's microphone plays the
// spk1688_M_1 fixture; the gate's refusals and warnings are shown with a silent microphone stream,
// steps that wait on an answer hold it, and microphone failures stub getUserMedia.
// Usage: npm run screenshots
import { microphoneFrom, passCodeInDemo, signIn } from '../node/e2e/demo-browser.js';
import { biometricSteps, shootSteps } from './shoot.js';

await shootSteps('voice-verify', microphoneFrom('spk1688_M_1_48k'), { VOICE_LIVENESS: '0' }, (shoot) => {
  const { demo, page, press: click, untilStep } = shoot;
  const W = 'voice-verify';

  async function fresh(lang: string, mode: 'verify' | 'enroll', microphone: 'speech' | 'silent' = 'speech') {
    await page.goto(demo.url, { waitUntil: 'load' });
    await signIn(page, 'omar');
    if (mode === 'enroll') await passCodeInDemo(page);
    // A string, not a function: tsx would add helpers the page does not have.
    await page.evaluate(`{
      const slot = document.querySelector('${W}').parentElement;
      // Only a lang, as most pages have: the widget turns right to left in Arabic, Urdu and Persian.
      slot.lang = '${lang}';
      slot.innerHTML = '<voice-verify endpoint="/api/verify" mode="${mode}" max-duration="6"></voice-verify>';
      if ('${microphone}' === 'silent') navigator.mediaDevices.getUserMedia = async () => new AudioContext().createMediaStreamDestination().stream;
    }`);
    await page.waitForFunction((w) => document.querySelector<any>(w)?.shadowRoot?.querySelector('[part~="submit"]'), {}, W);
  }

  async function toRecording(lang: string, microphone: 'speech' | 'silent', seconds: number) {
    await fresh(lang, 'verify', microphone);
    await click('submit');
    await untilStep('ready');
    await click('record');
    await untilStep('recording');
    await new Promise((done) => setTimeout(done, seconds * 1000));
  }

  async function toReview(lang: string, mode: 'verify' | 'enroll' = 'verify', microphone: 'speech' | 'silent' = 'speech') {
    await fresh(lang, mode, microphone);
    await click('submit');
    await untilStep('ready');
    await click('record');
    await untilStep('review', 20_000);
  }

  return {
    ...biometricSteps(shoot, 'voice', { fresh, toReview }, { 'failure-denied': 'NotAllowedError', 'failure-no-microphone': 'NotFoundError' }),
    ready: async (lang) => {
      await fresh(lang, 'verify');
      await click('submit');
      await untilStep('ready');
    },
    recording: (lang) => toRecording(lang, 'speech', 2.5),
    'recording-no-speech': (lang) => toRecording(lang, 'silent', 2.5),
    review: (lang) => toReview(lang),
    'review-no-speech': (lang) => toReview(lang, 'verify', 'silent'),
  };
});
