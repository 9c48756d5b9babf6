// Browser tests in Debian's Chromium, Firefox ESR and WebKitGTK (see ../shared/notes/browsers.md).
// Chromium's camera and microphone are fed from ../shared/fixtures, one launch per feed; Firefox and
// WebKit have synthetic devices only. WebKit needs a display: `npm run test:browser` runs under xvfb-run.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { extname, resolve } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { cutHost } from './test/browser/support/cut-host.mjs';
import { heapPlugin } from './test/browser/support/heap-plugin.mjs';
import { keysPlugin } from './test/browser/support/keys-plugin.mjs';
import { powSiteMiddleware } from './test/browser/support/pow-site.mjs';

const FIXTURES = resolve('../shared/fixtures');
const ENGINES = (process.env.ENGINES ?? 'chromium,firefox,webkit').split(',');

/**
 * Chromium launches, one per camera and microphone feed: the group is `chromium-<name>` and runs
 * `test/browser/chromium/<name>/`, whose tests learn the feed from `window.FEED`.
 */
export const CHROMIUM_FEEDS = {
  // The widgets with a real face and a real voice from the fixtures.
  'fixture-devices': { video: 'video/obama_1.mjpeg', audio: 'audio/spk1688_M_1_48k.wav' },
};

function chromium(feed) {
  return chromeLauncher({
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${resolve(FIXTURES, feed.video)}`,
        `--use-file-for-fake-audio-capture=${resolve(FIXTURES, feed.audio)}`,
      ],
    },
  });
}

const firefox = puppeteerLauncher({
  launchOptions: {
    browser: 'firefox',
    executablePath: '/usr/bin/firefox-esr',
    headless: true,
    extraPrefsFirefox: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      'media.autoplay.default': 0,
      'media.autoplay.block-webaudio': false,
      // Without a sound server every AudioContext would stay suspended.
      'media.cubeb.force_mock_context': true,
    },
  },
});

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

async function webkit() {
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: 'ignore' });
  process.on('exit', () => driver.kill());
  // Wait until the driver accepts connections.
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return webdriverLauncher({
    hostname: '127.0.0.1',
    port,
    path: '/',
    capabilities: {
      browserName: 'MiniBrowser',
      'wdio:enforceWebDriverClassic': true,
      'webkitgtk:browserOptions': {
        binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
        args: ['--automation', '--enable-media-stream=true', '--enable-mock-capture-devices=true', '--autoplay-policy=allow'],
      },
    },
  });
}

/** Serves ../shared/fixtures at /fixtures/, so tests compare what the devices give with the files. */
function fixtures(context, next) {
  if (!context.path.startsWith('/fixtures/')) return next();
  const file = resolve(FIXTURES, `.${decodeURIComponent(context.path.slice('/fixtures'.length))}`);
  if (!file.startsWith(FIXTURES) || !existsSync(file) || !statSync(file).isFile()) return next();
  context.type = { '.wav': 'audio/wav', '.jpg': 'image/jpeg', '.mjpeg': 'video/x-motion-jpeg' }[extname(file)] ?? 'application/octet-stream';
  context.body = createReadStream(file);
}

/**
 * Source modules are TypeScript: a `.js` URL that is not a file (the voice worklet, loaded with
 * addModule from `new URL('./x.js', import.meta.url)` as the build lays it out) is served from its `.ts`.
 */
function typescriptSources(context, next) {
  if (context.path.startsWith('/src/') && context.path.endsWith('.js') && !existsSync(resolve(`.${context.path}`)) && existsSync(resolve(`.${context.path.replace(/\.js$/, '.ts')}`))) {
    context.url = context.url.replace(/\.js(?=$|\?)/, '.ts');
  }
  return next();
}

const html = (feed) => (testFramework) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body>
  <script>window.FEED = ${JSON.stringify(feed ?? null)};</script>
  <script type="module" src="${testFramework}"></script></body></html>`;

// TEST_FILES=a.test.ts,b.test.ts runs those files alone, each in the engines whose folders hold it.
const only = process.env.TEST_FILES?.split(',');
const pick = (files) => (only ? only.filter((file) => files.some((glob) => file.startsWith(glob.slice(0, glob.indexOf('**'))))) : files);
const shared = ['test/browser/shared/**/*.test.ts'];
const groups = [];
if (ENGINES.includes('chromium')) {
  for (const [name, feed] of Object.entries(CHROMIUM_FEEDS)) {
    groups.push({
      name: `chromium-${name}`,
      files: pick([...(name === 'fixture-devices' ? shared : []), `test/browser/chromium/${name}/**/*.test.ts`]),
      browsers: [chromium(feed)],
      testRunnerHtml: html(feed),
    });
  }
}
if (ENGINES.includes('firefox')) groups.push({ name: 'firefox', files: pick([...shared, 'test/browser/firefox/**/*.test.ts']), browsers: [firefox] });
if (ENGINES.includes('webkit')) groups.push({ name: 'webkit', files: pick([...shared, 'test/browser/webkit/**/*.test.ts']), browsers: [await webkit()] });

export default {
  nodeResolve: true,
  // The WebDriver launcher runs files in iframes above 1, where the camera needs allow= attributes.
  concurrency: 1,
  concurrentBrowsers: 1,
  staticLogging: true,
  filterBrowserLogs: ({ args }) => !String(args[0]).startsWith('Lit is in dev mode'),
  testFramework: { config: { timeout: 20000 } },
  // One file records 50 voice widgets for 3 s each, to show that none is retained.
  testsFinishTimeout: 300_000,
  testRunnerHtml: html(null),
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }), keysPlugin(), heapPlugin()],
  middleware: [fixtures, typescriptSources, cutHost, powSiteMiddleware],
  groups,
};
