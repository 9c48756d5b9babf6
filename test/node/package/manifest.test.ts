import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('../../../', import.meta.url);
const source = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** custom-elements.json as the build makes it, written afresh to a scratch folder. */
function manifest() {
  // The analyzer takes its output folder relative to where it runs.
  const out = mkdtempSync(join(tmpdir(), 'cem-'));
  execFileSync(process.execPath, ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--config', 'test/build/custom-elements-manifest.config.mjs', '--quiet'], { cwd: root, env: { ...process.env, CEM_OUTDIR: relative(fileURLToPath(root), out) } });
  return JSON.parse(readFileSync(join(out, 'custom-elements.json'), 'utf8')) as { modules: { declarations?: Declaration[] }[] };
}

type Typed = { name: string; type?: { text: string } };
interface Declaration {
  name: string;
  tagName?: string;
  events?: Typed[];
  cssParts?: { name: string }[];
  cssStates?: { name: string }[];
  cssProperties?: { name: string }[];
  slots?: { name: string }[];
  attributes?: Typed[];
  members?: (Typed & { kind: string; privacy?: string; static?: boolean; default?: string })[];
}

/** The event types a file dispatches, through the event classes it constructs. */
function dispatched(files: string[]): Set<string> {
  const types = new Map(readdirSync(new URL('src/events/', root)).flatMap((file) => {
    const text = source(`src/events/${file}`);
    const match = /export class (\w+)[\s\S]*?static readonly type = '([\w-]+)'/.exec(text);
    return match ? [[match[1]!, match[2]!] as const] : [];
  }));
  return new Set(files.flatMap((file) => [...source(file).matchAll(/new (Verify\w+Event)(?:<\w+>)?\(/g)].map((m) => types.get(m[1]!)!)));
}

/** The parts a component's templates (and the shared base) render. */
function renderedParts(files: string[]): Set<string> {
  const written = /part="([\w -]+)"|setAttribute\('part', '([\w -]+)'\)/g;
  return new Set(files.flatMap((file) => [...source(file).matchAll(written)].flatMap((m) => (m[1] ?? m[2]!).split(' '))));
}

const BASE = ['src/internal/verify-element.ts', 'src/internal/host-api.ts'];
const BASE_STYLES = ['src/internal/base.styles.ts', 'src/internal/later/step.styles.ts'];
// The friction code asks the page for a human check only where the protocol has friction (send-otp
// and verify-otp), and for a fresh session token on every route.
/** Continue on your phone: the computer's panel and the phone's note, in both face and voice widgets. */
const HANDOFF = ['src/biometric/handoff-controller.ts', 'src/biometric/later/handoff-panel.ts', 'src/biometric/later/handoff-phone.ts', 'src/biometric/handoff-host.ts'];
const BIOMETRIC = ['src/biometric/biometric-element.ts', 'src/biometric/later/account-actions.ts', ...HANDOFF, ...BASE];
/** Each widget's files (the element first), where its flow's steps are, and the files of its look: the first step's, and the later steps'. */
const COMPONENTS = {
  'otp-verify': {
    files: ['src/otp-verify/otp-verify.ts', 'src/otp-verify/first-step.ts', 'src/otp-verify/later/otp-verify.templates.ts', 'src/otp-verify/later/otp-requests.ts', 'src/internal/later/friction.ts', ...BASE],
    flow: 'src/otp-verify/later/otp-verify.flow.ts',
    styles: ['src/otp-verify/first-step.ts', 'src/otp-verify/later/otp-verify.styles.ts', ...BASE_STYLES],
    also: [],
  },
  'face-verify': {
    files: ['src/face-verify/face-verify.ts', 'src/face-verify/first-step.ts', 'src/face-verify/later/face-verify.templates.ts', 'src/face-verify/later/capture.ts', ...BIOMETRIC],
    flow: 'src/face-verify/later/face-verify.flow.ts',
    styles: ['src/face-verify/first-step.ts', 'src/face-verify/later/face-verify.styles.ts', 'src/biometric/later/handoff.styles.ts', ...BASE_STYLES],
    also: ['verify-session-token'],
  },
  'voice-verify': {
    files: ['src/voice-verify/voice-verify.ts', 'src/voice-verify/first-step.ts', 'src/voice-verify/later/voice-verify.templates.ts', ...BIOMETRIC],
    flow: 'src/voice-verify/later/voice-verify.flow.ts',
    styles: ['src/voice-verify/later/voice-verify.styles.ts', 'src/biometric/later/handoff.styles.ts', ...BASE_STYLES],
    also: ['verify-session-token'],
  },
};

describe('custom-elements.json', () => {
  const declarations = manifest().modules.flatMap((m) => m.declarations ?? []);
  const elements = new Map(declarations.filter((d) => d.tagName).map((d) => [d.tagName!, d]));

  for (const [tag, { files, flow, styles, also }] of Object.entries(COMPONENTS)) {
    describe(`<${tag}>`, () => {
      const element = elements.get(tag)!;
      it('is in the manifest', () => assert.ok(element));

      it('documents exactly the events it dispatches', () => {
        assert.deepEqual(new Set(element.events!.map((e) => e.name)), new Set([...dispatched(files), ...also]));
      });

      it('documents exactly the parts it renders', () => {
        assert.deepEqual(new Set(element.cssParts!.map((p) => p.name)), renderedParts(files));
      });

      it('documents exactly the custom properties its styles read', () => {
        const read = new Set(styles.flatMap((file) => [...source(file).matchAll(/var\((--verify-[\w-]+)/g)].map((m) => m[1]!)));
        assert.deepEqual(new Set(element.cssProperties!.map((p) => p.name)), read);
      });

      it('documents a custom state for each step of its flow', () => {
        const steps = new Set([...source(flow).matchAll(/\{ step: '(\w+)'/g)].map((m) => m[1]!));
        assert.deepEqual(new Set(element.cssStates!.map((s) => s.name)), steps);
      });

      it('types each event with its event class, whose detail is typed and whose type is the event\u2019s name', () => {
        for (const event of element.events!) {
          const name = /^(Verify\w+Event)(<\w+>)?$/.exec(event.type?.text ?? '')?.[1];
          assert.ok(name, `${event.name} has type ${JSON.stringify(event.type)}`);
          const members = declarations.find((d) => d.name === name)?.members ?? [];
          assert.ok(members.find((m) => m.name === 'detail')?.type?.text, `${name} has no typed detail`);
          assert.equal(members.find((m) => m.name === 'type' && m.static)?.default, `'${event.name}'`, name);
        }
      });

      it('types every attribute and every field, its own and inherited', () => {
        for (const attribute of element.attributes!) assert.ok(attribute.type?.text, `attribute ${attribute.name} has no type`);
        for (const field of element.members!.filter((m) => m.kind === 'field')) assert.ok(field.type?.text, `${field.name} has no type`);
        assert.ok(!element.members!.some((m) => m.privacy === 'private'), 'private members are no one\u2019s interface');
      });

      it('lists every public attribute, with the shared ones', () => {
        const attributes = element.attributes!.map((a) => a.name);
        for (const shared of ['endpoint', 'required', 'name', 'heading-level']) assert.ok(attributes.includes(shared), shared);
        const declared = [...source(files[0]!).matchAll(/attribute: '([\w-]+)'/g)].map((m) => m[1]!);
        for (const name of declared) assert.ok(attributes.includes(name), name);
      });
    });
  }

  it('is what the documentation says: each widget page\'s API reference, and each snippet the copy of its file (test/build/docs.mjs --check)', () => {
    execFileSync(process.execPath, ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--config', 'test/build/custom-elements-manifest.config.mjs', '--quiet'], { cwd: root });
    execFileSync(process.execPath, ['test/build/docs.mjs', '--check'], { cwd: root, stdio: 'pipe' });
  });

  it('documents the slot of the code field', () => {
    assert.deepEqual(elements.get('otp-verify')!.slots!.map((s) => s.name), ['code']);
  });
});
