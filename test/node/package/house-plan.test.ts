/**
 * The house plan of src/: which room may import which, no cycle among files, and `core` free of the
 * DOM's and Node's own modules, so that the widgets, the handler and the emulator can all stand on it;
 * and thin elements, whose pipelines live in controllers and whose markup lives in templates.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** The server's public entries: the only way into the server from the rooms that serve it (the emulator, the stand-alone service). */
const SERVER_ENTRIES = ['server/index.ts', 'server/node/index.ts'];

/** Each room and the rooms (or entry files) below it that it may import (its own always allowed). */
const ROOMS: Record<string, string[]> = {
  core: [],
  translations: ['core'],
  events: ['core'],
  internal: ['core', 'translations', 'events'],
  // What the face and voice widgets share (their base element, the phone handoff, the devices), and OTP never loads.
  biometric: ['core', 'internal', 'translations', 'events'],
  'otp-verify': ['core', 'internal', 'translations', 'events'],
  'face-verify': ['core', 'internal', 'biometric', 'translations', 'events'],
  'voice-verify': ['core', 'internal', 'biometric', 'translations', 'events'],
  react: ['core', 'events', 'otp-verify', 'face-verify', 'voice-verify'],
  locales: ['translations', 'internal'],
  // The server, from the bottom: what it stores and how, and its client of the service's API.
  'server/store': ['core'],
  'server/upstream': ['core'],
  // What a live face's frames show: pure arithmetic on the landmarks a model found.
  'server/liveness': ['core'],
  // The files every runtime shares, below the handler: keyed crypto and receipts.
  server: ['core', 'server/store'],
  // The handler, its routes and its friction.
  'server/handler': ['core', 'server', 'server/store', 'server/upstream', 'server/liveness'],
  // The site's hooks (session tokens, reference callbacks) and the Node adapters, each on the handler.
  'server/site': ['core', 'server', 'server/handler'],
  'server/node': ['core', 'server', 'server/handler', 'server/liveness'],
  // `verify-widgets/server`: everything a host imports, for any runtime.
  'server/entry': ['core', 'server', 'server/store', 'server/upstream', 'server/liveness', 'server/handler', 'server/site'],
  emulator: ['core', ...SERVER_ENTRIES],
  // The stand-alone service: the handler served on its own, for back ends in other languages.
  service: ['core', ...SERVER_ENTRIES],
  // The entry points at the top: the widgets' index and the CDN file (never the server's rooms).
  '.': ['core', 'internal', 'translations', 'events', 'otp-verify', 'face-verify', 'voice-verify', 'react'],
};

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative(SRC, path)] : [];
  });
}

const files = sources();
/** A file's room: its top folder, or inside server/ its folder there (server/ alone for its loose files, server/entry for its index). */
function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return '.';
  if (parts[0] !== 'server') return parts[0]!;
  if (file === 'server/index.ts') return 'server/entry';
  return parts.length === 2 ? 'server' : `server/${parts[1]}`;
}
/** Each file's imports: relative ones as files of src/, others as package or `node:` names. */
const imports = new Map(
  files.map((file) => {
    const specifiers = specifiersOf(readFileSync(join(SRC, file), 'utf8'));
    return [file, specifiers.map((s) => (s.startsWith('.') ? normalize(join(dirname(file), s)).replace(/\.js$/, '.ts') : s))];
  }),
);

/** Every module a file names, as TypeScript reads them: side-effect, type-only, re-exports and dynamic imports, either quote. */
function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

describe('the house plan of src/', () => {
  it('reads every form of import', () => {
    const text = [
      `import './side-effect.js';`,
      `import "./double.js";`,
      `import type { T } from './types.js';`,
      `import {\n  a,\n  b,\n} from "./multi-line.js";`,
      `export * from './re-export.js';`,
      `export { c } from "./re-export-named.js";`,
      `const later = await import('./dynamic.js');`,
      `// import './commented.js';`,
    ].join('\n');
    assert.deepEqual(specifiersOf(text), ['./side-effect.js', './double.js', './types.js', './multi-line.js', './re-export.js', './re-export-named.js', './dynamic.js']);
  });

  it('every room imports only itself and the rooms below it', () => {
    const wrong: string[] = [];
    for (const [file, targets] of imports) {
      const room = roomOf(file);
      assert.ok(ROOMS[room], `${file} is in a room the plan does not name: ${room}`);
      for (const target of targets.filter((t) => t.endsWith('.ts'))) {
        const to = roomOf(target);
        if (to !== room && !ROOMS[room]!.includes(to) && !ROOMS[room]!.includes(target)) wrong.push(`${file} -> ${target}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('outside a later/ folder, only types and import() reach into one: what loads later never comes with the first load', () => {
    const eager: string[] = [];
    // The recorder's worklet is an entry of its own, which the audio thread fetches as recording starts.
    for (const file of files.filter((f) => !f.includes('/later/') && !f.endsWith('.worklet.ts'))) {
      const source = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) {
        if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) continue;
        const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
        if (!specifier.startsWith('.') || !normalize(join(dirname(file), specifier)).includes('/later/')) continue;
        if (!typeOnly(statement)) eager.push(`${file} -> ${specifier}`);
      }
    }
    assert.deepEqual(eager, []);
  });

  it('the server keeps its loose files few and one word per part: no second "service" inside it', () => {
    const loose = files.filter((file) => roomOf(file) === 'server' || roomOf(file) === 'server/entry');
    assert.ok(loose.length <= 5, `src/server/ holds ${loose.length} loose files: ${loose.join(', ')}`);
    assert.deepEqual(files.filter((file) => file.startsWith('server/service/')), []);
  });

  it('no double cast and no comment citing a design document the reader does not have', () => {
    for (const file of files) {
      const text = readFileSync(join(SRC, file), 'utf8');
      assert.doesNotMatch(text, /as unknown as/, file);
      assert.doesNotMatch(text, /\bDESIGN\b/, file);
    }
  });

  it('every store key is built in store/keys.ts, where its lifetime is written', () => {
    // A key handed to the store as a literal, or made as text into a name first.
    const ownKey = /\bstore\.(increment|claim|set|decrement|get|take|delete)\(\s*[`'"]|(const|let) \w+ = `[a-z]+:\$\{/;
    for (const file of files.filter((f) => f.startsWith('server/handler/') || f === 'server/receipts.ts')) {
      assert.doesNotMatch(readFileSync(join(SRC, file), 'utf8'), ownKey, `${file} makes a store key of its own`);
    }
  });

  it('core imports no node: module and touches no DOM or Node global', () => {
    for (const [file, targets] of imports) {
      if (roomOf(file) !== 'core') continue;
      assert.deepEqual(targets.filter((t) => !t.endsWith('.ts')), [], file);
      const text = readFileSync(join(SRC, file), 'utf8');
      assert.doesNotMatch(text, /\b(document|window|navigator|Buffer|process)\./, file);
    }
  });

  it('no file imports itself through a circle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') return void cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      state.set(file, 'open');
      for (const target of imports.get(file) ?? []) if (imports.has(target)) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    assert.deepEqual(cycles, []);
  });
});

/** Whether an import or export brings types alone (`import type`, or every name marked `type`), which leave no code behind. */
function typeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly || (!!statement.exportClause && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.every((e) => e.isTypeOnly));
  const clause = statement.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** A class's own members, as a reader counts them: fields, methods and accessors (a get/set pair once), not the constructor. */
function ownMembers(file: string, className: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const declaration = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className);
  assert.ok(declaration, `${className} in ${file}`);
  const names = declaration.members.filter((m) => !ts.isConstructorDeclaration(m) && m.name).map((m) => m.name!.getText(source));
  return [...new Set(names)];
}

describe('thin elements', () => {
  for (const [file, className] of [
    ['otp-verify/otp-verify.ts', 'OtpVerify'],
    ['face-verify/face-verify.ts', 'FaceVerify'],
    ['voice-verify/voice-verify.ts', 'VoiceVerify'],
  ] as const) {
    it(`${className} is at most 180 lines and 20 own members`, () => {
      const lines = readFileSync(join(SRC, file), 'utf8').trimEnd().split('\n').length;
      const members = ownMembers(file, className);
      assert.ok(lines <= 180, `${file}: ${lines} lines`);
      assert.ok(members.length <= 20, `${className}: ${members.length} members (${members.join(', ')})`);
    });
  }
  // The base elements under them, capped too: the widgets' member cap must not push their work down
  // into a base that grows unseen. What a base could shed goes to a controller or a later/ folder.
  for (const [file, most] of [
    ['internal/verify-element.ts', 380],
    ['biometric/biometric-element.ts', 280],
  ] as const) {
    it(`${file} is at most ${most} lines`, () => {
      const lines = readFileSync(join(SRC, file), 'utf8').trimEnd().split('\n').length;
      assert.ok(lines <= most, `${file}: ${lines} lines`);
    });
  }
});
