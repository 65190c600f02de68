import type { LookupFunction, Socket } from 'node:net';
import { connect } from 'node:net';

/**
 * A TCP connection to `host`:`port` through `lookup` (a vetted target's, so it reaches only the
 * judged addresses), once connected; rejects on the socket's error or `signal`'s abort,
 * destroying it.
 */
export function connectedSocket(
  target: { host: string; port: number; lookup: LookupFunction },
  signal: AbortSignal,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const socket = connect(target);
    const fail = (error: unknown) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', fail);
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}
