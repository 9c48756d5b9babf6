/** The emulated template catalogue: `template_id` picks the text and its language. */
export interface Template {
  id: number;
  language: 'en' | 'ar';
  text: string;
}

export const TEMPLATES: readonly Template[] = [
  { id: 1, language: 'en', text: 'Your verification code is {code}. It expires in {minutes} minutes.' },
  { id: 2, language: 'ar', text: 'رمز التحقق الخاص بك هو {code}. تنتهي صلاحيته خلال {minutes} دقائق.' },
  { id: 3, language: 'en', text: '{code} is your one-time code. Never share it with anyone.' },
  { id: 4, language: 'ar', text: '{code} هو رمزك لمرة واحدة. لا تشاركه مع أي أحد.' },
];

export function findTemplate(id: number): Template | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

/** Rule 5 of send-otp: the fallback message uses template 1 or 2, by the main template's language. */
export function fallbackTemplate(main: Template): Template {
  return findTemplate(main.language === 'ar' ? 2 : 1)!;
}

export function render(template: Template, code: string, ttlSeconds: number): string {
  return template.text.replace('{code}', code).replace('{minutes}', String(Math.max(1, Math.round(ttlSeconds / 60))));
}
