/**
 * The calls <otp-verify> makes once a contact is sent: send the code, check it, and say what went
 * wrong. They come with the later steps; the element calls them as its flow enters each step.
 */
import { VerifyCodeSentEvent } from '../../events/code-sent.js';
import { format, formatSeconds } from '../../core/format.js';
import { StaleAnswer } from '../../internal/request-controller.js';
import { proofIn } from '../../internal/verify-element.js';
import { leftToRight } from '../bidi.js';
import { contactFields, type Contact, type Problem } from './otp-verify.flow.js';
import { problemText } from './otp-verify.templates.js';
import type { HostError } from '../../internal/host-api.js';
import type { RequestController } from '../../internal/request-controller.js';
import type { Proof } from '../../internal/verify-element.js';
import type { ConfigResponse } from '../../core/protocol.js';
import type { OtpEvent, OtpState } from './otp-verify.flow.js';
import type { OtpView } from './otp-verify.templates.js';
import type { CountdownController } from './countdown-controller.js';

/** What the calls read and tell of <otp-verify>. */
export interface OtpCaller extends HTMLElement, Pick<OtpView, 't' | 'language' | 'wait'> {
  readonly step: string;
  readonly requests: RequestController;
  readonly config?: ConfigResponse;
  readonly flow: { readonly state: OtpState; send(event: OtpEvent): void };
  /** The code step: its code fetched with the send, and the code's length the handler tells. */
  readonly code: { length: number | null; load(): Promise<unknown> };
  readonly wait: Pick<CountdownController, 'remaining' | 'start'>;
  announce(text: string): void;
  succeeded(method: 'otp', proof: Proof, text: string): void;
  hostError(error: unknown): HostError;
  reportProblem(error: HostError, message: string): void;
}

export async function sendCode(element: OtpCaller, contact: Contact): Promise<void> {
  try {
    const [lang, fields] = [element.language.split('-')[0], contactFields(contact)];
    // The code step's code comes while the code does: it is there when the code step shows.
    const [answer] = await Promise.all([element.requests.call('send-otp', fields ? { method: contact.method, ...fields, lang } : { resend: true, lang }), element.code.load()]);
    const to = String(answer.to ?? contact.phone ?? contact.email);
    const resendAfter = Number(answer.resendAfter ?? element.config?.resendCooldown ?? 30);
    if (typeof answer.codeLength === 'number') element.code.length = answer.codeLength;
    element.flow.send({ type: 'sent', to, resendAfter, now: Date.now() });
    element.announce(`${format(element.t.codeSentAnnouncement, { to: leftToRight(to) })} ${format(element.t.resendIn, { time: formatSeconds(resendAfter, element.language) })}`);
    element.dispatchEvent(new VerifyCodeSentEvent({ method: contact.method, to, resendAfter }));
  } catch (error) {
    failed(element, error);
  }
}

export async function checkCode(element: OtpCaller, contact: Contact, code: string): Promise<void> {
  try {
    const answer = await element.requests.call('verify-otp', { ...contactFields(contact), otp: code });
    const proof = proofIn(answer);
    element.flow.send({ type: 'verified', ...proof });
    element.succeeded('otp', proof, element.t.successText);
  } catch (error) {
    failed(element, error);
  }
}

export function failed(element: OtpCaller, error: unknown): void {
  if (error instanceof StaleAnswer) return;
  const host = element.hostError(error);
  const problem: Problem = { code: host.code, ...host.extra };
  // No answer to a send (the network, the deadline): the handler may have sent the code.
  if (element.step === 'sending' && host.status === 0) problem.maybeSent = true;
  element.flow.send({ type: 'failed', problem, now: Date.now() });
  const { state } = element.flow;
  const message = state.step === 'code' && problem.maybeSent ? format(element.t.codeMaybeSentTo, { to: leftToRight(state.to) }) : problemText(element, problem);
  if (problem.retryAfter && !problem.maybeSent) element.wait.start(problem.retryAfter);
  element.reportProblem(host, message);
}
