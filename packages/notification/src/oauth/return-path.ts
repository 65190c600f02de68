/** Where the frontend shows a user's channels; the default return after linking. */
export const DEFAULT_RETURN_PATH = '/settings/notifications';

const ORIGIN = 'http://return-path.invalid';

/**
 * A return path the caller gave, if it stays on the frontend: a path starting with a single `/`
 * (no scheme, no `//host`, no backslash the browser would read as a slash, no control
 * characters). Answers the normalised path, or undefined to refuse it.
 */
export function safeReturnPath(input: string | undefined): string | undefined {
  if (input === undefined || input === '') return DEFAULT_RETURN_PATH;
  if (input.length > 512 || !input.startsWith('/') || input.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(input)) return undefined;
  let url: URL;
  try {
    url = new URL(input, ORIGIN);
  } catch {
    return undefined;
  }
  // `/..//host` normalises to `//host`: refused like the original form.
  if (url.origin !== ORIGIN || url.pathname.startsWith('//')) return undefined;
  return `${url.pathname}${url.search}`;
}

/** `{frontendUrl}{path}` with `linked=<strategyId>` added to its query. */
export function linkedUrl(frontendUrl: string, path: string, strategyId: string): string {
  const target = new URL(`${frontendUrl}${path}`);
  target.searchParams.set('linked', strategyId);
  return target.toString();
}
