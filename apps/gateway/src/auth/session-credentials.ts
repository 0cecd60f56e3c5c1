/** From this API version on, the mobile SDKs authenticate Update Session with the session id. */
export const SESSION_AUTHENTICATION_FROM_VERSION = 50;

interface SessionRequest {
  readonly params: unknown;
  readonly headers: { readonly authorization?: string };
}

/**
 * The session id, when the request offers session credentials for its own path: API version 50 or
 * above, and `merchant.<the path's merchant id>` with the path's session id as the password. The
 * Android SDK sends them as Basic credentials; the iOS SDK sends the same base64 text without the
 * `Basic ` scheme, which is taken here (and only here) as well. Anything else is undefined: the
 * request is then judged as any other, and a session id offered for another session, at a lower
 * version or on another route is a wrong API password.
 */
export function offeredSessionId(request: SessionRequest, merchantId: string): string | undefined {
  const { version, sessionId } = request.params as Record<string, string | undefined>;
  const header = request.headers.authorization;
  if (!header || !sessionId || !version || !/^[0-9]{1,3}$/.test(version)) return undefined;
  if (Number(version) < SESSION_AUTHENTICATION_FROM_VERSION) return undefined;
  const encoded = /^basic /i.test(header) ? header.slice(6) : header;
  return passwordIn(encoded, merchantId) === sessionId ? sessionId : undefined;
}

/** The password of base64 credentials naming the user `merchant.<merchantId>`. */
export function passwordIn(encoded: string, merchantId: string): string | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const user = `merchant.${merchantId}:`;
  return decoded.startsWith(user) ? decoded.slice(user.length) : undefined;
}
