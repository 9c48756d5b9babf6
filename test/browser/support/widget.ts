import { fixture, html, waitUntil } from '@open-wc/testing';
import type { VerifyElement } from '../../../src/internal/verify-element.js';

/** A widget in a wrapper carrying the language and direction, rendered and ready. */
export async function widgetFixture<T extends VerifyElement>(tag: string, attributes: string, lang: string): Promise<T> {
  const wrapper = await fixture<HTMLDivElement>(html`<div lang=${lang} dir=${lang === 'ar' ? 'rtl' : 'ltr'} .innerHTML=${`<${tag} ${attributes.includes('endpoint=') ? '' : 'endpoint="/host"'} ${attributes}></${tag}>`}></div>`);
  const element = wrapper.querySelector(tag) as T;
  await element.updateComplete;
  return element;
}

export async function untilWidgetStep(element: VerifyElement, step: string, timeout: number) {
  await waitUntil(() => element.step === step, `step ${step}, still ${element.step}`, { timeout });
  await element.updateComplete;
}

export const partOf = <T extends HTMLElement = HTMLButtonElement>(element: VerifyElement, part: string) => element.shadowRoot!.querySelector<T>(`[part~="${part}"]`)!;
