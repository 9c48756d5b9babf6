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
import { countryForDialed, dialedDigits, toE164, type CallingCodes } from './dial-codes.js';
import type { Contact } from './later/otp-verify.flow.js';

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
  readonly configLoaded: Promise<void>;
  readonly t: OtpStrings;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

const NONE: CallingCodes = {};

export class ContactForm implements ReactiveController {
  #draft: ContactDraft = { phone: '', email: '' };
  #error?: { field: 'phone' | 'email'; message: string };
  #suggestion?: string;
  #allCountries = false;
  #codes?: { allowed: CallingCodes; listed: string; codes: CallingCodes };
  #firstMethod?: OtpChannel;

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

  /**
   * Countries offered, with their calling codes: the handler's, within the attribute's; none until
   * it answers. The same object while neither changes, so the picker is not rendered again.
   */
  get callingCodes(): CallingCodes {
    const allowed = this.host.config?.countries ?? NONE;
    const listed = this.host.countries.trim().toUpperCase();
    if (this.#codes?.allowed !== allowed || this.#codes.listed !== listed) {
      const wanted = listed ? listed.split(/\s+/).filter((c) => Object.hasOwn(allowed, c)) : Object.keys(allowed);
      this.#codes = { allowed, listed, codes: Object.fromEntries(wanted.map((c) => [c, allowed[c]!])) };
    }
    return this.#codes.codes;
  }

  get countries(): string[] {
    return Object.keys(this.callingCodes);
  }

  /** The chosen country's calling code, once the handler has said it. */
  get dialCode(): string | undefined {
    return this.callingCodes[this.country];
  }

  get method(): OtpChannel {
    const offered = this.channels;
    return this.#draft.method && offered.includes(this.#draft.method) ? this.#draft.method : (offered[0] ?? 'email');
  }

  /**
   * The country chosen, else the element's, else the browser's region, among those offered; until
   * the handler says which are, the first of these that is a country code at all.
   */
  get country(): string {
    const offered = this.countries;
    const region = navigator.language.split('-')[1]?.toUpperCase();
    const preferred = [this.#draft.country, this.host.country.toUpperCase(), region].filter((c): c is string => Boolean(c && /^[A-Z]{2}$/.test(c)));
    return preferred.find((c) => offered.includes(c)) ?? offered[0] ?? preferred[0] ?? '';
  }

  get empty(): boolean {
    return !this.#draft.phone && !this.#draft.email;
  }

  update(change: Partial<ContactDraft>): void {
    this.#draft = { ...this.#draft, ...change };
    const dialed = change.phone === undefined ? undefined : dialedDigits(change.phone);
    const country = dialed && countryForDialed(dialed, this.country, this.callingCodes);
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
  async submit(): Promise<void> {
    // A national number sent before the handler has given the calling codes waits for them (a moment, on load).
    if (this.method !== 'email' && !this.host.config && !toE164(undefined, this.#draft.phone)) await this.host.configLoaded;
    const method = this.method;
    if (method === 'email') {
      const email = this.#draft.email.trim();
      if (!isEmailAddress(email)) return this.#invalid('email', this.host.t.emailInvalid);
      return this.#send({ method, email });
    }
    const phone = toE164(this.dialCode, this.#draft.phone);
    if (!phone) return this.#invalid('phone', this.host.t.phoneInvalid);
    this.#send({ method, phone });
  }

  /** The channel of the first contact sent, for the outcome events' `fallback`. */
  get firstMethod(): OtpChannel | undefined {
    return this.#firstMethod;
  }

  #send(contact: Contact): void {
    this.#error = undefined;
    this.#firstMethod ??= contact.method;
    this.on.submit(contact);
  }

  #invalid(field: 'phone' | 'email', message: string): void {
    this.#error = { field, message };
    this.host.requestUpdate();
    this.on.invalid(message);
    void this.host.updateComplete.then(() => this.host.renderRoot.querySelector<HTMLElement>(`#${field}`)?.focus());
  }
}
