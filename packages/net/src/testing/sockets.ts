import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/**
 * Counts the client sockets this process creates (Node's `net.client.socket` channel), so a test
 * can show that a refused target was never dialled. `stop` when done.
 */
export function recordClientSockets() {
  let created = 0;
  const onSocket = () => {
    created += 1;
  };
  subscribe('net.client.socket', onSocket);
  return {
    created: () => created,
    stop: () => unsubscribe('net.client.socket', onSocket),
  };
}
