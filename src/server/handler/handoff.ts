/**
 * Continue on your phone (demo/pages/handoff.md). The desktop's session makes a link (`handoff-start`)
 * whose token is 128 random bits, kept in the shared store under its keyed hash for
 * `limits.handoffSeconds`, bound to that session and its user. The first phone to open it claims it
 * (`handoff-claim`) and gets a device key; from then on its calls carry both, stand on the link's user
 * in place of the host's session, and reach only the routes of that one capture. The result goes to
 * the desktop's session alone, once, when it polls (`handoff-status`).
 */
import { base64url } from 'jose';
import { json } from '../../core/http.js';
import type { HandoffClaimed, HandoffStarted, HandoffState, HandoffStatus, Route, VerifiedResponse } from '../../core/protocol.js';
import { keys } from '../store/keys.js';
import type { PhoneHandoff, RequestContext } from './context.js';
import { hasProof } from './enroll-proof.js';
import { fail } from './errors.js';
import { requireHooks } from './hooks.js';

/** Links one session may make in `handoffSeconds`. */
const MAX_STARTS = 10;
const TOKEN = /^[A-Za-z0-9_-]{22}$/;
/** The short code's letters: none that reads as another (0 and O, 1 and I). */
const CODE_LETTERS = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** The routes a phone may call at all; which of them its link allows is `allows` below. */
const PHONE_ROUTES: readonly Route[] = ['config', 'handoff-claim', 'handoff-phone', 'liveness-challenge', 'voice-challenge', 'verify-by-face', 'verify-by-voice', 'enroll-face', 'enroll-voice'];

const ENDED = 'This phone link has expired or was used already. Make a new one on your computer.';
const CANCELLED = 'This phone link was cancelled.';

/** The link as the store keeps it, sealed. */
type StoredLink = Omit<PhoneHandoff, 'token' | 'state'>;

interface StoredState {
  /** The desktop's session (its keyed hash), the only one told how it went. */
  s: string;
  st: HandoffState;
  exp: number;
  /** What the desktop takes when `done`, sealed: the receipt or the registration. */
  result?: string;
}

const randomToken = () => base64url.encode(crypto.getRandomValues(new Uint8Array(16)));
const shortCode = () => Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => CODE_LETTERS[byte % CODE_LETTERS.length]).join('');
const secondsLeft = (exp: number) => Math.max(1, Math.ceil((exp - Date.now()) / 1000));
function ended(message = ENDED): never {
  fail('handoff_ended', message);
}
const tokenKey = (ctx: RequestContext, token: string) => ctx.hash(`handoff:${token}`);
const deviceHash = (ctx: RequestContext, device: string) => ctx.hash(`handoff-device:${device}`);

function writeState(ctx: RequestContext, link: Pick<PhoneHandoff, 'token' | 'session' | 'exp'>, st: HandoffState, result?: string): Promise<void> {
  const state: StoredState = { s: link.session, st, exp: link.exp, ...(result ? { result } : {}) };
  return ctx.options.store.set(keys.handoffState(link.token), secondsLeft(link.exp), JSON.stringify(state));
}

export async function handoffStart(ctx: RequestContext): Promise<Response> {
  const user = await ctx.requireUser();
  const session = await ctx.session();
  const { kind, mode = 'verify' } = await ctx.body();
  if (kind !== 'face' && kind !== 'voice') fail('invalid_input', 'Say which capture the phone makes: face or voice.', { field: 'kind' });
  if (mode !== 'verify' && mode !== 'enroll') fail('invalid_input', 'The mode is verify or enroll.', { field: 'mode' });
  requireHooks(ctx, kind);
  const { store, limits, crypto, receiptSecret } = ctx.options;
  const seconds = limits.handoffSeconds;
  const { count, ttl } = await store.increment(keys.handoffStarts(session), seconds, MAX_STARTS);
  if (count > MAX_STARTS) fail('rate_limited', 'Too many phone links. Please wait and try again.', { retryAfter: ttl });
  // Registering needs fresh proof on the desktop, where the session that has it is.
  const proof = mode === 'enroll' && (await hasProof(ctx, user));
  if (mode === 'enroll' && !proof) fail('proof_required', 'Confirm it is you with a code first, then register.');
  const token = randomToken();
  const stored: StoredLink = { user, session, kind, mode, code: shortCode(), proof, exp: Date.now() + seconds * 1000 };
  const link: PhoneHandoff = { ...stored, token: await tokenKey(ctx, token), state: 'waiting' };
  await Promise.all([store.set(keys.handoff(link.token), seconds, await crypto.seal(receiptSecret, JSON.stringify(stored))), writeState(ctx, link, 'waiting')]);
  return json({ token, code: stored.code, expiresIn: seconds } satisfies HandoffStarted);
}

/** The desktop polls, or cancels; the result is given once, to the session that made the link. */
export async function handoffStatus(ctx: RequestContext): Promise<Response> {
  const { token, cancel } = await ctx.body();
  if (typeof token !== 'string' || !TOKEN.test(token)) fail('invalid_input', 'Send the phone link’s token.', { field: 'token' });
  if (cancel !== undefined && cancel !== true) fail('invalid_input', 'cancel is true or absent.', { field: 'cancel' });
  const session = await ctx.session();
  const key = await tokenKey(ctx, token);
  const { store, crypto, receiptSecret } = ctx.options;
  const text = await store.get(keys.handoffState(key));
  const state = text === null ? null : (JSON.parse(text) as StoredState);
  if (!state || state.s !== session || state.exp <= Date.now()) ended();
  if (cancel && state.st !== 'done') {
    await writeState(ctx, { token: key, session, exp: state.exp }, 'cancelled');
    return json({ state: 'cancelled', expiresIn: secondsLeft(state.exp) } satisfies HandoffStatus);
  }
  if (state.st !== 'done') return json({ state: state.st, expiresIn: secondsLeft(state.exp) } satisfies HandoffStatus);
  // Taken, not read: of two tabs polling one link, one gets the receipt.
  const taken = await store.take(keys.handoffState(key));
  const sealed = taken === null ? undefined : (JSON.parse(taken) as StoredState).result;
  const result = sealed ? await crypto.open(receiptSecret, sealed) : null;
  if (!result) ended();
  return json({ state: 'done', expiresIn: 0, ...(JSON.parse(result) as Pick<HandoffStatus, 'verified' | 'enrolled'>) } satisfies HandoffStatus);
}

/**
 * A phone's call (it sent `Verify-Handoff`): its link, checked, in place of the host's session.
 * Refused unless the route is one of the link's capture, the link lives, and (after the claim) the
 * device key is the one that claimed it.
 */
export async function phoneHandoff(ctx: RequestContext, header: string, route: Route): Promise<PhoneHandoff> {
  if (!PHONE_ROUTES.includes(route)) fail('forbidden', 'A phone link can only make its one capture.');
  const [token = '', device, ...rest] = header.split('.');
  const claiming = route === 'handoff-claim';
  if (!TOKEN.test(token) || rest.length || claiming !== (device === undefined) || (device !== undefined && !TOKEN.test(device))) ended();
  const key = await tokenKey(ctx, token);
  const { store, crypto, receiptSecret } = ctx.options;
  const [sealed, stateText, claimedBy] = await Promise.all([
    store.get(keys.handoff(key)),
    store.get(keys.handoffState(key)),
    claiming ? null : store.get(keys.handoffDevice(key)),
  ]);
  const plain = sealed === null ? null : await crypto.open(receiptSecret, sealed);
  if (plain === null || stateText === null) ended();
  const link: PhoneHandoff = { ...(JSON.parse(plain) as StoredLink), token: key, state: (JSON.parse(stateText) as StoredState).st };
  if (link.exp <= Date.now()) ended();
  if (!allows(link, route)) fail('forbidden', 'A phone link can only make its one capture.');
  if (!claiming && claimedBy !== (await deviceHash(ctx, device!))) ended();
  // Once it ended, the phone may still read that it did; nothing else.
  if ((link.state === 'done' || link.state === 'cancelled') && route !== 'handoff-phone') ended(link.state === 'cancelled' ? CANCELLED : ENDED);
  return link;
}

function allows({ kind, mode }: PhoneHandoff, route: Route): boolean {
  const capture: Route = mode === 'enroll' ? `enroll-${kind}` : `verify-by-${kind}`;
  return route === capture || route === 'config' || route === 'handoff-claim' || route === 'handoff-phone' || (route === `${kind === 'face' ? 'liveness' : 'voice'}-challenge`);
}

const phoneLink = (ctx: RequestContext): PhoneHandoff => ctx.handoff ?? fail('forbidden', 'Open the link from your computer on your phone.');

/** The first phone to open the link gets its device key; any other finds it used. */
export async function handoffClaim(ctx: RequestContext): Promise<Response> {
  const link = phoneLink(ctx);
  if (link.state !== 'waiting') ended();
  const device = randomToken();
  const { claimed } = await ctx.options.store.claim(keys.handoffDevice(link.token), secondsLeft(link.exp), await deviceHash(ctx, device));
  if (!claimed) ended();
  await writeState(ctx, link, 'connected');
  const { kind, mode, code } = link;
  return json({ kind, mode, code, device, expiresIn: secondsLeft(link.exp) } satisfies HandoffClaimed);
}

/** The phone says it is capturing, or cancels; either way it learns where the link stands (the desktop may have cancelled). */
export async function handoffPhone(ctx: RequestContext): Promise<Response> {
  const link = phoneLink(ctx);
  const { state } = await ctx.body();
  if (state !== undefined && state !== 'capturing' && state !== 'cancelled') fail('invalid_input', 'state is capturing or cancelled.', { field: 'state' });
  const live = link.state !== 'done' && link.state !== 'cancelled';
  if (live && state && state !== link.state) await writeState(ctx, link, state);
  return json({ state: live && state ? state : link.state });
}

/** The phone's capture passed: its result waits, sealed, for the desktop. */
export async function handedOff(ctx: RequestContext, link: PhoneHandoff, result: { verified: VerifiedResponse } | { enrolled: true }): Promise<void> {
  const { crypto, receiptSecret } = ctx.options;
  await writeState(ctx, link, 'done', await crypto.seal(receiptSecret, JSON.stringify(result)));
}
