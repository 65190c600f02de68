const MAX_LENGTH = 2_000;
const PROBE_ORIGIN = 'http://return-path.invalid';

/**
 * A return path after sign-in, or undefined when it is not a path on our own frontend. Only
 * relative paths pass: `//host`, `/\host`, schemes, backslashes and control characters would
 * let a link send the browser elsewhere once signed in. Absent or empty means the frontend's
 * root.
 */
export function relativeReturnPath(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return '/';
  if (value.length > MAX_LENGTH || !value.startsWith('/') || value.startsWith('//')) {
    return undefined;
  }
  // Browsers read `\` as `/`, so `/\evil.example` is another host; control characters get dropped.
  if (/[\\\s\p{Cc}]/u.test(value)) return undefined;
  const url = new URL(value, PROBE_ORIGIN);
  if (url.origin !== PROBE_ORIGIN) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
