/** Phone and email checks: E.164 through libphonenumber-js, the country allow-list, mobile only for sms/whatsapp. */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { OtpChannel } from '../../core/protocol.js';
import { asciiDigits } from '../../core/digits.js';
import { isEmailAddress } from '../../core/email.js';

import { fail } from './errors.js';


export function normalizePhone(value: unknown, channel: OtpChannel | null, countries: string[] | undefined): string {
  if (typeof value !== 'string' || value.length > 32) fail('invalid_input', 'Enter a phone number.', { field: 'phone' });
  const phone = parsePhoneNumberFromString(asciiDigits(value.trim()));
  if (!phone?.isValid()) fail('invalid_input', 'Enter a valid international phone number, starting with +.', { field: 'phone' });
  if (countries && !(phone.country && countries.includes(phone.country))) {
    fail('invalid_input', 'Numbers from this country are not accepted.', { field: 'phone' });
  }
  const type = phone.getType();
  if ((channel === 'sms' || channel === 'whatsapp') && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') {
    fail('invalid_input', 'Enter a mobile number.', { field: 'phone' });
  }
  return phone.number;
}

/** The country of an E.164 number and its range: the calling code and the first three national digits. */
export function destinationOf(e164: string): { country: string; prefix: string } {
  const phone = parsePhoneNumberFromString(e164)!;
  return { country: phone.country ?? `+${phone.countryCallingCode}`, prefix: `+${phone.countryCallingCode} ${phone.nationalNumber.slice(0, 3)}` };
}

export function normalizeEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!isEmailAddress(email)) fail('invalid_input', 'Enter a valid email address.', { field: 'email' });
  return email;
}

/** The destination as shown back to the person: enough to recognise, not enough to harvest. */
export function maskIdentifier(identifier: string): string {
  const at = identifier.indexOf('@');
  if (at > 0) return `${identifier[0]}${'•'.repeat(Math.max(1, at - 1))}${identifier.slice(at)}`;
  return `${identifier.slice(0, 4)}${'•'.repeat(Math.max(0, identifier.length - 7))}${identifier.slice(-3)}`;
}
