import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContract } from '@checkline/auth/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import type { WebhookPayload } from '@checkline/notification-webhook';
import type { AnyContractRouter, ContractRouterClient } from '@orpc/contract';
import { contractClient } from './contract-client.ts';
import { monitoringRules } from './team-world.ts';
import { createEgress } from '@checkline/net';
import { createWebhookChannelPlugin } from '@checkline/notification-webhook';
import type { TestServer, TestServerOptions } from './test-server.ts';
import { createTestServer, testEnv } from './test-server.ts';

/**
 * The set-up the alert and notification scenarios share: an administrator's REST calls, the
 * webhook and SMTP channels switched on, a receiver standing in for a webhook endpoint, and a
 * signed-in user who may watch systems and use the webhook channel.
 */
type AdminClient = ContractRouterClient<{ auth: AuthContract; notification: NotificationContract }>;

const WEBHOOK_STRATEGY = 'notification-webhook.webhook';
const SMTP_STRATEGY = 'notification-smtp.smtp';
/** Every monitoring rule and the webhook channel's `.use` rule. */
export const webhookWatcherRules = [
  ...monitoringRules,
  'notification-webhook.strategy.webhook.use',
] as const;

/** POSTs (or `method`s) `body` to `/rest/{path}` with `headers`; throws on any answer but 200. */
export async function restCall(
  server: TestServer,
  headers: Record<string, string>,
  path: string,
  body: unknown,
  method = 'POST',
): Promise<Record<string, any>> {
  const response = await server.request(`/rest/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Switches the webhook channel on, sending to `url` signed with `signingSecret`. */
export async function enableWebhook(admin: AdminClient, url: string, signingSecret: string) {
  await admin.notification.updateStrategy({
    strategyId: WEBHOOK_STRATEGY,
    enabled: true,
    config: { url, signingSecret },
  });
}

/** Switches the SMTP channel on, sending from `fromAddress` through the test SMTP server on `port`. */
export async function enableSmtp(
  admin: AdminClient,
  port: number,
  fromAddress = 'alerts@status.example',
) {
  await admin.notification.updateStrategy({
    strategyId: SMTP_STRATEGY,
    enabled: true,
    config: { host: 'localhost', port, secure: false, fromAddress },
  });
}

/** A new user `email` in a new role `roleName` holding `rules`, signed in. */
export async function signedInUser<C extends AnyContractRouter>(
  server: TestServer,
  admin: AdminClient,
  options: { email: string; password: string; roleName: string; rules: readonly string[] },
) {
  const role = await admin.auth.createRole({
    name: options.roleName,
    accessRules: [...options.rules],
  });
  const user = await admin.auth.createUser({
    email: options.email,
    password: options.password,
    roleIds: [role.id],
  });
  const headers = await server.sessionOf(options.email, options.password);
  return {
    id: user.id,
    email: options.email,
    roleId: role.id,
    client: contractClient<C>(() => server, headers),
  };
}

interface ReceivedWebhook {
  /** When it arrived (Date.now()). */
  at: number;
  payload: WebhookPayload;
  /** The body as it came, for checking its signature. */
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A loopback webhook endpoint that parses each body as a WebhookPayload. `answer` picks the
 * status for each request (200 by default); `received` keeps, in arrival order, those answered 200.
 */
export async function startWebhookReceiver(
  answer: (payload: WebhookPayload, headers: IncomingHttpHeaders) => number = () => 200,
) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const payload = JSON.parse(body) as WebhookPayload;
      const status = answer(payload, request.headers);
      if (status === 200) {
        received.push({ at: Date.now(), payload, body, headers: request.headers });
      }
      response.writeHead(status).end(status === 200 ? 'ok' : 'busy');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * Polls `found` every `pollMs` (default 20) until it answers something, for at most `waitMs`;
 * the error names `what` and, when given, what `explain` says about the state at the deadline.
 */
export async function eventually<T>(
  what: string,
  found: () => T | undefined | Promise<T | undefined>,
  waitMs = 20_000,
  options: { pollMs?: number; explain?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const explained = options.explain?.();
      throw new Error(`no ${what} within ${waitMs} ms${explained ? `\n${explained}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 20));
  }
}

/** The warnings and errors among a test server's log lines (pino levels 40 and up). */
export function warningsIn(logLines: readonly string[]): string {
  return logLines
    .filter((line) => ((JSON.parse(line) as { level?: number }).level ?? 0) >= 40)
    .join('\n');
}

type Rest = (path: string, body: unknown) => Promise<Record<string, any>>;

/**
 * A new system `name` with an hourly http check `checkName` against `url`, made through `rest`.
 * The check is due at once: on a server with `scheduledChecks: false` it runs only when asked.
 */
export async function httpCheckedSystem(
  rest: Rest,
  options: { name: string; url: string; checkName?: string },
) {
  const system = await rest('catalog/createSystem', { name: options.name });
  const check = await rest('healthcheck/createHealthCheck', {
    systemId: system.id,
    name: options.checkName ?? 'Ping',
    type: 'healthcheck.http',
    config: { url: options.url },
    intervalSeconds: 3_600,
    timeoutMs: 2_000,
  });
  return { systemId: system.id as string, checkId: check.id as string };
}

/**
 * A server with the webhook channel (allowed to reach loopback) sending to a new receiver
 * (`answer` as in {@link startWebhookReceiver}), and `{name}-watcher@example.com` signed in with
 * {@link webhookWatcherRules}. `close` stops both.
 */
export async function startWebhookWatcherWorld<C extends AnyContractRouter>(options: {
  name: string;
  password: string;
  answer?: Parameters<typeof startWebhookReceiver>[0];
  server?: Omit<TestServerOptions, 'extraPlugins'>;
}) {
  const receiver = await startWebhookReceiver(options.answer);
  const server = await createTestServer({
    ...options.server,
    extraPlugins: [createWebhookChannelPlugin({ egress: createEgress({ allowPrivate: true }) })],
  });
  const { cookie } = await server.adminSession();
  const adminHeaders = { cookie, origin: testEnv.BASE_URL };
  const admin = contractClient<{ auth: AuthContract; notification: NotificationContract }>(
    () => server,
    adminHeaders,
  );
  await enableWebhook(admin, receiver.url, `${options.name}-signing-secret`);
  const watcher = await signedInUser<C>(server, admin, {
    email: `${options.name}-watcher@example.com`,
    password: options.password,
    roleName: `${options.name}-watchers`,
    rules: webhookWatcherRules,
  });
  return {
    server,
    receiver,
    adminHeaders,
    admin: contractClient<C>(() => server, adminHeaders),
    watcher: watcher.client,
    close: async () => {
      await server.close();
      await receiver.close();
    },
  };
}
