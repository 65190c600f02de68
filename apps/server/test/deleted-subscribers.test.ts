import type { AuthContract } from '@checkline/auth/contract';
import type { CatalogContract } from '@checkline/catalog/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import type { ContractRouterClient } from '@orpc/contract';
import { describe, expect, it } from 'vitest';
import { contractClient } from './support/contract-client.ts';
import { adminSessionPerFile } from './support/server-per-file.ts';
import { testEnv } from './support/test-server.ts';

/**
 * A deleted user, application or team takes its subscriptions with it (they would reach nobody),
 * and nobody else's: auth announces the deletion, the notification plugin forgets the subscriber.
 */
type Contracts = {
  auth: AuthContract;
  catalog: CatalogContract;
  notification: NotificationContract;
};
type Client = ContractRouterClient<Contracts>;

const fixture = adminSessionPerFile();
const admin = (): Client =>
  contractClient<Contracts>(() => fixture.server, { ...fixture.session, origin: testEnv.BASE_URL });
let names = 0;
const unique = (prefix: string) => `${prefix}-${++names}`;

/** Each kind of subscriber: how to make one, delete it, and filter subscriptions by it. */
const kinds = [
  {
    kind: 'user',
    async create() {
      const user = await admin().auth.createUser({
        email: `${unique('subscriber')}@example.com`,
        password: 'a sound enough password',
      });
      return user.id;
    },
    remove: (id: string) => admin().auth.deleteUser({ id }),
    owner: (id: string) => ({ userId: id }),
  },
  {
    kind: 'application',
    async create() {
      const { application } = await admin().auth.createApplication({ name: unique('integrator') });
      return application.id;
    },
    remove: (id: string) => admin().auth.deleteApplication({ id }),
    owner: (id: string) => ({ applicationId: id }),
  },
  {
    kind: 'team',
    async create() {
      const team = await admin().auth.createTeam({ name: unique('on-call') });
      return team.id;
    },
    remove: (id: string) => admin().auth.deleteTeam({ id }),
    owner: (id: string) => ({ teamId: id }),
  },
] as const;

describe.each(kinds)('a deleted $kind', ({ create, remove, owner }) => {
  it('loses its subscriptions; another subscriber of the same kind keeps theirs', async () => {
    const system = await admin().catalog.createSystem({ name: unique('Billing API') });
    const [leaving, staying] = [await create(), await create()];
    for (const id of [leaving, staying]) {
      await admin().notification.createSubscriptionFor({ ...owner(id), systemId: system.id });
      await admin().notification.createSubscriptionFor({ ...owner(id), events: ['incident'] });
    }
    const before = await admin().notification.getSubscriptions(owner(leaving));
    expect(before.subscriptions).toHaveLength(2);

    await remove(leaving);
    await fixture.server.checkline.runtime.events.settled();

    const after = await admin().notification.getSubscriptions(owner(leaving));
    expect(after.subscriptions).toEqual([]);
    const kept = await admin().notification.getSubscriptions(owner(staying));
    expect(kept.subscriptions).toHaveLength(2);
  });
});
