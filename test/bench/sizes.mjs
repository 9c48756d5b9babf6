#!/usr/bin/env node
// Sizes, min+gzip and min+brotli, measured one way for everyone: esbuild bundles an entry that
// imports the package as a user would, minified for browsers. Ours is measured through the
// published subpaths (Lit included), the anchors from `npm pack` into a temporary folder (never
// our dependencies): their own code, with what they import left out, so their figures are lower
// bounds. Figures, not a test. Usage: node test/bench/sizes.mjs   (after npm run build)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { eachMapping, TraceMap } from '@jridgewell/trace-mapping';

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

/** Files each compressed alone, as each is sent, and their sizes summed. */
const summed = (files) => files.map(compressed).reduce((a, b) => ({ min: a.min + b.min, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), { min: 0, gzip: 0, brotli: 0 });

/** Bundles `source` as an entry in `dir`, minified for browsers, as every figure here is measured; `more` adds esbuild options. */
const browserBuild = (dir, source, more = {}) =>
  build({
    stdin: { contents: source, resolveDir: dir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    ...more,
  });

/**
 * The sizes of that bundle as a page loads it first: split as a user's bundler splits it, the entry
 * and the chunks it imports statically, each compressed on its own as each is sent; `lazy`, the
 * chunks it imports only when needed (the friction code). `external` keeps imports out.
 */
async function bundle(dir, source, external = []) {
  const { outputFiles, metafile } = await browserBuild(dir, source, { external, splitting: true, outdir: 'out', metafile: true });
  const contents = Object.fromEntries(outputFiles.map((file) => [relative(process.cwd(), file.path), file.contents]));
  const outputs = Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.js'));
  const initial = new Set([outputs.find(([, output]) => output.entryPoint)[0]]);
  for (const path of initial) for (const { path: next, kind } of metafile.outputs[path].imports) if (kind === 'import-statement' && !next.startsWith('lit') && contents[next]) initial.add(next);
  const sum = (paths) => summed(paths.map((path) => contents[path]));
  return { ...sum([...initial]), lazy: sum(outputs.map(([path]) => path).filter((path) => !initial.has(path))) };
}

/** Each widget's budget (DESIGN.md) and last round's figure, in gzip KiB, printed beside today's. */
const TARGETS = {
  'otp-verify': { budget: 16, last: 19.2 },
  'face-verify': { budget: 15, last: 16.6 },
  'voice-verify': { budget: 15, last: 17.0 },
  all: { budget: 24, last: 28.8 },
};

/** The CDN file with the chunks it imports statically (a page loads them at once); `lazy`, the ones it imports when needed. */
function cdnFile() {
  const dir = join(repo, 'dist/cdn');
  const text = (file) => readFileSync(join(dir, file), 'utf8');
  const imported = (file, pattern) => [...text(file).matchAll(pattern)].map((m) => m[1]);
  const initial = new Set(['verify-widgets.js']);
  for (const file of initial) for (const next of imported(file, /(?:^|[;}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+)["']/g)) initial.add(next);
  const lazy = [...initial].flatMap((file) => imported(file, /import\(\s*["']\.\/([^"']+)["']\s*\)/g)).filter((file) => !initial.has(file));
  const sum = (files) => summed(files.map((file) => readFileSync(join(dir, file))));
  return { ...sum([...initial]), lazy: sum([...new Set(lazy)]) };
}

export async function measureSizes() {
  const rows = [];
  // The repository is the package: esbuild resolves `verify-widgets/...` through its exports map.
  for (const name of ['otp-verify', 'face-verify', 'voice-verify']) {
    rows.push({ what: `<${name}> alone, Lit included`, ...TARGETS[name], ...(await bundle(repo, `import 'verify-widgets/${name}';`)) });
  }
  rows.push({ what: 'all three, Lit included', ...TARGETS.all, ...(await bundle(repo, ['otp', 'face', 'voice'].map((n) => `import 'verify-widgets/${n}-verify';`).join('\n'))) });
  rows.push({ what: 'the CDN file (dist/cdn/verify-widgets.js)', ...cdnFile() });
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

/** Where one widget's bundle goes, by module group. */
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
const groupOf = (file) => GROUPS.find(([, pattern]) => pattern.test(file))?.[0] ?? 'other';
const gzip = (text) => gzipSync(text, { level: 9 }).length;

/**
 * Each group's and each module's minified bytes, and the gzip bytes it adds: gzip has no
 * per-module split, so each is left out of the bundle's text (found through the source map) and
 * the bundle gzipped again. The additions do not sum to the whole: what modules share, gzip
 * compresses once.
 */
export async function measureAnatomy(name = 'otp-verify') {
  // The entry as a page loads it first, split as bundle() splits it: the friction chunk left out.
  const result = await browserBuild(repo, `import 'verify-widgets/${name}';`, { sourcemap: 'external', splitting: true, outdir: 'out' });
  const code = result.outputFiles.find((f) => f.path.endsWith('/stdin.js')).text;
  const map = new TraceMap(result.outputFiles.find((f) => f.path.endsWith('/stdin.js.map')).text);
  // The source of each stretch of output: from one mapping to the next on its line.
  const marks = [];
  eachMapping(map, (m) => marks.push(m));
  const lines = code.split('\n');
  const stretches = marks.map((m, i) => {
    const next = marks[i + 1];
    const end = next?.generatedLine === m.generatedLine ? next.generatedColumn : lines[m.generatedLine - 1].length;
    return { line: m.generatedLine - 1, start: m.generatedColumn, end, file: m.source ?? '' };
  });
  const without = (leftOut) => {
    const kept = lines.map(() => []);
    for (const s of stretches) if (!leftOut(s.file)) kept[s.line].push(lines[s.line].slice(s.start, s.end));
    return kept.map((parts) => parts.join('')).join('\n');
  };
  const total = gzip(code);
  const sizeOf = (leftOut) => ({
    min: stretches.reduce((n, s) => n + (leftOut(s.file) ? s.end - s.start : 0), 0),
    gzip: total - gzip(without(leftOut)),
  });
  const files = [...new Set(stretches.map((s) => s.file))];
  const groups = [...new Set(files.map(groupOf))].map((group) => ({ what: group, ...sizeOf((file) => groupOf(file) === group) }));
  const own = files.filter((file) => groupOf(file) !== 'Lit').map((file) => ({ what: file.replace(/^(.*\/)?(src|dist)\//, ''), ...sizeOf((f) => f === file) }));
  const byGzip = (a, b) => b.gzip - a.gzip;
  return { name, min: code.length, gzip: total, groups: groups.sort(byGzip), largest: own.sort(byGzip).slice(0, Number(process.env.ANATOMY_ROWS ?? 10)) };
}

export function formatAnatomy({ name, min, gzip: total, groups, largest }) {
  const kb = (n) => (n / 1024).toFixed(1).padStart(7);
  const table = (title, rows) => [
    `| ${title.padEnd(44)} | ${'min KB'.padStart(7)} | ${'gzip KB it adds'.padStart(15)} |`,
    `|${'-'.repeat(46)}|${'-'.repeat(9)}|${'-'.repeat(17)}|`,
    ...rows.map((r) => `| ${r.what.padEnd(44)} | ${kb(r.min)} | ${`${kb(r.gzip)} (${`${Math.round((100 * r.gzip) / total)}%`.padStart(3)})`.padStart(15)} |`),
  ];
  return [
    `<${name}>: ${kb(min).trim()} KB minified, ${kb(total).trim()} KB gzip; what each part adds to the gzip size (left out, gzipped again)`,
    ...table('module group', groups),
    '',
    ...table('its largest own modules', largest),
  ].join('\n');
}

export function formatSizes(rows) {
  const kb = (n) => (n / 1024).toFixed(1).padStart(7);
  const ours = rows.find((r) => r.what.startsWith('<otp-verify> own code'));
  const lines = [
    `| ${'bundle (first load)'.padEnd(52)} | ${'min KB'.padStart(7)} | ${'gzip KB'.padStart(7)} | ${'br KB'.padStart(7)} | ${'budget'.padStart(7)} | ${'last round'.padStart(10)} | ${'lazy gzip KB'.padStart(12)} | ${'gzip vs our OTP own code'.padStart(24)} |`,
    `|${'-'.repeat(54)}|${'-'.repeat(9)}|${'-'.repeat(9)}|${'-'.repeat(9)}|${'-'.repeat(9)}|${'-'.repeat(12)}|${'-'.repeat(14)}|${'-'.repeat(26)}|`,
  ];
  for (const row of rows) {
    const ratio = row.anchor ? `${(row.gzip / ours.gzip).toFixed(1)}x`.padStart(24) : ''.padStart(24);
    const target = (n) => (n === undefined ? '' : n.toFixed(1));
    const lazy = row.lazy?.gzip ? kb(row.lazy.gzip).trim() : '';
    lines.push(`| ${row.what.padEnd(52)} | ${kb(row.min)} | ${kb(row.gzip)} | ${kb(row.brotli)} | ${target(row.budget).padStart(7)} | ${target(row.last).padStart(10)} | ${lazy.padStart(12)} | ${ratio} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatSizes(await measureSizes()));
  for (const name of ['otp-verify', 'face-verify', 'voice-verify']) console.log(`\n${formatAnatomy(await measureAnatomy(name))}`);
}
