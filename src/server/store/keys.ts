/**
 * What the handler keeps in its store: every key it writes is built here and nowhere else, with
 * what it holds and how long it lives beside it, so that a reader sees the whole data model and a
 * fleet's operator can size Redis from it (the host handler page has the same table).
 *
 * No key holds a phone, an email, a user id, a session id or an address in clear: `session` is a
 * keyed hash of the session, `id` of the phone or email, `user` of the user id, `network` of a
 * client address or its /24 (/48), each 22 characters (RequestContext.hash). A store adds its
 * prefix (`verify:` by default) to each.
 */
import type { BiometricKind } from '../../core/protocol.js';

export const keys = {
  // The code a session asked for, while it can be entered (limits.challengeSeconds, 10 minutes).
  /** The code sent to `id` for `session` is live; holds the channel it went by. */
  code: (session: string, id: string) => `challenge:${session}:${id}`,
  /** Wrong codes entered for that code by that session (a counter). */
  codeAttempts: (session: string, id: string) => `attempts:${session}:${id}`,
  /** One code (`guess`, its keyed hash) checked for that session's code: never asked of the service twice. */
  codeTried: (session: string, id: string, guess: string) => `tried:${session}:${id}:${guess}`,
  /** The contact a session waits for a code on, sealed (AES-GCM), for a reload or a second tab. */
  pending: (session: string) => `pending:${session}`,
  /** The session's resend wait for `id`: limits.resendCooldownSeconds (30 s), or the service's Retry-After. */
  cooldown: (session: string, id: string) => `cooldown:${session}:${id}`,

  // Send budgets (store/budget.ts: each holds when it is whole again; `limits.sendsPer*`, an hour's
  // worth coming back evenly), and the network's count (a counter of an hour).
  /** Codes sent by one session. */
  sendsBySession: (session: string) => `budget:session:${session}`,
  /** Codes sent from one client address. */
  sendsByAddress: (network: string) => `budget:ip:${network}`,
  /** Codes sent to `id` by one session. */
  sendsToBySession: (id: string, session: string) => `budget:id:${id}:${session}`,
  /** Codes sent to `id` from one /24 (/48): past its free share, the network meets friction. */
  sendsToByNetwork: (id: string, network: string) => `sends:id:${id}:net:${network}`,
  /** Codes sent to `id` by everyone. */
  sendsTo: (id: string) => `budget:id:${id}`,
  /** SMS and WhatsApp codes to a country (ISO alpha-2), and to a range (`+966 501`). */
  sendsToCountry: (country: string) => `sends:country:${country}`,
  sendsToPrefix: (prefix: string) => `sends:prefix:${prefix}`,
  /** Codes sent over the whole site in the current minute (60 s). */
  sendsOnSite: () => 'sends:site',

  // The guess budget: wrong codes over all callers (limits.wrongCodesPerIdentifier*, budgets).
  /** Wrong codes for `id` in the hour's budget, and in the day's. */
  guesses: (id: string) => `budget:guesses:${id}`,
  guessesToday: (id: string) => `budget:guesses:day:${id}`,
  /** Wrong codes from one /24 (/48) this hour, and over the site this minute: pressure signals only. */
  guessesByNetwork: (network: string) => `guesses:net:${network}`,
  guessesOnSite: () => 'guesses:site',

  // Friction: a proof claimed once, for as long as a proof-of-work challenge lives (300 s).
  /** A solved proof of work, by its challenge's signature. */
  proofOfWork: (signature: string) => `pow:${signature}`,
  /** The host's human-check token, by its hash. */
  humanCheck: (tokenHash: string) => `human:${tokenHash}`,

  // Faces and voices.
  /** The session's live challenge (its nonce, its movements, its user), taken once (limits.livenessSeconds, 60 s). */
  livenessChallenge: (session: string) => `liveness:${session}`,
  /** The session's voice challenge (its nonce, its digits, its language, its user), taken once (limits.livenessSeconds, 60 s). */
  voiceChallenge: (session: string) => `voice:${session}`,
  /** Comparisons and enrolments by one user of one kind (limits.biometricAttempts, 15 minutes). */
  biometricAttempts: (kind: BiometricKind, user: string) => `bio:${kind}:${user}`,
  /** A first enrolment under way, so that a concurrent one is refused (limits.bodyReadSeconds + 30 s). */
  enrolling: (kind: BiometricKind, user: string) => `enrolling:${kind}:${user}`,
  /** A code this user verified, proof enough to enrol (enrollProofSeconds, 5 minutes). */
  enrollProof: (user: string) => `proof:${user}`,

  // Continue on your phone (handoff.ts): `token` is the keyed hash of the link's token; each lives
  // until the link expires (limits.handoffSeconds, 10 minutes).
  /** The link: the desktop's session, its user (sealed), the kind, mode and short code. */
  handoff: (token: string) => `handoff:${token}`,
  /** Where the phone is (`waiting` to `done`), the desktop's session, and the result sealed until the desktop takes it. */
  handoffState: (token: string) => `handoff:state:${token}`,
  /** The phone that claimed the link, by the keyed hash of its device key: claimed once. */
  handoffDevice: (token: string) => `handoff:device:${token}`,
  /** Links made by one session in the window (a counter): a crowd of them costs a key each. */
  handoffStarts: (session: string) => `handoff:starts:${session}`,

  /** A receipt used, by its id, until it would have expired anyway (receiptSeconds, 2 minutes, and 5 s of clock skew). */
  receipt: (jti: string) => `receipt:${jti}`,

  /** Never written: read by a readiness probe to see the store answer. */
  readiness: () => 'readyz',
} as const;
