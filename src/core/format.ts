/** Words filled in and times told in a language's own digits, for every widget's strings. */

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** "0:24" or "٠:٢٤", in the language's own digits. */
export function formatSeconds(seconds: number, language: string): string {
  const number = new Intl.NumberFormat(language, { minimumIntegerDigits: 2, useGrouping: false });
  return `${new Intl.NumberFormat(language).format(Math.floor(seconds / 60))}:${number.format(seconds % 60)}`;
}
