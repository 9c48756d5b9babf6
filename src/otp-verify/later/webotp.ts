/**
 * WebOTP: where the browser has it (Chrome on Android), asks it for the code of an incoming SMS
 * whose last line is "@host #code". Resolves undefined when unsupported, refused or aborted.
 */
import type { CodeEntry } from '../../events/metrics.js';
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export async function receiveSmsCode(signal: AbortSignal): Promise<string | undefined> {
  if (!('OTPCredential' in window) || !navigator.credentials) return undefined;
  try {
    const credential = (await navigator.credentials.get({ otp: { transport: ['sms'] }, signal } as CredentialRequestOptions)) as
      | (Credential & { code?: string })
      | null;
    return credential?.code;
  } catch {
    return undefined;
  }
}

/** Listens for an incoming SMS's code while the code step waits for one, and submits it; stops on leaving the page. */
export class SmsCodeController implements ReactiveController {
  #request?: AbortController;

  constructor(
    host: ReactiveControllerHost,
    private readonly field: { value: string; entry: CodeEntry; submit(): void },
  ) {
    host.addController(this);
  }

  /** Listens anew (a new code is on its way); the earlier request is dropped. */
  listen(): void {
    this.stop();
    const request = (this.#request = new AbortController());
    void receiveSmsCode(request.signal).then((code) => {
      if (!code || request.signal.aborted) return;
      this.field.value = code;
      this.field.entry = 'webotp';
      this.field.submit();
    });
  }

  stop(): void {
    this.#request?.abort();
  }

  hostDisconnected(): void {
    this.stop();
  }
}
