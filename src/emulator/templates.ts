/** The emulated template catalogue: `template_id` picks the text and its language. */
export interface Template {
  /** Any positive integer the account uses, not only 1-4. */
  id: number;
  language: 'en' | 'ar';
  /** `{code}` and `{minutes}` are filled in. */
  text: string;
}

export const TEMPLATES: readonly Template[] = [
  { id: 1, language: 'en', text: 'Your verification code is {code}. It expires in {minutes} minutes.' },
  { id: 2, language: 'ar', text: 'رمز التحقق الخاص بك هو {code}. تنتهي صلاحيته خلال {minutes} دقائق.' },
  { id: 3, language: 'en', text: '{code} is your one-time code. Never share it with anyone.' },
  { id: 4, language: 'ar', text: '{code} هو رمزك لمرة واحدة. لا تشاركه مع أي أحد.' },
];

/** An account's catalogue as a settings file gives it: ids as numbers or strings of digits ("31"). */
export type TemplateInput = Omit<Template, 'id'> & { id: number | string };

/**
 * Checks a catalogue when the emulator starts rather than at the first send, and reads its ids as
 * the service reads `template_id`.
 */
export function resolveTemplates(input: readonly TemplateInput[]): Template[] {
  if (!Array.isArray(input) || input.length === 0) throw new RangeError('templates: at least one template is needed');
  const ids = new Set<number>();
  return input.map((t) => {
    const id = templateId(t.id);
    if (id === undefined) throw new RangeError(`templates: id ${JSON.stringify(t.id)} is not a positive integer`);
    if (ids.has(id)) throw new RangeError(`templates: id ${id} appears twice`);
    if (t.language !== 'en' && t.language !== 'ar') throw new RangeError(`templates: template ${id} has language ${JSON.stringify(t.language)}; use en or ar`);
    if (typeof t.text !== 'string' || !t.text.includes('{code}')) throw new RangeError(`templates: template ${id} has no {code} in its text`);
    ids.add(id);
    return { id, language: t.language, text: t.text };
  });
}

/** An integer, or a string of digits such as "1", as the service accepts it; undefined otherwise. */
function templateId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

export function findTemplate(templates: readonly Template[], value: unknown): Template | undefined {
  const id = templateId(value);
  return templates.find((t) => t.id === id);
}

/**
 * Rules 4 and 5 of send-otp: template 1 when none is named, and the fallback message in template 1
 * or 2 by the main template's language; an account without those uses its first template (of that
 * language, for the fallback).
 */
export function defaultTemplate(templates: readonly Template[]): Template {
  return findTemplate(templates, 1) ?? templates[0]!;
}

export function fallbackTemplate(templates: readonly Template[], main: Template): Template {
  return findTemplate(templates, main.language === 'ar' ? 2 : 1) ?? templates.find((t) => t.language === main.language) ?? main;
}

export function render(template: Template, code: string, ttlSeconds: number): string {
  return template.text.replace('{code}', code).replace('{minutes}', String(Math.max(1, Math.round(ttlSeconds / 60))));
}
