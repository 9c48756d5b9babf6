/**
 * The country picker's options, named in the widget's language and sorted as its readers sort.
 * Naming and sorting 245 regions costs milliseconds (and loading ICU's region data tens, the first
 * time a page does it), so the list is built once per language and set of countries, and only
 * when it is wanted: until then the picker holds the chosen country alone.
 */
export interface Country {
  code: string;
  name: string;
}

const lists = new Map<string, Country[]>();

function named(language: string, codes: readonly string[]): Country[] {
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  return codes.map((code) => ({ code, name: names.of(code) ?? code }));
}

/**
 * All of `codes` sorted by name when `all` (and there are some), else the chosen one alone (if
 * any); the same array while nothing changes.
 */
export function countryList(language: string, codes: readonly string[], chosen: string, all: boolean): Country[] {
  const whole = all && codes.length > 0;
  const key = whole ? `${language} ${codes.join(' ')}` : `${language} ${chosen}`;
  let list = lists.get(key);
  if (!list) {
    const collator = new Intl.Collator(language);
    list = whole ? named(language, codes).sort((a, b) => collator.compare(a.name, b.name)) : named(language, chosen ? [chosen] : []);
    lists.set(key, list);
  }
  return list;
}
