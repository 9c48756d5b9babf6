#!/usr/bin/env node
// Browser timings in headless Chromium, median and p95 over N runs, on the plain CDN page of the
// consumer tests (strict CSP, camera and microphone fed by the fixtures). Figures, not a test.
// Usage: node test/bench/browser.mjs [N]   (after npm run build)
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { startHost } from '../consumers/host.mjs';

const N = Number(process.argv[2] ?? 5);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = resolve(repo, '../shared/fixtures');

/** The config of a handler that allows every country. */
const everyCountry = {
  channels: ['sms', 'email'], countries: Object.fromEntries(getCountries().map((c) => [c, getCountryCallingCode(c)])), codeLength: 6, resendCooldown: 30,
  maxWrongCodes: 5, fallbackChannel: null, enrolled: null, canEnroll: false, needsProof: false, pending: null,
};

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)];

export async function measureBrowser(runs = N) {
  const host = await startHost({ root: resolve(repo, 'test/consumers/cdn-page'), cdn: resolve(repo, 'dist/cdn') });
  const browser = await puppeteer.launch({
    protocolTimeout: 60_000,
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${fixtures}/video/obama_1.mjpeg`, `--use-file-for-fake-audio-capture=${fixtures}/audio/spk1688_M_1_48k.wav`,
    ],
  });
  try {
    const page = await browser.newPage();
    // Long tasks and the bodies the widgets send, recorded from before the first script.
    await page.evaluateOnNewDocument(() => {
      window.bench = { longTasks: [], bodies: {} };
      new PerformanceObserver((list) => window.bench.longTasks.push(...list.getEntries().map((e) => ({ start: e.startTime, duration: e.duration })))).observe({ type: 'longtask', buffered: true });
      document.addEventListener('verify-request', (e) => (window.bench.bodies[e.detail.route] = JSON.stringify(e.detail.body).length));
    });
    await page.goto(host.url, { waitUntil: 'load' });
    await page.waitForFunction(() => customElements.get('voice-verify'));

    const firstRender = {};
    for (const tag of ['otp-verify', 'face-verify', 'voice-verify']) {
      firstRender[tag] = [];
      for (let i = 0; i < runs; i++) {
        firstRender[tag].push(
          await page.evaluate(async (t) => {
            const start = performance.now();
            const element = document.body.appendChild(document.createElement(t));
            await element.updateComplete;
            const ms = performance.now() - start;
            element.remove();
            return ms;
          }, tag),
        );
      }
    }

    // The first <otp-verify> on a page nothing has touched yet (its own browsing context: ICU's
    // region data not loaded, no widget rendered), on a same-origin document without widgets.
    const freshRender = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.createBrowserContext();
      const fresh = await context.newPage();
      await fresh.goto(`${host.url}cdn/recorder.worklet.js`);
      await fresh.addScriptTag({ url: '/cdn/verify-widgets.js', type: 'module' });
      await fresh.waitForFunction(() => customElements.get('otp-verify'));
      freshRender.push(
        await fresh.evaluate(async () => {
          const start = performance.now();
          const element = document.body.appendChild(document.createElement('otp-verify'));
          await element.updateComplete;
          return performance.now() - start;
        }),
      );
      await context.close();
    }

    // A digit typed into the phone field, once the list of every country is built (the page answers
    // config as a handler that allows them all): the input event to the end of the update.
    const keystroke = await page.evaluate(async (n, config) => {
      document.addEventListener('verify-request', (event) => {
        if (event.detail.route !== 'config' || !event.target.matches('[endpoint="/every-country"]')) return;
        event.preventDefault();
        event.response = Promise.resolve(Response.json(config));
      });
      const element = Object.assign(document.createElement('otp-verify'), { endpoint: '/every-country' });
      document.body.appendChild(element);
      await element.updateComplete;
      element.shadowRoot.querySelector('#country').focus();
      for (let waited = 0; element.shadowRoot.querySelectorAll('option').length < 200 && waited < 5000; waited += 50) await new Promise((done) => setTimeout(done, 50));
      const input = element.shadowRoot.querySelector('#phone');
      const times = [];
      for (let i = 0; i < n * 4; i++) {
        const start = performance.now();
        input.value = `50${String(i).padStart(7, '1')}`.slice(0, 9);
        input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: '1' }));
        await element.updateComplete;
        times.push(performance.now() - start);
      }
      element.remove();
      return times;
    }, runs, everyCountry);

    const shutter = [];
    const captureLongest = [];
    for (let i = 0; i < runs; i++) {
      const { ms, longest } = await page.evaluate(async () => {
        const face = Object.assign(document.createElement('face-verify'), { endpoint: '/api/verify', mode: 'enroll', manual: true });
        document.body.appendChild(face);
        await face.updateComplete;
        const until = (...steps) => new Promise((done) => { const check = () => (steps.includes(face.step) ? done() : setTimeout(check, 5)); check(); });
        face.shadowRoot.querySelector('[part~="submit"]').click();
        await until('preview');
        const previewStart = performance.now();
        await new Promise((done) => setTimeout(done, 1500)); // the quality gate running, as a person frames the photo
        const start = performance.now();
        face.shadowRoot.querySelector('[part~="shutter"]').click();
        await until('review');
        const ms = performance.now() - start;
        const longest = Math.max(0, ...window.bench.longTasks.filter((t) => t.start >= previewStart).map((t) => t.duration));
        face.shadowRoot.querySelector('[part~="submit"]').click();
        await until('success', 'failure');
        face.remove();
        return { ms, longest };
      });
      shutter.push(ms);
      captureLongest.push(longest);
    }

    const stop = [];
    const recordLongest = [];
    const voiceRuns = Math.min(runs, 3);
    for (let i = 0; i < voiceRuns; i++) {
      const { ms, longest } = await page.evaluate(async () => {
        const voice = Object.assign(document.createElement('voice-verify'), { endpoint: '/api/verify', mode: 'enroll', maxDuration: 5 });
        document.body.appendChild(voice);
        await voice.updateComplete;
        const until = (...steps) => new Promise((done) => { const check = () => (steps.includes(voice.step) ? done() : setTimeout(check, 5)); check(); });
        voice.shadowRoot.querySelector('[part~="submit"]').click();
        await until('ready');
        performance.clearMeasures('verify-voice-wav');
        const recordStart = performance.now();
        voice.shadowRoot.querySelector('[part~="record"]').click();
        await until('review');
        // A recording the gate refused has no WAV to send; its review offers only Record again.
        if (voice.shadowRoot.querySelector('[part~="error"]')) throw new Error(`the gate refused the recording: ${voice.shadowRoot.querySelector('[part~="error"]').textContent}`);
        const ms = performance.getEntriesByName('verify-voice-wav').at(-1).duration;
        const longest = Math.max(0, ...window.bench.longTasks.filter((t) => t.start >= recordStart).map((t) => t.duration));
        voice.shadowRoot.querySelector('[part~="submit"]').click();
        await until('success', 'failure');
        voice.remove();
        return { ms, longest };
      });
      stop.push(ms);
      recordLongest.push(longest);
    }
    const bodies = await page.evaluate(() => window.bench.bodies);
    return { runs, voiceRuns, firstRender, freshRender, keystroke, shutter, captureLongest, stop, recordLongest, bodies };
  } finally {
    await browser.close();
    await host.close();
  }
}

export function formatBrowser(r) {
  const ms = (values) => `${quantile(values, 0.5).toFixed(1).padStart(8)} | ${quantile(values, 0.95).toFixed(1).padStart(8)}`;
  const row = (what, values, budget) => `| ${what.padEnd(46)} | ${ms(values)} | ${budget.padEnd(10)} |`;
  return [
    `Chromium ${'(headless, software rendering)'}: ${r.runs} runs (voice ${r.voiceRuns}); median | p95, ms`,
    `| ${'measure'.padEnd(46)} | ${'median'.padStart(8)} | ${'p95'.padStart(8)} | ${'budget'.padEnd(10)} |`,
    `|${'-'.repeat(48)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(12)}|`,
    ...Object.entries(r.firstRender).map(([tag, values]) => row(`first render of <${tag}>, later instances`, values, '<= 5 ms')),
    row('first render of <otp-verify>, fresh page', r.freshRender, '<= 30 ms'),
    row('a digit typed in the phone field', r.keystroke, '<= 0.5 ms'),
    row('shutter to base64 JPEG (640 px)', r.shutter, '<= 50 ms'),
    row('longest task while capturing (0 = none > 50)', r.captureLongest, 'none > 50'),
    row('stop to base64 WAV (5 s)', r.stop, '<= 10 ms'),
    row('longest task while recording (0 = none > 50)', r.recordLongest, 'none > 50'),
    `Payloads (JSON body, characters): enroll-face ${r.bodies['enroll-face'] ?? '-'} (budget: JPEG <= 200 KB base64), enroll-voice ${r.bodies['enroll-voice'] ?? '-'} (5 s, 16 kHz mono 16-bit WAV)`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(formatBrowser(await measureBrowser()));
