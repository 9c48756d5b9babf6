import { Component, CUSTOM_ELEMENTS_SCHEMA, signal } from '@angular/core';
import 'verify-widgets/otp-verify';
import type { VerifySuccessEvent } from 'verify-widgets';

@Component({
  selector: 'app-root',
  // The widgets are custom elements, not Angular components.
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <otp-verify endpoint="/api/verify" country="SA" (verify-success)="onSuccess($event)"></otp-verify>
    <p id="confirmed">{{ confirmed() }}</p>
  `,
})
export class App {
  protected readonly confirmed = signal('');

  // The event proves nothing: the receipt goes to your server, which checks it.
  protected async onSuccess(event: VerifySuccessEvent) {
    const answer = await fetch('/api/confirm', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: event.detail.receipt }) });
    this.confirmed.set(answer.ok ? ((await answer.json()) as { user: string }).user : `refused ${answer.status}`);
  }
}
