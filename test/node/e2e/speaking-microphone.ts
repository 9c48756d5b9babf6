/**
 * A microphone the test speaks into: the page's getUserMedia for audio answers a Web Audio stream,
 * and `say` plays a WAV into it, as a person would say the words then. For checks whose words are
 * chosen at the moment (the voice's digits), which a fixed fake-device file cannot say.
 */
import type { Page } from 'puppeteer-core';

export interface SpeakingMicrophone {
  /** Plays a 16-bit WAV into the microphone; resolves once it has played. */
  say(wav: Uint8Array): Promise<void>;
}

export async function speakingMicrophone(page: Page): Promise<SpeakingMicrophone> {
  await page.evaluateOnNewDocument(() => {
    if (!navigator.mediaDevices) return;
    // (No named functions in here: the test's compiler would wrap them in a helper the page lacks.)
    const context = new AudioContext();
    const output = context.createMediaStreamDestination();
    (window as any).__say = async (base64: string) => {
      await context.resume();
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const buffer = await context.decodeAudioData(bytes.buffer);
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(output);
      source.start();
      await new Promise((resolve) => source.addEventListener('ended', resolve));
    };
    const camera = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      if (!constraints?.audio || constraints.video) return camera(constraints);
      await context.resume();
      // A new stream for each opening, as a microphone gives: the widget stops its tracks when it is done.
      return new MediaStream(output.stream.getAudioTracks().map((track) => track.clone()));
    };
  });
  await page.reload();
  return {
    say: async (wav) => {
      await page.evaluate((base64) => (window as any).__say(base64), Buffer.from(wav).toString('base64'));
    },
  };
}
