/**
 * The one real code <input>, for <otp-verify>.
 *
 * Owns: the input itself, kept in the element's light DOM (slot="code") because autofill ("From
 * Messages" on iOS, Android's SMS autofill) and password managers cannot see inputs inside a
 * shadow root; its attributes (one-time-code, numeric keyboard, left to right, no password-manager
 * icon); cleaning what is typed or pasted (Arabic-Indic and Persian digits to ASCII, nothing but
 * digits, no more than the code's length, a pasted message reduced to its digits); the caret kept
 * at the end; telling the element when the
 * code is complete.
 *
 * Does not own: the boxes drawn over it (the element renders them from `value`), submitting, the
 * WebOTP request, error messages.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { asciiDigits } from '../internal/digits.js';

const MAX_LENGTH = 8;

export class CodeFieldController implements ReactiveController {
  readonly input: HTMLInputElement;
  #length: number | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly onComplete: (code: string) => void,
  ) {
    // A page may bring its own input (to name or style it); otherwise the element makes one.
    this.input = host.querySelector<HTMLInputElement>(':scope > input[slot="code"]') ?? document.createElement('input');
    host.addController(this);
  }

  get value(): string {
    return this.input.value;
  }

  set value(code: string) {
    this.input.value = this.#clean(code);
    this.host.requestUpdate();
  }

  /** Digits in a complete code; null when unknown (4 to 8 then, and no auto-submit). */
  set length(length: number | null) {
    // No maxlength: the browser would cut "123-456" to "123-45" before the dash is dropped.
    this.#length = length;
    this.input.pattern = length ? `[0-9]{${length}}` : `[0-9]{4,${MAX_LENGTH}}`;
  }

  get length(): number | null {
    return this.#length;
  }

  get complete(): boolean {
    const n = this.value.length;
    return this.#length ? n === this.#length : n >= 4;
  }

  hostConnected(): void {
    const { input } = this;
    Object.assign(input, { type: 'text', inputMode: 'numeric', autocomplete: 'one-time-code', spellcheck: false, dir: 'ltr' });
    input.slot = 'code';
    input.setAttribute('autocorrect', 'off');
    // Password managers otherwise draw their icon over the last digit.
    for (const name of ['data-1p-ignore', 'data-lpignore', 'data-bwignore']) input.setAttribute(name, 'true');
    input.setAttribute('data-form-type', 'other');
    if (!input.isConnected) this.host.append(input);
    for (const [type, listener] of this.#listeners()) input.addEventListener(type, listener);
  }

  hostDisconnected(): void {
    for (const [type, listener] of this.#listeners()) this.input.removeEventListener(type, listener);
  }

  #listeners(): [string, EventListener][] {
    return [
      ['input', this.#onInput],
      ['paste', this.#onPaste as EventListener],
      ['focus', this.#toEnd],
      ['blur', this.#onBlur],
      ['keyup', this.#toEnd],
      ['click', this.#toEnd],
    ];
  }

  /**
   * Its accessible name and state. A <label> in the shadow root cannot name a light-DOM input, so
   * the name travels as aria-label, in the page's language.
   */
  describe(label: string, invalid: boolean): void {
    this.input.setAttribute('aria-label', label);
    this.input.setAttribute('aria-invalid', String(invalid));
  }

  focus(): void {
    this.input.focus({ preventScroll: true });
  }

  #clean(text: string): string {
    return asciiDigits(text).replace(/\D/g, '').slice(0, this.#length ?? MAX_LENGTH);
  }

  #onInput = () => {
    const cleaned = this.#clean(this.input.value);
    if (cleaned !== this.input.value) this.input.value = cleaned;
    this.#toEnd();
    this.host.requestUpdate();
    if (this.#length && cleaned.length === this.#length) this.onComplete(cleaned);
  };

  /** A pasted message ("Your code is 123456") gives its digits, whatever the field held. */
  #onPaste = (event: ClipboardEvent) => {
    const text = event.clipboardData?.getData('text');
    if (!text) return;
    event.preventDefault();
    this.input.value = this.#clean(text);
    this.#onInput();
  };

  #onBlur = () => this.host.requestUpdate();

  // The boxes show one caret, after the last digit: keep the real caret there too.
  #toEnd = () => {
    const end = this.input.value.length;
    if (this.input.selectionStart !== end || this.input.selectionEnd !== end) this.input.setSelectionRange(end, end);
    this.host.requestUpdate();
  };
}
