/** Code bundled as a bundler for an edge runtime resolves it: no Node built-in to fall back on. */
import { build } from 'esbuild';

/**
 * `source` (by default the built package's `server` entry) bundled into a script that sets
 * `globalThis.VerifyServer` to its exports, with the files it pulled in.
 */
export async function bundleForEdge(source = "export * from './dist/server/index.js';"): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd() },
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    // What Next.js asks of packages for its edge runtime.
    conditions: ['edge-light', 'worker', 'browser', 'import', 'default'],
    mainFields: ['module', 'main'],
    format: 'iife',
    globalName: 'VerifyServer',
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}
