#!/usr/bin/env node
// The first press over a slow network: each widget from the packed tarball installed in a fresh
// folder, bundled by esbuild with splitting as a site's bundler would, served from a local server,
// in headless Chromium throttled to its "Fast 3G" (562.5 ms round trips, 1.44 Mbit/s down), each run
// in a fresh browser context (nothing cached). Times, median of N runs: the first step on screen
// from the navigation; and from the first press to the step the person acts on next (otp: the code
// field, after the page's host answers at once; face: the camera's preview; voice: the text to
// read), pressed as soon as the first step shows, and after 3 s (a person reading it first).
// Figures, not a test. Usage: node test/bench/first-press.mjs [runs] [package.tgz]   (after npm run build)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import puppeteer, { PredefinedNetworkConditions } from 'puppeteer-core';
import { installPackage } from './sizes.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = resolve(repo, '../shared/fixtures');

/** Each widget, what its first press is, and the step that press leads to where the person acts next. */
const WIDGETS = {
  'otp-verify': { next: 'code', attributes: 'country="SA" channels="email"' },
  'face-verify': { next: 'preview', attributes: 'manual' },
  'voice-verify': { next: 'ready', attributes: '' },
};

/** The page's host handler, answering in the page (so the network's time is the widget's code alone), and the steps as they show. */
const HOST = `
window.steps = [];
document.addEventListener('verify-step-change', (e) => window.steps.push({ step: e.detail.step, at: performance.now() }));
const config = { channels: ['email'], countries: {}, codeLength: 6, resendCooldown: 30, maxWrongCodes: 5, fallbackChannel: null, enrolled: { face: true, voice: true }, canEnroll: true, needsProof: false, pending: null };
const answers = { config, 'send-otp': { sent: true, method: 'email', to: 'r***@example.com', resendAfter: 30, codeLength: 6 } };
document.addEventListener('verify-request', (e) => {
  e.preventDefault();
  e.response = Promise.resolve(Response.json(answers[e.detail.route] ?? {}));
});
`;

/** Bundles each widget's page into `www/<tag>/` as a site's bundler would, from the installed package. */
async function pages(site, www) {
  for (const [tag, { attributes }] of Object.entries(WIDGETS)) {
    const dir = join(www, tag);
    mkdirSync(dir, { recursive: true });
    await build({
      stdin: { contents: `import 'verify-widgets/${tag}';`, resolveDir: site, loader: 'js' },
      bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', splitting: true, outdir: dir, entryNames: 'page', logLevel: 'silent',
    });
    writeFileSync(join(dir, 'host.js'), HOST);
    writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><script type="module" src="host.js"></script><script type="module" src="page.js"></script><${tag} endpoint="/host" ${attributes}></${tag}>`);
  }
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript' };
function serve(root) {
  const server = createServer((request, response) => {
    const path = join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname).replace(/\/$/, '/index.html'));
    try {
      const body = readFileSync(path);
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

/** One run in a fresh context: the first step's time from navigation, and the press's time to the next step. */
async function run(browser, url, tag, waitMs) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.emulateNetworkConditions(PredefinedNetworkConditions['Fast 3G']);
    await page.goto(`${url}${tag}/`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.steps?.length > 0, { timeout: 60_000 });
    const shown = await page.evaluate(() => window.steps[0].at);
    await new Promise((done) => setTimeout(done, waitMs));
    const next = WIDGETS[tag].next;
    const pressed = await page.evaluate((t) => {
      const element = document.querySelector(t);
      const root = element.shadowRoot;
      if (t === 'otp-verify') {
        const email = root.querySelector('#email');
        email.value = 'rana@example.com';
        email.dispatchEvent(new Event('input'));
      }
      const at = performance.now();
      root.querySelector('[part~="submit"]').click();
      return at;
    }, tag);
    await page.waitForFunction((step) => window.steps.some((s) => s.step === step), { timeout: 60_000 }, next);
    const reached = await page.evaluate((step) => window.steps.find((s) => s.step === step).at, next);
    return { shown, press: reached - pressed };
  } finally {
    await context.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

export async function measureFirstPress(runs = 3, tarball = undefined) {
  const site = installPackage(tarball);
  const www = join(site.dir, 'www');
  await pages(site.dir, www);
  const server = await serve(www);
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    protocolTimeout: 120_000,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${fixtures}/video/obama_1.mjpeg`, `--use-file-for-fake-audio-capture=${fixtures}/audio/spk1688_M_1_48k.wav`,
    ],
  });
  try {
    const rows = [];
    for (const tag of Object.keys(WIDGETS)) {
      const atOnce = [];
      const later = [];
      for (let i = 0; i < runs; i++) atOnce.push(await run(browser, server.url, tag, 0));
      for (let i = 0; i < runs; i++) later.push(await run(browser, server.url, tag, 3000));
      rows.push({ tag, shown: median([...atOnce, ...later].map((r) => r.shown)), atOnce: median(atOnce.map((r) => r.press)), later: median(later.map((r) => r.press)) });
    }
    return rows;
  } finally {
    await browser.close();
    server.close();
    site.remove();
  }
}

/** Last round's figures (the package before the first step was split from the rest), by this bench: ms, median of 5. */
const LAST = {
  'otp-verify': { shown: 2073, atOnce: 630, later: 621 },
  'face-verify': { shown: 2078, atOnce: 623, later: 674 },
  'voice-verify': { shown: 2065, atOnce: 641, later: 631 },
};

export function formatFirstPress(rows) {
  const cell = (now, last) => `${Math.round(now)} (${Math.round(last)})`.padStart(14);
  return [
    `| ${'widget'.padEnd(14)} | ${'first step shown'.padStart(16)} | ${'press at once'.padStart(14)} | ${'press after 3 s'.padStart(15)} |`,
    `|${'-'.repeat(16)}|${'-'.repeat(18)}|${'-'.repeat(16)}|${'-'.repeat(17)}|`,
    ...rows.map((r) => `| ${`<${r.tag}>`.padEnd(14)} | ${cell(r.shown, LAST[r.tag].shown).padStart(16)} | ${cell(r.atOnce, LAST[r.tag].atOnce)} | ${cell(r.later, LAST[r.tag].later).padStart(15)} |`),
    'ms, median; in brackets, last round\'s (before the first step was split from the rest)',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(formatFirstPress(await measureFirstPress(Number(process.argv[2] ?? 3), process.argv[3])));
