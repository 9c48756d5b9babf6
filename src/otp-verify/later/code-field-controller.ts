/**
 * The one real code <input>, for <otp-verify>.
 *
 * Owns: the input itself, kept in the element's light DOM (slot="code") because autofill ("From
 * Messages" on iOS, Android's SMS autofill) and password managers cannot see inputs inside a
 * shadow root; its attributes (one-time-code, numeric keyboard, left to right, no password-manager
 * icon); its accessible name and its description (a light-DOM message slotted where the widget
 * shows errors, since aria-describedby cannot reach into a shadow root); what arrives in it:
 * - typed digits edit the field as in any text input (caret, selection, Delete, Home, End), and
 *   Arabic-Indic and Persian digits become ASCII; anything else is dropped;
 * - a whole code arriving at once (paste, autofill, a keyboard suggestion) replaces the field, and
 *   only the code is taken from a message ("Order 42: your code is 123456" gives 123456);
 * - once the host refused a code, whatever the person enters next starts a new code;
 * - more digits than a code has are refused, as maxlength would (maxlength itself would cut a
 *   pasted "123-456" to "123-45" before the dash is dropped);
 * - Enter submits to the element (the input's own form is the page's, not the widget's).
 * It tells the element when a new complete code arrives, never the refused one again.
 *
 * It marks a code the person asked to verify before it was complete, until it changes.
 *
 * Does not own: the boxes drawn over it (the element renders them from `value` and `selection`),
 * the request, the WebOTP request, the wording of errors.
 */
import type { CodeEntry } from '../../events/metrics.js';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { digitsOf, findCode, MAX_CODE_LENGTH } from './find-code.js';

let instances = 0;

export interface CodeFieldEvents {
  /** A complete code to verify: asked for (Enter, the button), or a new one arrived whole. */
  submit(code: string): void;
  /** The person asked to verify a code that is not complete yet. */
  incomplete(): void;
  /** Whether the code step is showing, where the field belongs in the light DOM. */
  shown(): boolean;
  /** Digits in a complete code, as the handler said; null when unknown (4 to 8 then, and no auto-submit). */
  length(): number | null;
  /** The field's accessible name, the words for an incomplete code, and the host's problem with it, in the widget's language. */
  words(): { label: string; incomplete: string; problem: string | null };
}

export class CodeFieldController implements ReactiveController {
  readonly input: HTMLInputElement;
  /** The field's error, in the light DOM so that the input can point at it; the element slots it. */
  readonly message: HTMLElement;
  /** The value as last accepted, so an input event can tell what it inserted. */
  #accepted = '';
  /** The code the host refused; entering anything starts a new code, and it is never sent again unasked. */
  #refused: string | null = null;
  /** The value when the person asked to verify it incomplete; the error shows until it changes. */
  #incomplete: string | null = null;
  #error: string | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly on: CodeFieldEvents,
  ) {
    // A page may bring its own input (to name or style it); otherwise the element makes one.
    this.input = host.querySelector<HTMLInputElement>(':scope > input[slot="code"]') ?? document.createElement('input');
    this.message = document.createElement('span');
    this.message.id = `otp-verify-code-message-${++instances}`;
    this.message.slot = 'code-message';
    host.addController(this);
  }

  /** How the code came into the field, for the outcome events; WebOTP says so itself. */
  entry: CodeEntry = 'typed';

  get value(): string {
    return this.input.value;
  }

  /** Fills the field with the code in `text` (WebOTP, a reset), with no auto-submit. */
  set value(text: string) {
    const code = findCode(text, this.length) ?? digitsOf(text).slice(0, this.#max);
    this.#refused = null;
    this.#accept(code, code.length, false);
  }

  /** Digits in a complete code; null when unknown. */
  get length(): number | null {
    return this.on.length();
  }

  get complete(): boolean {
    const n = this.value.length;
    return this.length ? n === this.length : n >= 4;
  }

  /** The caret or selection while the field has focus, for the boxes; null without focus. */
  get selection(): { start: number; end: number } | null {
    const { input } = this;
    if (!input.matches(':focus')) return null;
    const start = input.selectionStart ?? input.value.length;
    return { start, end: input.selectionEnd ?? start };
  }

  /** The host refused this code: keep it in view, selected, so that whatever comes next replaces it. */
  refuse(code: string): void {
    this.#refused = code;
    if (this.input.value === code && this.input.matches(':focus')) this.input.select();
  }

  hostConnected(): void {
    const { input } = this;
    Object.assign(input, { type: 'text', inputMode: 'numeric', autocomplete: 'one-time-code', spellcheck: false, dir: 'ltr' });
    input.slot = 'code';
    input.setAttribute('autocorrect', 'off');
    // Password managers otherwise draw their icon over the last digit.
    for (const name of ['data-1p-ignore', 'data-lpignore', 'data-bwignore']) input.setAttribute(name, 'true');
    input.setAttribute('data-form-type', 'other');
    this.#accepted = digitsOf(input.value);
    for (const [type, listener] of this.#listeners()) input.addEventListener(type, listener);
    document.addEventListener('selectionchange', this.#redraw);
  }

  /**
   * Puts the input and its message into the element's light DOM, when the code step first needs
   * them: never at connection, so that a page rendered on a server (React, Vue, Angular) finds
   * its markup unchanged when it hydrates.
   */
  attach(): void {
    if (this.input.parentNode !== this.host) this.host.append(this.input);
    if (this.message.parentNode !== this.host) this.host.append(this.message);
  }

  /** Before each update: the field is in place while its step shows (even if the page moved it), and says what is wrong. */
  hostUpdate(): void {
    if (!this.on.shown()) return;
    this.attach();
    const { length } = this;
    this.input.pattern = length ? `[0-9]{${length}}` : `[0-9]{4,${MAX_CODE_LENGTH}}`;
    const words = this.on.words();
    this.#error = this.#incomplete !== null && this.#incomplete === this.value ? words.incomplete : words.problem;
    this.#describe(words.label, this.#error);
  }

  /** What is wrong with the code in the field, shown under it and read as its description. */
  get error(): string | null {
    return this.#error;
  }

  /** The person asked to verify: a complete code goes on; an incomplete one is marked until it changes. */
  submit(): void {
    if (!this.complete) {
      this.#incomplete = this.value;
      this.focus();
      this.host.requestUpdate();
      return this.on.incomplete();
    }
    this.#incomplete = null;
    this.on.submit(this.value);
  }

  hostDisconnected(): void {
    for (const [type, listener] of this.#listeners()) this.input.removeEventListener(type, listener);
    document.removeEventListener('selectionchange', this.#redraw);
  }

  #listeners(): [string, EventListener][] {
    return [
      ['input', this.#onInput as EventListener],
      ['paste', this.#onPaste as EventListener],
      ['keydown', this.#onKeydown as EventListener],
      // The boxes follow the caret and the selection.
      ...['focus', 'blur', 'select', 'selectionchange', 'keyup', 'click'].map((type): [string, EventListener] => [type, this.#redraw]),
    ];
  }

  /**
   * Its accessible name, state and description. A <label> in the shadow root cannot name a
   * light-DOM input, so the name travels as aria-label, in the page's language.
   */
  #describe(label: string, error: string | null): void {
    const { input, message } = this;
    input.setAttribute('aria-label', label);
    input.setAttribute('aria-invalid', String(error !== null));
    if (message.textContent !== (error ?? '')) message.textContent = error ?? '';
    if (error) input.setAttribute('aria-describedby', message.id);
    else input.removeAttribute('aria-describedby');
  }

  focus(): void {
    this.input.focus({ preventScroll: true });
  }

  get #max(): number {
    return this.length ?? MAX_CODE_LENGTH;
  }

  #onInput = (event: InputEvent) => {
    const { input } = this;
    const raw = input.value;
    const type = event.inputType ?? '';
    const previous = this.#accepted;
    // Autofill sends no inputType, iOS "From Messages" a replacement: both put in a whole value.
    const whole = type === '' || type === 'insertReplacementText';
    this.entry = type === 'insertFromPaste' ? 'pasted' : whole ? 'autofilled' : 'typed';
    const { inserted, at } = whole ? { inserted: raw, at: 0 } : insertion(previous, raw);
    const code = findCode(inserted, this.length);
    if (code) return this.#accept(code, code.length, true);
    if (this.#refused !== null && previous === this.#refused && type.startsWith('insert')) {
      const fresh = digitsOf(inserted).slice(0, this.#max);
      return this.#accept(fresh, fresh.length, true);
    }
    const digits = digitsOf(raw);
    if (digits.length > this.#max) return this.#accept(previous, at, false);
    this.#accept(digits, digitsOf(raw.slice(0, input.selectionStart ?? raw.length)).length, true);
  };

  #onPaste = (event: ClipboardEvent) => {
    const text = event.clipboardData?.getData('text');
    if (!text) return;
    event.preventDefault();
    this.entry = 'pasted';
    const code = findCode(text, this.length);
    if (code) return this.#accept(code, code.length, true);
    // A part of a code: inserted at the caret, over the selection, within the code's length.
    const { value } = this.input;
    const start = this.input.selectionStart ?? value.length;
    const end = this.input.selectionEnd ?? start;
    const replacing = this.#refused !== null && value === this.#refused;
    const head = replacing ? '' : value.slice(0, start);
    const tail = replacing ? '' : value.slice(end);
    const digits = digitsOf(text);
    const piece = digits.slice(0, Math.max(0, this.#max - head.length - tail.length));
    this.#accept(head + piece + tail, head.length + piece.length, piece.length === digits.length);
  };

  #onKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    this.submit();
  };

  #accept(value: string, caret: number, maySubmit: boolean): void {
    const { input } = this;
    if (input.value !== value) {
      input.value = value;
      if (input.matches(':focus')) input.setSelectionRange(caret, caret);
    }
    const changed = value !== this.#accepted;
    this.#accepted = value;
    this.host.requestUpdate();
    if (maySubmit && changed && this.length !== null && value.length === this.length && value !== this.#refused) this.on.submit(value);
  }

  #redraw = () => this.host.requestUpdate();
}

/** What an edit inserted: the text between what `before` and `after` have in common at each end. */
function insertion(before: string, after: string): { inserted: string; at: number } {
  const room = Math.min(before.length, after.length);
  let start = 0;
  while (start < room && before[start] === after[start]) start++;
  let end = 0;
  while (end < room - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { inserted: after.slice(start, after.length - end), at: start };
}
