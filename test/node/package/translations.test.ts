/**
 * A check of each translation that needs no reader of the language: it says every English string
 * and no other, keeps every placeholder of the English and adds none, and has a form for each
 * plural category the language has (CLDR, through Intl.PluralRules). The table it prints shows
 * "1 / 2 / 11 tries left" in each language, each from the form its plural rules pick.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { en } from '../../../src/translations/en.js';
import { plural, type Plural } from '../../../src/core/plural.js';

const DIR = new URL('../../../src/translations/', import.meta.url);
const codes = readdirSync(DIR).filter((f) => /^[a-z]{2,3}\.ts$/.test(f) && f !== 'en.ts').map((f) => f.slice(0, -3));
const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
const forms = (value: string | Plural): string[] => (typeof value === 'string' ? [value] : Object.values(value));

describe('translations', () => {
  it('the build makes a module of each language, for bundlers and for the CDN file', () => {
    const source = readFileSync(new URL('../../../rollup.config.mjs', import.meta.url), 'utf8');
    const listed = JSON.parse(/const LOCALES = (\[[^\]]*\])/.exec(source)![1]!.replaceAll("'", '"')) as string[];
    assert.deepEqual([...listed].sort(), [...codes].sort());
  });

  it('the languages page shows every step of each language at 320 px (npm run screenshots:languages)', () => {
    const page = readFileSync(new URL('../../../demo/pages/languages.md', import.meta.url), 'utf8');
    for (const code of ['en', ...codes]) {
      assert.ok(page.includes(`src="../gallery/languages/${code}.webp"`), `${code} is on the languages page`);
      assert.ok(readFileSync(new URL(`../../../demo/gallery/languages/${code}.webp`, import.meta.url)).length > 50_000, `${code}.webp`);
    }
  });

  for (const code of codes) {
    describe(code, async () => {
      const strings = ((await import(`../../../src/translations/${code}.ts`)) as Record<string, Record<string, string | Plural>>)[code]!;
      const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;

      it('says every English string, and no other', () => {
        assert.deepEqual(Object.keys(strings).sort(), Object.keys(en).sort());
        for (const [key, value] of Object.entries(strings)) for (const form of forms(value)) assert.ok(form.trim(), `${key} is empty`);
      });

      it('keeps every placeholder of the English, and adds none', () => {
        for (const [key, english] of Object.entries(en) as [string, string | Plural][]) {
          const wanted = new Set(forms(english).flatMap((form) => [...placeholders(form)]));
          for (const form of forms(strings[key]!)) {
            const found = placeholders(form);
            // A plural form may spell its count out ("محاولة واحدة"): {count} alone may be left out.
            for (const name of wanted) if (name !== 'count' || typeof english === 'string') assert.ok(found.has(name), `${key}: {${name}} is missing from "${form}"`);
            for (const name of found) assert.ok(wanted.has(name), `${key}: {${name}} is not in the English`);
          }
        }
      });

      it(`has a form for each of its plural categories (${categories.join(', ')})`, () => {
        for (const [key, english] of Object.entries(en)) {
          if (typeof english === 'string') continue;
          const value = strings[key] as Plural;
          for (const category of categories) assert.ok(value[category], `${key} has no "${category}" form`);
        }
      });

      it('"1, 2 and 11 tries left", each from the form the language picks', () => {
        const rows = [1, 2, 11].map((count) => {
          const category = new Intl.PluralRules(code).select(count);
          const text = plural(strings.error_wrong_code_left as Plural, count, code);
          assert.equal(text, (strings.error_wrong_code_left as Plural)[category]!.replace('{count}', new Intl.NumberFormat(code).format(count)));
          return `${count} (${category}): ${text}`;
        });
        // The hint for the code's length goes by the same plural rules.
        rows.push(`4 / 6 / 11 digits: ${[4, 6, 11].map((count) => plural(strings.codeHint as Plural, count, code)).join(' / ')}`);
        console.log(`${code}\n  ${rows.join('\n  ')}`);
      });
    });
  }
});
