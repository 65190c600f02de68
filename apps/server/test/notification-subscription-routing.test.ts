import type { AuthContract } from '@checkline/auth/contract';
import type { CatalogContract } from '@checkline/catalog/contract';
import type { ProcedureMeta } from '@checkline/core/contract';
import type { IncidentContract } from '@checkline/incident/contract';
import { notificationContract } from '@checkline/notification/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import { loopbackEgress } from '@checkline/notification-node/testing';
import type { SmtpTestServer } from '@checkline/notification-smtp/testing';
import { startSmtpTestServer } from '@checkline/notification-smtp/testing';
import type { AnyContractProcedure, ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableSmtp } from './support/alert-channels.ts';
import { contractClient } from './support/contract-client.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 22 item 4 over HTTP: administrators route alerts to a team (each current member hears,
 * through the real SMTP channel) and to a person; the built-in `subscriber` role holds what a
 * subscriber needs; a caller lacking a subscription procedure's rule is told which one.
 */
type Contracts = {
  auth: AuthContract;
  catalog: CatalogContract;
  incident: IncidentContract;
  notification: NotificationContract;
};
type Client = ContractRouterClient<Contracts>;

const PASSWORD = 'a sound enough password';
const missing = '00000000-0000-4000-8000-00000000dead';

let server: TestServer;
let smtp: SmtpTestServer;
let admin: Client;
let subscriberRoleId: string;
let names = 0;
const unique = (prefix: string) => `${prefix}-${++names}`;
const clientWith = (headers: Record<string, string>) =>
  contractClient<Contracts>(() => server, headers);

interface Person {
  id: string;
  email: string;
  client: Client;
}

async function newPerson(roleIds: string[]): Promise<Person> {
  const email = `${unique('person')}@example.com`;
  const user = await admin.auth.createUser({ email, password: PASSWORD, roleIds });
  return { id: user.id, email, client: clientWith(await server.sessionOf(email, PASSWORD)) };
}

/** Waits until every event so far has run its subscribers and no delivery is pending. */
async function quiet(): Promise<void> {
  await server.checkline.runtime.events.settled();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { deliveries } = await admin.notification.getDeliveries({ status: 'pending', limit: 1 });
    if (deliveries.length === 0) return;
    if (Date.now() > deadline) throw new Error('deliveries still pending');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Subjects of the e-mails `person` received that name `title`. */
const mailAbout = (person: Person, title: string) =>
  smtp.received.filter(
    (mail) => mail.recipients.includes(person.email) && (mail.mail.subject ?? '').includes(title),
  );

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  server = await createTestServer({ smtp: { egress: loopbackEgress() } });
  const { cookie } = await server.adminSession();
  admin = clientWith({ cookie, origin: testEnv.BASE_URL });
  await enableSmtp(admin, smtp.port);
  const { roles } = await admin.auth.getRoles({ limit: 100 });
  subscriberRoleId = roles.find((role) => role.name === 'subscriber')!.id;
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('routing alerts over HTTP', () => {
  describe('works', () => {
    it('the subscriber role holds what subscribing and hearing by e-mail need', async () => {
      const { roles } = await admin.auth.getRoles({ limit: 100 });
      const subscriber = roles.find((role) => role.name === 'subscriber')!;
      expect(subscriber.builtIn).toBe(true);
      expect(subscriber.accessRules).toEqual(
        expect.arrayContaining([
          'catalog.catalog.read',
          'healthcheck.healthcheck.read',
          'incident.incident.read',
          'maintenance.maintenance.read',
          'notification.subscriptions.own',
          'notification-smtp.strategy.smtp.use',
        ]),
      );
      expect(subscriber.accessRules).not.toContain('notification.subscriptions.manage');
      const person = await newPerson([subscriberRoleId]);
      const system = await admin.catalog.createSystem({ name: unique('system') });
      const mine = await person.client.notification.createSubscription({ systemId: system.id });
      await expect(
        person.client.notification.updateSubscription({ id: mine.id, events: ['incident'] }),
      ).resolves.toMatchObject({ id: mine.id, userId: person.id, events: ['incident'] });
    });

    it('a team subscription reaches every member by e-mail and stops reaching a removed one', async () => {
      const [stays, leaves] = [
        await newPerson([subscriberRoleId]),
        await newPerson([subscriberRoleId]),
      ];
      const team = await admin.auth.createTeam({ name: unique('team') });
      for (const person of [stays, leaves]) {
        await admin.auth.addTeamMember({ teamId: team.id, userId: person.id });
      }
      const system = await admin.catalog.createSystem({ name: unique('system') });
      const routed = await admin.notification.createSubscriptionFor({
        teamId: team.id,
        systemId: system.id,
        events: ['incident'],
      });
      expect(routed).toMatchObject({ teamId: team.id, userId: null, systemId: system.id });

      const first = unique('Database down');
      await admin.incident.createIncident({
        title: first,
        severity: 'critical',
        systemIds: [system.id],
      });
      await quiet();
      expect(mailAbout(stays, first)).toHaveLength(1);
      expect(mailAbout(leaves, first)).toHaveLength(1);

      await admin.auth.removeTeamMember({ teamId: team.id, userId: leaves.id });
      const second = unique('Queue stuck');
      await admin.incident.createIncident({
        title: second,
        severity: 'major',
        systemIds: [system.id],
      });
      await quiet();
      expect(mailAbout(stays, second)).toHaveLength(1);
      expect(mailAbout(leaves, second)).toEqual([]);
      const { subscriptions } = await admin.notification.getSubscriptions({ teamId: team.id });
      expect(subscriptions.map((item) => item.id)).toEqual([routed.id]);
    });

    it('an administrator subscribes a person, who sees it as their own and may change it', async () => {
      const person = await newPerson([subscriberRoleId]);
      const system = await admin.catalog.createSystem({ name: unique('system') });
      const routed = await admin.notification.createSubscriptionFor({
        userId: person.id,
        systemId: system.id,
      });
      const { subscriptions } = await person.client.notification.getMySubscriptions({});
      expect(subscriptions.map((item) => item.id)).toEqual([routed.id]);
      const title = unique('Slow checkout');
      await admin.incident.createIncident({ title, severity: 'minor', systemIds: [system.id] });
      await quiet();
      expect(mailAbout(person, title)).toHaveLength(1);
      await expect(
        person.client.notification.deleteSubscription({ id: routed.id }),
      ).resolves.toEqual({ id: routed.id, deleted: true });
    });
  });

  describe('refuses the wrong caller', () => {
    /** A valid input for each subscription procedure (the rule is checked before the input). */
    const inputs: Record<string, unknown> = {
      getMySubscriptions: {},
      createSubscription: { systemId: missing },
      updateSubscription: { id: missing, events: ['health'] },
      deleteSubscription: { id: missing },
      getSubscriptions: {},
      createSubscriptionFor: { userId: missing, systemId: missing },
    };
    const subscriptionProcedures = Object.entries(notificationContract).filter(([name]) =>
      name.includes('Subscription'),
    ) as [string, AnyContractProcedure][];
    const ruleOf = (procedure: AnyContractProcedure) =>
      (procedure['~orpc'].meta as ProcedureMeta).access[0];

    it('knows an input for every subscription procedure', () => {
      expect(subscriptionProcedures.map(([name]) => name).sort()).toEqual(
        Object.keys(inputs).sort(),
      );
    });

    it.each(subscriptionProcedures)(
      '%s answers FORBIDDEN naming the rule a caller without it lacks, never NOT_FOUND',
      async (name, procedure) => {
        const rule = ruleOf(procedure);
        expect(rule).toMatch(/^notification\.subscriptions\./);
        const nobody = await newPerson([]);
        const call = (
          nobody.client.notification as Record<string, (input: unknown) => Promise<unknown>>
        )[name]!;
        await expect(call(inputs[name])).rejects.toMatchObject({
          code: 'FORBIDDEN',
          message: `Missing access: ${rule}`,
        });
        if (rule === 'notification.subscriptions.manage') {
          // A subscriber may subscribe themselves, not route alerts to others.
          const subscriber = await newPerson([subscriberRoleId]);
          const routing = (
            subscriber.client.notification as Record<string, (input: unknown) => Promise<unknown>>
          )[name]!;
          await expect(routing(inputs[name])).rejects.toMatchObject({
            code: 'FORBIDDEN',
            message: `Missing access: ${rule}`,
          });
        }
      },
    );

    it('answers NOT_FOUND for a subscriber changing a team’s subscription', async () => {
      const team = await admin.auth.createTeam({ name: unique('team') });
      const routed = await admin.notification.createSubscriptionFor({ teamId: team.id });
      const member = await newPerson([subscriberRoleId]);
      await admin.auth.addTeamMember({ teamId: team.id, userId: member.id });
      await expect(
        member.client.notification.updateSubscription({ id: routed.id, events: ['health'] }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        member.client.notification.deleteSubscription({ id: routed.id }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('rejects bad input', () => {
    it('answers NOT_FOUND for routing to a user or team that does not exist, BAD_REQUEST for both or neither', async () => {
      await expect(
        admin.notification.createSubscriptionFor({ userId: missing }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `User ${missing} not found` });
      await expect(
        admin.notification.createSubscriptionFor({ teamId: missing }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `Team ${missing} not found` });
      await expect(admin.notification.createSubscriptionFor({})).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      const person = await newPerson([subscriberRoleId]);
      const team = await admin.auth.createTeam({ name: unique('team') });
      await expect(
        admin.notification.createSubscriptionFor({ userId: person.id, teamId: team.id }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  });
});
