import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the server accepted, parsed. */
export interface ReceivedMail {
  /** RCPT TO addresses. */
  recipients: string[];
  mail: ParsedMail;
  /** Whether the session ran over TLS (implicit or STARTTLS) when the message came. */
  secure: boolean;
  /** The user the session authenticated as, if any. */
  user: string | undefined;
}

export interface SmtpTestServerOptions {
  /** Require AUTH with these credentials (over TLS only). */
  auth?: { user: string; pass: string };
  /** Offer STARTTLS with this certificate (or, with `implicitTls`, speak TLS from the start). */
  tls?: { key: string; cert: string };
  implicitTls?: boolean;
  /**
   * A reply to give at the end of DATA instead of accepting, e.g. `[451, '4.3.0 Try again
   * later']`; taken from the front of the list, one per message, then messages are accepted.
   */
  dataReplies?: [number, string][];
  /**
   * Refuse every AUTH with a reply that echoes the credentials received, raw and as the
   * `AUTH PLAIN` blob, as a careless server might.
   */
  echoCredentials?: boolean;
  /** RCPT TO addresses answered `550 5.1.1 <address>: Recipient address rejected`. */
  rejectRecipients?: string[];
}

const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

/**
 * A real SMTP server (`smtp-server`) on a free loopback port that keeps what it receives,
 * parsed with mailparser. Counts connections and AUTH attempts.
 */
export async function startSmtpTestServer(options: SmtpTestServerOptions = {}) {
  const received: ReceivedMail[] = [];
  const dataReplies = [...(options.dataReplies ?? [])];
  const rejected = new Set(options.rejectRecipients ?? []);
  let connections = 0;
  let authAttempts = 0;
  const waiters: (() => void)[] = [];

  const server = new SMTPServer({
    logger: false,
    secure: options.implicitTls === true,
    ...(options.tls && { key: options.tls.key, cert: options.tls.cert }),
    // Without a certificate of the test, no STARTTLS (smtp-server would offer its built-in one).
    disabledCommands: options.tls ? [] : ['STARTTLS'],
    authOptional: !options.auth,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      authAttempts += 1;
      const expected = options.auth;
      if (options.echoCredentials) {
        const blob = Buffer.from(`\0${auth.username}\0${auth.password}`).toString('base64');
        const echo = `${auth.username} ${auth.password ?? ''} AUTH PLAIN ${blob}`;
        callback(smtpError(535, `5.7.8 Credentials invalid: ${echo}`));
      } else if (expected && auth.username === expected.user && auth.password === expected.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(smtpError(535, '5.7.8 Authentication credentials invalid'));
      }
    },
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address)) {
        callback(smtpError(550, `5.1.1 <${address.address}>: Recipient address rejected`));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const reply = dataReplies.shift();
          if (reply) return callback(smtpError(reply[0], reply[1]));
          received.push({
            recipients: session.envelope.rcptTo.map((to) => to.address),
            mail,
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.on('error', () => {
    // A client dropping its connection is not the test's failure; the assertions tell.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    received,
    /** The next message's DATA is answered `code text` instead of being accepted. */
    answerNextData(code: number, text: string) {
      dataReplies.push([code, text]);
    },
    /** RCPT TO `address` is answered 550 from now on. */
    rejectRecipient(address: string) {
      rejected.add(address);
    },
    get connections() {
      return connections;
    },
    get authAttempts() {
      return authAttempts;
    },
    /** Client connections open right now. */
    get openConnections() {
      return server.connections.size;
    },
    /** Waits (at most `timeoutMs`) until no client connection is open. */
    async waitForNoConnections(timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (server.connections.size > 0) {
        if (Date.now() > deadline) throw new Error('client connections are still open');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** Waits (at most `timeoutMs`) until `count` messages have arrived. */
    async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`only ${received.length} of ${count} messages arrived`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpTestServer = Awaited<ReturnType<typeof startSmtpTestServer>>;
