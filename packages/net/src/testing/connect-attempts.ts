import { Socket } from 'node:net';

/** Where one `connect` call was aimed. */
export interface ConnectAttempt {
  host: string | undefined;
  port: number | undefined;
}

/** The destination of `Socket#connect`'s arguments, in each form Node and libraries call it. */
function attemptOf(args: unknown[]): ConnectAttempt {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: unknown; port?: unknown };
    return {
      host: typeof options.host === 'string' ? options.host : undefined,
      port: options.port === undefined ? undefined : Number(options.port),
    };
  }
  return { port: Number(first), host: typeof args[1] === 'string' ? args[1] : undefined };
}

/**
 * Records every socket connection this process starts (`net.connect`, `tls.connect`, undici, a
 * bare `new Socket().connect()` as database drivers make), with its destination, so a test can
 * show a refused target was never dialled. The connection still happens; `stop` when done.
 */
export function recordConnectAttempts() {
  const attempts: ConnectAttempt[] = [];
  const original = Socket.prototype.connect;
  Socket.prototype.connect = function connect(this: Socket, ...args: unknown[]) {
    attempts.push(attemptOf(args));
    return (original as (...rest: unknown[]) => Socket).apply(this, args);
  };
  return {
    attempts,
    /** Attempts aimed at `port`, e.g. the one port a test's refused destinations use. */
    toPort: (port: number) => attempts.filter((attempt) => attempt.port === port),
    stop() {
      Socket.prototype.connect = original;
    },
  };
}
