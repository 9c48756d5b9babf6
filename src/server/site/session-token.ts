/**
 * Who is asking, from a session token the site's own back end mints (demo/pages/any-backend.md): an HS256 JWT with
 * `sub` (the user id; absent for a guest), `sid` (the browser session), `aud: "verify-widgets"`,
 * `iat`, an `exp` at most 15 minutes later, and `enroll: true` when the site vouches for fresh
 * proof of another factor. The widget sends it as `Authorization: Bearer`, never in a URL. This is
 * how the stand-alone service knows the person, and a JavaScript host may use it in place of its
 * own session.
 */
import { errors, jwtVerify } from 'jose';
import { hmacKey } from '../keyed-crypto.js';
import { HandlerError } from '../handler/errors.js';

export const SESSION_TOKEN_AUDIENCE = 'verify-widgets';
/** The longest life a token may claim: a stolen one is worth minutes. */
export const MAX_SESSION_TOKEN_SECONDS = 15 * 60;

export interface SessionTokenClaims {
  sub?: string;
  sid: string;
  enroll?: boolean;
  iat: number;
  exp: number;
}

export interface SessionTokenOptions {
  /** The secret shared with the site's back end, at least 32 bytes. */
  secret: string;
  /** Seconds of clock difference tolerated between the site and this server; 5 by default. */
  clockSkewSeconds?: number;
}

/** The handler's `getUser`, `getSessionId` and `canEnroll`, read from the request's session token. */
export interface SessionTokenHooks {
  getUser(request: Request): Promise<string | null>;
  getSessionId(request: Request): Promise<string>;
  /** True when the token vouches for fresh proof; otherwise undefined, so a code verified here counts. */
  canEnroll(userId: string, request: Request): Promise<true | undefined>;
}

const UNCONFIRMED = 'Your session could not be confirmed. Reload the page to continue.';
const refused = (code: 'token_missing' | 'token_expired' | 'token_invalid', message = UNCONFIRMED) => new HandlerError(code, message);

export function sessionTokenAuth(options: SessionTokenOptions): SessionTokenHooks {
  if (typeof options.secret !== 'string' || new TextEncoder().encode(options.secret).length < 32) {
    throw new TypeError('the session token secret must be a string of at least 32 bytes');
  }
  const skew = options.clockSkewSeconds ?? 5;
  // Read once per request, whichever hook asks first.
  const read = new WeakMap<Request, Promise<SessionTokenClaims>>();
  const claims = (request: Request) => {
    let claimed = read.get(request);
    if (!claimed) read.set(request, (claimed = verifySessionToken(request.headers.get('authorization'), options.secret, skew)));
    return claimed;
  };
  return {
    getUser: async (request) => (await claims(request)).sub ?? null,
    getSessionId: async (request) => (await claims(request)).sid,
    canEnroll: async (userId, request) => {
      const token = await claims(request);
      return token.enroll === true && token.sub === userId ? true : undefined;
    },
  };
}

async function verifySessionToken(header: string | null, secret: string, skew: number): Promise<SessionTokenClaims> {
  const token = /^Bearer ([A-Za-z0-9_.-]{1,4096})$/.exec(header ?? '')?.[1];
  if (!token) throw refused('token_missing');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ['HS256'],
      audience: SESSION_TOKEN_AUDIENCE,
      requiredClaims: ['sid', 'iat', 'exp'],
      clockTolerance: skew,
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw refused('token_expired', 'Your session has expired. Reload the page to continue.');
    throw refused('token_invalid');
  }
  const { sub, sid, enroll, iat, exp } = payload;
  const wellFormed =
    typeof sid === 'string' && sid.length > 0 && sid.length <= 256 &&
    (sub === undefined || (typeof sub === 'string' && sub.length > 0 && sub.length <= 256)) &&
    (enroll === undefined || typeof enroll === 'boolean') &&
    typeof iat === 'number' && typeof exp === 'number' &&
    // A token that claims a long life is refused whatever its signature: the site's clock or code is wrong.
    exp - iat <= MAX_SESSION_TOKEN_SECONDS && iat <= Date.now() / 1000 + skew;
  if (!wellFormed) throw refused('token_invalid');
  return { sub: sub as string | undefined, sid: sid as string, enroll: enroll as boolean | undefined, iat, exp };
}
