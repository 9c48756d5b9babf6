/** Field checks for the service's request bodies; failures become 422 with a field-level message. */
import { PayloadError } from './media.js';

export const E164 = /^\+[1-9]\d{1,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function invalid(field: string, message: string): never {
  throw new PayloadError(field, message);
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') invalid(field, `The ${field} field must be a string.`);
  return value;
}

export function requiredString(body: Record<string, unknown>, field: string, maxLength = 255): string {
  const value = optionalString(body, field);
  if (!value) invalid(field, `The ${field} field is required.`);
  if (value.length > maxLength) invalid(field, `The ${field} field must not be longer than ${maxLength} characters.`);
  return value;
}

export function checkPhone(phone: string, field = 'phone'): string {
  if (!E164.test(phone)) invalid(field, `The ${field} field must be an international number such as +966501234567.`);
  return phone;
}

export function checkEmail(email: string, field = 'email'): string {
  if (email.length > 254 || !EMAIL.test(email)) invalid(field, `The ${field} field must be a valid email address.`);
  return email.toLowerCase();
}
