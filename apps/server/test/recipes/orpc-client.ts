import { createORPCClient } from '@orpc/client';
import { RPCLink } from '@orpc/client/fetch';
import type { ContractRouterClient } from '@orpc/contract';
import type { catalogContract } from '@checkline/catalog/contract';
import type { notificationContract } from '@checkline/notification/contract';

/** The plugins you call, by id; each contract is browser-safe (no server code). */
export type Checkline = ContractRouterClient<{
  catalog: typeof catalogContract;
  notification: typeof notificationContract;
}>;

/**
 * `baseUrl` is the server's BASE_URL; the oRPC surface is under `/api`. Send an application key
 * (`authorization: Bearer ck_...`), or from a browser rely on the session cookie.
 */
export function checklineClient(baseUrl: string, headers: Record<string, string>): Checkline {
  return createORPCClient(new RPCLink({ url: `${baseUrl}/api`, headers }));
}

/** The first `count` events of a signed-in user's inbox stream; then the stream is closed. */
export async function firstInboxEvents(client: Checkline, count: number) {
  const events = [];
  const stream = await client.notification.streamNotifications({});
  for await (const event of stream) {
    events.push(event); // { kind: 'unread', count } | { kind: 'notification', notification }
    if (events.length >= count) break; // leaving the loop closes the stream
  }
  return events;
}
