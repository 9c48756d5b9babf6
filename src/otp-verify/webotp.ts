/**
 * WebOTP: where the browser has it (Chrome on Android), asks it for the code of an incoming SMS
 * whose last line is "@host #code". Resolves undefined when unsupported, refused or aborted; the
 * caller aborts it on submit and on disconnect.
 */
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
