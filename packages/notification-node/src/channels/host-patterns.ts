/**
 * Whether `host` (lowercase, with `:port` when the URL names one) matches a pattern: `*` any
 * host, `*.example.com` any subdomain of it (not the bare domain), else the exact host.
 */
export function hostMatches(host: string, pattern: string): boolean {
  const wanted = pattern.toLowerCase();
  if (wanted === '*') return true;
  if (wanted.startsWith('*.'))
    return host.endsWith(wanted.slice(1)) && host.length > wanted.length - 1;
  return host === wanted;
}

/**
 * Why a user-supplied service URL is refused, or undefined when it may be used: https unless
 * `requireHttps` is false, and its host among `hosts`.
 */
export function refusedServiceUrl(
  url: string,
  rules: { hosts: readonly string[]; requireHttps: boolean },
): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the URL is not valid';
  }
  if (parsed.protocol !== 'https:' && (rules.requireHttps || parsed.protocol !== 'http:')) {
    return `the URL must use https, not ${parsed.protocol.slice(0, -1)}`;
  }
  if (parsed.username || parsed.password) return 'the URL must not carry credentials';
  if (!rules.hosts.some((pattern) => hostMatches(parsed.host, pattern))) {
    return `the host ${parsed.hostname} is not among the allowed hosts (${rules.hosts.join(', ')})`;
  }
  return undefined;
}
