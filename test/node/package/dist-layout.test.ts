/**
 * dist/ by audience: what a browser loads never reaches a file of the host handler, the emulator or
 * the service, and what a server loads stays in its own folder. Each entry's import graph is walked
 * through the built files, as a browser or Node would follow it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../../dist/', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string | { default?: string }>; bin: Record<string, string> };
const NODE_FOLDERS = ['server', 'emulator', 'service'];
/** What the browser's modules may import: Lit, React for the wrappers, the optional face model. */
const BROWSER_PACKAGES = ['lit', '@lit/react', 'react', '@vladmandic/face-api', 'uqr'];

// Static imports and re-exports (minified or not), dynamic imports, and `new URL(…, import.meta.url)` (the worklet).
const SPECIFIERS = /(?:\bimport|\bexport)\s*(?:[\w*${}\s,]*?\bfrom\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url/g;

/** Every built file an entry reaches, and the packages it names. */
function graph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    assert.ok(existsSync(file), `${relative(dist, file)} is imported but not built`);
    files.add(file);
    // Block comments show imports as examples ("import 'verify-widgets/locales/ar'"); they import nothing.
    for (const m of readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').matchAll(SPECIFIERS)) {
      const specifier = (m[1] ?? m[2] ?? m[3])!;
      // The built files name each other with .js; a bundled library's text may hold other strings.
      if (specifier.startsWith('.') && specifier.endsWith('.js')) visit(join(dirname(file), specifier));
      else if (!specifier.startsWith('.')) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  };
  visit(join(dist, entry));
  return { files, packages };
}

const audienceOf = (file: string) => relative(dist, file).split('/')[0]!;
const exported = Object.entries(pkg.exports).flatMap(([key, value]) => {
  const file = typeof value === 'string' ? value : value.default;
  return file?.endsWith('.js') && !key.includes('*') ? [[key, file.replace('./dist/', '')] as const] : [];
});
const browserEntries = [
  ...exported.filter(([key]) => !NODE_FOLDERS.some((folder) => key.startsWith(`./${folder}`))).map(([, file]) => file),
  ...readdirSync(join(dist, 'locales')).filter((f) => f.endsWith('.js')).map((f) => `locales/${f}`),
  ...readdirSync(join(dist, 'cdn')).filter((f) => f.endsWith('.js')).map((f) => `cdn/${f}`),
];
const nodeEntries = [
  ...exported.filter(([key]) => NODE_FOLDERS.some((folder) => key.startsWith(`./${folder}`))).map(([, file]) => file),
  ...Object.values(pkg.bin).map((file) => file.replace(/^(\.\/)?dist\//, '')),
];

describe('dist/ by audience', () => {
  it('lists the entries it walks', () => {
    assert.ok(browserEntries.length > 20 && browserEntries.includes('index.js') && browserEntries.includes('cdn/verify-widgets.js'), browserEntries.join(' '));
    assert.deepEqual([...nodeEntries].sort(), ['emulator/cli.js', 'emulator/index.js', 'server/index.js', 'server/node.js', 'service/cli.js']);
  });

  for (const entry of browserEntries) {
    it(`${entry} reaches no server, emulator or service file, and imports only the browser's packages`, () => {
      const { files, packages } = graph(entry);
      const reached = [...files].filter((file) => NODE_FOLDERS.includes(audienceOf(file)));
      assert.deepEqual(reached.map((file) => relative(dist, file)), []);
      for (const name of packages) assert.ok(BROWSER_PACKAGES.includes(name), `${entry} imports ${name}`);
    });
  }

  for (const entry of nodeEntries) {
    it(`${entry} stays in ${entry.split('/')[0]}/, chunks included`, () => {
      const { files } = graph(entry);
      const outside = [...files].filter((file) => audienceOf(file) !== entry.split('/')[0]);
      assert.deepEqual(outside.map((file) => relative(dist, file)), []);
    });
  }

  it('the browser kernel holds no server chunk', () => {
    const internal = readdirSync(join(dist, 'internal')).filter((f) => f.endsWith('.js'));
    const sources = new Set(readdirSync(new URL('../../../src/internal/', import.meta.url)).map((f) => f.replace(/\.ts$/, '.js')));
    assert.deepEqual(internal.filter((f) => !sources.has(f)), []);
  });
});
