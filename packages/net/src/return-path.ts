/** Longest return path kept; the frontend's own paths are far shorter. */
const MAX_LENGTH = 512;
const PROBE_ORIGIN = 'http://return-path.invalid';

/**
 * A path on our own frontend to send the browser back to after a redirect (sign-in, account
 * linking), or undefined to refuse it; absent or empty gives `fallback`. Only a path starting
 * with a single `/` passes: no scheme, no `//host`, no backslash (browsers read it as `/`), no
 * whitespace, control or format characters (browsers drop some of them, joining what they
 * separated), and nothing that normalises to `//host` (`/..//host`). Answers the normalised
 * path with its query and fragment.
 */
export function safeReturnPath(
  value: string | null | undefined,
  fallback = '/',
): string | undefined {
  if (value === null || value === undefined || value === '') return fallback;
  if (value.length > MAX_LENGTH || !value.startsWith('/') || value.startsWith('//')) {
    return undefined;
  }
  if (/[\\\s\p{Cc}\p{Cf}]/u.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith('//')) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
