/**
 * Strings for a widget: its own English, overlaid with the language registered nearest the element
 * (its own `lang`, an ancestor's, or the document's), then with the instance's own overrides. A
 * plain typed object per language, as Shoelace's localize does, rather than @lit/localize
 * (lit/lit#1661). English is built into each widget; other languages are registered by importing
 * `verify-widgets/locales/<code>` or calling `registerLocale`, so a page pays only for what it speaks.
 */
import type { Strings } from '../translations/en.js';

export type { Strings };

/**
 * Registered languages, and a count of registrations for caches of strings: kept on the global
 * object, so that a locale file served beside the CDN bundle (a bundle of its own) reaches its widgets.
 */
const REGISTRY = Symbol.for('verify-widgets.locales');
type Registry = { languages: Map<string, Partial<Strings>>; version: number };
const registry: Registry = ((globalThis as { [REGISTRY]?: Registry })[REGISTRY] ??= { languages: new Map(), version: 0 });

/** Changes with each registration. */
export function localeVersion(): number {
  return registry.version;
}

/** The event on `document` after a language is registered: widgets already on the page speak it from then on. */
export const LOCALE_REGISTERED = 'verify-locale-registered';

/**
 * Adds or extends a language (a BCP 47 code such as `ar` or `fr-ca`): any string it lacks is
 * said in English. Widgets on the page re-render in it.
 */
export function registerLocale(language: string, strings: Partial<Strings>): void {
  const code = language.toLowerCase();
  registry.languages.set(code, { ...registry.languages.get(code), ...strings });
  registry.version++;
  if (typeof document !== 'undefined') document.dispatchEvent(new Event(LOCALE_REGISTERED));
}

export function languageOf(element: HTMLElement): string {
  return (element.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en').toLowerCase();
}

/** Languages written right to left, of those a page may register (Intl.Locale's text info is not in every engine yet). */
const RIGHT_TO_LEFT = new Set(['ar', 'fa', 'ur', 'he', 'ps', 'ckb', 'dv', 'yi']);

export function directionOf(element: HTMLElement): 'ltr' | 'rtl' {
  const dir = element.closest('[dir]')?.getAttribute('dir') ?? document.documentElement.dir;
  if (dir === 'rtl' || dir === 'ltr') return dir;
  return RIGHT_TO_LEFT.has(languageOf(element).split('-')[0]!) ? 'rtl' : 'ltr';
}

export function stringsFor<S extends object>(english: S, language: string, overrides: Partial<S> = {}): S {
  const { languages } = registry;
  const registered = languages.get(language) ?? languages.get(language.split('-')[0]!) ?? {};
  // A registered language carries every widget's strings; this one keeps its own keys only.
  const own = Object.fromEntries(Object.entries(registered).filter(([key]) => key in english));
  return { ...english, ...own, ...overrides };
}
