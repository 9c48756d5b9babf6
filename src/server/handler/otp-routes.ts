/** send-otp and verify-otp: the rules of the host handler page's "What it enforces", in the order that costs least first. */
import type { OtpChannel, SendOtpResponse } from '../../core/protocol.js';
import { OTP_CHANNELS } from '../../core/protocol.js';
import { json } from '../../core/http.js';
import { ServiceError } from '../upstream/errors.js';
import type { ServiceClient } from '../upstream/types.js';
import { asciiDigits } from '../../core/digits.js';
import { maskIdentifier, normalizeEmail, normalizePhone } from './contacts.js';
import { proofStep } from './enroll-proof.js';
import { readPending, sealPending } from './pending.js';
import { alertDestinations, DESTINATION, destinationsOf, destinationSteps } from './destinations.js';
import { PROOF, proofAsked, proofGate, proofScope } from './friction/proof.js';
import { GUESSES, GuessBudget } from './friction/guess-budget.js';
import { budgetStep, CAP, networkWeigh, sendPressure, verifyPressure } from './friction/pressure.js';
import { keys } from '../store/keys.js';
import { inverse, runPlan, type Operation, type PlanStep } from '../store/plan.js';
import type { RequestContext } from './context.js';
import { fail, fromServiceError, HandlerError } from './errors.js';
import { verified } from './verified.js';

export interface OtpDeps {
  upstream: ServiceClient;
  /** The channels usable now: allowed, and paid ones only while credits last. */
  channels(): Promise<OtpChannel[]>;
  /** Digits in a code: the host's setting, else the length of the last code the service accepted. */
  codeLength(): number | null;
  learnCodeLength(length: number): void;
}

/** The template for the widget's language: its whole tag (`fr-ca`), else its language (`fr`), else English's. */
function templateFor(ctx: RequestContext, lang: unknown): number | undefined {
  const { templateId = { en: 1, ar: 2 } } = ctx.options;
  if (typeof templateId === 'number') return templateId;
  const tag = typeof lang === 'string' ? lang.toLowerCase() : 'en';
  // Own properties only: a lang of "__proto__" or "constructor" is just an unknown language.
  const known = [tag, tag.split('-')[0]!, 'en'].find((key) => Object.hasOwn(templateId, key));
  return known === undefined ? undefined : templateId[known];
}

const TOO_MANY = 'Too many codes requested. Please try again later.';
const EXPIRED = 'This code has expired. Please request a new one.';
const SPENT = 'Too many wrong codes. Please request a new one.';
/** Why a verify's plan stops when its code was checked already. */
const TRIED = 'tried';

/** Appends a step to a plan; answers its index, where the plan's answer holds its result. */
const add = (plan: PlanStep[], ...steps: PlanStep[]): number => plan.push(...steps) - steps.length;

/** A service error that says no message went out: refused before sending (validation, key, redirect, rate). */
const certainlyNotSent = (error: ServiceError) => error.status >= 300 && error.status < 500;

/**
 * The checks run from the caller's own budget to the identifier's, so that a refused request spends
 * nothing of anyone else's: a caller refused for its own caps never touches the victim's cooldown or
 * count. The cooldown and hourly count are per (identifier, session), so no caller can silence
 * somebody else's number; past a network's share of the identifier's sends (its /24 or /48, over
 * all its sessions), a crowd from one place pays a proof of work growing with each send, where the
 * number's owner may be too; the ceiling over all callers bounds what all of them can send.
 */
export async function sendOtp(ctx: RequestContext, deps: OtpDeps): Promise<Response> {
  const { options } = ctx;
  const { store, limits } = options;
  const body = await ctx.body();
  const session = await ctx.session();
  // A widget that came back to a pending code (reload, new tab) asks again without knowing the contact.
  const pending = body.resend === true ? ((await readPending(ctx, session)) ?? fail('invalid_input', 'Enter your phone number or email again.', { field: 'contact' })) : null;
  const method = (pending?.method ?? body.method) as OtpChannel;
  if (!OTP_CHANNELS.includes(method) || !options.allowedChannels.includes(method)) {
    fail('invalid_input', 'Choose one of the offered ways to receive a code.', { field: 'method' });
  }
  ctx.channel = method;
  if (!(await deps.channels()).includes(method)) fail('insufficient_credits', 'This way of receiving a code is unavailable right now.');
  const identifier = pending?.identifier ?? (method === 'email' ? normalizeEmail(body.email) : normalizePhone(body.phone, method, options.allowedCountries));
  const id = await ctx.hash(identifier);
  const cooldownKey = keys.cooldown(session, id);
  const challenge = keys.code(session, id);
  const attempts = keys.codeAttempts(session, id);
  const [ip, network] = [await ctx.clientKey(), await ctx.wideNetworkKey()];
  const [sessionKey, sessionToIdentifier, ipKey, networkKey] = [
    keys.sendsBySession(session),
    keys.sendsToBySession(id, session),
    ip && keys.sendsByAddress(ip),
    network && keys.sendsToByNetwork(id, network),
  ];
  const budget = new GuessBudget(ctx, identifier, id, network);
  const scope = proofScope('send', session, id);
  const destinations = method === 'email' ? [] : destinationsOf(ctx, identifier);
  const [gate, sealed] = await Promise.all([proofGate(ctx, body, scope), sealPending(ctx, { method, identifier, sentAt: Date.now() })]);

  // The whole send in one plan (one round trip): this session's cooldown claimed, with what a
  // refused send puts back (the code's channel, which is also the answer within the cooldown, the
  // pending record, the checks of the code); the pressure and the caps read, so that a caller past
  // its own caps, or a number at its ceiling, is refused before any work is asked of it.
  const plan: PlanStep[] = [];
  if (limits.resendCooldownSeconds > 0) plan.push({ op: 'claim', key: cooldownKey, seconds: limits.resendCooldownSeconds, need: 'cooldown' });
  const previous = add(plan, { op: 'get', key: challenge }, { op: 'get', key: keys.pending(session) }, { op: 'get', key: attempts });
  plan.push(...budget.steps(0), ...sendPressure(ctx, { session: sessionKey, sessionToIdentifier, identifier: keys.sendsTo(id), ip: ipKey, network: networkKey }));
  // Under pressure, proof first: a request refused for want of it has spent nothing. Then the
  // caller's own budgets, and its network's share of the number's sends, counted then weighed
  // again: a crowd asking at once, which all read the same count, cannot all pass for the price of
  // the first; past it, each more from there needs a harder proof than it carries.
  plan.push(
    gate,
    ...budgetStep(sessionKey, limits.sendsPerSession, 1, CAP),
    ...budgetStep(ipKey, limits.sendsPerIp, 1, CAP),
    ...budgetStep(sessionToIdentifier, limits.sendsPerIdentifier, 1, CAP),
    // Weighed again only where the network's count changed: without an address, the first gate's level stands.
    ...(networkKey ? [{ op: 'increment', key: networkKey, seconds: limits.sendsPerIdentifierAllCallers.windowSeconds, weigh: networkWeigh(ctx, -1) } as const, gate] : []),
  );
  // Then the number's ceiling over all callers, the counts of where codes go, and this session's
  // code and pending record (recorded before the send, so that a code delivered after a timeout
  // can still be entered), its checks starting again with the new code (the number's budget does not).
  plan.push(...budgetStep(keys.sendsTo(id), limits.sendsPerIdentifierAllCallers, 1, CAP));
  const counted = add(plan, ...destinationSteps(destinations), { op: 'increment', key: keys.sendsOnSite(), seconds: 60 });
  plan.push(
    { op: 'set', key: challenge, seconds: limits.challengeSeconds, value: method, was: previous },
    { op: 'set', key: keys.pending(session), seconds: limits.challengeSeconds, value: sealed, was: previous + 1 },
    { op: 'delete', key: attempts, seconds: limits.challengeSeconds, was: previous + 2 },
  );
  const { results, stop } = await runPlan(store, plan);
  await alertDestinations(ctx, destinations, results.slice(counted));
  if (stop) {
    // Within this session's cooldown: a live code goes back to entering it (a second tab, a reload).
    const held = results[previous] as string | null;
    if (stop.reason === 'cooldown' && held !== null) return json(sendAnswer(deps, held as OtpChannel, identifier, stop.retryAfter, true));
    if (stop.reason === 'cooldown') fail('rate_limited', 'A code was sent a moment ago. Please wait before asking again.', { retryAfter: stop.retryAfter });
    if (stop.reason === GUESSES) throw budget.refusal(stop.retryAfter);
    if (stop.reason === PROOF) throw await proofAsked(ctx, stop.level!, scope);
    if (stop.reason === DESTINATION) fail('rate_limited', 'Codes to this destination are paused for a while. Please try again later, or choose another way.', { retryAfter: stop.retryAfter });
    fail('rate_limited', TOO_MANY, { retryAfter: stop.retryAfter });
  }

  const startedAt = Date.now();
  const fallbackEmail = method === 'email' ? null : await options.getFallbackEmail?.(await ctx.user(), ctx.request);
  try {
    await deps.upstream.sendOtp(
      {
        method,
        ...(method === 'email' ? { email: identifier } : { phone: identifier }),
        template_id: templateFor(ctx, body.lang),
        ...(fallbackEmail ? { fallback_email: fallbackEmail } : {}),
      },
      { signal: ctx.signal },
    );
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // An ambiguous failure keeps the cooldown and the challenge: the code may have gone out, and a
    // second send would be charged twice. A certain refusal gives everything back.
    if (certainlyNotSent(error)) {
      // The service's own wait is the one to tell; until it ends, this session's sends wait here.
      const wait = error.code === 'rate_limited' && error.retryAfter;
      const undo = inverse(plan, results).filter((step) => !(wait && step.key === cooldownKey));
      await runPlan(store, wait ? [...undo, { op: 'set', key: cooldownKey, seconds: wait, value: '1' }] : undo);
      throw fromServiceError(error);
    }
    // The widget offers to enter a code that arrives, and tells when another may be asked for.
    const mapped = fromServiceError(error);
    const left = Math.max(0, Math.ceil(limits.resendCooldownSeconds - (Date.now() - startedAt) / 1000));
    throw new HandlerError(mapped.code, mapped.message, { ...mapped.extra, maybeSent: true, retryAfter: left });
  }
  return json(sendAnswer(deps, method, identifier, limits.resendCooldownSeconds, false));
}

function sendAnswer(deps: OtpDeps, method: OtpChannel, identifier: string, resendAfter: number, alreadySent: boolean): SendOtpResponse {
  return { sent: true, method, to: maskIdentifier(identifier), resendAfter, codeLength: deps.codeLength(), ...(alreadySent ? { alreadySent: true as const } : {}) };
}

export async function verifyOtp(ctx: RequestContext, deps: OtpDeps): Promise<Response> {
  const { store, limits } = ctx.options;
  const body = await ctx.body();
  const session = await ctx.session();
  const otp = typeof body.otp === 'string' ? asciiDigits(body.otp.trim()) : '';
  if (!/^\d{4,8}$/.test(otp)) fail('invalid_input', 'Enter the code you received: 4 to 8 digits.', { field: 'otp' });
  // Without a phone or email, the code is the one this session is waiting for (a widget that came back).
  const named = body.phone !== undefined || body.email !== undefined;
  const pending = named ? null : ((await readPending(ctx, session)) ?? fail('code_expired', EXPIRED));
  const identifier = pending?.identifier ?? (body.phone !== undefined ? normalizePhone(body.phone, null, undefined) : normalizeEmail(body.email));
  const byEmail = identifier.includes('@');
  ctx.channel = byEmail ? 'email' : 'phone';
  const id = await ctx.hash(identifier);

  // Only an identifier this session asked a code for can be verified; the answer is the same as
  // for an expired code, so it tells nothing about other people's codes.
  const challenge = keys.code(session, id);
  const attempts = keys.codeAttempts(session, id);
  const budget = new GuessBudget(ctx, identifier, id, await ctx.wideNetworkKey());
  const scope = proofScope('verify', session, id);
  // One plan, the request's one round trip: the code, the number's budget and the pressure read,
  // the missing code told first; proof, where the pressure asks it, with this session's own wrong
  // codes on top. Then the check counted before the service is asked, as if the code were wrong,
  // so that parallel guesses cannot slip past the caps: against this code and the number's
  // budgets (the network's and the site's pressure count answered wrong codes, below). Its guess
  // is claimed, which uses a right code up at once (of concurrent right answers, one gets a
  // receipt, even from a service that would accept a code twice); a code typed again is answered
  // without asking the service.
  const plan: PlanStep[] = [{ op: 'get', key: challenge, need: 'expired' }, ...budget.steps(0), ...verifyPressure(ctx, budget.network, attempts)];
  const own = plan.length - 1;
  plan.push(await proofGate(ctx, body, scope, 'own'));
  const tried = add(plan, { op: 'claim', key: keys.codeTried(session, id, await ctx.hash(`otp:${otp}`)), seconds: limits.challengeSeconds, need: TRIED });
  plan.push({ op: 'increment', key: attempts, seconds: limits.challengeSeconds, max: limits.maxWrongCodes, need: 'attempts' }, ...budget.steps(1));
  const { results, stop } = await runPlan(store, plan);
  if (stop?.reason === 'expired') fail('code_expired', EXPIRED);
  if (stop?.reason === GUESSES) throw budget.refusal(stop.retryAfter);
  if (stop?.reason === 'attempts') fail('too_many_attempts', SPENT, { attemptsLeft: 0 });
  if (stop?.reason === TRIED) fail('wrong_code', 'That code was tried already.', { attemptsLeft: Math.max(0, limits.maxWrongCodes - Number(results[own] ?? 0)) });
  if (stop) throw await proofAsked(ctx, stop.level!, scope);
  const attemptsLeft = Math.max(0, limits.maxWrongCodes - (results[tried + 1] as { count: number }).count);
  // What the check counted against the number and the pressure: given back unless the code was wrong.
  const counted = inverse(plan, results).filter((step) => step.op !== 'delete' && step.key !== attempts);

  try {
    await deps.upstream.verifyOtp({ ...(byEmail ? { email: identifier } : { phone: identifier }), otp }, { signal: ctx.signal });
  } catch (error) {
    const code = error instanceof ServiceError ? error.code : null;
    if (code === 'wrong_code') {
      // The network's and the site's pressure count wrong codes the service has answered, never a
      // check in flight: on a busy site hundreds of right codes are in flight at once, and counted
      // first, they made their own pressure (a proof of work for people typing the right code).
      // Signals only: the caps above were counted before the service was asked. So they decide
      // nothing for this answer, and are written after it where the runtime allows, as a right
      // code's clean-up is: the person waits for one round trip, not two.
      await ctx.options.afterwards.run(session, () => runPlan(store, budget.wrong()), { waitUntil: ctx.info.waitUntil, wait: false, answered: ctx.answered });
      if (attemptsLeft === 0) fail('too_many_attempts', SPENT, { attemptsLeft });
      fail('wrong_code', 'That code is not right.', { attemptsLeft });
    }
    // Only a wrong code spends an attempt: a fault (the service's, or the caller gone) costs the
    // person a retry, no more, and the same code may be tried again. A code the service no longer
    // holds is no longer live here.
    const dead = code === 'code_expired' || code === 'too_many_attempts';
    await runPlan(store, [...inverse(plan, results), ...(dead ? [{ op: 'delete', key: challenge, seconds: 0 } as const] : [])]);
    throw error instanceof ServiceError ? fromServiceError(error) : error;
  }
  deps.learnCodeLength(otp.length);
  const user = await ctx.user();
  // The right code's clean-up: what the check counted given back, the code and its pending record
  // gone. It decides nothing for the answer, so the person does not wait for it where the runtime
  // allows; the proof that lets a signed-in user enrol next is read at once, so it is waited for.
  const settle: Operation[] = [...counted, ...[challenge, attempts, keys.pending(session)].map((key) => ({ op: 'delete', key, seconds: 0 }) as const)];
  const proof = user && ctx.options.biometrics.length ? await proofStep(ctx, user) : null;
  await ctx.options.afterwards.run(session, () => runPlan(store, proof ? [...settle, proof] : settle), { waitUntil: ctx.info.waitUntil, wait: proof !== null, answered: ctx.answered });
  return verified(ctx, 'otp', { user, session, identifier, identifierHash: id });
}
