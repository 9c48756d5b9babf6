#!/usr/bin/env node
// Sizes, min+gzip and min+brotli, measured one way for everyone: esbuild bundles an entry that
// imports the package as a user would, minified for browsers. Ours is measured through the
// published subpaths (Lit included), the anchors from `npm pack` into a temporary folder (never
// our dependencies): their own code, with what they import left out, so their figures are lower
// bounds. Figures, not a test. Usage: node test/bench/sizes.mjs   (after npm run build)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const ANCHORS = [
  { name: '@descope/web-component', entry: "import '@descope/web-component';" },
  { name: 'firebaseui', entry: "import * as ui from 'firebaseui'; console.log(ui);" },
  { name: '@aws-amplify/ui-react-liveness', entry: "import { FaceLivenessDetector } from '@aws-amplify/ui-react-liveness'; console.log(FaceLivenessDetector);" },
  { name: 'input-otp', entry: "import { OTPInput } from 'input-otp'; console.log(OTPInput);" },
];

const compressed = (bytes) => ({
  min: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});

/** Bundles `source` as an entry in `dir`, minified for browsers; `external` keeps imports out. */
async function bundle(dir, source, external = []) {
  const result = await build({
    stdin: { contents: source, resolveDir: dir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    external,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return compressed(result.outputFiles[0].contents);
}

export async function measureSizes() {
  const rows = [];
  // The repository is the package: esbuild resolves `verify-widgets/...` through its exports map.
  for (const name of ['otp-verify', 'face-verify', 'voice-verify']) {
    rows.push({ what: `<${name}> alone, Lit included`, ...(await bundle(repo, `import 'verify-widgets/${name}';`)) });
  }
  rows.push({ what: 'all three, Lit included', ...(await bundle(repo, ['otp', 'face', 'voice'].map((n) => `import 'verify-widgets/${n}-verify';`).join('\n'))) });
  rows.push({ what: 'the CDN file (dist/cdn/verify-widgets.js)', ...compressed(readFileSync(join(repo, 'dist/cdn/verify-widgets.js'))) });
  rows.push({ what: '<otp-verify> own code (Lit left out)', ...(await bundle(repo, "import 'verify-widgets/otp-verify';", ['lit', 'lit/*', '@lit/*', 'tslib'])) });

  const work = mkdtempSync(join(tmpdir(), 'anchors-'));
  try {
    for (const anchor of ANCHORS) {
      const folder = join(work, anchor.name.replace('/', '__'));
      mkdirSync(join(folder, 'node_modules', anchor.name), { recursive: true });
      const tarball = execFileSync('npm', ['pack', anchor.name, '--pack-destination', folder, '--loglevel=error'], { encoding: 'utf8' }).trim().split('\n').at(-1);
      execFileSync('tar', ['xzf', join(folder, tarball), '-C', join(folder, 'node_modules', anchor.name), '--strip-components=1']);
      const { version, dependencies = {}, peerDependencies = {} } = JSON.parse(readFileSync(join(folder, 'node_modules', anchor.name, 'package.json'), 'utf8'));
      const theirs = [...Object.keys(dependencies), ...Object.keys(peerDependencies)].flatMap((dep) => [dep, `${dep}/*`]);
      writeFileSync(join(folder, 'package.json'), '{"type":"module"}');
      rows.push({ what: `${anchor.name}@${version} own code`, anchor: true, ...(await bundle(folder, anchor.entry, theirs)) });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

/** Where one widget's bundle goes, by module group: minified bytes and their share (gzip has no per-module split). */
const GROUPS = [
  ['Lit', /node_modules\/(lit|lit-html|lit-element|@lit)\//],
  ['strings', /translations\//],
  ['styles', /styles\.js$/],
  ['templates', /templates\.js$|account-actions|failure-text/],
  ['phone numbers', /dial-codes/],
  ['flows', /\.flow\.js$|flow-controller/],
  ['controllers', /controller|contact-form|country-list|webotp|recording|frame-sampler|snapshot|face-detector|resampler|voice-frames|voice-quality|frame-quality/],
  ['elements', /-verify\.js$|verify-element|biometric-element|define\.js$/],
  ['core, events, host calls', /core\/|events\/|host-api|localize|css-vars|bidi|find-code/],
];

export async function measureAnatomy(name = 'otp-verify') {
  const result = await build({
    stdin: { contents: `import 'verify-widgets/${name}';`, resolveDir: repo, loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent', metafile: true,
  });
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs);
  const total = inputs.reduce((n, [, v]) => n + v.bytesInOutput, 0);
  const groups = new Map();
  for (const [file, { bytesInOutput }] of inputs) {
    const group = GROUPS.find(([, pattern]) => pattern.test(file))?.[0] ?? 'other';
    groups.set(group, (groups.get(group) ?? 0) + bytesInOutput);
  }
  return { name, total, groups: [...groups].sort((a, b) => b[1] - a[1]) };
}

export function formatAnatomy({ name, total, groups }) {
  return [
    `<${name}>, minified (${(total / 1024).toFixed(1)} KB of module code)`,
    `| ${'group'.padEnd(28)} | ${'min KB'.padStart(7)} | ${'share'.padStart(6)} |`,
    `|${'-'.repeat(30)}|${'-'.repeat(9)}|${'-'.repeat(8)}|`,
    ...groups.map(([group, bytes]) => `| ${group.padEnd(28)} | ${(bytes / 1024).toFixed(1).padStart(7)} | ${`${((100 * bytes) / total).toFixed(1)}%`.padStart(6)} |`),
  ].join('\n');
}

export function formatSizes(rows) {
  const kb = (n) => (n / 1024).toFixed(1).padStart(7);
  const ours = rows.find((r) => r.what.startsWith('<otp-verify> own code'));
  const lines = [
    `| ${'bundle'.padEnd(52)} | ${'min KB'.padStart(7)} | ${'gzip KB'.padStart(7)} | ${'br KB'.padStart(7)} | ${'gzip vs our OTP own code'.padStart(24)} |`,
    `|${'-'.repeat(54)}|${'-'.repeat(9)}|${'-'.repeat(9)}|${'-'.repeat(9)}|${'-'.repeat(26)}|`,
  ];
  for (const row of rows) {
    const ratio = row.anchor ? `${(row.gzip / ours.gzip).toFixed(1)}x`.padStart(24) : ''.padStart(24);
    lines.push(`| ${row.what.padEnd(52)} | ${kb(row.min)} | ${kb(row.gzip)} | ${kb(row.brotli)} | ${ratio} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatSizes(await measureSizes()));
  for (const name of ['otp-verify', 'face-verify', 'voice-verify']) console.log(`\n${formatAnatomy(await measureAnatomy(name))}`);
}
