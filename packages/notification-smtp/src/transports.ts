import { createHmac, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Egress } from '@checkline/notification-node';
import { createTransport } from 'nodemailer';
import type { SmtpConfig } from './config.ts';

export type PooledTransport = ReturnType<typeof createPooledTransport>;

/** Extra TLS settings for every connection, such as `ca` to trust a private certificate authority. */
export type SmtpTlsOptions = Pick<ConnectionOptions, 'ca' | 'servername' | 'minVersion'>;

/** Timeouts stay well below the delivery worker's 30 s send timeout. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

/**
 * A pooled transport that opens every connection through `egress`: the host is vetted each
 * time and the socket goes to an address just judged (never to one DNS answers later), so a
 * refused server is never dialled. TLS, implicit or by STARTTLS, still names and verifies
 * `config.host`.
 */
function createPooledTransport(config: SmtpConfig, tls: SmtpTlsOptions, egress: Egress) {
  const credentials =
    config.username !== undefined && config.password !== undefined
      ? { user: config.username, pass: config.password }
      : undefined;
  return createTransport({
    pool: true,
    maxConnections: 5,
    maxMessages: 100,
    host: config.host,
    port: config.port,
    secure: config.secure,
    // A password never crosses the network in clear: without implicit TLS, STARTTLS is a must.
    requireTLS: credentials !== undefined && !config.secure,
    ...(credentials && { auth: credentials }),
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    tls: { minVersion: 'TLSv1.2', ...tls },
    // Messages carry no attachments of ours: nothing to read from disk or fetch from the web.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
    debug: false,
    getSocket(
      _options: unknown,
      callback: (error: Error | null, socket?: { connection: Socket }) => void,
    ) {
      egress.connect(config.host, config.port, { timeoutMs: CONNECTION_TIMEOUT_MS }).then(
        (connection) => callback(null, { connection }),
        (error: Error) => callback(error),
      );
    },
  });
}

/**
 * One pooled transport per version of the administrator's config: a changed config (new host,
 * new password) gets a new pool and the previous one is closed once its messages are out.
 * Keyed by an HMAC of the config under a per-process key, so the key reveals nothing of it.
 */
export class SmtpTransports {
  readonly #hashKey = randomBytes(32);
  readonly #pools = new Map<string, PooledTransport>();

  constructor(
    private readonly egress: Egress,
    private readonly tls: SmtpTlsOptions = {},
  ) {}

  for(config: SmtpConfig): PooledTransport {
    const key = this.#keyOf(config);
    const existing = this.#pools.get(key);
    if (existing) return existing;
    this.closeAll();
    const transport = createPooledTransport(config, this.tls, this.egress);
    this.#pools.set(key, transport);
    return transport;
  }

  /** Open pools: one once a message was sent, none after `closeAll`. */
  get size(): number {
    return this.#pools.size;
  }

  /** Closes every pool: idle connections at once, busy ones after their message. */
  closeAll(): void {
    for (const transport of this.#pools.values()) transport.close();
    this.#pools.clear();
  }

  #keyOf(config: SmtpConfig): string {
    const canonical = JSON.stringify([
      config.host,
      config.port,
      config.secure,
      config.username ?? null,
      config.password ?? null,
    ]);
    return createHmac('sha256', this.#hashKey).update(canonical).digest('base64url');
  }
}
