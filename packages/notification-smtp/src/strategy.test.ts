import { randomUUID } from 'node:crypto';
import { createEgress } from '@checkline/net';
import { fixedResolver, recordClientSockets } from '@checkline/net/testing';
import type { StrategySendContext } from '@checkline/notification-node';
import { loopbackEgress } from '@checkline/notification-node/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { SmtpConfig, SmtpLayout } from './config.ts';
import { DEFAULT_FOOTER_TEXT, DEFAULT_PRIMARY_COLOR, smtpConfig, smtpLayout } from './config.ts';
import { smtpStrategy } from './strategy.ts';
import {
  selfSignedCertificate,
  startSmtpTestServer,
  unsubscribeHeadersOf,
  type ReceivedMail,
  type SmtpTestServer,
} from './testing/index.ts';
import { SmtpTransports } from './transports.ts';

const certificate = selfSignedCertificate();
const credentials = { user: 'mailer', pass: 'smtp-pass-never-shown-42' };
const UNSUBSCRIBE = 'https://status.example/api/notification/unsubscribe/token.mac';

const servers: SmtpTestServer[] = [];
const transports: SmtpTransports[] = [];
afterAll(async () => {
  for (const pool of transports) pool.closeAll();
  await Promise.all(servers.map((server) => server.close()));
});

async function server(options: Parameters<typeof startSmtpTestServer>[0] = {}) {
  const started = await startSmtpTestServer(options);
  servers.push(started);
  return started;
}

/** A strategy with transports of its own that trust the test certificate. */
function strategy() {
  const egress = loopbackEgress();
  const pool = new SmtpTransports(egress, { ca: certificate.cert });
  transports.push(pool);
  return { strategy: smtpStrategy(pool, egress), pool };
}

const configFor = (port: number, extra: Partial<SmtpConfig> = {}): SmtpConfig =>
  smtpConfig.schema.parse({
    host: 'localhost',
    port,
    fromAddress: 'alerts@status.example',
    fromName: 'Status alerts',
    ...extra,
  });

function context(
  config: SmtpConfig,
  extra: Partial<StrategySendContext<SmtpConfig, SmtpLayout>> = {},
): StrategySendContext<SmtpConfig, SmtpLayout> {
  return {
    contact: 'ops@example.com',
    notification: {
      title: 'Checkout is down',
      body: 'Since **12:00**: `HTTP 503`',
      importance: 'critical',
      type: 'healthcheck.status_changed',
      action: { label: 'Open the system', url: 'https://app.example/systems/1' },
    },
    delivery: {
      id: randomUUID(),
      userId: randomUUID(),
      strategyId: 'notification-smtp.smtp',
      createdAt: new Date(),
      transactional: false,
    },
    strategyConfig: config,
    layoutConfig: smtpLayout.schema.parse({
      primaryColor: '#112233',
      accentColor: '#445566',
      logoUrl: 'https://cdn.example/logo.png',
    }),
    unsubscribeUrl: UNSUBSCRIBE,
    ...extra,
  };
}

describe('the smtp strategy', () => {
  describe('works', () => {
    it('sends a multipart message with the title as subject, without AUTH or TLS', async () => {
      const plain = await server();
      const { strategy: smtp } = strategy();
      const sent = context(configFor(plain.port));
      expect(await smtp.send(sent)).toEqual({ success: true });
      const [message] = await plain.waitFor(1);
      expect(message!.recipients).toEqual(['ops@example.com']);
      expect(message!.secure).toBe(false);
      const { mail } = message!;
      expect(mail.subject).toBe('Checkout is down');
      expect(mail.from?.value).toEqual([
        { address: 'alerts@status.example', name: 'Status alerts' },
      ]);
      expect(mail.messageId).toBe(`<${sent.delivery.id}@status.example>`);
      expect(mail.text).toContain('Since 12:00');
      expect(mail.text).toContain('https://app.example/systems/1');
      expect(mail.html).toContain('<strong>12:00</strong>');
      expect(mail.html).toContain('href="https://app.example/systems/1"');
      expect(mail.html).toContain('src="https://cdn.example/logo.png"');
      expect(unsubscribeHeadersOf(mail)).toEqual({
        url: UNSUBSCRIBE,
        post: 'List-Unsubscribe=One-Click',
      });
    });

    it('authenticates over STARTTLS, verifying the server certificate', async () => {
      const guarded = await server({ auth: credentials, tls: certificate });
      const { strategy: smtp } = strategy();
      const config = configFor(guarded.port, {
        username: credentials.user,
        password: credentials.pass,
      });
      expect(await smtp.send(context(config))).toEqual({ success: true });
      const [message] = await guarded.waitFor(1);
      expect(message).toMatchObject({ secure: true, user: credentials.user });
    });

    it('speaks TLS from the first byte when secure is set', async () => {
      const implicit = await server({ auth: credentials, tls: certificate, implicitTls: true });
      const { strategy: smtp } = strategy();
      const config = configFor(implicit.port, {
        secure: true,
        username: credentials.user,
        password: credentials.pass,
      });
      expect(await smtp.send(context(config))).toEqual({ success: true });
      expect((await implicit.waitFor(1))[0]).toMatchObject({
        secure: true,
        user: credentials.user,
      });
    });

    it('leaves the unsubscribe headers out of transactional mail', async () => {
      const plain = await server();
      const { strategy: smtp } = strategy();
      const sent = context(configFor(plain.port));
      const { unsubscribeUrl: _left, ...transactional } = sent;
      expect(
        await smtp.send({ ...transactional, delivery: { ...sent.delivery, transactional: true } }),
      ).toEqual({ success: true });
      const [message] = await plain.waitFor(1);
      expect(unsubscribeHeadersOf(message!.mail)).toEqual({});
    });

    it('reuses one pooled connection for a config, and opens a new pool when it changes', async () => {
      const plain = await server();
      const { strategy: smtp, pool } = strategy();
      const config = configFor(plain.port);
      for (let i = 0; i < 3; i += 1) {
        expect(await smtp.send(context(config))).toEqual({ success: true });
      }
      await plain.waitFor(3);
      expect(plain.connections).toBe(1);
      expect(plain.openConnections).toBe(1);
      expect(pool.size).toBe(1);

      const other = await server();
      expect(await smtp.send(context(configFor(other.port)))).toEqual({ success: true });
      await other.waitFor(1);
      expect(pool.size).toBe(1);
      // The previous config's pool is closed: its connection ends.
      await plain.waitForNoConnections();
      expect(other.openConnections).toBe(1);
      pool.closeAll();
      expect(pool.size).toBe(0);
      await other.waitForNoConnections();
    });
  });

  describe('errors', () => {
    it('asks for a retry when the server answers 451', async () => {
      const busy = await server({ dataReplies: [[451, '4.3.0 Mailbox busy, try again later']] });
      const { strategy: smtp } = strategy();
      const config = configFor(busy.port);
      const first = await smtp.send(context(config));
      expect(first.success).toBe(false);
      expect(first.permanent).toBeUndefined();
      expect(first.error).toContain('451 4.3.0 Mailbox busy, try again later');
      expect(await smtp.send(context(config))).toEqual({ success: true });
      expect(await busy.waitFor(1)).toHaveLength(1);
    });

    it('fails for good when the recipient is rejected with 550, quoting the reply', async () => {
      const strict = await server({ rejectRecipients: ['ops@example.com'] });
      const { strategy: smtp } = strategy();
      const result = await smtp.send(context(configFor(strict.port)));
      expect(result).toMatchObject({ success: false, permanent: true });
      expect(result.error).toContain(
        `localhost:${strict.port} answered 550 5.1.1 <ops@example.com>: Recipient address rejected`,
      );
    });

    it('asks for a retry when nothing listens on the port', async () => {
      const gone = await startSmtpTestServer();
      await gone.close();
      const { strategy: smtp } = strategy();
      const result = await smtp.send(context(configFor(gone.port)));
      expect(result.success).toBe(false);
      expect(result.permanent).toBeUndefined();
      expect(result.error).toMatch(/ECONNREFUSED/);
    });

    it('fails for good on wrong credentials, without quoting the password', async () => {
      const guarded = await server({ auth: credentials, tls: certificate });
      const { strategy: smtp } = strategy();
      const wrong = 'wrong-pass-never-shown-7';
      const result = await smtp.send(
        context(configFor(guarded.port, { username: credentials.user, password: wrong })),
      );
      expect(result).toMatchObject({ success: false, permanent: true });
      expect(result.error).toContain('535');
      expect(result.error).not.toContain(wrong);
      expect(guarded.received).toHaveLength(0);
    });
  });

  describe('security', () => {
    it('never sends a password to a server that offers no STARTTLS', async () => {
      const cleartext = await server({ auth: credentials });
      const { strategy: smtp } = strategy();
      const result = await smtp.send(
        context(
          configFor(cleartext.port, { username: credentials.user, password: credentials.pass }),
        ),
      );
      expect(result.success).toBe(false);
      expect(result.error).not.toContain(credentials.pass);
      expect(cleartext.authAttempts).toBe(0);
      expect(cleartext.received).toHaveLength(0);
    });

    it('refuses a server whose certificate it cannot verify', async () => {
      const untrusted = await server({ tls: selfSignedCertificate() });
      const { strategy: smtp } = strategy();
      const result = await smtp.send(
        context(
          configFor(untrusted.port, { username: credentials.user, password: credentials.pass }),
        ),
      );
      expect(result.success).toBe(false);
      expect(untrusted.authAttempts).toBe(0);
      expect(untrusted.received).toHaveLength(0);
    });

    /** The server's default guard (WEBHOOK_ALLOW_PRIVATE unset); names answered from a table. */
    function guardedStrategy() {
      const egress = createEgress({
        resolve: fixedResolver({ 'relay.invalid': ['10.0.0.25'], 'loop.invalid': ['127.0.0.1'] }),
      });
      const pool = new SmtpTransports(egress, { ca: certificate.cert });
      transports.push(pool);
      return smtpStrategy(pool, egress);
    }

    it.each([
      ['169.254.169.254', '169.254.169.254 is a cloud metadata address'],
      ['metadata.google.internal', 'metadata.google.internal is a cloud metadata host name'],
      ['10.0.0.1', '10.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE can allow it)'],
      ['127.0.0.1', '127.0.0.1 is a loopback address'],
      ['0.0.0.0', '0.0.0.0 is an unspecified address'],
      ['::1', '::1 is a loopback address'],
      ['localhost', 'localhost resolves to 127.0.0.1, which is a loopback address'],
      ['relay.invalid', 'relay.invalid resolves to 10.0.0.25, which is a private address'],
      ['::ffff:0:127.0.0.1', '::ffff:0:127.0.0.1 reaches 127.0.0.1, which is a loopback'],
    ])('refuses to save the host %s', async (host, message) => {
      const issues = await guardedStrategy().validateConfig!({
        layer: 'config',
        value: configFor(25, { host }),
      });
      expect(issues).toEqual([{ path: 'host', message: expect.stringContaining(message) }]);
    });

    it('never dials a refused host when sending, and copies no banner into the result', async () => {
      const listening = await server();
      const sockets = recordClientSockets();
      try {
        for (const host of ['localhost', '127.0.0.1', 'loop.invalid']) {
          const result = await guardedStrategy().send(context(configFor(listening.port, { host })));
          expect(result).toMatchObject({ success: false, permanent: true });
          expect(result.error).toContain(`SMTP server ${host}:${listening.port}: Target refused:`);
          expect(result.error).not.toMatch(/ESMTP|220/);
        }
        expect(sockets.created()).toBe(0);
        expect(listening.connections).toBe(0);
      } finally {
        sockets.stop();
      }
    });

    it('accepts a public host on save (judged again before every connection)', async () => {
      const egress = createEgress({
        resolve: fixedResolver({ 'mail.example': ['93.184.215.14'] }),
      });
      const pool = new SmtpTransports(egress);
      transports.push(pool);
      const issues = await smtpStrategy(pool, egress).validateConfig!({
        layer: 'config',
        value: configFor(587, { host: 'mail.example' }),
      });
      expect(issues).toEqual([]);
    });

    it('escapes a hostile title and body in the HTML part', async () => {
      const plain = await server();
      const { strategy: smtp } = strategy();
      const hostile = context(configFor(plain.port), {
        notification: {
          title: '<img src=x onerror=alert(1)>\r\nBcc: victim@example.com',
          body: '<script>alert(1)</script> [click](javascript:alert(1))',
          type: 'test.hostile',
        },
      });
      expect(await smtp.send(hostile)).toEqual({ success: true });
      const [{ mail, recipients }] = (await plain.waitFor(1)) as [ReceivedMail];
      expect(recipients).toEqual(['ops@example.com']);
      expect(mail.bcc).toBeUndefined();
      expect(mail.subject).toBe('<img src=x onerror=alert(1)> Bcc: victim@example.com');
      expect(mail.html).not.toContain('<script');
      expect(mail.html).not.toContain('<img src=x');
      expect(mail.html).not.toMatch(/href="javascript:/i);
      expect(mail.html).toContain('&lt;script&gt;');
    });
  });
});

describe('the smtp settings', () => {
  it('defaults port 587, secure off and the layout colour and footer', () => {
    expect(
      smtpConfig.schema.parse({ host: 'mail.example', fromAddress: 'a@status.example' }),
    ).toMatchObject({ port: 587, secure: false });
    expect(smtpLayout.schema.parse({})).toEqual({
      primaryColor: DEFAULT_PRIMARY_COLOR,
      footerText: DEFAULT_FOOTER_TEXT,
    });
  });

  it('refuses a bad sender, a header injection, half credentials, a non-http logo and a bad colour', () => {
    const base = { host: 'mail.example', fromAddress: 'a@status.example' };
    expect(smtpConfig.schema.safeParse({ ...base, fromAddress: 'not an address' }).success).toBe(
      false,
    );
    expect(smtpConfig.schema.safeParse({ ...base, fromName: 'A\r\nBcc: x@y.z' }).success).toBe(
      false,
    );
    expect(smtpConfig.schema.safeParse({ ...base, username: 'only-user' }).success).toBe(false);
    expect(smtpLayout.schema.safeParse({ logoUrl: 'javascript:alert(1)' }).success).toBe(false);
    expect(smtpLayout.schema.safeParse({ primaryColor: 'red' }).success).toBe(false);
  });
});
