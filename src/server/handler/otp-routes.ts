/** send-otp and verify-otp: the rules of the host handler page's "What it enforces", in the order that costs least first. */
import type { OtpChannel, SendOtpResponse } from '../../core/protocol.js';
import { OTP_CHANNELS } from '../../core/protocol.js';
import { json } from '../../core/http.js';
import { ServiceError } from '../upstream/errors.js';
import type { ServiceClient } from '../upstream/types.js';
import { asciiDigits } from '../../core/digits.js';
import { maskIdentifier, normalizeEmail, normalizePhone } from './contacts.js';
import { recordProof } from './enroll-proof.js';
import { clearPending, readPending, sealPending } from './pending.js';
import { countDestination } from './destinations.js';
import { requireProof } from './friction/proof.js';
import { GuessBudget, stepOn } from './friction/guess-budget.js';
import { networkLevel, sendPressure, verifyPressure } from './friction/pressure.js';
import { keys } from '../store/keys.js';
import type { RequestContext } from './context.js';
import { fail, fromServiceError, HandlerError } from './errors.js';
import type { Window } from './options.js';
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

/** What a request counted, given back when nothing was sent (or asked for proof). */
type GiveBack = () => Promise<unknown>;

/**
 * Takes one of a budget (limits.sendsPer*): refused when none is left, told the minutes until one
 * comes back (a budget returns evenly over its window, not at its end). Answers how to give it back.
 */
async function withinBudget(ctx: RequestContext, key: string, window: Window): Promise<GiveBack> {
  const { spent, retryAfter } = await stepOn(ctx, key, window);
  if (!spent) fail('rate_limited', TOO_MANY, { retryAfter });
  return () => stepOn(ctx, key, window, -1);
}

/**
 * Steps taken at once (one round trip), all or none: when one refuses, the others are given back
 * and its refusal thrown, as if it had been asked first; else each is pushed to `spent`.
 */
async function spendAll(spent: GiveBack[], steps: (Promise<GiveBack> | null | '')[]): Promise<void> {
  const answers = await Promise.allSettled(steps.map((step) => step || null));
  const taken = answers.flatMap((answer) => (answer.status === 'fulfilled' && answer.value ? [answer.value] : []));
  const refused = answers.find((answer) => answer.status === 'rejected');
  if (!refused) return void spent.push(...taken);
  await Promise.all(taken.map((giveBack) => giveBack()));
  throw refused.reason;
}

/** Sets one of this session's keys for a challenge's life (deletes it, for null); answers how to put back what it held (`held`, or nothing). */
async function replace(ctx: RequestContext, key: string, value: string | null, held: string | null): Promise<GiveBack> {
  const { store, limits } = ctx.options;
  const put = (value: string | null) => (value === null ? store.delete(key) : store.set(key, limits.challengeSeconds, value));
  await put(value);
  return () => put(held);
}

/** A settled step's value, or its failure thrown. */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** Counts one in a counter of `windowSeconds`; answers how to give it back. */
async function counted(ctx: RequestContext, key: string, windowSeconds: number): Promise<{ count: number; giveBack: GiveBack }> {
  const { store } = ctx.options;
  const { count } = await store.increment(key, windowSeconds);
  return { count, giveBack: () => store.decrement(key) };
}

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

  const [ip, network] = [await ctx.clientKey(), await ctx.wideNetworkKey()];
  const [sessionKey, sessionToIdentifier, ipKey, networkKey] = [keys.sendsBySession(session), keys.sendsToBySession(id, session), ip && keys.sendsByAddress(ip), network && keys.sendsToByNetwork(id, network)];
  const budget = new GuessBudget(ctx, identifier, id, network);
  // One round trip: this session's cooldown claimed; what a refused send puts back (the code's
  // channel, which is also the answer within the cooldown, the pending record, the checks of the
  // code); the pressure.
  const attempts = keys.codeAttempts(session, id);
  const [waiting, previous, previousPending, previousAttempts, pressure] = await Promise.allSettled([
    limits.resendCooldownSeconds > 0 ? store.claim(cooldownKey, limits.resendCooldownSeconds) : { claimed: true, ttl: 0 },
    store.get(challenge),
    store.get(keys.pending(session)),
    store.get(attempts),
    sendPressure(ctx, budget, { session: sessionKey, sessionToIdentifier, identifier: keys.sendsTo(id), ip: ipKey, network: networkKey }, `send:${session}:${id}`),
  ]);
  const [cooldown, code] = [settled(waiting), settled(previous)];
  // Within this session's cooldown: a live code goes back to entering it (a second tab, a reload).
  if (!cooldown.claimed) {
    if (code !== null) return json(sendAnswer(deps, code as OtpChannel, identifier, cooldown.ttl, true));
    fail('rate_limited', 'A code was sent a moment ago. Please wait before asking again.', { retryAfter: cooldown.ttl });
  }
  const spent: GiveBack[] = [];
  try {
    const { level, network: networkPart, cannotPass, scope } = settled(pressure);
    // Refused by a cap it read full: nothing is spent, and the wait is told.
    if (cannotPass) fail('rate_limited', TOO_MANY, { retryAfter: cannotPass });
    // Under pressure, proof first: a request refused for want of it has spent nothing.
    await requireProof(ctx, body, { level, scope });
    // The caller's own budgets, and its network's share of the number's sends, at once (one round
    // trip): whichever refuses, all are given back, and none is anyone else's. The share is counted,
    // then checked, so that a crowd asking at once, which all read the same count, cannot all pass
    // for the price of the first: past it, each more from there needs a harder proof.
    let fromNetwork = 0;
    await spendAll(spent, [
      withinBudget(ctx, sessionKey, limits.sendsPerSession),
      ipKey && withinBudget(ctx, ipKey, limits.sendsPerIp),
      withinBudget(ctx, sessionToIdentifier, limits.sendsPerIdentifier),
      networkKey && counted(ctx, networkKey, limits.sendsPerIdentifierAllCallers.windowSeconds).then(({ count, giveBack }) => ((fromNetwork = count), giveBack)),
    ]);
    const harder = level - networkPart + networkLevel(ctx, fromNetwork - 1);
    // The proof carried (if any) was claimed above, or is too easy: this asks for a harder one.
    if (networkKey && harder > level) await requireProof(ctx, {}, { level: harder, scope });
    // Then, together, the number's ceiling over all callers, the counts of where codes go, and this
    // session's code and pending record (recorded before the send, so that a code delivered after a
    // timeout can still be entered), its checks starting again with the new code (the number's
    // budget does not); a refusal puts back what they held.
    const sealed = await sealPending(ctx, { method, identifier, sentAt: Date.now() });
    await spendAll(spent, [
      withinBudget(ctx, keys.sendsTo(id), limits.sendsPerIdentifierAllCallers),
      method === 'email' ? null : countDestination(ctx, identifier).then((keys) => () => Promise.all(keys.map((key) => store.decrement(key)))),
      counted(ctx, keys.sendsOnSite(), 60).then(({ giveBack }) => giveBack),
      replace(ctx, challenge, method, code),
      replace(ctx, keys.pending(session), sealed, settled(previousPending)),
      replace(ctx, attempts, null, settled(previousAttempts)),
    ]);
  } catch (error) {
    // Refused by a cap: the cooldown just claimed stands for no send. Asked for proof: nothing is spent.
    await store.delete(cooldownKey);
    if (error instanceof HandlerError && error.code === 'challenge_required') await Promise.all(spent.map((giveBack) => giveBack()));
    throw error;
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
      { signal: ctx.request.signal },
    );
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // An ambiguous failure keeps the cooldown and the challenge: the code may have gone out, and a
    // second send would be charged twice. A certain refusal gives everything back.
    if (certainlyNotSent(error)) {
      await Promise.all([
        // The service's own wait is the one to tell; until it ends, this session's sends wait here.
        error.code === 'rate_limited' && error.retryAfter ? store.set(cooldownKey, error.retryAfter, '1') : store.delete(cooldownKey),
        ...spent.map((giveBack) => giveBack()),
      ]);
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
  const pending = named ? null : ((await readPending(ctx, session)) ?? fail('code_expired', 'This code has expired. Please request a new one.'));
  const identifier = pending?.identifier ?? (body.phone !== undefined ? normalizePhone(body.phone, null, undefined) : normalizeEmail(body.email));
  const byEmail = identifier.includes('@');
  ctx.channel = byEmail ? 'email' : 'phone';
  const id = await ctx.hash(identifier);

  // Only an identifier this session asked a code for can be verified; the answer is the same as
  // for an expired code, so it tells nothing about other people's codes.
  const challenge = keys.code(session, id);
  const attempts = keys.codeAttempts(session, id);
  const budget = new GuessBudget(ctx, identifier, id, await ctx.wideNetworkKey());
  // Read together (one round trip); the missing code is told first.
  const [live, pressure] = await Promise.allSettled([store.get(challenge), verifyPressure(ctx, budget, `verify:${session}:${id}`, attempts)]);
  if (settled(live) === null) fail('code_expired', 'This code has expired. Please request a new one.');
  const { attempts: checked, ...proofAsked } = settled(pressure);
  // A code checked as often as it may be: refused before anything is counted.
  if (checked >= limits.maxWrongCodes) fail('too_many_attempts', 'Too many wrong codes. Please request a new one.', { attemptsLeft: 0 });
  await requireProof(ctx, body, proofAsked);
  // Counted before asking the service, so parallel guesses cannot slip past the caps: this code's
  // and the number's, at once (one round trip), all or none. A check past this code's cap stays counted.
  let count = 0;
  await spendAll(
    [],
    [
      store.increment(attempts, limits.challengeSeconds).then((answer) => {
        count = answer.count;
        if (count > limits.maxWrongCodes) fail('too_many_attempts', 'Too many wrong codes. Please request a new one.', { attemptsLeft: 0 });
        return () => store.decrement(attempts);
      }),
      budget.spend().then(() => () => budget.giveBack()),
    ],
  );
  const attemptsLeft = Math.max(0, limits.maxWrongCodes - count);

  try {
    await deps.upstream.verifyOtp({ ...(byEmail ? { email: identifier } : { phone: identifier }), otp }, { signal: ctx.request.signal });
  } catch (error) {
    const code = error instanceof ServiceError ? error.code : null;
    if (code === 'wrong_code') {
      await budget.wrong();
      if (attemptsLeft === 0) fail('too_many_attempts', 'Too many wrong codes. Please request a new one.', { attemptsLeft });
      fail('wrong_code', 'That code is not right.', { attemptsLeft });
    }
    await budget.giveBack();
    if (code === 'code_expired' || code === 'too_many_attempts') await store.delete(challenge);
    // Only a wrong code spends an attempt: a fault (the service's, or the caller gone) costs the person a retry, no more.
    else await store.decrement(attempts);
    throw error instanceof ServiceError ? fromServiceError(error) : error;
  }
  // Using the challenge up is the one atomic step: of concurrent right answers, one gets a receipt,
  // even from a service that would accept a code twice. At once, before a concurrent loser's
  // "already used" from the service deletes it.
  // Only wrong codes count against the number. What follows the take goes with it (one round trip):
  // when a concurrent winner took the code first, it has cleared the same keys.
  const [taken] = await Promise.all([store.take(challenge), budget.giveBack(), store.delete(attempts), clearPending(ctx, session)]);
  if (taken === null) fail('code_expired', 'This code has expired. Please request a new one.');
  deps.learnCodeLength(otp.length);
  const user = await ctx.user();
  if (user) await recordProof(ctx, user);
  return verified(ctx, 'otp', { user, session, identifier, identifierHash: id });
}
