/**
 * The fetch orval's generated functions call (its `mutator`): prefixes the server's address, and
 * hands back an event stream's body instead of awaiting `res.text()` on a stream that never ends.
 */
let baseUrl = '';

export function useBaseUrl(url: string): void {
  baseUrl = url;
}

export async function checklineFetch<T>(url: string, options: RequestInit): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, options);
  const contentType = response.headers.get('content-type') ?? '';
  let data: unknown = null;
  if (contentType.startsWith('text/event-stream')) data = response.body;
  else if (![204, 205, 304].includes(response.status)) {
    const text = await response.text();
    data = text && contentType.includes('json') ? JSON.parse(text) : text;
  }
  return { data, status: response.status, headers: response.headers } as T;
}
