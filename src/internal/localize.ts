/**
 * Strings for a widget: the built-in language nearest the element (its own `lang`, an ancestor's,
 * or the document's), overlaid with the instance's own overrides. A plain typed object per
 * language, as Shoelace's localize does, rather than @lit/localize (lit/lit#1661).
 */
import { en, type Strings } from '../translations/en.js';
import { ar } from '../translations/ar.js';

const LANGUAGES: Record<string, Strings> = { en, ar };

export type { Strings };

export function languageOf(element: HTMLElement): string {
  return (element.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en').toLowerCase();
}

export function directionOf(element: HTMLElement): 'ltr' | 'rtl' {
  const dir = element.closest('[dir]')?.getAttribute('dir') ?? document.documentElement.dir;
  if (dir === 'rtl' || dir === 'ltr') return dir;
  return languageOf(element).split('-')[0] === 'ar' ? 'rtl' : 'ltr';
}

export function stringsFor(language: string, overrides: Partial<Strings> = {}): Strings {
  const known = (code: string) => (Object.hasOwn(LANGUAGES, code) ? LANGUAGES[code] : undefined);
  return { ...(known(language) ?? known(language.split('-')[0]!) ?? en), ...overrides };
}

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** "0:24" or "٠:٢٤", in the language's own digits. */
export function formatSeconds(seconds: number, language: string): string {
  const number = new Intl.NumberFormat(language, { minimumIntegerDigits: 2, useGrouping: false });
  return `${new Intl.NumberFormat(language).format(Math.floor(seconds / 60))}:${number.format(seconds % 60)}`;
}
