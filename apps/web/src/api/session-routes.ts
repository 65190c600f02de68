/**
 * Signing in, signing up and signing out are raw routes of the auth plugin, not procedures: a
 * sign-in strategy answers with a cookie or with a redirect to the error page, which a browser
 * form must be able to follow. So this is the one place the app calls the server without oRPC.
 * A failure arrives as that redirect; its `error` parameter is the message to show.
 */
const SESSION_ROUTES = '/api/auth-backend';

class SessionRouteError extends Error {
  override name = 'SessionRouteError';
}

/** The message the error page would show, with its underscores turned back into spaces. */
export function errorPageMessage(search: string): string {
  return (new URLSearchParams(search).get('error') ?? '').replaceAll('_', ' ');
}

async function postSessionRoute(path: string, body: object): Promise<void> {
  const response = await fetch(`${SESSION_ROUTES}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const landed = new URL(response.url || window.location.href);
  if (response.redirected && landed.pathname === '/auth/error') {
    throw new SessionRouteError(errorPageMessage(landed.search) || 'Sign-in failed');
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { message?: unknown };
    throw new SessionRouteError(
      typeof answer.message === 'string' ? answer.message : `Request failed (${response.status})`,
    );
  }
}

export const signIn = (username: string, password: string) =>
  postSessionRoute('custom/login', { username, password });

export const signUp = (input: { email: string; password: string; name?: string }) =>
  postSessionRoute('custom/signup', input);

export const signOut = () => postSessionRoute('logout', {});

/**
 * Confirms an e-mail's unsubscribe link. That link is the server's one-click route (RFC 8058),
 * not a procedure: mail clients POST to it without a session, so the page must post the token to
 * the same route. Answers the server's own sentence (success or refusal), as text.
 */
export async function confirmUnsubscribe(token: string): Promise<string> {
  const response = await fetch(`/api/notification/unsubscribe/${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
    credentials: 'same-origin',
  });
  const text = (await response.text()).trim();
  if (!response.ok) throw new SessionRouteError(text || `Request failed (${response.status})`);
  return text;
}
