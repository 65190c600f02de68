import { SubscribeBodySchema } from '@checkline/statuspage/contract';
import { publicPageUrls } from './fetch-public-page.ts';

/** What a subscription request came to, as the form shows it. */
export type SubscribeOutcome =
  | { kind: 'accepted' }
  | { kind: 'invalid'; message: string }
  | { kind: 'limited'; retryAfterSeconds: number }
  | { kind: 'not-found' };

const NOT_AN_ADDRESS = 'An e-mail address such as you@example.com';

/** The address's problem, checked with the route's own schema before anything is sent. */
export function emailIssue(email: string): string | undefined {
  const parsed = SubscribeBodySchema.safeParse({ email });
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? NOT_AN_ADDRESS);
}

/** Reads the subscribe route's answer; throws for anything it does not promise. */
export function subscribeOutcome(response: Response): SubscribeOutcome {
  if (response.status === 202) return { kind: 'accepted' };
  if (response.status === 404) return { kind: 'not-found' };
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after'));
    return {
      kind: 'limited',
      retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 60,
    };
  }
  // The route's 400 speaks to API callers ("Send {email}"); a visitor is told about the field.
  if (response.status === 400) return { kind: 'invalid', message: NOT_AN_ADDRESS };
  throw new Error(`The subscription could not be sent (HTTP ${response.status}).`);
}

/**
 * Asks the page's anonymous subscribe route to mail `email` a confirmation link. No cookie is
 * sent: the page stays anonymous, and the answer is the same whoever asks.
 */
export async function subscribeToPage(slug: string, email: string): Promise<SubscribeOutcome> {
  const response = await fetch(publicPageUrls(slug).subscribe, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email }),
  });
  return subscribeOutcome(response);
}

/** "1 minute", "5 minutes", "2 hours": the wait a 429 asks for, rounded up. */
export function waitText(seconds: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.ceil(seconds), 'second');
  if (seconds < 3_600) return plural(Math.ceil(seconds / 60), 'minute');
  return plural(Math.ceil(seconds / 3_600), 'hour');
}
