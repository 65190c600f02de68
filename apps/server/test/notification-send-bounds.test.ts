import { randomUUID } from 'node:crypto';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

type Body = Record<string, any>;

/** Recipients a caller may store per hour on this server. */
const QUOTA = 3;

let server: TestServer;
let adminCookie: string;
let strategyId: string;
let names = 0;

async function asAdmin(pluginId: string, body: unknown): Promise<Body> {
  const response = await server.request(`/api/${pluginId}/`, {
    method: 'POST',
    headers: { cookie: adminCookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answered = (await response.json()) as Body;
  if (response.status !== 200) throw new Error(JSON.stringify(answered));
  return answered;
}

async function newUser(): Promise<string> {
  const { createUser } = await asAdmin('auth', {
    createUser: {
      email: `send-bounds-${++names}@example.com`,
      password: 'a sound enough password',
    },
  });
  return createUser.id as string;
}

/** A new application (so a quota of its own) that may send, transactional included. */
async function newSender(): Promise<string> {
  const { createRole } = await asAdmin('auth', {
    createRole: {
      name: `send-bounds-${++names}`,
      accessRules: ['notification.notification.send', 'notification.transactional.send'],
    },
  });
  const { createApplication } = await asAdmin('auth', {
    createApplication: { name: `send-bounds-${++names}` },
  });
  await asAdmin('auth', {
    updateApplication: { id: createApplication.application.id, roleIds: [createRole.id] },
  });
  return createApplication.secret as string;
}

beforeAll(async () => {
  server = await createTestServer({
    notification: { sendQuota: { points: QUOTA, durationSeconds: 3_600 } },
  });
  adminCookie = (await server.adminSession()).cookie;
  const { getStrategies } = await asAdmin('notification', { getStrategies: {} });
  strategyId = (getStrategies.strategies as Body[])[0]!.strategyId as string;
});
afterAll(() => server.close());

/** What each send procedure stores per recipient: inbox rows, or deliveries. */
async function storedFor(userId: string): Promise<number> {
  const [row] = await queryRows<{ stored: number }>(
    server.database.db,
    sql`select (select count(*) from notification.inbox where user_id = ${userId})::int
      + (select count(*) from notification.deliveries where user_id = ${userId})::int as stored`,
  );
  return row!.stored;
}

interface SendProcedure {
  name: 'notifyUsers' | 'sendExternal' | 'sendTransactional';
  /** The call's input for these recipients (sendTransactional: one call per recipient). */
  inputs(userIds: string[], body?: string): Body[];
}

const message = (body?: string) => ({
  title: 'Disk almost full',
  type: 'test.bounds',
  ...(body !== undefined && { body }),
});

const procedures: SendProcedure[] = [
  {
    name: 'notifyUsers',
    inputs: (userIds, body) => [{ userIds, notification: message(body) }],
  },
  {
    name: 'sendExternal',
    inputs: (userIds, body) => [
      {
        userIds,
        strategyId,
        notification: { ...message(), ...(body !== undefined && { description: body }) },
      },
    ],
  },
  {
    name: 'sendTransactional',
    inputs: (userIds, body) =>
      userIds.map((userId) => ({
        userId,
        strategyId,
        message: { ...message(), ...(body !== undefined && { description: body }) },
      })),
  },
];

async function send(procedure: SendProcedure, key: string, input: Body) {
  const response = await server.keyed('notification', { [procedure.name]: input }, key);
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Body,
  };
}

describe.each(procedures)('$name', (procedure) => {
  it('stores nothing for ids no user has, and names them in unknownUserIds', async () => {
    const key = await newSender();
    const [known, unknown] = [await newUser(), randomUUID()];
    const answers: Body[] = [];
    for (const input of procedure.inputs([known, unknown])) {
      const answered = await send(procedure, key, input);
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      answers.push(answered.body[procedure.name] as Body);
    }
    expect(answers.flatMap((answer) => answer.unknownUserIds)).toEqual([unknown]);
    expect(await storedFor(unknown)).toBe(0);
    expect(await storedFor(known), JSON.stringify(answers)).toBeGreaterThan(0);
  });

  it('refuses a body longer than a channel can show (BAD_REQUEST), storing nothing', async () => {
    const key = await newSender();
    const user = await newUser();
    const [input] = procedure.inputs([user], 'x'.repeat(10_001));
    const refused = await send(procedure, key, input!);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BAD_REQUEST');
    expect(await storedFor(user)).toBe(0);
    const [fits] = procedure.inputs([user], 'x'.repeat(10_000));
    expect((await send(procedure, key, fits!)).status).toBe(200);
  });

  it(`refuses a caller past ${QUOTA} recipients an hour (429 with Retry-After), storing nothing more`, async () => {
    const key = await newSender();
    const users = [await newUser(), await newUser(), await newUser(), await newUser()];
    for (const input of procedure.inputs(users.slice(0, QUOTA))) {
      expect((await send(procedure, key, input)).status).toBe(200);
    }
    const [over] = procedure.inputs([users[QUOTA]!]);
    const refused = await send(procedure, key, over!);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await storedFor(users[QUOTA]!)).toBe(0);
    // Unknown ids store nothing, so they cost nothing.
    const [unknownOnly] = procedure.inputs([randomUUID()]);
    expect((await send(procedure, key, unknownOnly!)).status).toBe(200);
    // Another caller has a budget of its own.
    const [other] = procedure.inputs([users[QUOTA]!]);
    expect((await send(procedure, await newSender(), other!)).status).toBe(200);
  });
});
