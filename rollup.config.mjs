import typescript from '@rollup/plugin-typescript';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import license from 'rollup-plugin-license';
import minifyLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { builtinModules } from 'node:module';
import { cpSync } from 'node:fs';
import pkg from './package.json' with { type: 'json' };

/** The languages the package ships besides English, each registered by its own module. */
const LOCALES = ['ar', 'ur', 'fa', 'hi', 'bn', 'fil', 'id', 'fr', 'tr'];
const localeInputs = Object.fromEntries(LOCALES.map((code) => [`locales/${code}`, `src/locales/${code}.ts`]));

// Dependencies stay external in the package: the user's install (or bundler) provides them. The
// server's and the emulator's libraries are devDependencies bundled into their builds, so that an
// install for the widgets alone does not fetch them (libphonenumber-js alone is 13 MB installed).
const dependencies = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)];
const external = (id) => dependencies.some((dep) => id === dep || id.startsWith(`${dep}/`));

const ts = (outDir = 'dist', declaration = true) =>
  typescript({
    tsconfig: './tsconfig.json',
    compilerOptions: { noEmit: false, declaration, ...(declaration ? { declarationDir: outDir } : {}), outDir, rootDir: 'src' },
  });

// Lit's html`` and css`` literals lose their indentation and comments at build time; a literal
// the minifier cannot parse fails the build rather than ship half-minified.
const literals = () => minifyLiterals({ failOnError: true });

/** The recorder worklet: one self-contained file, as a worklet loads without a bundler's help. */
const worklet = (dir, plugins = []) => ({
  input: { 'recorder.worklet': 'src/voice-verify/recorder.worklet.ts' },
  output: { dir, format: 'es' },
  plugins: [ts(dir, false), ...plugins],
});

/**
 * A build for Node (the host handler, the emulator): one file per entry point, with its libraries
 * and its shared chunks inside its own folder, and their licences beside, so that nothing a server
 * loads sits among the browser's modules and no browser module among a server's.
 */
const forNode = (audience, entries, plugins = []) => ({
  input: Object.fromEntries(Object.entries(entries).map(([entry, source]) => [`${audience}/${entry}`, `src/${audience}/${source.includes('.') ? source : `${source}.ts`}`])),
  // A plain-JavaScript worker keeps its .mjs name, which the code that starts it uses in the source and the build alike.
  output: { dir: 'dist', format: 'es', entryFileNames: (chunk) => (chunk.facadeModuleId?.endsWith('.mjs') ? '[name].mjs' : '[name].js'), chunkFileNames: `${audience}/chunks/[name]-[hash].js` },
  external,
  plugins: [nodeResolve(), commonjs(), json(), ts(), license({ thirdParty: { output: `dist/${audience}/THIRD-PARTY-LICENSES.txt` } }), ...plugins],
});

/**
 * The passive print and screen model's ONNX files (made by models/minifasnet/export.py) and their
 * licence, and the JPEG decoder's WebAssembly with the notice its licence asks for, in
 * dist/models/, where the face workers of the server and the service look for them.
 */
const faceModelFiles = () => ({
  name: 'face-model-files',
  writeBundle: () => {
    for (const file of ['minifasnet-v2-2.7.onnx', 'minifasnet-v1se-4.0.onnx', 'LICENSE', 'SHA256SUMS']) cpSync(`models/minifasnet/${file}`, `dist/models/${file === 'LICENSE' ? 'MiniFASNet-LICENSE.txt' : file}`);
    cpSync('node_modules/@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm', 'dist/models/mozjpeg_dec.wasm');
    cpSync('models/mozjpeg-NOTICE.txt', 'dist/models/mozjpeg-NOTICE.txt');
  },
});

export default [
  forNode('server', { index: 'index', node: 'node/index', 'face-worker': 'node/face-worker.mjs', 'digit-worker': 'node/digit-worker.mjs' }, [faceModelFiles()]),
  forNode('emulator', { index: 'index', cli: 'cli' }),
  // The stand-alone service: one file with its libraries inside (ioredis too, which the server
  // entries leave to the host), so that `npx verify-widgets serve` needs nothing else installed.
  {
    input: { 'service/cli': 'src/service/cli.ts' },
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', inlineDynamicImports: true },
    external: (id) => builtinModules.includes(id.replace(/^node:/, '')),
    plugins: [nodeResolve({ preferBuiltins: true }), commonjs(), json(), ts('dist', false), license({ thirdParty: { output: 'dist/service/THIRD-PARTY-LICENSES.txt' } })],
    // ioredis's modules import each other in cycles it resolves itself; ours would still be reported.
    onwarn(warning, warn) {
      if (warning.code === 'CIRCULAR_DEPENDENCY' && warning.ids?.every((id) => id.includes('/node_modules/'))) return;
      warn(warning);
    },
  },
  // Its face models' worker and its digit recogniser's, beside it, as the face pool and the digit
  // listener start them (the models themselves are installed beside).
  {
    input: { 'service/face-worker': 'src/server/node/face-worker.mjs', 'service/digit-worker': 'src/server/node/digit-worker.mjs' },
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].mjs' },
    external: (id) => builtinModules.includes(id.replace(/^node:/, '')),
    plugins: [nodeResolve({ preferBuiltins: true }), commonjs(), license({ thirdParty: { output: 'dist/service/FACE-WORKER-LICENSES.txt' } })],
  },
  // The service's settings alone, for the docs' configuration reference (test/build/docs.mjs).
  {
    input: { 'service/config': 'src/service/config.ts' },
    output: { dir: 'dist', format: 'es' },
    plugins: [ts('dist', false)],
  },
  // The widgets for bundlers: one module per source file (so a bundler keeps only what is used),
  // Lit external; `<name>/define.js` registers, everything else has no side effect.
  {
    input: {
      index: 'src/index.ts',
      'otp-verify/define': 'src/otp-verify/define.ts',
      'face-verify/define': 'src/face-verify/define.ts',
      'voice-verify/define': 'src/voice-verify/define.ts',
      ...localeInputs,
      'face-verify/model-face-detector': 'src/face-verify/model-face-detector.ts',
      'react/index': 'src/react/index.ts',
      'react/otp-verify': 'src/react/otp-verify.ts',
      'react/face-verify': 'src/react/face-verify.ts',
      'react/voice-verify': 'src/react/voice-verify.ts',
    },
    output: {
      dir: 'dist',
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: 'src',
      // Rollup drops module directives; React's server components need the entries marked.
      banner: (chunk) => (chunk.isEntry && chunk.fileName.startsWith('react/') && chunk.fileName !== 'react/events.js' ? "'use client';" : ''),
    },
    onwarn(warning, warn) {
      if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('use client')) return;
      warn(warning);
    },
    external,
    plugins: [ts(), literals()],
  },
  worklet('dist/voice-verify'),
  // The CDN file: the three widgets with Lit inside, minified, for one script tag, and the worklet
  // beside it.
  {
    input: { 'verify-widgets': 'src/cdn.ts' },
    output: { dir: 'dist/cdn', format: 'es' },
    // The friction chunk imports from the file itself, rather than both from a third file.
    preserveEntrySignatures: 'allow-extension',
    plugins: [nodeResolve({ browser: true }), ts('dist/cdn', false), literals(), terser({ format: { comments: false } })],
  },
  worklet('dist/cdn', [terser()]),
  // Languages for the CDN file, each a file beside it: they register through the global object.
  {
    input: localeInputs,
    output: { dir: 'dist/cdn', format: 'es' },
    plugins: [ts('dist/cdn', false), terser({ format: { comments: false } })],
  },
  // The model face detector for script-tag pages; its library (already minified) is a separate
  // chunk, loaded only when the first frame is measured.
  {
    input: { 'face-detector': 'src/face-verify/model-face-detector.ts' },
    output: { dir: 'dist/cdn', format: 'es', chunkFileNames: '[name]-[hash].js' },
    plugins: [nodeResolve({ browser: true }), ts('dist/cdn', false)],
  },
];
