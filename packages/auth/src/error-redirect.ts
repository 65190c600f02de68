/** The error page's encoding of a message: every space becomes an underscore, as the frontend's error page reads it. */
export function encodeErrorMessage(message: string): string {
  return message.replaceAll(' ', '_');
}

/**
 * `{frontendUrl}/auth/error?error=<message>`, the message encoded and URL-encoded. Without a
 * frontend address the URL is relative to the server's own origin.
 */
export function buildErrorUrl(message: string, frontendUrl = ''): string {
  const base = frontendUrl.replace(/\/+$/, '');
  return `${base}/auth/error?error=${encodeURIComponent(encodeErrorMessage(message))}`;
}

/** A 302 to the error page; never cached. */
export function redirectToError(
  message: string,
  frontendUrl?: string,
  headers?: Record<string, string>,
): Response {
  return new Response(null, {
    status: 302,
    headers: {
      ...headers,
      location: buildErrorUrl(message, frontendUrl),
      'cache-control': 'no-store',
    },
  });
}
