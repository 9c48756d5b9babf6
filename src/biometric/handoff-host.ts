/** What continue on your phone needs of a face or voice widget, and the short code as both screens show it. */
import { html, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { BiometricKind, ConfigResponse, FaceStep, HandoffStatus, VoiceStep } from '../core/protocol.js';
import type { BiometricStrings } from '../translations/en/biometric.js';
import type { FailureFacts } from '../internal/later/failure-text.js';

/** `auto` offers the phone when the camera or microphone fails; `offer` from the start too; `always` goes straight to it; `off` never. */
export type HandoffSetting = 'auto' | 'offer' | 'always' | 'off';

/** On a phone opened from a link: its token, and once claimed the device key its calls carry and the code both screens show. */
export interface PhoneLink {
  token: string;
  pass: string | null;
  code: string;
}

/** Where a tab keeps the link it claimed (its device key, code and mode), for a reload. */
export const savedLink = (token: string) => `verify-handoff:${token}`;

/** What the controller and the panel need of the element. */
export interface HandoffHost extends ReactiveControllerHost, HTMLElement {
  readonly kind: BiometricKind;
  mode: 'verify' | 'enroll';
  readonly step: FaceStep | VoiceStep;
  readonly t: BiometricStrings;
  readonly language: string;
  /** The panel's own words, in the element's language, with the page's overrides. */
  stringsOf<T extends object>(english: T): T;
  readonly handoffUrl: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly config?: ConfigResponse;
  readonly flow: { send(event: { type: 'handoff' } | { type: 'handoff-ended' }): void };
  /** The phone's capture verified or registered: the element finishes as if it had captured it. */
  finishedElsewhere(status: HandoffStatus): void;
  /** What a failure says to the person (failure-text.ts). */
  failureText(facts: FailureFacts): string;
  /** The phone link ended (expired, used, cancelled on either side). */
  handoffEnded(): void;
}

/** The short code read aloud one character at a time. */
export const spelled = (code: string) => Array.from(code).join(', ');

/** The short code as both screens show it. */
export function shortCode(code: string): TemplateResult {
  return html`<strong part="code" class="code" dir="ltr" aria-label=${spelled(code)}>${code.slice(0, 3)} ${code.slice(3)}</strong>`;
}
