import { fixture, html, waitUntil } from '@open-wc/testing';
import type { VerifyElement } from '../../../src/internal/verify-element.js';

/** The registered languages written right to left. */
export const RIGHT_TO_LEFT = ['ar', 'ur', 'fa'];

/** A widget in a wrapper carrying the language and direction, rendered and ready. */
export async function widgetFixture<T extends VerifyElement>(tag: string, attributes: string, lang: string): Promise<T> {
  const wrapper = await fixture<HTMLDivElement>(html`<div lang=${lang} dir=${RIGHT_TO_LEFT.includes(lang.split('-')[0]!) ? 'rtl' : 'ltr'} .innerHTML=${`<${tag} ${attributes.includes('endpoint=') ? '' : 'endpoint="/host"'} ${attributes}></${tag}>`}></div>`);
  const element = wrapper.querySelector(tag) as T;
  await element.updateComplete;
  return element;
}

export async function untilWidgetStep(element: VerifyElement, step: string, timeout: number) {
  await waitUntil(() => element.step === step, `step ${step}, still ${element.step}`, { timeout });
  await element.updateComplete;
}

export const partOf = <T extends HTMLElement = HTMLButtonElement>(element: VerifyElement, part: string) => element.shadowRoot!.querySelector<T>(`[part~="${part}"]`)!;
