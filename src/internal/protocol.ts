/**
 * The stable error vocabulary shared by the service client, the host handler and the widgets
 * (DESIGN §3). Widgets branch on `code`; `message` is for people.
 */
export const ERROR_CODES = [
  'invalid_input',
  'wrong_code',
  'code_expired',
  'too_many_attempts',
  'rate_limited',
  'insufficient_credits',
  'no_match',
  'bad_sample',
  'unauthorized',
  'upstream_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type OtpChannel = 'sms' | 'whatsapp' | 'email';
export const OTP_CHANNELS: readonly OtpChannel[] = ['sms', 'whatsapp', 'email'];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
