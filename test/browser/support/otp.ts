import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/otp-verify/define.js';
import type { OtpVerify } from '../../../src/otp-verify/otp-verify.js';

export async function otpFixture(lang = 'en', attributes = '') {
  const wrapper = await fixture<HTMLDivElement>(
    html`<div lang=${lang} dir=${lang === 'ar' ? 'rtl' : 'ltr'} .innerHTML=${`<otp-verify endpoint="/host" country="SA" ${attributes}></otp-verify>`}></div>`,
  );
  const element = wrapper.querySelector('otp-verify') as OtpVerify;
  await element.updateComplete;
  return element;
}

export const shadow = (element: OtpVerify) => element.shadowRoot!;
export const $ = <T extends Element = HTMLElement>(element: OtpVerify, selector: string) => shadow(element).querySelector<T>(selector)!;

export async function untilStep(element: OtpVerify, step: string) {
  await waitUntil(() => element.step === step, `step ${step}, still ${element.step}`, { timeout: 5000 });
  await element.updateComplete;
}

export function codeInput(element: OtpVerify): HTMLInputElement {
  return element.querySelector('input[slot="code"]')!;
}

/**
 * Puts text into the focused code field the way a paste or an autofill does: the browser inserts
 * it (execCommand insertText, with its own input events); where an engine refuses, the value is
 * set and an input event sent.
 */
export function enterCode(element: OtpVerify, text: string) {
  const input = codeInput(element);
  input.focus();
  input.select();
  if (document.execCommand('insertText', false, text) && input.value !== '') return;
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: text }));
}

/** Types a phone number and submits the contact form, without waiting for the answer. */
export async function submitPhone(element: OtpVerify, phone = '501234567') {
  const field = $<HTMLInputElement>(element, '#phone');
  field.value = phone;
  field.dispatchEvent(new Event('input'));
  await element.updateComplete;
  $<HTMLFormElement>(element, 'form').requestSubmit();
}

export async function sendTo(element: OtpVerify, phone = '501234567') {
  await submitPhone(element, phone);
  await untilStep(element, 'code');
}
