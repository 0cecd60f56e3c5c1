/**
 * A console user signed in over HTTP as a browser does: the sign-in form's CSRF token and its
 * pre-session cookie, the POST of the form, the session cookie kept for every later request.
 */
export interface SignedIn {
  readonly username: string;
  get(path: string): Promise<{ status: number; body: string }>;
}

function cookiesOf(response: Response, jar: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    const value = pair.slice(at + 1);
    if (value) jar.set(pair.slice(0, at), value);
    else jar.delete(pair.slice(0, at));
  }
}

export async function signIn(base: string, username: string, password: string): Promise<SignedIn> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const form = await fetch(`${base}/sign-in`);
  cookiesOf(form, jar);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error('the sign-in page has no CSRF token');
  const posted = await fetch(`${base}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookie(),
      origin: base,
    },
    body: new URLSearchParams({ _csrf: csrf, username, password }).toString(),
  });
  cookiesOf(posted, jar);
  if (posted.status !== 303 || posted.headers.get('location') !== '/orders')
    throw new Error(`${username}: sign-in answered ${posted.status}`);
  return {
    username,
    get: async (path) => {
      const response = await fetch(`${base}${path}`, {
        redirect: 'manual',
        headers: { cookie: cookie() },
      });
      return { status: response.status, body: await response.text() };
    },
  };
}
