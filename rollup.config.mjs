import typescript from '@rollup/plugin-typescript';
import { builtinModules } from 'node:module';
import pkg from './package.json' with { type: 'json' };

// Server-side code keeps its dependencies external: the host's own install provides them.
const serverExternal = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies),
];

const ts = () =>
  typescript({
    tsconfig: './tsconfig.json',
    compilerOptions: { noEmit: false, declaration: true, declarationDir: 'dist', outDir: 'dist', rootDir: 'src' },
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
];
