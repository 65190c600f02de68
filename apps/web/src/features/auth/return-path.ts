/** Only a path of this app (`/x`, never `//host` or a URL) may be where signing in lands. */
export function safeReturnPath(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/';
  }
  return value;
}
