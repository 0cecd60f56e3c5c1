import { AuthLockout, unmatchableHash, verifyPassword } from '@gateway/merchants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isUsername, type ConsoleUsers } from '../users/console-users';
import { ABSOLUTE_MS, type ConsoleDb, type ConsoleSession } from './console-db';

const SESSION_COOKIE = 'console_session';
/** Before sign-in: binds the sign-in form's token to this browser (login CSRF). */
const SIGN_IN_COOKIE = 'console_sign_in';

export type SignInResult =
  | { readonly kind: 'signed-in'; readonly sessionId: string; readonly session: ConsoleSession }
  | { readonly kind: 'refused' }
  | { readonly kind: 'locked'; readonly retryAfter: number };

/** The request's cookies (no cookie plugin: two names are all the console reads). */
function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Sign-in, sessions and CSRF. A session is a random id in an HttpOnly, SameSite=Strict cookie
 * (Secure when served over HTTPS), kept hashed in console.db. Every POST must carry the session's
 * token in `_csrf` and come from this origin (Origin, else Referer); sign-in's token is bound to a
 * pre-session cookie instead. Sign-in attempts go through the API's lockout, keyed by user name
 * and client address, so a wrong password costs the same scrypt whether the user exists or not.
 */
export class ConsoleAuth {
  private readonly signInKey = randomBytes(32);
  private readonly unknownUserHash = unmatchableHash();

  constructor(
    private readonly db: ConsoleDb,
    private readonly users: ConsoleUsers,
    private readonly lockout: AuthLockout,
    private readonly secure: boolean,
  ) {}

  /** The live session of the request; one whose user was removed or changed is ended. */
  sessionOf(request: FastifyRequest): ConsoleSession | undefined {
    const id = cookie(request, SESSION_COOKIE);
    const session = id ? this.db.session(id) : undefined;
    if (!id || !session) return undefined;
    const user = this.users.find(session.username);
    if (user?.role === session.role && user.merchantId === session.merchantId) return session;
    this.db.endSession(id);
    return undefined;
  }

  /** The sign-in form's token, setting the pre-session cookie it is bound to when missing. */
  signInToken(request: FastifyRequest, reply: FastifyReply): string {
    let nonce = cookie(request, SIGN_IN_COOKIE);
    if (!nonce || !/^[\w-]{43}$/.test(nonce)) {
      nonce = randomBytes(32).toString('base64url');
      void reply.header('set-cookie', this.cookieHeader(SIGN_IN_COOKIE, nonce, 3600));
    }
    return this.tokenFor(nonce);
  }

  /** Whether a sign-in POST carries the token of its own pre-session cookie, from this origin. */
  signInAllowed(request: FastifyRequest, form: URLSearchParams): boolean {
    const nonce = cookie(request, SIGN_IN_COOKIE);
    const given = form.get('_csrf') ?? '';
    return !!nonce && sameOrigin(request) && same(given, this.tokenFor(nonce));
  }

  /** Whether a POST of this session carries its token, from this origin: else nothing is done. */
  postAllowed(request: FastifyRequest, session: ConsoleSession, form: URLSearchParams): boolean {
    return sameOrigin(request) && same(form.get('_csrf') ?? '', session.csrf);
  }

  async signIn(username: string, password: string, address: string): Promise<SignInResult> {
    const key = isUsername(username) ? username : '';
    const retryAfter = this.lockout.retryAfter(key, address);
    if (retryAfter > 0) return { kind: 'locked', retryAfter };
    if (!this.lockout.mayCheck(key, address)) return { kind: 'locked', retryAfter: 1 };
    this.lockout.checking(key, address);
    const user = key ? this.users.find(key) : undefined;
    let matched = false;
    try {
      matched = await verifyPassword(password, user?.passwordHash ?? this.unknownUserHash);
    } finally {
      this.lockout.checked(key, address, !matched);
    }
    if (!user || !matched) return { kind: 'refused' };
    const session = { username: user.username, role: user.role, merchantId: user.merchantId };
    const sessionId = this.db.createSession(session);
    return { kind: 'signed-in', sessionId, session: this.db.session(sessionId)! };
  }

  /** The cookies after sign-in: the session's, and the pre-session one cleared. */
  signedInCookies(sessionId: string): string[] {
    return [
      this.cookieHeader(SESSION_COOKIE, sessionId, ABSOLUTE_MS / 1000),
      this.cookieHeader(SIGN_IN_COOKIE, '', 0),
    ];
  }

  /** Ends the request's session; returns the cookie that clears it in the browser. */
  signOut(request: FastifyRequest): string {
    const id = cookie(request, SESSION_COOKIE);
    if (id) this.db.endSession(id);
    return this.cookieHeader(SESSION_COOKIE, '', 0);
  }

  private tokenFor(nonce: string): string {
    return createHmac('sha256', this.signInKey).update(nonce).digest('base64url');
  }

  private cookieHeader(name: string, value: string, maxAgeSeconds: number): string {
    const secure = this.secure ? '; Secure' : '';
    return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
  }
}

/**
 * A POST from a page of this console: its Origin, or without one its Referer, names this host.
 * Browsers send Origin with every form POST; a request with neither is refused.
 */
function sameOrigin(request: FastifyRequest): boolean {
  const host = request.headers.host;
  const source = request.headers.origin ?? request.headers.referer;
  if (!host || !source) return false;
  try {
    const url = new URL(source);
    return url.host === host && url.protocol === `${request.protocol}:`;
  } catch {
    return false;
  }
}
