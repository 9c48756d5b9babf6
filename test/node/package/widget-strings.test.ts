/**
 * Each widget carries only its own strings: bundled alone, as a site's bundler would (after
 * `npm run build`), <otp-verify> holds every English string it says and none that only a face or
 * voice widget says, and so on for each; no widget holds Arabic until a page imports it, and a page
 * that imports one language carries none of the others.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { otpEnglish } from '../../../src/translations/en/otp.js';
import { faceEnglish } from '../../../src/translations/en/face.js';
import { voiceEnglish } from '../../../src/translations/en/voice.js';
import { ar } from '../../../src/translations/ar.js';
import { ur } from '../../../src/translations/ur.js';
import { fa } from '../../../src/translations/fa.js';
import { hi } from '../../../src/translations/hi.js';
import { bn } from '../../../src/translations/bn.js';
import { fil } from '../../../src/translations/fil.js';
import { id } from '../../../src/translations/id.js';
import { fr } from '../../../src/translations/fr.js';
import { tr } from '../../../src/translations/tr.js';

const LANGUAGES: Record<string, Record<string, unknown>> = { ar, ur, fa, hi, bn, fil, id, fr, tr };
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const ENGLISH = { 'otp-verify': otpEnglish, 'face-verify': faceEnglish, 'voice-verify': voiceEnglish };
const ARABIC_LETTER = /[\u0621-\u064A]/;

/** Every text in a widget's English: plain strings and each plural form. */
const texts = (strings: object): Set<string> =>
  new Set(Object.values(strings).flatMap((value: string | Record<string, string>) => (typeof value === 'string' ? [value] : Object.values(value))));

/** Whether the bundle holds `text` as a string literal of its own (not inside a longer one). */
const holds = (code: string, text: string) => [JSON.stringify(text), `'${text}'`, `\`${text}\``].some((literal) => code.includes(literal));

async function bundle(entry: string, extra = ''): Promise<string> {
  const result = await build({
    stdin: { contents: `import 'verify-widgets/${entry}';${extra}`, resolveDir: REPO, loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent', charset: 'utf8',
  });
  return result.outputFiles[0]!.text;
}

describe('the strings in each widget bundle', () => {
  for (const [name, english] of Object.entries(ENGLISH)) {
    it(`<${name}> holds its own English and no other widget's`, async () => {
      const code = await bundle(name);
      const own = texts(english);
      for (const text of own) assert.ok(holds(code, text), `its own "${text}" is missing`);
      const others = new Set(Object.entries(ENGLISH).filter(([other]) => other !== name).flatMap(([, strings]) => [...texts(strings)]));
      const foreign = [...others].filter((text) => !own.has(text) && holds(code, text));
      assert.deepEqual(foreign, [], `<${name}> carries strings it never says`);
      assert.doesNotMatch(code, ARABIC_LETTER, 'Arabic without the locale import');
    });
  }

  it('Arabic comes with its import', async () => {
    assert.match(await bundle('otp-verify', "import 'verify-widgets/locales/ar';"), ARABIC_LETTER);
  });

  for (const [code, strings] of Object.entries(LANGUAGES)) {
    it(`a page that imports ${code} carries its strings and no other language's`, async () => {
      const bundled = await bundle('otp-verify', `import 'verify-widgets/locales/${code}';`);
      assert.ok(holds(bundled, strings.contactHeading as string), `its own contactHeading`);
      const own = texts(strings);
      const english = new Set(Object.values(ENGLISH).flatMap((e) => [...texts(e)]));
      for (const [other, theirs] of Object.entries(LANGUAGES)) {
        if (other === code) continue;
        const carried = [...texts(theirs)].filter((text) => !own.has(text) && !english.has(text) && holds(bundled, text));
        assert.deepEqual(carried, [], `${other} strings in a page that imported ${code}`);
      }
    });
  }
});
