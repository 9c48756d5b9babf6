/**
 * The code step's code: the code field and WebOTP. <otp-verify> fetches it while a code is being
 * sent, or when the page comes back to a pending code, so that a contact form does not carry it.
 */
import type { ReactiveControllerHost } from 'lit';
import { CodeFieldController, type CodeFieldEvents } from './code-field-controller.js';
import { SmsCodeController } from './webotp.js';

export function codeStep(host: ReactiveControllerHost & HTMLElement, events: CodeFieldEvents) {
  const field = new CodeFieldController(host, events);
  const sms = new SmsCodeController(host, field);
  return {
    field,
    /** The step shows: a refused code stays in view until replaced; else a code is on its way (or may be): an empty field, the SMS listened for. */
    shown(refused: string | null) {
      if (refused !== null) return field.refuse(refused);
      field.value = '';
      sms.listen();
    },
    left: () => sms.stop(),
  };
}
