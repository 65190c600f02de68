const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** Links may lead only to http, https and mailto addresses: no `javascript:`, `data:`, paths. */
export function isSafeLinkUrl(url: string): boolean {
  try {
    return ALLOWED_PROTOCOLS.has(new URL(url.trim()).protocol);
  } catch {
    return false;
  }
}
