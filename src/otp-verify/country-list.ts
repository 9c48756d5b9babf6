/**
 * The country picker's options, named in the widget's language and sorted as its readers sort.
 * Naming and sorting 245 regions costs milliseconds (and loading ICU's region data tens, the first
 * time a page does it), so the list is built once per language and set of countries, and only
 * when it is wanted: until then the picker holds the chosen country alone, under its code.
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

function sortedByName(language: string, countries: Country[]): Country[] {
  const { compare } = new Intl.Collator(language);
  return countries.sort((a, b) => compare(a.name, b.name));
}

/**
 * When `all`, every one of `codes` (or the chosen one, until there are codes) named and sorted;
 * else the chosen one alone under its code, as a page's first use of ICU's region names costs
 * 15-30 ms, which waits for the page's idle time. The same array while nothing changes.
 */
export function countryList(language: string, codes: readonly string[], chosen: string, all: boolean): Country[] {
  const shown = all && codes.length ? codes : chosen ? [chosen] : [];
  const key = `${all ? language : ''} ${shown.join(' ')}`;
  let list = lists.get(key);
  if (!list) {
    list = all ? sortedByName(language, named(language, shown)) : shown.map((code) => ({ code, name: code }));
    lists.set(key, list);
  }
  return list;
}
