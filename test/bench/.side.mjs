// Side by side: the package before issue 18 (/tmp/before, 9c564d2) and now, in one run.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
const repos = { before: '/tmp/before', now: '/work/main' };
async function gz(repo, src) {
  const r = await build({ stdin: { contents: src, resolveDir: repo, loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent', define: { 'process.env.NODE_ENV': '"production"' } });
  return gzipSync(r.outputFiles[0].contents, { level: 9 }).length / 1024;
}
const rows = [
  ['<otp-verify> alone, Lit included', (repo) => gz(repo, "import 'verify-widgets/otp-verify';")],
  ['<face-verify> alone', (repo) => gz(repo, "import 'verify-widgets/face-verify';")],
  ['<voice-verify> alone', (repo) => gz(repo, "import 'verify-widgets/voice-verify';")],
  ['all three', (repo) => gz(repo, ['otp', 'face', 'voice'].map((n) => `import 'verify-widgets/${n}-verify';`).join('\n'))],
  ['the CDN file (English)', async (repo) => gzipSync(readFileSync(`${repo}/dist/cdn/verify-widgets.js`), { level: 9 }).length / 1024],
];
console.log('| measure | before KB | now KB |\n|---|---|---|');
for (const [what, f] of rows) console.log(`| ${what} | ${(await f(repos.before)).toFixed(1)} | ${(await f(repos.now)).toFixed(1)} |`);
const q = (v, p) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.ceil(p * v.length) - 1)].toFixed(1);
const results = {};
for (const [name, repo] of Object.entries(repos)) results[name] = await (await import(`${repo}/test/bench/browser.mjs`)).measureBrowser(10);
console.log('\n| measure (Chromium, 10 runs) | before median / p95 ms | now median / p95 ms |\n|---|---|---|');
const line = (what, pick) => console.log(`| ${what} | ${q(pick(results.before), 0.5)} / ${q(pick(results.before), 0.95)} | ${q(pick(results.now), 0.5)} / ${q(pick(results.now), 0.95)} |`);
line('first render of <otp-verify>, later instances', (r) => r.firstRender['otp-verify']);
line('first render of <otp-verify>, fresh page', (r) => r.freshRender);
line('a digit typed in the phone field', (r) => r.keystroke);
line('stop to base64 WAV (5 s)', (r) => r.stop);
line('shutter to base64 JPEG', (r) => r.shutter);
