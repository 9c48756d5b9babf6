#!/usr/bin/env node
// Sizes, min+gzip and min+brotli, measured one way for everyone: esbuild bundles an entry file
// that imports the package as a user's would, minified for browsers, split as Vite, Rollup and
// webpack split at a dynamic import; our widgets' first loads are measured through Vite too. Ours is the packed tarball installed in a fresh folder (its published
// subpaths, Lit included); the anchors are `npm pack`ed into a temporary folder (never our
// dependencies): their own code, with what they import left out, so their figures are lower bounds.
// Figures, not a test. Usage: node test/bench/sizes.mjs [package.tgz]   (after npm run build)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

/** The file a site's build starts from: `source` written as `main.js` in `dir`, as a site keeps its entry. */
const ENTRY = 'main.js';
function entryFile(dir, source) {
  writeFileSync(join(dir, ENTRY), source);
  return join(dir, ENTRY);
}

/**
 * Bundles `source` as a site does, from its entry file in `dir` (esbuild splits a file entry and
 * its stdin alike today, but a site has a file), minified for browsers, as every figure here is
 * measured; `more` adds esbuild options.
 */
const browserBuild = (dir, source, more = {}) =>
  build({
    entryPoints: [entryFile(dir, source)],
    absWorkingDir: dir,
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

/** The package as a site installs it: this repository packed (or the tarball given), installed from the tarball into a fresh folder. */
export function installPackage(tarball) {
  const work = mkdtempSync(join(tmpdir(), 'sizes-'));
  const npm = (cwd, ...args) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const packed = tarball ?? join(work, npm(repo, 'pack', '--ignore-scripts', '--pack-destination', work).trim().split('\n').at(-1));
  const dir = join(work, 'site');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), '{"name":"site","private":true,"type":"module"}');
  npm(dir, 'install', packed);
  return { dir, remove: () => rmSync(work, { recursive: true, force: true }) };
}

/** The chunks an output imports statically, itself included, transitively: what arrives with it. */
function withImports(outputs, start) {
  const files = new Set(start);
  for (const path of files) for (const { path: next, kind } of outputs[path].imports) if (kind === 'import-statement' && outputs[next]) files.add(next);
  return files;
}

/**
 * That bundle's sizes, each file compressed on its own as each is sent and summed: `first`, the
 * entry and the chunks it imports statically (what a page loads before anyone presses anything);
 * `flow`, the first load with the later steps (and the light's colours) and what they import
 * (what a person's whole flow fetches); `everything`, every file it may fetch (the phone's handoff and the proof of work
 * too); `single`, the same code bundled as one file. `external` keeps imports out.
 */
async function bundle(dir, source, external = []) {
  const { outputFiles, metafile } = await browserBuild(dir, source, { external, splitting: true, outdir: 'out', metafile: true });
  const contents = Object.fromEntries(outputFiles.map((file) => [relative(dir, file.path), file.contents]));
  const outputs = Object.fromEntries(Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.js')));
  const entries = (pattern) => Object.keys(outputs).filter((path) => pattern.test(outputs[path].entryPoint ?? ''));
  const sum = (paths) => summed([...paths].map((path) => contents[path]));
  const first = withImports(outputs, entries(new RegExp(`^${ENTRY}$`)));
  // The later steps, and the light challenge's colours a face flow with light fetches besides.
  const later = entries(/later-steps\.js$|show-light\.js$/);
  const [single] = (await browserBuild(dir, source, { external })).outputFiles;
  return { ...sum(first), ...(later.length ? { flow: sum(withImports(outputs, [...first, ...later])) } : {}), everything: sum(Object.keys(outputs)), single: compressed(single.contents) };
}

/**
 * The first load as Vite builds the same entry file for production (its defaults: Rolldown
 * splitting at each dynamic import, minified), from the build's manifest: the entry's chunk and
 * those it imports statically, each gzipped alone. Vite is installed beside the package once.
 */
async function viteFirstLoad(dir, source) {
  const require = createRequire(join(dir, 'package.json'));
  const { build: viteBuild } = await import(pathToFileURL(require.resolve('vite')).href);
  entryFile(dir, source);
  const outDir = join(dir, 'vite-out');
  rmSync(outDir, { recursive: true, force: true });
  await viteBuild({ root: dir, logLevel: 'silent', configFile: false, build: { outDir, manifest: 'manifest.json', modulePreload: false, rollupOptions: { input: join(dir, ENTRY) } } });
  const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8'));
  const keys = new Set(Object.keys(manifest).filter((key) => manifest[key].isEntry));
  for (const key of keys) for (const next of manifest[key].imports ?? []) keys.add(next);
  return { vite: summed([...keys].map((key) => readFileSync(join(outDir, manifest[key].file)))) };
}

/** Each widget's first-load budget (DESIGN.md) and last round's figure, gzip KiB, measured as above. */
const TARGETS = {
  'otp-verify': { budget: 16, last: 18.7 },
  'face-verify': { budget: 15, last: 19.2 },
  'voice-verify': { budget: 15, last: 18.5 },
  all: { budget: 24, last: 28.8 },
  cdn: { budget: 24, last: 27.6 },
};
/** What a whole flow may fetch, at most, as a multiple of the first load. */
export const FLOW_BUDGET = 1.5;

/** The CDN file with the chunks it imports statically (a page loads them at once); `everything`, with those it imports when needed. */
function cdnFile(dir) {
  const text = (file) => readFileSync(join(dir, file), 'utf8');
  const imported = (file, pattern) => [...text(file).matchAll(pattern)].map((m) => m[1]);
  const staticImports = /(?:^|[;}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+)["']/g;
  const closure = (start) => {
    const files = new Set(start);
    for (const file of files) for (const next of imported(file, staticImports)) files.add(next);
    return files;
  };
  const first = closure(['verify-widgets.js']);
  const later = [...closure([...first].flatMap((file) => imported(file, /import\(\s*["']\.\/([^"']+)["']\s*\)/g)))];
  const sum = (files) => summed([...files].map((file) => readFileSync(join(dir, file))));
  return { ...sum(first), everything: sum(new Set([...first, ...later])) };
}

export async function measureSizes(tarball) {
  const site = installPackage(tarball);
  const rows = [];
  const anatomies = [];
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'vite@^8'], { cwd: site.dir, stdio: 'ignore' });
    const measured = async (source) => ({ ...(await bundle(site.dir, source)), ...(await viteFirstLoad(site.dir, source)) });
    for (const name of ['otp-verify', 'face-verify', 'voice-verify']) {
      rows.push({ what: `<${name}>, Lit included`, ...TARGETS[name], ...(await measured(`import 'verify-widgets/${name}';`)) });
    }
    rows.push({ what: 'all three, Lit included', ...TARGETS.all, ...(await measured(['otp', 'face', 'voice'].map((n) => `import 'verify-widgets/${n}-verify';`).join('\n'))) });
    rows.push({ what: 'the CDN file (dist/cdn/verify-widgets.js)', ...TARGETS.cdn, ...cdnFile(join(site.dir, 'node_modules/verify-widgets/dist/cdn')) });
    rows.push({ what: '<otp-verify> own code (Lit left out)', ...(await bundle(site.dir, "import 'verify-widgets/otp-verify';", ['lit', 'lit/*', '@lit/*', 'tslib'])) });
    for (const name of ['otp-verify', 'face-verify', 'voice-verify']) anatomies.push(await measureAnatomy(site.dir, name));
  } finally {
    site.remove();
  }

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
  return { rows, anatomies };
}

/** Where one widget's first load goes, by module group. */
const GROUPS = [
  ['Lit', /node_modules\/(lit|lit-html|lit-element|@lit)\//],
  ['first step (its markup, look and words)', /first-step\.js$|en\/first\.js$/],
  ['styles', /styles\.js$/],
  ['flows', /flow-controller/],
  ['controllers', /controller|contact-form|country-list|dial-codes|email/],
  ['elements', /-verify\.js$|verify-element|biometric-element|define\.js$/],
  ['core, events, host calls', /core\/|events\/|host-api|localize|css-vars|bidi|on-demand|handoff-host/],
];
const groupOf = (file) => GROUPS.find(([, pattern]) => pattern.test(file))?.[0] ?? 'other';
const gzip = (text) => gzipSync(text, { level: 9 }).length;

/** One output file's code, cut into the stretches each source module wrote (through its source map). */
function stretchesOf(code, mapText) {
  const map = new TraceMap(mapText);
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
  return { code, stretches, without };
}

/**
 * What each group and each module of a widget's first load (every file of it, as bundle() finds
 * them) weighs minified, and the gzip bytes it adds: gzip has no per-module split, so each is left
 * out of each file's text and the file gzipped again. The additions do not sum to the whole: what
 * modules share, gzip compresses once.
 */
export async function measureAnatomy(dir, name) {
  const result = await browserBuild(dir, `import 'verify-widgets/${name}';`, { sourcemap: 'external', splitting: true, outdir: 'out', metafile: true });
  const byPath = Object.fromEntries(result.outputFiles.map((file) => [relative(dir, file.path), file.text]));
  const outputs = Object.fromEntries(Object.entries(result.metafile.outputs).filter(([path]) => path.endsWith('.js')));
  const first = [...withImports(outputs, Object.keys(outputs).filter((path) => outputs[path].entryPoint === ENTRY))].map((path) => stretchesOf(byPath[path], byPath[`${path}.map`]));
  const sizeOf = (leftOut) => ({
    min: first.reduce((n, f) => n + f.stretches.reduce((m, s) => m + (leftOut(s.file) ? s.end - s.start : 0), 0), 0),
    gzip: first.reduce((n, f) => n + gzip(f.code) - gzip(f.without(leftOut)), 0),
  });
  const files = [...new Set(first.flatMap((f) => f.stretches.map((s) => s.file)))];
  const groups = [...new Set(files.map(groupOf))].map((group) => ({ what: group, ...sizeOf((file) => groupOf(file) === group) }));
  const own = files.filter((file) => groupOf(file) !== 'Lit').map((file) => ({ what: file.replace(/^(.*\/)?(src|dist)\//, ''), ...sizeOf((f) => f === file) }));
  const byGzip = (a, b) => b.gzip - a.gzip;
  return {
    name,
    files: first.length,
    min: first.reduce((n, f) => n + f.code.length, 0),
    gzip: first.reduce((n, f) => n + gzip(f.code), 0),
    groups: groups.sort(byGzip),
    largest: own.sort(byGzip).slice(0, Number(process.env.ANATOMY_ROWS ?? 10)),
  };
}

export function formatAnatomy({ name, files, min, gzip: total, groups, largest }) {
  const kb = (n) => (n / 1024).toFixed(1).padStart(7);
  const table = (title, rows) => [
    `| ${title.padEnd(44)} | ${'min KB'.padStart(7)} | ${'gzip KB it adds'.padStart(15)} |`,
    `|${'-'.repeat(46)}|${'-'.repeat(9)}|${'-'.repeat(17)}|`,
    ...rows.map((r) => `| ${r.what.padEnd(44)} | ${kb(r.min)} | ${`${kb(r.gzip)} (${`${Math.round((100 * r.gzip) / total)}%`.padStart(3)})`.padStart(15)} |`),
  ];
  return [
    `<${name}>'s first load: ${files} files, ${kb(min).trim()} KB minified, ${kb(total).trim()} KB gzip; what each part adds to the gzip size (left out, gzipped again)`,
    ...table('module group', groups),
    '',
    ...table('its largest own modules', largest),
  ].join('\n');
}

export function formatSizes(rows) {
  const kb = (n) => (n === undefined ? '' : (n / 1024).toFixed(1));
  const ours = rows.find((r) => r.what.startsWith('<otp-verify> own code'));
  const columns = [
    ['bundle', 44, (r) => r.what],
    ['first load: min KB', 18, (r) => kb(r.min)],
    ['gzip KB', 7, (r) => kb(r.gzip)],
    ['br KB', 6, (r) => kb(r.brotli)],
    ['budget', 6, (r) => r.budget?.toFixed(1) ?? ''],
    ['Vite first load gzip', 20, (r) => kb(r.vite?.gzip)],
    ['last round', 10, (r) => r.last?.toFixed(1) ?? ''],
    [`whole flow gzip (budget ${FLOW_BUDGET}x)`, 28, (r) => (r.flow ? `${kb(r.flow.gzip)} (${(r.flow.gzip / r.gzip).toFixed(2)}x)` : '')],
    ['everything gzip', 15, (r) => kb(r.everything?.gzip)],
    ['one file gzip', 13, (r) => kb(r.single?.gzip)],
    ['vs our OTP own code', 19, (r) => (r.anchor ? `${(r.gzip / ours.gzip).toFixed(1)}x` : '')],
  ];
  return [
    `| ${columns.map(([title, width]) => title.padEnd(width)).join(' | ')} |`,
    `|${columns.map(([, width]) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map((row) => `| ${columns.map(([, width, value], i) => (i ? value(row).padStart(width) : value(row).padEnd(width))).join(' | ')} |`),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { rows, anatomies } = await measureSizes(process.argv[2]);
  console.log(formatSizes(rows));
  for (const anatomy of anatomies) console.log(`\n${formatAnatomy(anatomy)}`);
}
