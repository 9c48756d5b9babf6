import typescript from '@rollup/plugin-typescript';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { builtinModules } from 'node:module';
import pkg from './package.json' with { type: 'json' };

// Server-side code keeps its dependencies external: the host's own install provides them.
const serverExternal = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies),
];

const ts = (outDir = 'dist', declaration = true) =>
  typescript({
    tsconfig: './tsconfig.json',
    compilerOptions: { noEmit: false, declaration, ...(declaration ? { declarationDir: outDir } : {}), outDir, rootDir: 'src' },
  });

export default [
  {
    input: {
      'server/index': 'src/server/index.ts',
      'emulator/index': 'src/emulator/index.ts',
      'emulator/cli': 'src/emulator/cli.ts',
    },
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'internal/[name]-[hash].js' },
    external: (id) => serverExternal.some((dep) => id === dep || id.startsWith(`${dep}/`)),
    plugins: [ts()],
  },
  // Widgets with Lit inside, for a page that loads one script (the demo; issue 7 makes the CDN file).
  {
    input: {
      'otp-verify': 'src/otp-verify/define.ts',
      'face-verify': 'src/face-verify/define.ts',
      'face-detector': 'src/face-verify/model-face-detector.ts',
      'voice-verify': 'src/voice-verify/define.ts',
    },
    output: { dir: 'dist/cdn', format: 'es', chunkFileNames: '[name]-[hash].js' },
    plugins: [nodeResolve({ browser: true }), ts('dist/cdn', false)],
  },
  // The voice recorder's worklet: one self-contained file beside the module that loads it
  // (`new URL('./recorder.worklet.js', import.meta.url)`), as a worklet cannot share chunks.
  {
    input: { 'recorder.worklet': 'src/voice-verify/recorder.worklet.ts' },
    output: { dir: 'dist/cdn', format: 'es' },
    plugins: [ts('dist/cdn', false)],
  },
];
