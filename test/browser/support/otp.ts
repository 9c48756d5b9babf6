import '../../../src/otp-verify/define.js';
import type { OtpVerify } from '../../../src/otp-verify/otp-verify.js';
import { untilWidgetStep, widgetFixture } from './widget.js';

export const otpFixture = (lang = 'en', attributes = '') => widgetFixture<OtpVerify>('otp-verify', `country="SA" ${attributes}`, lang);

export const shadow = (element: OtpVerify) => element.shadowRoot!;
export const $ = <T extends Element = HTMLElement>(element: OtpVerify, selector: string) => shadow(element).querySelector<T>(selector)!;

export const untilStep = (element: OtpVerify, step: string) => untilWidgetStep(element, step, 5000);

export function codeInput(element: OtpVerify): HTMLInputElement {
  return element.querySelector('input[slot="code"]')!;
}

/** The code field's description: its error, in the light DOM, slotted under the boxes. */
export function codeMessage(element: OtpVerify): HTMLElement {
  return element.querySelector('[slot="code-message"]')!;
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
