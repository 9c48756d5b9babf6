/**
 * The contact step's form of <otp-verify>: what the person typed (kept across steps, so a wrong
 * code or a change of channel loses nothing), the channels and countries offered (the element's
 * attributes within the handler's config), the country followed from a dialed +code, the email
 * typo hint, and checking it all before any request, so that a mistake costs none.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { OTP_CHANNELS, type ConfigResponse, type OtpChannel } from '../core/protocol.js';
import { isEmailAddress, suggestEmail } from '../core/email.js';
import type { OtpStrings } from '../translations/en/otp.js';
import { countryForDialed, dialedDigits, DIAL_CODES, toE164 } from './dial-codes.js';
import type { Contact } from './otp-verify.flow.js';

export interface ContactDraft {
  method?: OtpChannel;
  country?: string;
  phone: string;
  email: string;
}

/** What the form reads from its element. */
export interface ContactFormHost extends ReactiveControllerHost {
  readonly channels: string;
  readonly countries: string;
  readonly country: string;
  readonly config?: ConfigResponse;
  readonly t: OtpStrings;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export class ContactForm implements ReactiveController {
  #draft: ContactDraft = { phone: '', email: '' };
  #error?: { field: 'phone' | 'email'; message: string };
  #suggestion?: string;
  #allCountries = false;

  constructor(
    private readonly host: ContactFormHost,
    /** A checked contact to send the code to; or what is wrong, to be said aloud. */
    private readonly on: { submit(contact: Contact): void; invalid(message: string): void },
  ) {
    host.addController(this);
  }

  /** Whether the picker offers every country yet; at first it holds the chosen one alone. */
  get allCountries(): boolean {
    return this.#allCountries;
  }

  /** The person reached for the picker (or the page is idle): the whole list, built once. */
  showAllCountries(): void {
    if (this.#allCountries) return;
    this.#allCountries = true;
    this.host.requestUpdate();
  }

  hostConnected(): void {
    // After the first render, when the page has a moment: the list is there before anyone opens it.
    const idle = globalThis.requestIdleCallback ?? ((work: () => void) => setTimeout(work, 200));
    void this.host.updateComplete.then(() => idle(() => this.showAllCountries()));
  }

  get draft(): Readonly<ContactDraft> {
    return this.#draft;
  }

  /** What is wrong with a field, found here before any request. */
  get error(): { field: 'phone' | 'email'; message: string } | undefined {
    return this.#error;
  }

  /** The address the person probably meant, when the email's domain looks mistyped. */
  get suggestion(): string | undefined {
    return this.#suggestion;
  }

  /** Channels offered now: the attribute's, within the handler's. */
  get channels(): OtpChannel[] {
    const wanted = this.host.channels.split(/\s+/).filter((c): c is OtpChannel => (OTP_CHANNELS as readonly string[]).includes(c));
    const allowed = this.host.config?.channels;
    return allowed ? wanted.filter((c) => allowed.includes(c)) : wanted;
  }

  get countries(): string[] {
    const listed = this.host.countries.trim();
    const wanted = listed ? listed.toUpperCase().split(/\s+/) : [...DIAL_CODES.keys()];
    const allowed = this.host.config?.countries;
    return wanted.filter((c) => DIAL_CODES.has(c) && (!allowed || allowed.includes(c)));
  }

  get method(): OtpChannel {
    const offered = this.channels;
    return this.#draft.method && offered.includes(this.#draft.method) ? this.#draft.method : (offered[0] ?? 'email');
  }

  /** The country chosen, else the element's, else the browser's region, among those offered. */
  get country(): string {
    const offered = this.countries;
    const region = navigator.language.split('-')[1]?.toUpperCase();
    return [this.#draft.country, this.host.country.toUpperCase(), region].find((c) => c && offered.includes(c)) ?? offered[0] ?? 'SA';
  }

  get empty(): boolean {
    return !this.#draft.phone && !this.#draft.email;
  }

  update(change: Partial<ContactDraft>): void {
    this.#draft = { ...this.#draft, ...change };
    const dialed = change.phone === undefined ? undefined : dialedDigits(change.phone);
    const country = dialed && countryForDialed(dialed, this.country, this.countries);
    if (country) this.#draft = { ...this.#draft, country };
    if (change.email !== undefined) this.#suggestion = suggestEmail(change.email.trim());
    this.#error = undefined;
    this.host.requestUpdate();
  }

  useSuggestion(): void {
    this.update({ email: this.#suggestion ?? this.#draft.email });
    this.#suggestion = undefined;
  }

  /** The form was submitted: a valid contact goes on; otherwise the field says why and takes focus. */
  submit(): void {
    const method = this.method;
    if (method === 'email') {
      const email = this.#draft.email.trim();
      if (!isEmailAddress(email)) return this.#invalid('email', this.host.t.emailInvalid);
      this.#error = undefined;
      return this.on.submit({ method, email });
    }
    const phone = toE164(this.country, this.#draft.phone);
    if (!phone) return this.#invalid('phone', this.host.t.phoneInvalid);
    this.#error = undefined;
    this.on.submit({ method, phone });
  }

  #invalid(field: 'phone' | 'email', message: string): void {
    this.#error = { field, message };
    this.host.requestUpdate();
    this.on.invalid(message);
    void this.host.updateComplete.then(() => this.host.renderRoot.querySelector<HTMLElement>(`#${field}`)?.focus());
  }
}
