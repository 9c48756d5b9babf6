/** A message that changes with a count, one form per plural category of the language (CLDR). */
export type Plural = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

/** The form `Intl.PluralRules` picks for `count`, with `{count}` written in the language's digits. */
export function plural(forms: Plural, count: number, language: string): string {
  const form = forms[new Intl.PluralRules(language).select(count)] ?? forms.other;
  return form.replace('{count}', new Intl.NumberFormat(language).format(count));
}
